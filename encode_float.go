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
	format := byte('f')
	if abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) ||
			bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	dst = strconv.AppendFloat(dst, f, format, -1, bits)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(dst)
		if n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}
