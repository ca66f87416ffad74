package shortest

import (
	"math"
	"math/bits"
)

//go:generate go run gen.go

// Float64 returns the shortest decimal d·10^e that reads back (round to nearest, ties to even) as the
// float64 whose IEEE bits are b, which is finite and not zero (the sign bit is ignored): the digits and
// exponent of strconv.FormatFloat(f, 'e', -1, 64), with d having no trailing zero digit.
func Float64(b uint64) (d uint64, e int) {
	const (
		fracBits = 52
		bias     = 1075 // exponent bias plus fracBits
	)
	t := b & (1<<fracBits - 1)
	be := int(b>>fracBits) & 0x7ff
	if be == 0 {
		// Subnormal: c = t, q = 1-bias; the gaps on both sides are equal.
		return schubfach(t, 1-bias, false)
	}
	c := t | 1<<fracBits
	q := be - bias
	if uint(-q) <= fracBits && c&(1<<uint(-q)-1) == 0 {
		// An integer below 2^53: the gaps around it are at most 1, so no other
		// integer rounds to it and every non-integer has more digits.
		return trimZeros(c>>uint(-q), 0)
	}
	return schubfach(c, q, t == 0 && be > 1)
}

// Float32 is Float64 for a float32: strconv.FormatFloat(float64(f), 'e', -1, 32).
func Float32(b uint32) (d uint64, e int) {
	const (
		fracBits = 23
		bias     = 150
	)
	t := b & (1<<fracBits - 1)
	be := int(b>>fracBits) & 0xff
	if be == 0 {
		return schubfach32(t, 1-bias, false)
	}
	c := t | 1<<fracBits
	q := be - bias
	if uint(-q) <= fracBits && c&(1<<uint(-q)-1) == 0 {
		return trimZeros7(uint64(c>>uint(-q)), 0)
	}
	return schubfach32(c, q, t == 0 && be > 1)
}

// schubfach returns the shortest decimal, nearest among the shortest, in the
// rounding interval of v = c·2^q, c > 0. The interval is
// [(c-1/2)·2^q, (c+1/2)·2^q], closed when c is even (ties to even round its
// ends to v) and open when c is odd; when lowerHalf is set v is a power of two
// whose gap below is half the gap above, and the interval starts at (c-1/4)·2^q.
//
// With cb = 4c and cbl, cbr the ends as multiples of 2^(q-2), k is chosen so that
// the interval, scaled by 10^-k, is at least 1 and less than 10 wide: it holds
// s = floor(v·10^-k) or s+1, and at most one multiple of 10. The scaled values
// 4·v·10^-k and the ends, rounded to odd (floor, with the last bit set when
// inexact), compare with integer multiples of 4 exactly as the real values would.
func schubfach(c uint64, q int, lowerHalf bool) (uint64, int) {
	cb, cbl, cbr, k := interval(c, q, lowerHalf)
	// 10^-k = g·2^(r-127) with r = floorLog2Pow10(-k); then
	// x·2^q·10^-k = (x<<h)·g / 2^128 with h = q + r + 1, which is 1 to 4.
	h := uint(q+floorLog2Pow10(-k)+1) & 63 // the mask spares a test for h >= 64
	g := &pow10[-k-minPow10]
	gh, gl := g[0], g[1]
	vb := roundToOdd(gh, gl, cb<<h)
	vbl := roundToOdd(gh, gl, cbl<<h)
	vbr := roundToOdd(gh, gl, cbr<<h)
	out := c & 1 // 1: the interval's ends are excluded
	s, e, tens := pick(vb, vbl, vbr, out, k)
	if tens {
		return trimZeros(s, e)
	}
	return s, e
}

// interval is the start of schubfach (and schubfach32): v = c·2^q as
// cb = 4c and the rounding interval's ends cbl and cbr in the same units
// of 2^(q-2), and k, the decimal exponent that scales it to at least 1
// and less than 10 wide.
func interval[T uint32 | uint64](c T, q int, lowerHalf bool) (cb, cbl, cbr T, k int) {
	cb = c << 2
	if lowerHalf {
		return cb, cb - 1, cb + 2, floorLog10ThreeQuartersPow2(q)
	}
	return cb, cb - 2, cb + 2, floorLog10Pow2(q)
}

// pick is the end of schubfach (and schubfach32): from the scaled value
// vb and ends vbl and vbr, rounded to odd, and out (1 when the ends are
// excluded), it returns the shortest decimal's digits and exponent, and
// tens when the digits are those of a multiple of 10 whose trailing zeros
// are left to the caller to trim.
func pick[T uint32 | uint64](vb, vbl, vbr, out T, k int) (s T, e int, tens bool) {
	s = vb >> 2
	// A multiple of 10 in the interval is the only one and shorter than the
	// rest: take it.
	s10 := s / 10
	sp10 := s10 * 10
	upin := vbl+out <= sp10<<2
	wpin := (sp10+10)<<2+out <= vbr
	if upin != wpin {
		if wpin {
			s10++
		}
		return s10, k + 1, true
	}
	// Otherwise s or s+1, whichever lies in the interval, or the nearer when
	// both do (ties to even). Neither ends in 0: it would be the multiple of
	// 10 just tested.
	uin := vbl+out <= s<<2
	win := (s+1)<<2+out <= vbr
	if uin != win {
		if win {
			s++
		}
		return s, k, false
	}
	// vb - 4s is 0 or 1 when v·10^-k < s + 1/2, 2 at the half, 3 above.
	if f := vb & 3; f == 3 || f == 2 && s&1 == 1 {
		s++
	}
	return s, k, false
}

