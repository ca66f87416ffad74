package sqlite

import (
	"database/sql/driver"
	"unsafe"

	json "github.com/jsonpipe/json"
)

// kind is what a JSON value becomes in SQLite.
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
	i    int64 // kindInt: the integer; kindText, kindJSON: offset in the arena
	n    int   // kindText, kindJSON: length in the arena
	f    float64
}

// driverValue converts v for go-sqlite3. Text is a string view of the
// arena, never a copy: go-sqlite3 copies bound text (into its own C buffer
// or with SQLITE_TRANSIENT) before the statement runs, and the arena is
// reused only after that. The interface conversion is where the hot path
// allocates (16 bytes per text, 8 per float or integer above 255): go-sqlite3
// takes values as driver.Value.
func (v *value) driverValue(arena []byte) driver.Value {
	switch v.kind {
	case kindInt:
		return v.i
	case kindFloat:
		return v.f
	case kindText, kindJSON:
		if v.n == 0 {
			return ""
		}
		return unsafe.String(&arena[v.i], v.n)
	}
	return nil
}

// readValue reads the next JSON value from d into v, appending its text,
// if any, to arena. Nested objects and arrays are captured whole with
// RawValue (the decoder's window grows to hold one); strings are
// unescaped once, into the arena.
func readValue(d *json.Decoder, v *value, arena []byte) ([]byte, error) {
	switch d.PeekKind() {
	case '{', '[':
		raw, err := d.RawValue()
		if err != nil {
			return arena, err
		}
		v.kind, v.i, v.n = kindJSON, int64(len(arena)), len(raw)
		return append(arena, raw...), nil
	}
	tok, err := d.NextToken()
	if err != nil {
		return arena, err
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
