package postgres

import (
	"bytes"
	"slices"
	"strconv"

	json "github.com/jsonpipe/json"
)

// kind is what a JSON value is, as far as PostgreSQL's types care.
type kind uint8

const (
	kNull   kind = iota // null, or a key missing from the object
	kFalse              // false
	kTrue               // true
	kInt                // integer literal in int64 range: i, and its text
	kBigInt             // integer literal beyond int64: its text
	kFloat              // any other number: its text
	kString             // string, unescaped, in the arena
	kJSON               // nested object or array: its exact input text
)

// value is one column's value in a row. Text (a string's, a number's, a
// nested value's) lives in an arena owned by the loader, referenced by
// offset so the arena may grow while rows are read.
type value struct {
	kind kind
	big  bool  // a long string streamed into chunks: l.Bigs.Of(off, n)
	i    int64 // kInt
	off  int   // text in the arena
	n    int
}

func (v *value) text(arena []byte) []byte { return arena[v.off : v.off+v.n] }

// flat makes a streamed string v an ordinary one, copied into the arena,
// for the uses that need its text in one piece.
func (l *rowReader) flat(v *value) {
	if !v.big {
		return
	}
	off := len(l.arena)
	l.arena = slices.Grow(l.arena, v.n)
	for _, c := range l.bigs.Of(v.off, v.n) {
		l.arena = append(l.arena, c...)
	}
	v.big, v.off = false, off
}

// readValue reads the next JSON value from d into v, appending its text
// to the arena. Nested objects and arrays are captured whole; strings are
// unescaped once, into the arena, or, past rowsrc.StreamMin, into chunks
// as they are read.
func (l *rowReader) readValue(d *json.Decoder, v *value) error {
	max := l.maxValue
	switch d.PeekKind() {
	case '{', '[':
		raw, err := d.RawValue()
		if err != nil {
			return err
		}
		if len(raw) > max {
			return tooLong(len(raw), max)
		}
		*v = value{kind: kJSON, off: len(l.arena), n: len(raw)}
		l.arena = append(l.arena, raw...)
		return nil
	}
	tok, err := d.NextToken()
	if err != nil {
		return err
	}
	if json.Streamed(tok) {
		from, n := l.bigs.Take()
		*v = value{kind: kString, big: true, off: from, n: n}
		return nil
	}
	if len(tok) > max {
		return tooLong(len(tok), max)
	}
	switch tok[0] {
	case '"':
		off := len(l.arena)
		if len(tok) > bigField {
			// One allocation of the right size, not append's growth.
			l.arena = slices.Grow(l.arena, len(tok))
		}
		l.arena = d.AppendUnquoted(l.arena, tok)
		*v = value{kind: kString, off: off, n: len(l.arena) - off}
	case 't':
		*v = value{kind: kTrue}
	case 'f':
		*v = value{kind: kFalse}
	case 'n':
		*v = value{kind: kNull}
	default:
		*v = value{kind: kFloat, off: len(l.arena), n: len(tok)}
		if bytes.IndexAny(tok, ".eE") < 0 {
			// Only integer literals go to ParseInt: its error path allocates.
			if i, err := json.ParseInt(tok); err == nil {
				v.kind, v.i = kInt, i
			} else {
				v.kind = kBigInt
			}
		}
		l.arena = append(l.arena, tok...)
	}
	return nil
}

// typeSet records which kinds of value a column has held, for inference.
type typeSet uint8

const (
	sawInt typeSet = 1 << iota
	sawBigInt
	sawFloat
	sawBool
	sawString
	sawJSON
)

func (s typeSet) add(k kind) typeSet {
	switch k {
	case kFalse, kTrue:
		return s | sawBool
	case kInt:
		return s | sawInt
	case kBigInt:
		return s | sawBigInt
	case kFloat:
		return s | sawFloat
	case kString:
		return s | sawString
	case kJSON:
		return s | sawJSON
	}
	return s
}

// Declared types Insert infers.
const (
	TypeBigint  = "bigint"           // integers in int64 range
	TypeDouble  = "double precision" // other numbers, integers mixed with them
	TypeNumeric = "numeric"          // integers beyond int64 (alone, or with other numbers)
	TypeBoolean = "boolean"          // true and false
	TypeText    = "text"             // strings, scalars of mixed kinds, all-null
	TypeJSONB   = "jsonb"            // nested objects and arrays, and anything mixed with them
)

// declType: one kind gives its type; numbers of several kinds give double
// precision, or numeric when an integer is too big for bigint (a double
// would lose its digits); anything mixed with nested values gives jsonb,
// which holds every JSON value as it is; other mixtures, and nothing but
// nulls, give text.
func (s typeSet) declType() string {
	const numbers = sawInt | sawBigInt | sawFloat
	switch {
	case s == sawInt:
		return TypeBigint
	case s&sawBigInt != 0 && s&^numbers == 0:
		return TypeNumeric
	case s != 0 && s&^numbers == 0:
		return TypeDouble
	case s == sawBool:
		return TypeBoolean
	case s&sawJSON != 0:
		return TypeJSONB
	}
	return TypeText
}

// tooLong is the error of a value longer than MaxValueSize. (A value
// longer than the decoder's window is stopped by the decoder itself as it
// passes the cap, before it is buffered whole.)
func tooLong(n, max int) error {
	return &TypeError{Msg: "value of " + strconv.Itoa(n) + " bytes is longer than the limit of " + strconv.Itoa(max) + " (MaxValueSize)"}
}
