package json

import (
	"encoding/binary"
	"math"
	"slices"
	"strconv"

	"github.com/jsonpipe/json/internal/shortest"
)

// The module's one float formatter, shared by Marshal, the token writer and
// the database exports.

// appendFloat appends the finite f as encoding/json formats a float of the
// given bit size (32 or 64): the shortest representation that reads back as
// the same value, in plain decimal unless its magnitude is below 1e-6 or at
// least 1e21, where it takes an exponent written as JavaScript writes it
// (1e-7, not 1e-07). NaN and infinities are the caller's to refuse.
//
// The digits are strconv's ('e', -1), found by internal/shortest, and
// written here eight at a time (putUint) with the decimal point, zeros or
// exponent placed around them, without strconv's formatting pass.
func appendFloat(dst []byte, f float64, bits int) []byte {
	abs := math.Abs(f)
	// A whole number below 2**53 (2**24 for a float32) is its own shortest
	// representation: its neighbours are at most 1 away, so no other
	// integer reads back as it, and its digits are those of the integer.
	if fastPaths && abs < 1<<53 {
		if i := int64(f); (bits == 64 || abs < 1<<24) && float64(i) == f && (i != 0 || !math.Signbit(f)) {
			return appendInt10(dst, i)
		}
	} else if fastPaths && bits == 64 && abs < 1e21 {
		// A whole number from 2**53 up (every float64 there is one), of
		// at most 21 digits: an id or a count kept as a float64. Its
		// shortest digits (at most 17) where they go, then its zeros in
		// three words past them (putUint's scratch), without the general
		// path's two moves (a memmove each).
		d, e := shortest.Float64(math.Float64bits(f))
		if f < 0 {
			dst = append(dst, '-')
		}
		dst = slices.Grow(dst, 48)
		l := len(dst)
		buf := dst[l : l+48]
		n := putUint(buf, d)
		binary.LittleEndian.PutUint64(buf[n:], asciiZeros)
		binary.LittleEndian.PutUint64(buf[n+8:], asciiZeros)
		binary.LittleEndian.PutUint64(buf[n+16:], asciiZeros)
		return dst[:l+n+e]
	}
	var d uint64
	var e int
	if bits == 32 {
		b := math.Float32bits(float32(f))
		if b&0x7FFFFFFF == float32Tie {
			return appendFloatStrconv(dst, f, 32)
		}
		if abs != 0 {
			d, e = shortest.Float32(b)
		}
	} else if abs != 0 {
		d, e = shortest.Float64(math.Float64bits(f))
	}
	if math.Signbit(f) {
		dst = append(dst, '-')
	}
	if d == 0 {
		return append(dst, '0')
	}
	dst = slices.Grow(dst, 32)
	l := len(dst)
	buf := dst[l : l+32]
	n := putUint(buf[1:], d) // room before for a move left
	// The decimal is 0.digits × 10^dp. encoding/json takes the exponent
	// form when |f| < 1e-6 or |f| >= 1e21: for the shortest decimal, when
	// dp <= -6 or dp >= 22. (Rounding to the float is monotonic, and 1e-6
	// and 1e21 are the shortest decimals of the floats nearest them, so
	// the decimal is on the same side of each bound as the float.)
	dp := n + e
	if dp < -5 || dp > 21 {
		// d[.ddd]e±x: the first digit moved back before the point.
		x := dp - 1
		buf[0] = buf[1]
		if n > 1 {
			buf[1] = '.'
		} else {
			n = 0 // no point: the 'e' goes right after the one digit
		}
		dst = dst[:l+n+1]
		dst = append(dst, 'e', '+')
		if x < 0 {
			dst[len(dst)-1] = '-'
			x = -x
		}
		return appendUint10(dst, uint64(x))
	}
	switch {
	case dp >= n: // a whole number from 2**53 up: the digits, then zeros
		copy(buf, buf[1:1+n])
		dst = dst[:l+n]
		return append(dst, zeros[:dp-n]...)
	case dp > 0: // dd.ddd: the integer part moved left, the point after it
		if fastPaths && dp <= 8 {
			// In one word: its low dp bytes from one byte on, the rest as
			// it was.
			keep := ^uint64(0) >> ((64 - 8*dp) & 63)
			w := binary.LittleEndian.Uint64(buf[1:9])&keep | binary.LittleEndian.Uint64(buf[0:8])&^keep
			binary.LittleEndian.PutUint64(buf[0:8], w)
		} else {
			copy(buf, buf[1:1+dp])
		}
		buf[dp] = '.'
		return dst[:l+n+1]
	}
	// 0.000ddd (|f| >= 1e-6: dp >= -5): "0." and zeros before the digits,
	// which move right.
	z := -dp
	copy(buf[2+z:], buf[1:1+n])
	copy(buf[2:2+z], zeros)
	buf[0], buf[1] = '0', '.'
	return dst[:l+2+z+n]
}

// float32Tie is the one float32 (2**-12, and its negative) whose shortest
// digits Go 1.26's strconv gets wrong: 2.44140625e-4 lies halfway between
// 2.4414062e-4 and 2.4414063e-4, and ties go to the even digit, as
// internal/shortest and Go 1.27's strconv say, while Go 1.26's special case
// for powers of two tests the float64 exponent there. encoding/json writes
// what the running Go's strconv writes, so that float goes through strconv.
const float32Tie = 0x39800000

// appendFloatStrconv is appendFloat by way of strconv.
func appendFloatStrconv(dst []byte, f float64, bits int) []byte {
	abs := math.Abs(f)
	fmt := byte('f')
	if abs != 0 && (bits == 64 && (abs < 1e-6 || abs >= 1e21) ||
		bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21)) {
		fmt = 'e'
	}
	dst = strconv.AppendFloat(dst, f, fmt, -1, bits)
	if fmt == 'e' {
		// clean up e-09 to e-9
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}

const zeros = "000000000000000000000000"
