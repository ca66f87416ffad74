package json

import (
	"math"
	"math/big"
	"math/bits"
	"sync"

	"github.com/jsonpipe/json/internal/number"
)

// Fast float64 parsing of JSON number tokens, straight from their bytes:
// up to 19 significant digits are read into a uint64, and the Eisel-Lemire
// algorithm (as in strconv) rounds mantissa × 10^exp correctly in a few
// multiplications. When it cannot decide (a halfway case, more than 19
// digits that change the result, overflow, underflow) strconv decides, so
// results and errors are strconv's exactly.

// parseFloat64 parses a JSON number token (already validated) as a float64.
func parseFloat64(tok []byte) (float64, error) {
	if !fastPaths {
		return number.ParseFloat(tok, 64)
	}
	if f, ok := eiselFloat64(tok); ok {
		return f, nil
	}
	return number.ParseFloat(tok, 64)
}

// eiselFloat64 returns the float64 nearest to the number token tok and true,
// or false when it leaves the decision to strconv.
func eiselFloat64(tok []byte) (float64, bool) {
	i := 0
	neg := false
	if tok[0] == '-' {
		neg = true
		i++
	}
	// The digits, integer part and fraction, are gathered into man as if
	// it could not overflow: with at most 19 of them it cannot.
	start := i
	man, i := addDigits(tok, i, 0)
	nd := i - start
	exp10 := 0
	if i < len(tok) && tok[i] == '.' {
		i++
		frac := i
		man, i = addDigits(tok, i, man)
		nd += i - frac
		exp10 = frac - i
	}
	dropped := 0
	if nd > 19 {
		man, exp10, dropped = longMantissa(tok[start:i])
	}
	// Exponent.
	if i < len(tok) && (tok[i] == 'e' || tok[i] == 'E') {
		e, end := exponent(tok, i+1)
		if end < 0 {
			return 0, false
		}
		exp10 += e
		i = end
	}
	if i != len(tok) {
		return 0, false
	}
	if dropped == 0 {
		return decimalFloat64(man, exp10, neg)
	}
	if man == 0 {
		return 0, false
	}
	f, ok := eiselLemire64(man, exp10, neg)
	if !ok {
		return 0, false
	}
	// The digits not read make the true value at most man+1 × 10^exp:
	// the result stands only if that rounds the same.
	if g, ok := eiselLemire64(man+1, exp10, neg); !ok || g != f {
		return 0, false
	}
	return f, true
}

// decimalFloat64 returns the float64 nearest to ±man × 10^exp10 and true, or
// false when Eisel-Lemire cannot decide it.
func decimalFloat64(man uint64, exp10 int, neg bool) (float64, bool) {
	if man == 0 {
		if neg {
			return math.Copysign(0, -1), true
		}
		return 0, true
	}
	if f, ok := exactFloat64(man, exp10, neg); ok {
		return f, true
	}
	return eiselLemire64(man, exp10, neg)
}

// exactFloat64 returns ±man × 10^exp10 and true when man is 1 to 2^53-1
// and exp10 within ±22: the mantissa and the power of ten are both exact
// float64s, so one multiplication or division rounds correctly. Small
// enough to inline: scanFloat64 computes a price or a count here without
// a call (the call cost it a seventh of its time).
func exactFloat64(man uint64, exp10 int, neg bool) (float64, bool) {
	if man-1 >= 1<<53-1 || uint(exp10+22) > 44 {
		return 0, false
	}
	f := float64(man)
	if exp10 < 0 {
		f /= float64pow10[-exp10]
	} else {
		f *= float64pow10[exp10]
	}
	if neg {
		f = -f
	}
	return f, true
}

// addDigits adds the ASCII digits of b from index i on to man, a decimal
// mantissa, and returns it and the index of the first byte that is not one.
func addDigits(b []byte, i int, man uint64) (uint64, int) {
	for i < len(b) && b[i]-'0' <= 9 {
		man = man*10 + uint64(b[i]-'0')
		i++
	}
	return man, i
}

