package json

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/jsonpipe/json/internal/digits"
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

// appendUint10 appends u in decimal. It may write up to 25 bytes of dst's
// spare capacity past the number; only the number's bytes are appended.
func appendUint10(dst []byte, u uint64) []byte {
	if u <= math.MaxInt64 {
		return appendInt10(dst, int64(u))
	}
	l := len(dst) // 19 or 20 digits
	if cap(dst)-l < 24 {
		dst = slices.Grow(dst, 24)
	}
	return dst[:l+putUint(dst[l:l+24], u)]
}

// appendSmall appends x when it is below 1000 (a count, an age, a small
// id) and dst has room for 8 bytes, from threeDigits, and reports whether
// it did: appendInt10's first case, inlined into the loop over a struct's
// fields, where the call cost as much as the digits.
func appendSmall(dst []byte, x uint64) ([]byte, bool) {
	l := len(dst)
	if !fastPaths || x >= 1000 || cap(dst)-l < 8 {
		return dst, false
	}
	k := digits.Len(uint32(x))
	binary.LittleEndian.PutUint64(dst[l:l+8], uint64(threeDigits[x])>>(24-8*uint(k))|asciiZeros)
	return dst[:l+k], true
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
	// Up to six digits, the most common integers, from a table of the
	// digits of 0 to 999: one load, or two and a division by 1000, in
	// place of digits8's multiplications.
	if fastPaths && u < 1e6 {
		k := digits.Len(uint32(u))
		binary.LittleEndian.PutUint64(d[n:], tableDigits(uint32(u), k)|asciiZeros)
		return dst[:l+n+k]
	}
	// putUint's cases, written out here to save its call.
	if u < 1e8 { // most integers: one word of digits
		k := digits.Len(uint32(u))
		binary.LittleEndian.PutUint64(d[n:], smallDigits(uint32(u), k)|asciiZeros)
		return dst[:l+n+k]
	}
	if fastPaths {
		if k := digits.PutUint((*[20]byte)(d[n:n+20]), u); k != 0 {
			return dst[:l+n+k]
		}
	}
	if u >= 1e16 {
		return dst[:l+n+putUint17(d[n:], u)]
	}
	return dst[:l+n+putLong(d[n:], u)]
}

// smallDigits returns the k digits of v, which is below 1e8 (0 too, with
// k = 1), as the first k bytes of one word of byte values 0 to 9 to make
// ASCII and store little-endian: digits8's word with the leading zero
// digits shifted out.
//
// k is digits.Len(v), from v itself, not from the digits (their low zero
// bytes): the caller's length, and so where the next number goes, does
// not wait for digits8's chain of multiplications, and numbers written one
// after another overlap. The shift is masked to 63 (k is at least 1),
// which spares the guard Go adds for a shift that may be 64 or more; so
// are tableDigits' and digits6's.
func smallDigits(v uint32, k int) uint64 {
	return digits8(v) >> ((64 - 8*uint(k)) & 63)
}

// tableDigits is smallDigits for v below 1e6, from threeDigits.
func tableDigits(v uint32, k int) uint64 {
	if v < 1000 {
		return uint64(threeDigits[v&1023]) >> ((24 - 8*uint(k)) & 63)
	}
	return digits6(v, k)
}

// digits6 is smallDigits for v below 1e6: the digits of v/1000 and of
// v%1000 from threeDigits, side by side. The indexes are masked to the
// table's 1024 entries, which costs less than a bounds check.
func digits6(v uint32, k int) uint64 {
	hi := v / 1000
	w := uint64(threeDigits[hi&1023])<<16 | uint64(threeDigits[(v-hi*1000)&1023])<<40
	return w >> ((64 - 8*uint(k)) & 63)
}

// threeDigits[v] holds the three digits of v, below 1000, as digits8 does
// (byte values 0 to 9, the first in the lowest byte) in its low three
// bytes: 4 KiB. The rest of the table, never read, is zero.
var threeDigits = func() (t [1024]uint32) {
	for v := range 1000 {
		t[v] = uint32(digits8(uint32(v)) >> 40)
	}
	return t
}()

// putUint writes the digits of u, which is not 0, at d[0:] and returns how
// many there are. It writes whole words: up to 24 bytes of d, those past
// the digits as scratch. The first word's leading zero digits are
// counted from its value (digits.Len) and shifted out. From 9 digits on,
// internal/digits' kernel writes them all in one call where there is one.
func putUint(d []byte, u uint64) int {
	switch {
	case fastPaths && u < 1000: // as in appendInt10
		k := digits.Len(uint32(u))
		binary.LittleEndian.PutUint64(d, uint64(threeDigits[u])>>(24-8*uint(k))|asciiZeros)
		return k
	case fastPaths && u < 1e6:
		k := digits.Len(uint32(u))
		binary.LittleEndian.PutUint64(d, digits6(uint32(u), k)|asciiZeros)
		return k
	case u < 1e8:
		k := digits.Len(uint32(u))
		binary.LittleEndian.PutUint64(d, smallDigits(uint32(u), k)|asciiZeros)
		return k
	}
	if fastPaths {
		if k := digits.PutUint((*[20]byte)(d[:20]), u); k != 0 {
			return k
		}
	}
	if u >= 1e16 {
		return putUint17(d, u)
	}
	return putLong(d, u)
}

// putLong is putUint for u of 9 to 16 digits (ids, timestamps, a float's
// 16 digits) without the kernel: its two halves by 1e8 one word each,
// nine or ten digits' first ones alone.
func putLong(d []byte, u uint64) int {
	q := u / 1e8
	h := digits.Len(uint32(q))
	w := digits8(uint32(u-q*1e8)) | asciiZeros
	switch {
	case fastPaths && q < 10:
		d[0] = '0' + byte(q)
	case fastPaths && q < 100:
		d[0], d[1] = digitPairs[2*q], digitPairs[2*q+1]
	default:
		binary.LittleEndian.PutUint64(d, smallDigits(uint32(q), h)|asciiZeros)
	}
	binary.LittleEndian.PutUint64(d[h:], w)
	return h + 8
}

// putUint17 is putUint for u of 17 to 20 digits without the kernel: the
// first 1 to 4, then 16 as two words of digits8.
func putUint17(d []byte, u uint64) int {
	q := u / 1e16 // at most 1844
	rest := u - q*1e16
	m := rest / 1e8
	h := 1
	switch {
	case q < 10: // 17 digits, as a float's often are: the first one alone
		d[0] = '0' + byte(q)
	case fastPaths && q < 1000: // 18 and 19 (every int64): from the table, no multiply
		h = digits.Len(uint32(q))
		binary.LittleEndian.PutUint64(d, uint64(threeDigits[q])>>(24-8*uint(h))|asciiZeros)
	default:
		h = digits.Len(uint32(q))
		binary.LittleEndian.PutUint64(d, smallDigits(uint32(q), h)|asciiZeros)
	}
	binary.LittleEndian.PutUint64(d[h:], digits8(uint32(m))|asciiZeros)
	binary.LittleEndian.PutUint64(d[h+8:], digits8(uint32(rest-m*1e8))|asciiZeros)
	return h + 16
}
