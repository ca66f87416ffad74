package sqlite

import (
	"database/sql/driver"
	"encoding/binary"
	"slices"
	"strconv"
	"unsafe"

	json "github.com/jsonpipe/json"
)

// kind is what a JSON value becomes in SQLite. The kinds from kindText on
// are texts in the arena.
type kind uint8

const (
	kindNull  kind = iota // null, or a key missing from the object
	kindInt               // integral number in int64 range, true (1), false (0)
	kindFloat             // any other number
	kindText              // string, unescaped
	kindJSON              // nested object or array, its exact input text
)

// value is one column's value for the row being read. Text lives in an
// arena owned by the inserter, referenced by offset so the arena may grow
// while the row is read.
type value struct {
	kind kind
	key  int32 // the key that set it in the row being read (rows.go), 0 for none
	i    int64 // kindInt: the integer; kindText, kindJSON: offset in the arena
	n    int   // kindText, kindJSON: length in the arena
	f    float64
}

// driverValue converts v, a null or a number, for go-sqlite3, which takes
// values as driver.Value: a float or an integer above 255 is where the hot
// path allocates (8 bytes). Texts go through boxes.text.
func (v *value) driverValue() driver.Value {
	switch v.kind {
	case kindInt:
		return v.i
	case kindFloat:
		return v.f
	}
	return nil
}

// boxes keeps the driver.Values of short texts bound recently, so that a
// text that repeats from row to row (a status, a category, a title) is
// bound without boxing it again. A text becomes resident in its slot the
// second time in a row that it misses there; a text that never repeats
// costs what it would without the cache, one boxing, plus a hash.
type boxes struct {
	slot [1 << boxBits]box
}

type box struct {
	s    string       // the resident text, a copy owned by the cache
	v    driver.Value // s, boxed; nil while the slot is empty
	cand uint64       // hash of the last text that missed here
}

const (
	boxBits      = 9
	maxBoxedText = 64 // longer texts are rarely repeated values
)

// text returns arena[off:off+n] as a driver.Value: the resident one when
// it is the text in its slot, else a string view of the arena, never a
// copy. go-sqlite3 copies bound text (into its own C buffer or with
// SQLITE_TRANSIENT) before the statement runs, and the arena is reused only
// after that. Boxing a view allocates 16 bytes.
func (bx *boxes) text(arena []byte, off int64, n int) driver.Value {
	if n == 0 {
		return ""
	}
	b := arena[off : off+int64(n)]
	if len(b) > maxBoxedText {
		return unsafe.String(&b[0], len(b))
	}
	h := textHash(b)
	sl := &bx.slot[h>>(64-boxBits)]
	if sl.v != nil && sl.s == string(b) {
		return sl.v
	}
	if sl.cand == h {
		s := string(b)
		sl.s, sl.v, sl.cand = s, s, 0
		return sl.v
	}
	sl.cand = h
	return unsafe.String(&b[0], len(b))
}

// textHash is a multiplicative hash of b, eight bytes a step.
func textHash(b []byte) uint64 {
	const m = 0x9E3779B97F4A7C15
	h := uint64(len(b)) * m
	for ; len(b) >= 8; b = b[8:] {
		h = (h ^ binary.LittleEndian.Uint64(b)) * m
	}
	for _, c := range b {
		h = (h ^ uint64(c)) * m
	}
	return h ^ h>>32
}

// bigText moves the string just streamed into ins.Bigs (rowsrc.Chunks)
// onto the text, in room grown to its size at once, as go-sqlite3 binds a
// text whole; it returns the string's offset there and its length.
func (ins *inserter) bigText() (off, n int) {
	from, n := ins.Bigs.Take()
	off = len(ins.text)
	ins.text = slices.Grow(ins.text, n)
	for _, c := range ins.Bigs.Of(from, n) {
		ins.text = append(ins.text, c...)
	}
	ins.Bigs.Reset()
	return off, n
}

// readValue reads the next JSON value from d into v, appending its text,
// if any, to arena. Nested objects and arrays are captured whole with
// RawValue (the decoder's window grows to hold one); strings are
// unescaped once, into the arena.
//
// A value longer than max bytes is an error: the decoder stops
// one that outgrows its window as it passes the cap; a shorter one is
// checked here.
func readValue(d *json.Decoder, v *value, arena []byte, max int) ([]byte, error) {
	switch d.PeekKind() {
	case '{', '[':
		raw, err := d.RawValue()
		if err != nil {
			return arena, err
		}
		if len(raw) > max {
			return arena, tooLong(len(raw), max)
		}
		v.kind, v.i, v.n = kindJSON, int64(len(arena)), len(raw)
		return append(arena, raw...), nil
	}
	tok, err := d.NextToken()
	if err != nil {
		return arena, err
	}
	if json.Streamed(tok) {
		return arena, nil // the caller takes it from ins.Bigs (bigText)
	}
	if len(tok) > max {
		return arena, tooLong(len(tok), max)
	}
	switch tok[0] {
	case '"':
		off := len(arena)
		arena = d.AppendUnquoted(arena, tok)
		v.kind, v.i, v.n = kindText, int64(off), len(arena)-off
	case 't':
		v.kind, v.i = kindInt, 1
	case 'f':
		v.kind, v.i = kindInt, 0
	case 'n':
		v.kind = kindNull
	default:
		return arena, parseNumber(v, tok)
	}
	return arena, nil
}

// parseNumber stores a number token as an int64 when it is an integer
// literal in range, else as a float64.
func parseNumber(v *value, tok []byte) error {
	// Only integer literals go to ParseInt: its error path allocates.
	if isIntegerLiteral(tok) {
		if i, err := json.ParseInt(tok); err == nil {
			v.kind, v.i = kindInt, i
			return nil
		}
	}
	f, err := json.ParseFloat(tok)
	if err != nil {
		num := string(tok)
		if len(num) > 40 {
			num = num[:40] + "..."
		}
		return &TypeError{Msg: "number " + num + " is out of float64 range"}
	}
	v.kind, v.f = kindFloat, f
	return nil
}

// isIntegerLiteral reports whether a number token has no fraction and no
// exponent.
func isIntegerLiteral(tok []byte) bool {
	for _, c := range tok {
		if c == '.' || c == 'e' || c == 'E' {
			return false
		}
	}
	return true
}

// tooLong is the error of a value longer than MaxValueSize.
func tooLong(n, max int) error {
	return &TypeError{Msg: "value of " + strconv.Itoa(n) + " bytes is longer than the limit of " + strconv.Itoa(max) + " (MaxValueSize)"}
}