// scanFloat64 is the scanner and the parser in one pass, for a number that
// a decoder wants as a float64: when data[i:] starts with a JSON number
// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? of at most 19 significant digits (the zeros
// that start 0.000123 do not count), followed in data by a byte that may
// end a value, and Eisel-Lemire decides its value, it returns the value and
// the index of the byte after the number. Otherwise it returns 0 for the
// index, and the scanner and strconv decide.
func scanFloat64(data []byte, i int) (float64, int) {
	neg, man, start, i := integerPart(data, i)
	if i == start {
		return 0, 0
	}
	nd := i - start
	exp10 := 0
	if i < len(data) && data[i] == '.' {
		i++
		frac := i
		// A mantissa of more than 19 digits may wrap; it is not used.
		if man, i = addDigits(data, i, man); i == frac {
			return 0, 0
		}
		nd += i - frac
		exp10 = frac - i
	}
	end := i // of the mantissa
	e := 0
	if i < len(data) && data[i]|0x20 == 'e' {
		if e, i = exponent(data, i+1); i < 0 {
			return 0, 0
		}
	}
	if i >= len(data) || !endsValue[data[i]] || nd > 19 && wrapped(data[:end], nd, exp10) {
		return 0, 0
	}
	// decimalFloat64's exact case first, inlined: a price or a count is
	// most often one.
	if f, ok := exactFloat64(man, exp10+e, neg); ok {
		return f, i
	}
	f, ok := decimalFloat64(man, exp10+e, neg)
	if !ok {
		return 0, 0
	}
	return f, i
}

// scanFloat32 is scanFloat64 for a float32, for the numbers that one
// float32 operation gives exactly as strconv rounds them: a decimal
// mantissa of at most 2^24 and at most ten digits after the point, no
// exponent (a price, a measurement). Both operands are exact in float32
// (5^10 < 2^24), and IEEE division rounds once, to nearest even, as
// strconv.ParseFloat(s, 32) does; a float64 rounded again to float32
// would not always be. Otherwise it returns 0 for the index, and strconv
// decides.
func scanFloat32(data []byte, i int) (float32, int) {
	neg, man, start, i := integerPart(data, i)
	if i == start {
		return 0, 0
	}
	nd, exp10 := i-start, 0
	if i < len(data) && data[i] == '.' {
		i++
		frac := i
		if man, i = addDigits(data, i, man); i == frac {
			return 0, 0
		}
		nd += i - frac
		exp10 = i - frac
	}
	if nd > 19 || man > 1<<24 || exp10 > 10 || i >= len(data) || !endsValue[data[i]] {
		return 0, 0 // (more than 19 digits may have wrapped man)
	}
	f := float32(man)
	if exp10 > 0 {
		f /= float32pow10[exp10]
	}
	if neg {
		f = -f
	}
	return f, i
}

// float32pow10 are the powers of ten that float32 holds exactly.
var float32pow10 = [...]float32{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10}

// exponent reads the exponent [+-]?[0-9]+ of a number at b[i:], just past
// its 'e' or 'E': its value (which stops growing past 100000, far outside
// Eisel-Lemire's range, so that it cannot wrap) and the index after it, or
// -1 for the index when no digit follows.
func exponent(b []byte, i int) (e, end int) {
	neg := false
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		neg = b[i] == '-'
		i++
	}
	digits := i
	for ; i < len(b) && b[i]-'0' <= 9; i++ {
		if e < 100000 {
			e = e*10 + int(b[i]-'0')
		}
	}
	if i == digits {
		return 0, -1
	}
	if neg {
		e = -e
	}
	return e, i
}

// wrapped reports whether the mantissa of the number that ends data, of nd
// digits (and a '.' when exp10 < 0), has more than 19 significant ones, so
// that adding them up wrapped: the zeros that start 0.000123 add nothing.
func wrapped(data []byte, nd, exp10 int) bool {
	start := len(data) - nd
	if exp10 < 0 {
		start-- // the '.'
	}
	for _, c := range data[start:] {
		if c == '0' {
			nd--
		} else if c != '.' {
			break
		}
	}
	return nd > 19
}

// integerPart reads the integer part -?(0|[1-9][0-9]*) of a number at
// data[i:]: its sign, the value of its digits (which wraps past 19 of them),
// and the indexes where the digits start and end (end == start: none).
func integerPart(data []byte, i int) (neg bool, man uint64, start, end int) {
	neg = data[i] == '-'
	if neg {
		i++
	}
	if i < len(data) && data[i] == '0' {
		return neg, 0, i, i + 1
	}
	man, end = addDigits(data, i, 0)
	return neg, man, i, end
}

