package json

import "math/bits"

// The module's integer formatter: strconv.AppendInt's digits, written
// straight into dst two at a time, without strconv's scratch buffer and the
// copy out of it.

const digitPairs = "00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"

// pow10s[i] is 10**i.
var pow10s = [20]uint64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
	1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19}

// decimalLen is the number of decimal digits of u: an estimate from its
// bit length (log10(2) is about 1233/4096), corrected by one comparison.
func decimalLen(u uint64) int {
	n := bits.Len64(u) * 1233 >> 12
	if u >= pow10s[n] {
		n++
	}
	return max(n, 1)
}

// appendUint10 appends u in decimal.
func appendUint10(dst []byte, u uint64) []byte {
	if u < 10 {
		return append(dst, byte('0'+u))
	}
	n := decimalLen(u)
	l := len(dst)
	if cap(dst)-l < n {
		dst = append(dst, make([]byte, n)...)
	} else {
		dst = dst[:l+n]
	}
	d := dst[l : l+n]
	i := n
	for u >= 1e8 { // eight digits at a time in 32 bits
		q := u / 1e8
		i = put8(d, i, uint32(u-q*1e8))
		u = q
	}
	v := uint32(u)
	for v >= 100 {
		q := v / 100
		r := (v - q*100) * 2
		i -= 2
		d[i], d[i+1] = digitPairs[r], digitPairs[r+1]
		v = q
	}
	if v >= 10 {
		d[0], d[1] = digitPairs[2*v], digitPairs[2*v+1]
	} else {
		d[0] = byte('0' + v)
	}
	return dst
}

// put8 writes v, below 1e8, as the eight digits (leading zeros kept) that
// end at d[i-1], and returns i-8.
func put8(d []byte, i int, v uint32) int {
	d = d[i-8 : i]
	hi, lo := v/10000, v%10000
	a, b := (hi/100)*2, (hi%100)*2
	c, e := (lo/100)*2, (lo%100)*2
	d[0], d[1], d[2], d[3] = digitPairs[a], digitPairs[a+1], digitPairs[b], digitPairs[b+1]
	d[4], d[5], d[6], d[7] = digitPairs[c], digitPairs[c+1], digitPairs[e], digitPairs[e+1]
	return i - 8
}

// appendInt10 appends x in decimal.
func appendInt10(dst []byte, x int64) []byte {
	if x < 0 {
		return appendUint10(append(dst, '-'), -uint64(x))
	}
	return appendUint10(dst, uint64(x))
}
