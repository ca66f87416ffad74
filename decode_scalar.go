package json

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/jsonpipe/json/internal/number"
)

// Decoders for booleans, numbers and strings. Each writes its Go value at p
// with a typed store; named types share the layout of their kind.

func boolDecoder(t reflect.Type) decodeFn {
	return func(ds *decodeState, tok []byte, p unsafe.Pointer) error {
		switch tok[0] {
		case 't':
			*(*bool)(p) = true
		case 'f':
			*(*bool)(p) = false
		default:
			return ds.mismatch(tok, t)
		}
		return nil
	}
}

// integerDecoder decodes a number into a signed or unsigned integer kind of
// t's size; one out of range, or with a fraction or exponent, is a type error.
func integerDecoder(t reflect.Type) decodeFn {
	bits := t.Bits()
	signed := t.Kind() >= reflect.Int && t.Kind() <= reflect.Int64
	return func(ds *decodeState, tok []byte, p unsafe.Pointer) error {
		if c := tok[0]; c != '-' && c-'0' > 9 {
			return ds.mismatch(tok, t)
		}
		x, ok := parseInteger(tok, signed, bits)
		if !ok {
			ds.typeError("number "+string(tok), t, ds.offset())
			return nil
		}
		// Two's complement: the low bits are the value either way.
		switch bits {
		case 8:
			*(*uint8)(p) = uint8(x)
		case 16:
			*(*uint16)(p) = uint16(x)
		case 32:
			*(*uint32)(p) = uint32(x)
		default:
			*(*uint64)(p) = x
		}
		return nil
	}
}

// parseInteger parses an integer token that must fit in bits bits, signed
// or not, and returns its bits.
func parseInteger(tok []byte, signed bool, bits int) (uint64, bool) {
	if signed {
		n, err := number.ParseInt(tok)
		return uint64(n), err == nil && (bits == 64 || -1<<(bits-1) <= n && n < 1<<(bits-1))
	}
	n, err := number.ParseUint(tok)
	return n, err == nil && (bits == 64 || n < 1<<bits)
}

// scanInt64 is the scanner and the parser in one pass, for a number that a
// decoder wants as an int64: when data[i:] starts with a JSON integer
// -?(0|[1-9][0-9]*) of at most 18 digits (so it cannot overflow), followed in
// data by a byte that may end a value, it returns the value and the index
// of the byte after the number. Otherwise it returns 0 for the index, and
// the scanner and the integer decoder decide.
func scanInt64(data []byte, i int) (int64, int) {
	neg, n, start, i := integerPart(data, i)
	if i == start {
		return 0, 0
	}
	if i >= len(data) || !endsValue[data[i]] || i-start > 18 {
		return 0, 0
	}
	if neg {
		return -int64(n), i
	}
	return int64(n), i
}

// direct marks the decoders that scalarNext may stand in for: the plain
// decoder of a float64, a 64-bit signed integer, a string or a bool.
type direct uint8

const (
	directNone direct = iota
	directFloat64
	directInt64
	directString
	directBool
)

// scalarNext decodes the next value of the container being decoded into p,
// of kind k, when it is whole in the window and, for a number, one that
// scanFloat64 or scanInt64 takes: after a ',' when comma (an array element
// but the first), and whitespace. It consumes them and sets the state to
// next, the state after a value in the container. Otherwise it writes
// nothing and returns false, having consumed at most what valueAt does,
// and the token path decides, with its errors and offsets. Array
// decoders call it for each element, struct decoders after expectKey has
// consumed a ':'.
func (ds *decodeState) scalarNext(k direct, comma bool, next *state, p unsafe.Pointer) bool {
	d := ds.d
	i := d.valueAt(comma)
	if i < 0 {
		return false
	}
	data := d.s.br.data
	var end int
	switch k {
	case directFloat64:
		var x float64
		if x, end = scanFloat64(data, i); end == 0 {
			return false
		}
		*(*float64)(p) = x
	case directInt64:
		var n int64
		if n, end = scanInt64(data, i); end == 0 {
			return false
		}
		*(*int64)(p) = n
	case directBool:
		// true, false, or null, which leaves a bool as it was.
		var v any
		if v, end = literalAt(data, i); end == 0 {
			return false
		}
		if b, ok := v.(bool); ok {
			*(*bool)(p) = b
		}
	default:
		tok, ok := ds.stringAt(i, next)
		if ok {
			*(*string)(p) = ds.stringValue(tok)
		}
		return ok
	}
	d.s.br.offset = end
	d.state = next
	return true
}

