package json

import (
	"encoding/binary"
	"fmt"
	"math/bits"
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
		storeBits(p, bits, x)
		return nil
	}
}

// narrowAt returns passInfo.at for t, a number kind scalarAt does not
// read: an integer of 8 to 32 bits, an unsigned one, or a float32. Without
// it a struct with an int32, a uint64 or a float32 field was not passable,
// and Unmarshal read the whole of its input by the token path. The value
// is parsed as the token path's decoder (integerDecoder, floatDecoder)
// parses it; anything that decoder would not store (not a number, out of
// range, a fraction into an integer, a negative into an unsigned one)
// gives up, and the token path words the error.
func narrowAt(t reflect.Type) func(ds *decodeState, data []byte, i int, p unsafe.Pointer, depth int) int {
	bits := t.Bits()
	switch t.Kind() {
	case reflect.Float32:
		return func(ds *decodeState, data []byte, i int, p unsafe.Pointer, depth int) int {
			if f, end := scanFloat32(data, i); end != 0 {
				*(*float32)(p) = f
				return end
			}
			end := numberAt(data, i) // followed by a byte that may end a value
			if end < 0 {
				return giveUp
			}
			f, err := number.ParseFloat(data[i:end], 32)
			if err != nil {
				return giveUp
			}
			*(*float32)(p) = float32(f)
			return end
		}
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int, reflect.Int64:
		return func(ds *decodeState, data []byte, i int, p unsafe.Pointer, depth int) int {
			n, end := scanInt64(data, i)
			if end == 0 || n < -1<<(bits-1) || bits < 64 && n >= 1<<(bits-1) {
				return giveUp
			}
			storeBits(p, bits, uint64(n))
			return end
		}
	}
	return func(ds *decodeState, data []byte, i int, p unsafe.Pointer, depth int) int {
		if data[i] == '-' { // -0 too: ParseUint rejects it
			return giveUp
		}
		n, end := scanInt64(data, i) // a uint64 past 1<<63 - 1: the token path
		if end == 0 || bits < 64 && n >= 1<<bits {
			return giveUp
		}
		storeBits(p, bits, uint64(n))
		return end
	}
}

// narrowQuoted returns fieldDecoder.quotedNarrow for t, a narrowKind type:
// it stores body, the content of a ",string" value, at fp where
// encoding/json's literalStore would store it (strconv's ParseInt,
// ParseUint or ParseFloat at t's size, in t's range; for a float32, only
// a number of JSON's grammar, which leaves out strconv's wider syntax),
// and reports whether it did. Where it does not, the token path decides
// and words the error: a '-' or a leading byte other than a digit among
// them.
func narrowQuoted(t reflect.Type) func(body []byte, fp unsafe.Pointer) bool {
	bits := t.Bits()
	switch t.Kind() {
	case reflect.Float32:
		return func(body []byte, fp unsafe.Pointer) bool {
			if !isValidNumber(body) {
				return false
			}
			x, err := number.ParseFloat(body, 32)
			if err != nil {
				return false
			}
			*(*float32)(fp) = float32(x)
			return true
		}
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int, reflect.Int64:
		return func(body []byte, fp unsafe.Pointer) bool {
			if c := body[0]; c != '-' && !isDigit(c) {
				return false // encoding/json's error, not strconv's
			}
			n, err := number.ParseInt(body)
			if err != nil || n < -1<<(bits-1) || bits < 64 && n >= 1<<(bits-1) {
				return false
			}
			storeBits(fp, bits, uint64(n))
			return true
		}
	}
	return func(body []byte, fp unsafe.Pointer) bool {
		if !isDigit(body[0]) {
			return false
		}
		n, err := number.ParseUint(body)
		if err != nil || bits < 64 && n >= 1<<bits {
			return false
		}
		storeBits(fp, bits, n)
		return true
	}
}

// storeBits stores the low bits bits of x at p (two's complement: the
// same bits for a signed integer and an unsigned one).
func storeBits(p unsafe.Pointer, bits int, x uint64) {
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
// -?(0|[1-9][0-9]*) of at most 19 digits in int64's range, followed in data
// by a byte that may end a value, it returns the value and the index of the
// byte after the number. Otherwise it returns 0 for the index, and the
// scanner and the integer decoder decide. (19 digits fit a uint64 without
// wrapping; ids of 19 digits, snowflakes and the like, are common.)
func scanInt64(data []byte, i int) (int64, int) {
	neg, n, start, i := integerPart(data, i)
	if i == start || i >= len(data) || !endsValue[data[i]] {
		return 0, 0
	}
	if d := i - start; d > 18 && (d > 19 || n > 1<<63-1 && !(neg && n == 1<<63)) {
		return 0, 0
	}
	if neg {
		return -int64(n), i // n = 1<<63 gives math.MinInt64
	}
	return int64(n), i
}

// direct marks the decoders that scalarNext may stand in for: the plain
// decoder of a float64, a 64-bit signed integer, a string, a bool or a
// Number, and of a pointer to a float64, an int64, an int, a string or a
// bool (exactly those types, so that the pointee scalarNext allocates has
// the pointer's type).
type direct uint8

const (
	directNone direct = iota
	directFloat64
	directInt64
	directString
	directBool
	// directAny is the decoder of an empty interface: a scalar becomes a
	// fresh float64, string, bool or nil, unless the interface holds a
	// pointer (then the value goes where it points: the token path).
	directAny
	// directNumber is the decoder of Number: a number, kept as written.
	directNumber
	directPtrInt64 // the pointers last: scalarNext tests k >= directPtrInt64
	directPtrInt
	directPtrFloat64
	directPtrString
	directPtrBool
)

// directPointerOf returns the direct kind for a pointer type t or an
// empty interface type, or directNone.
func directPointerOf(t reflect.Type) direct {
	if t.Kind() == reflect.Interface && t.NumMethod() == 0 {
		return directAny
	}
	if t.Kind() != reflect.Pointer || t.NumMethod() != 0 {
		return directNone
	}
	switch t.Elem() {
	case reflect.TypeFor[int64]():
		return directPtrInt64
	case reflect.TypeFor[int]():
		if t.Elem().Size() == 8 {
			return directPtrInt
		}
	case reflect.TypeFor[float64]():
		return directPtrFloat64
	case reflect.TypeFor[string]():
		return directPtrString
	case reflect.TypeFor[bool]():
		return directPtrBool
	}
	return directNone
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
		*(*string)(p) = ds.valueString(tok)
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
		*(*Number)(p) = Number(ds.newString(s))
	case c == '-' || c-'0' <= 9:
		*(*Number)(p) = Number(ds.newString(tok))
	default:
		return ds.mismatch(tok, numberType)
	}
	return nil
}