// longMantissa reads the digits of a number of more than 19 (integer part,
// then fraction): the first 19 significant ones into man (leading zeros do
// not count), the number of the others in dropped, and the power of ten
// that man × 10^exp10 is short of the number (before its exponent).
func longMantissa(digits []byte) (man uint64, exp10, dropped int) {
	nd := 0 // significant digits read into man
	i := 0
	for ; i < len(digits) && digits[i] != '.'; i++ {
		if nd < 19 {
			man = man*10 + uint64(digits[i]-'0')
			if man != 0 {
				nd++
			}
		} else {
			dropped++
		}
	}
	exp10 = dropped
	for i++; i < len(digits); i++ {
		if nd < 19 {
			man = man*10 + uint64(digits[i]-'0')
			exp10--
			if man != 0 {
				nd++
			}
		} else {
			dropped++
		}
	}
	return man, exp10, dropped
}

var float64pow10 = [...]float64{
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
}

// eiselLemire64 is the Eisel-Lemire algorithm for man × 10^exp10 (man != 0).
func eiselLemire64(man uint64, exp10 int, neg bool) (float64, bool) {
	if exp10 < pow10MinExp || exp10 > pow10MaxExp {
		return 0, false
	}
	// Normalization.
	clz := bits.LeadingZeros64(man)
	man <<= uint(clz)
	const bias = 1023
	retExp2 := uint64(217706*exp10>>16+64+bias) - uint64(clz)
	// Multiplication.
	pow10Once.Do(makePow10Table)
	pow := &pow10Table[exp10-pow10MinExp]
	xHi, xLo := bits.Mul64(man, pow[1])
	// Wider approximation.
	if xHi&0x1FF == 0x1FF && xLo+man < man {
		yHi, yLo := bits.Mul64(man, pow[0])
		mergedHi, mergedLo := xHi, xLo+yHi
		if mergedLo < xLo {
			mergedHi++
		}
		if mergedHi&0x1FF == 0x1FF && mergedLo+1 == 0 && yLo+man < man {
			return 0, false
		}
		xHi, xLo = mergedHi, mergedLo
	}
	// Shift to 54 bits.
	msb := xHi >> 63
	retMan := xHi >> (msb + 9)
	retExp2 -= 1 ^ msb
	// Halfway ambiguity.
	if xLo == 0 && xHi&0x1FF == 0 && retMan&3 == 1 {
		return 0, false
	}
	// From 54 to 53 bits.
	retMan += retMan & 1
	retMan >>= 1
	if retMan>>53 > 0 {
		retMan >>= 1
		retExp2++
	}
	// Subnormal (or zero) and Inf/NaN exponents are left to strconv.
	if retExp2-1 >= 0x7FF-1 {
		return 0, false
	}
	b := retExp2<<52 | retMan&(1<<52-1)
	if neg {
		b |= 1 << 63
	}
	return math.Float64frombits(b), true
}

const (
	pow10MinExp = -348
	pow10MaxExp = 347
)

// pow10Table[i] is 10^(i+pow10MinExp) as a 128-bit mantissa {lo, hi},
// normalized so that its top bit is set and rounded down, computed on first
// use (about a millisecond).
var (
	pow10Table [pow10MaxExp - pow10MinExp + 1][2]uint64
	pow10Once  sync.Once
)

func makePow10Table() {
	t := &pow10Table
	ten := big.NewInt(10)
	mask := new(big.Int).SetUint64(math.MaxUint64)
	for q := pow10MinExp; q <= pow10MaxExp; q++ {
		var m *big.Int
		if q >= 0 {
			m = new(big.Int).Exp(ten, big.NewInt(int64(q)), nil)
			if n := m.BitLen(); n > 128 {
				m.Rsh(m, uint(n-128))
			} else {
				m.Lsh(m, uint(128-n))
			}
		} else {
			d := new(big.Int).Exp(ten, big.NewInt(int64(-q)), nil)
			m = new(big.Int).Lsh(big.NewInt(1), uint(127+d.BitLen()))
			m.Quo(m, d)
			if m.BitLen() > 128 {
				m.Rsh(m, 1)
			}
		}
		lo := new(big.Int).And(m, mask).Uint64()
		hi := new(big.Int).Rsh(m, 64).Uint64()
		t[q-pow10MinExp] = [2]uint64{lo, hi}
	}
}
