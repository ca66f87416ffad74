// Package number parses JSON number tokens straight from their bytes.
package number

import (
	"strconv"
	"unsafe"
)

// view is a string that shares b's bytes; it must not outlive b's contents.
// strconv copies its input into the errors it returns, so handing it a view
// is safe.
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// ParseInt parses a JSON number token as an int64. A fraction, an exponent
// or overflow is an error (*strconv.NumError).
func ParseInt(b []byte) (int64, error) {
	// Fast path: up to 18 digits cannot overflow.
	neg := len(b) > 0 && b[0] == '-'
	d := b
	if neg {
		d = b[1:]
	}
	if len(d) > 0 && len(d) <= 18 {
		var n int64
		for _, c := range d {
			if c-'0' > 9 {
				return strconv.ParseInt(view(b), 10, 64)
			}
			n = n*10 + int64(c-'0')
		}
		if neg {
			n = -n
		}
		return n, nil
	}
	return strconv.ParseInt(view(b), 10, 64)
}

// ParseUint parses a JSON number token as a uint64.
func ParseUint(b []byte) (uint64, error) {
	if len(b) > 0 && len(b) <= 19 {
		var n uint64
		for _, c := range b {
			if c-'0' > 9 {
				return strconv.ParseUint(view(b), 10, 64)
			}
			n = n*10 + uint64(c-'0')
		}
		return n, nil
	}
	return strconv.ParseUint(view(b), 10, 64)
}

// ParseFloat parses a JSON number token as a float64 with strconv's rounding
// and range errors.
func ParseFloat(b []byte, bitSize int) (float64, error) {
	// Fast path: small integers are exact.
	if len(b) > 0 && len(b) <= 15 {
		neg := b[0] == '-'
		d := b
		if neg {
			d = b[1:]
		}
		var n int64
		ok := len(d) > 0
		for _, c := range d {
			if c-'0' > 9 {
				ok = false
				break
			}
			n = n*10 + int64(c-'0')
		}
		if ok {
			if neg {
				if n == 0 {
					return strconv.ParseFloat(view(b), bitSize) // -0
				}
				n = -n
			}
			return float64(n), nil
		}
	}
	return strconv.ParseFloat(view(b), bitSize)
}