// isValidNumber reports whether s is a JSON number literal.
func isValidNumber[S ~string | ~[]byte](s S) bool {
	// A slice's header starts as a string's does: its data, then its length.
	str := *(*string)(unsafe.Pointer(&s))
	return validNumber(unsafe.Slice(unsafe.StringData(str), len(str)))
}

// validNumber reports whether s is a JSON number literal. Marshal checks
// every Number it writes, and most are short: a count, a price, an id.
// Up to 24 bytes, the bytes that are not digits are found all at once
// (nonDigitBits), and the number is decided by where they are, with no
// branch on each run's length. Longer numbers go through the grammar
// (skipDigits, then Valid's fractionEnd).
func validNumber(s []byte) bool {
	n := len(s)
	if uint(n-1) < 24 {
		var m uint // bit i set: s[i] is not a digit
		switch {
		case n > 16:
			m = nonDigitBits(binary.LittleEndian.Uint64(s)) |
				nonDigitBits(binary.LittleEndian.Uint64(s[8:]))<<8 |
				nonDigitBits(binary.LittleEndian.Uint64(s[n-8:]))<<(n-8)
		case n >= 8:
			lo := binary.LittleEndian.Uint64(s)
			hi := binary.LittleEndian.Uint64(s[n-8:])
			m = nonDigitBits(lo) | nonDigitBits(hi)<<(n-8)
		case n >= 4:
			lo := uint64(binary.LittleEndian.Uint32(s))
			hi := uint64(binary.LittleEndian.Uint32(s[n-4:]))
			m = nonDigitBits(lo|hi<<(8*(n-4))) & (1<<n - 1)
		default:
			w := uint64(s[0]) | uint64(s[n/2])<<(8*(n/2)) | uint64(s[n-1])<<(8*(n-1))
			m = nonDigitBits(w) & (1<<n - 1)
		}
		return numberShape(s, m)
	}
	i := 0
	if i < n && s[i] == '-' {
		i++
	}
	switch {
	case i == n:
		return false
	case s[i] == '0':
		i++
	case s[i]-'1' <= 8:
		i = skipDigits(s, i+1)
	default:
		return false
	}
	return fractionEnd(s, i) == n // -1 when invalid
}

// numberShape reports whether s, of 1 to 24 bytes, is a JSON number,
// given m, whose bit i is set when s[i] is not a digit.
func numberShape(s []byte, m uint) bool {
	n := len(s)
	start := 0
	if s[0] == '-' {
		start, m = 1, m&^1
	}
	// The integer part runs to the first non-digit, a fraction to the
	// next, and then only an exponent's e and sign may be left.
	i := n
	if m != 0 {
		i = bits.TrailingZeros(m)
	}
	if i == start || s[start] == '0' && i > start+1 {
		return false // no digit, or a leading zero
	}
	if i < n && s[i] == '.' {
		m &= m - 1
		j := n
		if m != 0 {
			j = bits.TrailingZeros(m)
		}
		if j == i+1 {
			return false // no digit after the point
		}
		i = j
	}
	if i < n {
		if s[i]|0x20 != 'e' {
			return false
		}
		m &= m - 1
		i++
		if m != 0 && bits.TrailingZeros(m) == i && (s[i] == '+' || s[i] == '-') {
			m &= m - 1
			i++
		}
		return m == 0 && i < n // digits, and nothing else, to the end
	}
	return true
}

// nonDigitBits returns a bit for each of the 8 bytes of v (loaded
// little-endian), bit i set when byte i is not an ASCII digit: exact for
// every byte, unlike nonDigits, which vouches for the first one only.
func nonDigitBits(v uint64) uint {
	t := v ^ (lsb * '0')                              // a digit is now 0x00-0x09
	nd := ((t & (lsb * 0x7F)) + lsb*0x76 | t) & msb   // top bit: t >= 0x0A, no carry between bytes
	return uint((nd >> 7) * 0x0102040810204080 >> 56) // byte i's flag to bit i
}