// roundToOdd returns floor(x·g/2^128), g = gh·2^64 + gl, with its last bit
// set when the 128-bit fraction dropped is at least 2^59. It is called with
// x < 2^59 and g exceeding 10^-k·2^(127-r) by at most 1, so an integral
// x·2^q·10^-k leaves less than 2^59 there, and TestRoundToOddExact checks that
// no other comes within 2^-69 of an integer: the result is the exact
// x·2^q·10^-k rounded to odd.
func roundToOdd(gh, gl, x uint64) uint64 {
	mid, low := bits.Mul64(gl, x)
	hi, lo := bits.Mul64(gh, x)
	lo, carry := bits.Add64(lo, mid, 0)
	hi += carry
	// lo|low>>59 is not zero exactly when the fraction lo·2^64 + low is at
	// least 2^59; adding 2^64-1 then carries out.
	_, sticky := bits.Add64(lo|low>>59, ^uint64(0), 0)
	return hi | sticky
}

// schubfach32 is schubfach for a float32's c < 2^24 and q in [-149, 104],
// where 64 bits of the power of ten are enough: one 64×64-bit
// multiplication for each of the three products, in place of two, and
// 32-bit results (s < 2^28). The products x·2^q·10^-k, x < 2^30, come from
// pow10x32's g, which exceeds the exact power by less than one unit in its
// last place: that moves a product by less than 2^30 units of 2^-64, and
// TestRoundToOddExact32 checks that no product that is not an integer
// comes within 2^-32 of one, so the rounding to odd is exact.
func schubfach32(c uint32, q int, lowerHalf bool) (uint64, int) {
	cb, cbl, cbr, k := interval(c, q, lowerHalf)
	h := uint(q+floorLog2Pow10(-k)+1) & 31
	g := pow10x32[-k-minPow10x32]
	vb := roundToOdd32(g, cb<<h)
	vbl := roundToOdd32(g, cbl<<h)
	vbr := roundToOdd32(g, cbr<<h)
	s, e, tens := pick(vb, vbl, vbr, c&1, k)
	if tens {
		return trimZeros7(uint64(s), e)
	}
	return uint64(s), e
}

// roundToOdd32 returns floor(x·g/2^64), its last bit set when the
// fraction dropped is at least 2^-33 (2^31 units of 2^-64): an exact
// product leaves less than x < 2^30 units there, and TestRoundToOddExact32
// checks that any other leaves more than 2^-32. (Drachennest's float32
// code, which sonic's follows, sets the bit from 2^-31 up, and so reads a
// few products 2^-31.7 past an integer as exact.)
func roundToOdd32(g uint64, x uint32) uint32 {
	hi, lo := bits.Mul64(g, uint64(x))
	_, sticky := bits.Add64(lo, 1<<64-1<<31, 0)
	return uint32(hi) | uint32(sticky)
}

// trimZeros removes the trailing zero digits of d > 0, adding them to e.
// d has at most 15 trailing zeros. n is a multiple of 10^j exactly when
// n·5^-j (mod 2^64) rotated right by j is at most (2^64-1)/10^j, and that
// rotation is then the quotient.
func trimZeros(d uint64, e int) (uint64, int) {
	const inv5p8 = 0xc767074b22e90e21 // 5^-8 mod 2^64
	if r := bits.RotateLeft64(d*inv5p8, -8); r <= math.MaxUint64/100_000_000 {
		d, e = r, e+8
	}
	return trimZeros7(d, e)
}

// trimZeros7 is trimZeros for d with at most 7 trailing zeros (a
// float32's digits, fewer than 2^28): its last three steps.
func trimZeros7(d uint64, e int) (uint64, int) {
	const (
		inv5p1 = 0xcccccccccccccccd // 5^-1 mod 2^64
		inv5p2 = 0x8f5c28f5c28f5c29 // 5^-2 mod 2^64
		inv5p4 = 0xd288ce703afb7e91 // 5^-4 mod 2^64
		max    = math.MaxUint64
	)
	if r := bits.RotateLeft64(d*inv5p4, -4); r <= max/10_000 {
		d, e = r, e+4
	}
	if r := bits.RotateLeft64(d*inv5p2, -2); r <= max/100 {
		d, e = r, e+2
	}
	if r := bits.RotateLeft64(d*inv5p1, -1); r <= max/10 {
		d, e = r, e+1
	}
	return d, e
}

// floorLog10Pow2 returns floor(q·log10(2)) for |q| <= 1200.
func floorLog10Pow2(q int) int { return q * 315653 >> 20 }

// floorLog10ThreeQuartersPow2 returns floor(log10(3/4·2^q)) for |q| <= 1200.
func floorLog10ThreeQuartersPow2(q int) int { return (q*315653 - 131008) >> 20 }

// floorLog2Pow10 returns floor(e·log2(10)) for |e| <= 400.
func floorLog2Pow10(e int) int { return e * 1741647 >> 19 }
