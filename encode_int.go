package json

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// The module's integer formatter: eight digits at a time, computed in the
// lanes of one 64-bit word and stored with one write, straight into dst,
// without strconv's scratch buffer and the copy out of it.

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

// digits8 returns the eight decimal digits of v, which is below 1e8, as
// byte values 0 to 9 (not yet ASCII), the most significant digit in the
// lowest byte: the order a little-endian store writes them in.
//
// The divisions are done in lanes: v's halves of four digits in two 32-bit
// lanes, divided by 100 at once (n/100 is n*5243>>19 for n < 10000), then
// the four resulting pairs in 16-bit lanes, divided by 10 at once (n/10 is
// n*103>>10 for n < 100). No lane's product reaches the next lane's bits
// that are kept.
func digits8(v uint32) uint64 {
	x := uint64(v/10000) | uint64(v%10000)<<32
	q := x * 5243 >> 19 & 0x0000007F_0000007F
	x = q | (x-q*100)<<16
	q = x * 103 >> 10 & 0x000F000F_000F000F
	return q | (x-q*10)<<8
}

const asciiZeros = 0x30303030_30303030

// appendUint10 appends u in decimal. It may write up to 24 bytes of dst's
// spare capacity past the number; only the number's bytes are appended.
func appendUint10(dst []byte, u uint64) []byte {
	l := len(dst)
	if cap(dst)-l < 24 {
		dst = slices.Grow(dst, 24)
	}
	d := dst[l : l+24]
	if u < 1e8 {
		w, lead := smallDigits(uint32(u))
		binary.LittleEndian.PutUint64(d, w|asciiZeros)
		return dst[:l+8-lead>>3]
	}
	return dst[:l+putUint(d, u)]
}

// appendInt10 appends x in decimal, as appendUint10 does.
func appendInt10(dst []byte, x int64) []byte {
	l := len(dst)
	if cap(dst)-l < 25 {
		dst = slices.Grow(dst, 25)
	}
	d := dst[l : l+25]
	u, n := uint64(x), 0
	if x < 0 {
		d[0] = '-'
		u, n = -u, 1
	}
	// putUint's first two cases, written out here to save its call (and
	// appendUint10's first one).
	if u < 1e8 { // most integers: one word of digits
		w, lead := smallDigits(uint32(u))
		binary.LittleEndian.PutUint64(d[n:], w|asciiZeros)
		return dst[:l+n+8-lead>>3]
	}
	if fastPaths && u < 1e16 { // ids and timestamps: two words
		q := u / 1e8
		lo := digits8(uint32(u-q*1e8)) | asciiZeros
		switch { // nine or ten digits (ids, times in seconds): the first ones alone
		case q < 10:
			d[n] = '0' + byte(q)
			binary.LittleEndian.PutUint64(d[n+1:], lo)
			return dst[:l+n+9]
		case q < 100:
			d[n], d[n+1] = digitPairs[2*q], digitPairs[2*q+1]
			binary.LittleEndian.PutUint64(d[n+2:], lo)
			return dst[:l+n+10]
		}
		w, lead := smallDigits(uint32(q))
		binary.LittleEndian.PutUint64(d[n:], w|asciiZeros)
		n += 8 - lead>>3
		binary.LittleEndian.PutUint64(d[n:], lo)
		return dst[:l+n+8]
	}
	return dst[:l+n+putUint(d[n:], u)]
}

// smallDigits returns the digits of v, which is below 1e8 (0 too), as one
// word of byte values 0 to 9 to make ASCII and store little-endian, and the
// bits of the leading zero digits shifted out of it: the digits are its
// first 8-lead/8 bytes.
func smallDigits(v uint32) (uint64, int) {
	w := digits8(v)
	lead := bits.TrailingZeros64(w|1<<56) & 56 // 0 still has its last digit
	return w >> lead, lead
}

// putUint writes the digits of u, which is not 0, at d[0:] and returns how
// many there are. It writes whole words: up to 24 bytes of d, those past
// the digits as scratch. The first word's leading zero digits are its low
// zero bytes, counted with one TrailingZeros64 and shifted out.
func putUint(d []byte, u uint64) int {
	var hi uint32 // the leading digits, below 1e8
	var n int     // the digits that follow them
	var mid, lo uint64
	switch {
	case u < 1e8:
		hi = uint32(u)
	case u < 1e16:
		q := u / 1e8
		hi, lo, n = uint32(q), digits8(uint32(u-q*1e8))|asciiZeros, 8
	default:
		q := u / 1e16 // at most 1844
		rest := u - q*1e16
		m := rest / 1e8
		mid, lo = digits8(uint32(m))|asciiZeros, digits8(uint32(rest-m*1e8))|asciiZeros
		if q < 10 { // 17 digits, as a float's often are: the first one alone
			d[0] = '0' + byte(q)
			binary.LittleEndian.PutUint64(d[1:], mid)
			binary.LittleEndian.PutUint64(d[9:], lo)
			return 17
		}
		hi, n = uint32(q), 16
	}
	w, lead := smallDigits(hi)
	binary.LittleEndian.PutUint64(d, w|asciiZeros)
	h := 8 - lead>>3
	switch n {
	case 8:
		binary.LittleEndian.PutUint64(d[h:], lo)
	case 16:
		binary.LittleEndian.PutUint64(d[h:], mid)
		binary.LittleEndian.PutUint64(d[h+8:], lo)
	}
	return h + n
}