// valueAt consumes a ',' when comma (an array element but the first; the
// state then says a value comes next) and whitespace, and returns the index
// in the window of the next byte, or -1 when the window or the input ends
// first (or after an error).
func (d *Decoder) valueAt(comma bool) int {
	data, i := d.s.br.data, d.s.br.offset
	if d.s.err != nil || d.err != nil {
		return -1
	}
	if comma {
		if i >= len(data) || data[i] != ',' {
			return -1
		}
		i++
		d.state = &atArrayValue
	}
	for i < len(data) && whitespace[data[i]] {
		i++
	}
	d.s.br.offset = i
	if i >= len(data) {
		return -1
	}
	return i
}

// stringAt reads the string token at index i of the window, where valueAt
// left it, when it is whole in the window, consumes it and sets the state
// to next. Otherwise it returns false, and Next finishes the string or
// reports the error the scanner recorded at the same place.
func (ds *decodeState) stringAt(i int, next *state) ([]byte, bool) {
	d := ds.d
	data := d.s.br.data
	if data[i] != '"' {
		return nil, false
	}
	d.s.str = 0
	w := data[i:]
	n := d.s.scanString(w, 1)
	if n <= 0 {
		return nil, false
	}
	d.s.br.offset = i + n
	d.s.strTok = w[:n]
	d.state = next
	return w[:n], true
}

func floatDecoder(t reflect.Type) decodeFn {
	if t.Bits() == 32 {
		return func(ds *decodeState, tok []byte, p unsafe.Pointer) error {
			if c := tok[0]; c != '-' && c-'0' > 9 {
				return ds.mismatch(tok, t)
			}
			f, err := number.ParseFloat(tok, 32)
			if err != nil {
				ds.typeError("number "+string(tok), t, ds.offset())
				return nil
			}
			*(*float32)(p) = float32(f)
			return nil
		}
	}
	return func(ds *decodeState, tok []byte, p unsafe.Pointer) error {
		if c := tok[0]; c != '-' && c-'0' > 9 {
			return ds.mismatch(tok, t)
		}
		f, err := parseFloat64(tok)
		if err != nil {
			ds.typeError("number "+string(tok), t, ds.offset())
			return nil
		}
		*(*float64)(p) = f
		return nil
	}
}

func stringDecoder(t reflect.Type) decodeFn {
	return func(ds *decodeState, tok []byte, p unsafe.Pointer) error {
		if tok[0] != '"' {
			return ds.mismatch(tok, t)
		}
		*(*string)(p) = ds.stringValue(tok)
		return nil
	}
}

// decodeNumber fills a Number: a number token as written, or a string that
// holds a valid number (anything else in a string is a fatal error, as in
// encoding/json).
func decodeNumber(ds *decodeState, tok []byte, p unsafe.Pointer) error {
	switch c := tok[0]; {
	case c == '"':
		s := ds.unquote(tok)
		if !isValidNumber(s) {
			return fmt.Errorf("json: invalid number literal, trying to unmarshal %q into Number", tok)
		}
		*(*Number)(p) = Number(s)
	case c == '-' || c-'0' <= 9:
		*(*Number)(p) = Number(tok)
	default:
		return ds.mismatch(tok, numberType)
	}
	return nil
}

// isValidNumber reports whether s is a JSON number literal.
func isValidNumber(s []byte) bool {
	if len(s) == 0 {
		return false
	}
	if s[0] == '-' {
		s = s[1:]
		if len(s) == 0 {
			return false
		}
	}
	switch {
	case s[0] == '0':
		s = s[1:]
	case '1' <= s[0] && s[0] <= '9':
		s = s[1:]
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s = s[1:]
		}
	default:
		return false
	}
	if len(s) >= 2 && s[0] == '.' && '0' <= s[1] && s[1] <= '9' {
		s = s[2:]
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s = s[1:]
		}
	}
	if len(s) >= 2 && (s[0] == 'e' || s[0] == 'E') {
		s = s[1:]
		if s[0] == '+' || s[0] == '-' {
			s = s[1:]
			if len(s) == 0 {
				return false
			}
		}
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s = s[1:]
		}
	}
	return len(s) == 0
}
