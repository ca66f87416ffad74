// Package shortest finds the shortest decimal representation of a float64 or
// float32: the digits and exponent that strconv.FormatFloat(f, 'e', -1, size)
// prints, without strconv's formatting and in a few nanoseconds.
//
// It implements Schubfach, from Raffaello Giulietti, "The Schubfach way to
// render doubles" (2020), the algorithm behind Double.toString since Java 19.
// The code here is written from the paper's description.
//
// A finite positive float is v = c·2^q. Every real in its rounding interval
// R = [(c-1/2)·2^q, (c+1/2)·2^q] reads back as v (the interval is closed when
// c is even, because ties round to even, and open when c is odd; when v is a
// power of two above the least normal, the gap below is half the gap above
// and R starts at (c-1/4)·2^q). Choose k = floor(log10(2^q)), or floor(log10(3/4·2^q)) in that
// asymmetric case, so that R scaled by 10^-k is at least 1 and less than 10
// wide. Then, with s = floor(v·10^-k):
//
//   - R holds at most one multiple of 10 (times 10^k); if it holds one, that
//     is 10·floor(s/10) or 10·floor(s/10)+10, it is the only decimal in R with
//     that few digits, and it is the answer once its trailing zeros are gone;
//   - otherwise R holds s or s+1 (times 10^k), and when it holds both the
//     answer is the one nearer to v, the even one if v is halfway.
//
// This needs v and the two ends of R times 4·10^-k, each only as its floor
// plus a bit saying whether it is exact ("rounded to odd"): that is enough
// to compare them with integers. They are products x·2^q·10^-k, x < 2^55, which
// roundToOdd computes from one 128-bit approximation g of the power of ten
// (the table in table.go, made by gen.go) with two 64×64→128-bit
// multiplications. g errs by at most one unit in its last place, which
// moves an exact product by less than 2^59 in the 128 fraction bits, and a
// product that is not an integer is never within 2^-69 of one (the test
// TestRoundToOddExact runs the continued-fraction bound over every binary
// exponent), so the rounding to odd is always exact.
//
// A float32 needs only 64 bits of the power of ten (a second table,
// pow10x32): one 64×64→128-bit multiplication per product, and its exactness
// has its own test (TestRoundToOddExact32).
//
// Integers below 2^53 (2^24 for float32) take a shorter path: they are their
// own shortest decimal.
package shortest
