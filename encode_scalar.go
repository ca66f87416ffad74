package json

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"reflect"
	"strconv"
	"unsafe"
)

// Encoders of booleans, numbers and strings. Each reads its value at p with
// the type of its kind; a named type has its kind's layout.

func scalarEncoder(t reflect.Type, quoted bool) *typeEncoder {
	te := &typeEncoder{lazy: true}
	switch t.Kind() {
	case reflect.Bool:
		te.fn = func(es *encodeState, b []byte, p unsafe.Pointer) ([]byte, error) {
			return appendBool(b, *(*bool)(p), quoted), nil
		}
		te.value = func(es *encodeState, b []byte, v reflect.Value) ([]byte, error) {
			return appendBool(b, v.Bool(), quoted), nil
		}
		if !quoted {
			te.direct = encBool
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		load := intLoader(t)
		te.fn = func(es *encodeState, b []byte, p unsafe.Pointer) ([]byte, error) {
			return appendInt(b, load(p), quoted), nil
		}
		te.value = func(es *encodeState, b []byte, v reflect.Value) ([]byte, error) {
			return appendInt(b, v.Int(), quoted), nil
		}
		if !quoted {
			switch t.Size() {
			case 8:
				te.direct = encInt64
			case 4:
				te.direct = encInt32
			}
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		load := uintLoader(t)
		te.fn = func(es *encodeState, b []byte, p unsafe.Pointer) ([]byte, error) {
			return appendUint(b, load(p), quoted), nil
		}
		te.value = func(es *encodeState, b []byte, v reflect.Value) ([]byte, error) {
			return appendUint(b, v.Uint(), quoted), nil
		}
		if !quoted && t.Size() == 8 {
			te.direct = encUint64
		}
	case reflect.Float32:
		te.fn = func(es *encodeState, b []byte, p unsafe.Pointer) ([]byte, error) {
			return appendFloatValue(b, float64(*(*float32)(p)), t, quoted)
		}
		te.value = func(es *encodeState, b []byte, v reflect.Value) ([]byte, error) {
			return appendFloatValue(b, v.Float(), t, quoted)
		}
		if !quoted {
			te.direct = encFloat32
		}
	case reflect.Float64:
		te.fn = func(es *encodeState, b []byte, p unsafe.Pointer) ([]byte, error) {
			return appendFloatValue(b, *(*float64)(p), t, quoted)
		}
		te.value = func(es *encodeState, b []byte, v reflect.Value) ([]byte, error) {
			return appendFloatValue(b, v.Float(), t, quoted)
		}
		if !quoted {
			te.direct = encFloat64
		}
	case reflect.String:
		if t == numberType {
			te.fn = func(es *encodeState, b []byte, p unsafe.Pointer) ([]byte, error) {
				return appendNumber(b, *(*Number)(p), quoted)
			}
			te.value = func(es *encodeState, b []byte, v reflect.Value) ([]byte, error) {
				return appendNumber(b, Number(v.String()), quoted)
			}
			if !quoted {
				te.direct = encNumber
			}
			break
		}
		if quoted {
			te.fn = func(es *encodeState, b []byte, p unsafe.Pointer) ([]byte, error) {
				return es.appendQuotedString(b, *(*string)(p)), nil
			}
			te.value = func(es *encodeState, b []byte, v reflect.Value) ([]byte, error) {
				return es.appendQuotedString(b, v.String()), nil
			}
			break
		}
		te.fn = func(es *encodeState, b []byte, p unsafe.Pointer) ([]byte, error) {
			return appendString(b, *(*string)(p), es.escapeHTML), nil
		}
		te.value = func(es *encodeState, b []byte, v reflect.Value) ([]byte, error) {
			return appendString(b, v.String(), es.escapeHTML), nil
		}
		te.direct = encString
	}
	if !fastPaths {
		te.direct = encCall // every value calls fn
	}
	return te
}

// intLoader and uintLoader read an integer of t's size at p.
func intLoader(t reflect.Type) func(p unsafe.Pointer) int64 {
	switch t.Size() {
	case 1:
		return func(p unsafe.Pointer) int64 { return int64(*(*int8)(p)) }
	case 2:
		return func(p unsafe.Pointer) int64 { return int64(*(*int16)(p)) }
	case 4:
		return func(p unsafe.Pointer) int64 { return int64(*(*int32)(p)) }
	}
	return func(p unsafe.Pointer) int64 { return *(*int64)(p) }
}

func uintLoader(t reflect.Type) func(p unsafe.Pointer) uint64 {
	switch t.Size() {
	case 1:
		return func(p unsafe.Pointer) uint64 { return uint64(*(*uint8)(p)) }
	case 2:
		return func(p unsafe.Pointer) uint64 { return uint64(*(*uint16)(p)) }
	case 4:
		return func(p unsafe.Pointer) uint64 { return uint64(*(*uint32)(p)) }
	}
	return func(p unsafe.Pointer) uint64 { return *(*uint64)(p) }
}

// appendBool appends "true" or "false", quoted when quoted.
func appendBool(b []byte, x, quoted bool) []byte {
	if !quoted {
		return appendFlag(b, x)
	}
	if x {
		return append(b, `"true"`...)
	}
	return append(b, `"false"`...)
}

// appendFlag appends "true" or "false": with 8 bytes spare, without a
// branch on x. A flag in a record is data, true or false at random, and a
// branch mispredicted half the time cost more than the rest of the member
// (rec-bools, 16 random flags a record: Marshal 36-40% faster on AMD EPYC).
func appendFlag(b []byte, x bool) []byte {
	if l := len(b); fastPaths && cap(b)-l >= 8 {
		w, n := uint64(boolFalse), 5
		if x {
			w, n = boolTrue, 4 // conditional moves, not a branch
		}
		binary.LittleEndian.PutUint64(b[l:l+8], w)
		return b[:l+n]
	}
	if x {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

// "false" and "true" as little-endian words, for appendFlag.
const (
	boolFalse = 'f' | 'a'<<8 | 'l'<<16 | 's'<<24 | 'e'<<32
	boolTrue  = 't' | 'r'<<8 | 'u'<<16 | 'e'<<24
)

func appendInt(b []byte, x int64, quoted bool) []byte {
	if quoted {
		b = append(b, '"')
		b = appendInt10(b, x)
		return append(b, '"')
	}
	return appendInt10(b, x)
}

func appendUint(b []byte, x uint64, quoted bool) []byte {
	if quoted {
		b = append(b, '"')
		b = appendUint10(b, x)
		return append(b, '"')
	}
	return appendUint10(b, x)
}

// appendFloatValue appends f, a value of the float type t, or returns
// encoding/json's error for NaN and the infinities.
func appendFloatValue(b []byte, f float64, t reflect.Type, quoted bool) ([]byte, error) {
	bits := 64
	if t.Kind() == reflect.Float32 {
		bits = 32
	}
	if math.IsInf(f, 0) || math.IsNaN(f) {
		v := reflect.New(t).Elem()
		v.SetFloat(f)
		return b, &UnsupportedValueError{Value: v, Str: strconv.FormatFloat(f, 'g', -1, bits)}
	}
	if quoted {
		b = append(b, '"')
		b = appendFloat(b, f, bits)
		return append(b, '"'), nil
	}
	return appendFloat(b, f, bits), nil
}

// finite reports whether f is neither NaN nor an infinity: the inline float
// writers leave the others to the type's encoder, which words the error.
func finite(f float64) bool { return f-f == 0 }

// appendNumber appends n as it is, after checking it is a JSON number; the
// empty Number is 0, as in encoding/json.
func appendNumber(b []byte, n Number, quoted bool) ([]byte, error) {
	s := string(n)
	if s == "" {
		s = "0"
	}
	mark := len(b)
	if quoted {
		b = append(b, '"')
	}
	b, ok := appendNumberLit(b, s)
	if !ok {
		return b[:mark], fmt.Errorf("json: invalid number literal %q", s)
	}
	if quoted {
		b = append(b, '"')
	}
	return b, nil
}

// appendNumberLit appends s if it is a JSON number literal, and reports
// whether it was (b is then as it came). Numbers of 1 to 24 bytes (a
// count, a price, an id, a coordinate) are copied and checked from the
// same one to three words: the bytes that are not digits are found at
// once (nonDigitBits), and digits after an optional minus sign, with at
// most one decimal point inside them, are taken at once; other shapes
// (exponents) are decided from the same bits by numberShape, longer
// numbers by validNumber.
func appendNumberLit(b []byte, s string) ([]byte, bool) {
	n, l := len(s), len(b)
	if !fastPaths || uint(n-1) >= 24 || cap(b)-l < 24 {
		if !(n < 4 && plainInteger(s)) && !isValidNumber(s) {
			return b, false
		}
		return append(b, s...), true
	}
	out, in := b[l:l+24], unsafe.Slice(unsafe.StringData(s), n)
	var m uint // bit i set: s[i] is not a digit
	switch {
	case n > 16:
		lo := binary.LittleEndian.Uint64(in)
		mid := binary.LittleEndian.Uint64(in[8:])
		hi := binary.LittleEndian.Uint64(in[n-8:])
		binary.LittleEndian.PutUint64(out, lo)
		binary.LittleEndian.PutUint64(out[8:], mid)
		binary.LittleEndian.PutUint64(out[n-8:], hi)
		m = nonDigitBits(lo) | nonDigitBits(mid)<<8 | nonDigitBits(hi)<<(n-8)
	case n >= 8:
		lo := binary.LittleEndian.Uint64(in)
		hi := binary.LittleEndian.Uint64(in[n-8:])
		binary.LittleEndian.PutUint64(out, lo)
		binary.LittleEndian.PutUint64(out[n-8:], hi)
		m = nonDigitBits(lo) | nonDigitBits(hi)<<(n-8)
	case n >= 4:
		lo := binary.LittleEndian.Uint32(in)
		hi := binary.LittleEndian.Uint32(in[n-4:])
		binary.LittleEndian.PutUint32(out, lo)
		binary.LittleEndian.PutUint32(out[n-4:], hi)
		m = nonDigitBits(uint64(lo)|uint64(hi)<<(8*(n-4))) & (1<<n - 1)
	default:
		c0, c1, c2 := in[0], in[n/2], in[n-1]
		out[0], out[n/2], out[n-1] = c0, c1, c2
		m = nonDigitBits(uint64(c0)|uint64(c1)<<(8*(n/2))|uint64(c2)<<(8*(n-1))) & (1<<n - 1)
	}
	// A minus sign, then digits with at most one point that has digits on
	// both sides; a leading 0 only as the whole integer part.
	if m == 0 && (in[0] != '0' || n == 1) {
		return b[:l+n], true // an integer
	}
	start := 0
	if in[0] == '-' {
		start = 1
	}
	if d := m &^ uint(start); d&(d-1) == 0 {
		i := n // where the integer part ends
		if d != 0 {
			i = bits.TrailingZeros(d)
		}
		if i > start && (in[start] != '0' || i == start+1) && (d == 0 || in[i] == '.' && i+1 < n) {
			return b[:l+n], true
		}
	}
	if !numberShape(in, m) {
		return b, false
	}
	return b[:l+n], true
}

// appendQuotedString writes a ",string" string field: the string escaped,
// then escaped again as a JSON string (without HTML escaping the second
// time, as encoding/json does).
func (es *encodeState) appendQuotedString(b []byte, s string) []byte {
	es.quoteBuf = appendString(es.quoteBuf[:0], s, es.escapeHTML)
	return appendBytesString(b, es.quoteBuf, false)
}
