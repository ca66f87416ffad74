package json

import (
	"math"
	"strconv"
)

// The module's one float formatter, shared by Marshal, the token writer and
// the database exports.

// appendFloat appends the finite f as encoding/json formats a float of the
// given bit size (32 or 64): the shortest representation that reads back as
// the same value, in plain decimal unless its magnitude is below 1e-6 or at
// least 1e21, where it takes an exponent written as JavaScript writes it
// (1e-7, not 1e-07). NaN and infinities are the caller's to refuse.
func appendFloat(dst []byte, f float64, bits int) []byte {
	abs := math.Abs(f)
	// A whole number below 2**53 (2**24 for a float32) is its own shortest
	// representation: its neighbours are at most 1 away, so no other
	// integer reads back as it, and its digits are those of the integer.
	if abs < 1<<53 && (bits == 64 || abs < 1<<24) {
		if i := int64(f); float64(i) == f && (i != 0 || !math.Signbit(f)) {
			return appendInt10(dst, i)
		}
	}
	if abs == 0 || bits == 64 && abs >= 1e-6 && abs < 1e21 ||
		bits == 32 && float32(abs) >= 1e-6 && float32(abs) < 1e21 {
		// strconv writes the shortest digits in %e form with one bulk
		// copy, and in %f form a byte at a time: take the first and move
		// the decimal point here.
		l := len(dst)
		return eToFixed(strconv.AppendFloat(dst, f, 'e', -1, bits), l)
	}
	dst = strconv.AppendFloat(dst, f, 'e', -1, bits)
	// clean up e-09 to e-9
	n := len(dst)
	if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
		dst[n-2] = dst[n-1]
		dst = dst[:n-1]
	}
	return dst
}

// eToFixed rewrites the number at dst[l:], which strconv wrote in %e form
// with the shortest digits ([-]d[.ddd]e±dd[d]), as %f writes the same
// digits: the decimal point moved, zeros added before or after, no
// exponent. The common case is one short copy in place.
func eToFixed(dst []byte, l int) []byte {
	n := len(dst)
	epos := n - 4 // e±dd, or e±ddd
	if dst[epos] != 'e' {
		epos = n - 5
	}
	exp := int(dst[epos+2]-'0')*10 + int(dst[epos+3]-'0')
	if epos == n-5 {
		exp = exp*10 + int(dst[epos+4]-'0')
	}
	if dst[epos+1] == '-' {
		exp = -exp
	}
	start := l // the first digit
	if dst[l] == '-' {
		start++
	}
	nd := 1 // digits: dst[start], then dst[start+2:epos] after a point
	if epos > start+1 {
		nd = epos - start - 1
	}
	dp := exp + 1 // digits before the decimal point
	switch {
	case dp > 0 && dp < nd: // d.dddd to dd.ddd: the point moves right
		copy(dst[start+1:start+dp], dst[start+2:start+dp+1])
		dst[start+dp] = '.'
		return dst[:epos]
	case dp >= nd: // an integer: the digits, then zeros (|f| < 1e21: dp <= 21)
		if nd > 1 {
			copy(dst[start+1:], dst[start+2:epos])
		}
		return append(dst[:start+nd], zeros[:dp-nd]...)
	}
	// 0.000ddd (|f| >= 1e-6: dp >= -5)
	var digits [24]byte // a float64 has at most 17 significant digits
	d := append(digits[:0], dst[start])
	if nd > 1 {
		d = append(d, dst[start+2:epos]...)
	}
	dst = append(dst[:start], '0', '.')
	dst = append(dst, zeros[:-dp]...)
	return append(dst, d...)
}

const zeros = "000000000000000000000000"
