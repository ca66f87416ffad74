package shortest

import (
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// The binary exponents q of v = c·2^q: float64 has [-1074, 971], float32 the
// subrange [-149, 104].
const (
	minQ64, maxQ64 = -1074, 971
	minQ32, maxQ32 = -149, 104
)

func bigPow(base, e int) *big.Int {
	return new(big.Int).Exp(big.NewInt(int64(base)), big.NewInt(int64(e)), nil)
}

// ratPow2Pow10 returns 2^q·10^e as num/den in lowest terms.
func ratPow2Pow10(q, e int) (num, den *big.Int) {
	num, den = big.NewInt(1), big.NewInt(1)
	if q >= 0 {
		num.Lsh(num, uint(q))
	} else {
		den.Lsh(den, uint(-q))
	}
	if e >= 0 {
		num.Mul(num, bigPow(10, e))
	} else {
		den.Mul(den, bigPow(10, -e))
	}
	g := new(big.Int).GCD(nil, nil, num, den)
	return num.Quo(num, g), den.Quo(den, g)
}

// TestTable re-derives every entry of pow10 with math/big.
func TestTable(t *testing.T) {
	if minPow10 > -floorLog10Pow2(maxQ64) || maxPow10 < -floorLog10Pow2(minQ64) {
		t.Fatalf("table covers 10^%d..10^%d, too few", minPow10, maxPow10)
	}
	for e := minPow10; e <= maxPow10; e++ {
		// r = floor(log2(10^e)): 2^r <= 10^e < 2^(r+1). For e < 0, 10^-e is not
		// a power of two, so floor(-log2(10^-e)) = -bitlen(10^-e).
		var g *big.Int
		var r int
		if e >= 0 {
			p := bigPow(10, e)
			r = p.BitLen() - 1
			if r <= 127 {
				g = p.Lsh(p, uint(127-r))
			} else {
				g = p.Rsh(p, uint(r-127))
			}
		} else {
			p := bigPow(10, -e)
			r = -p.BitLen()
			g = new(big.Int).Quo(new(big.Int).Lsh(big.NewInt(1), uint(127-r)), p)
		}
		g.Add(g, big.NewInt(1))
		if g.BitLen() != 128 {
			t.Fatalf("10^%d: g has %d bits", e, g.BitLen())
		}
		if got := floorLog2Pow10(e); got != r {
			t.Errorf("floorLog2Pow10(%d) = %d, want %d", e, got, r)
		}
		hi := new(big.Int).Rsh(g, 64).Uint64()
		lo := new(big.Int).And(g, new(big.Int).SetUint64(math.MaxUint64)).Uint64()
		if got := pow10[e-minPow10]; got != [2]uint64{hi, lo} {
			t.Errorf("pow10 for 10^%d = %#x, want {%#x, %#x}", e, got, hi, lo)
		}
	}
}

// TestLogApproximations checks the fixed-point logarithms over the ranges
// their comments claim, which contain every exponent used.
func TestLogApproximations(t *testing.T) {
	// cmp reports the sign of num/den - 10^k.
	cmp := func(num, den *big.Int, k int) int {
		n, d := new(big.Int).Set(num), new(big.Int).Set(den)
		if k >= 0 {
			d.Mul(d, bigPow(10, k))
		} else {
			n.Mul(n, bigPow(10, -k))
		}
		return n.Cmp(d)
	}
	for q := -1200; q <= 1200; q++ {
		num, den := ratPow2Pow10(q, 0)
		if k := floorLog10Pow2(q); cmp(num, den, k) < 0 || cmp(num, den, k+1) >= 0 {
			t.Errorf("floorLog10Pow2(%d) = %d, wrong", q, k)
		}
		num.Mul(num, big.NewInt(3))
		den.Mul(den, big.NewInt(4))
		if k := floorLog10ThreeQuartersPow2(q); cmp(num, den, k) < 0 || cmp(num, den, k+1) >= 0 {
			t.Errorf("floorLog10ThreeQuartersPow2(%d) = %d, wrong", q, k)
		}
	}
	for e := -400; e <= 400; e++ {
		// 2^r <= 10^e < 2^(r+1)
		r := floorLog2Pow10(e)
		num, den := ratPow2Pow10(-r, e) // 10^e / 2^r, must be in [1, 2)
		if num.Cmp(den) < 0 || num.Cmp(new(big.Int).Lsh(den, 1)) >= 0 {
			t.Errorf("floorLog2Pow10(%d) = %d, wrong", e, r)
		}
	}
}

// minMod returns the least a·x mod b over 1 <= x <= n, and an x reaching it,
// for 0 < a < b coprime and n < b. It walks the Stern–Brocot tree: xl has
// a·xl ≡ rl and xu has a·xu ≡ -du (mod b), and every x below xl+xu has
// a·x mod b outside (0, rl) and (b-du, b); stepping xl or xu by the other
// shrinks rl or du. Long runs of steps are taken at once.
func minMod(a, b, n *big.Int) (min, arg *big.Int) {
	xl, rl := big.NewInt(1), new(big.Int).Set(a)
	xu, du := big.NewInt(0), new(big.Int).Set(b)
	one := big.NewInt(1)
	steps, limit, tmp := new(big.Int), new(big.Int), new(big.Int)
	for {
		// Step the side with the larger residue, as often as keeps it positive
		// and x at most n.
		x, r, y, d := xl, rl, xu, du
		switch rl.Cmp(du) {
		case 0:
			return rl, xl // the next step reaches a multiple of b > n
		case -1:
			x, r, y, d = xu, du, xl, rl
		}
		steps.Quo(tmp.Sub(r, one), d)
		limit.Quo(tmp.Sub(n, x), y)
		done := steps.Cmp(limit) >= 0
		if done {
			steps.Set(limit)
		}
		x.Add(x, tmp.Mul(steps, y))
		r.Sub(r, tmp.Mul(steps, d))
		if done {
			return rl, xl
		}
	}
}

func TestMinMod(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		b := 2 + r.Int64N(2000)
		a := 1 + r.Int64N(b-1)
		if new(big.Int).GCD(nil, nil, big.NewInt(a), big.NewInt(b)).Int64() != 1 {
			continue
		}
		n := 1 + r.Int64N(b-1)
		want := b
		for x := int64(1); x <= n; x++ {
			want = min(want, a*x%b)
		}
		got, arg := minMod(big.NewInt(a), big.NewInt(b), big.NewInt(n))
		if got.Int64() != want || arg.Int64() < 1 || arg.Int64() > n || a*arg.Int64()%b != want {
			t.Fatalf("minMod(%d, %d, %d) = %v at %v, want %d", a, b, n, got, arg, want)
		}
	}
}

// exactRoundToOdd returns floor(x·num/den), with the last bit set when inexact.
func exactRoundToOdd(x uint64, num, den *big.Int) uint64 {
	p := new(big.Int).Mul(new(big.Int).SetUint64(x), num)
	quo, rem := p.QuoRem(p, den, new(big.Int))
	v := quo.Uint64()
	if rem.Sign() != 0 {
		v |= 1
	}
	return v
}

// TestRoundToOddExact proves that roundToOdd is exact for every input the
// conversions give it. For a binary exponent q and its k, it gets
// x·2^q·10^-k as x·g/2^128 where g, from the table, exceeds the true
// 10^-k·2^(127-r) by at most 1, and x < 2^59 (x is cbl, cb or cbr < 2^55,
// shifted left by h <= 4). An integral product then leaves a fraction below
// 2^59 in the 128 bits dropped, read as exact; a product whose fraction is
// at least 2^-69 and at most 1-2^-69 leaves at least 2^59 and does not carry,
// read as inexact. This test checks, with the continued-fraction minimum
// above, that every non-integral product is that far from an integer.
//
// In the symmetric case x = 4c-2, 4c or 4c+2 with c < 2^53: x = 2y with
// 1 <= y <= 2^54; float32 has the same k for the same q and smaller c. The
// power-of-two case has its own k and three x, checked one by one.
func TestRoundToOddExact(t *testing.T) {
	bound := new(big.Int).Lsh(big.NewInt(1), 69)
	far := func(frac, den *big.Int) bool { // frac/den >= 2^-69
		return new(big.Int).Mul(frac, bound).Cmp(den) >= 0
	}
	checkRop := func(q, k int, x uint64, num, den *big.Int) {
		h := q + floorLog2Pow10(-k) + 1
		if h < 1 || h > 4 || x>>55 != 0 {
			t.Fatalf("q=%d: h = %d, x = %#x", q, h, x)
		}
		g := pow10[-k-minPow10]
		if got, want := roundToOdd(g[0], g[1], x<<h), exactRoundToOdd(x, num, den); got != want {
			t.Errorf("q=%d x=%d: roundToOdd = %d, want %d", q, x, got, want)
		}
	}
	n := new(big.Int).Lsh(big.NewInt(1), 54)
	worst := 0.0
	for q := minQ64; q <= maxQ64; q++ {
		k := floorLog10Pow2(q)
		num, den := ratPow2Pow10(q, -k) // x·2^q·10^-k = x·num/den
		num2 := new(big.Int).Lsh(num, 1)
		g := new(big.Int).GCD(nil, nil, num2, den)
		num2.Quo(num2, g) // y·num2/den2 = 2y·num/den
		den2 := new(big.Int).Quo(den, g)
		if den2.BitLen() <= 69 {
			// Fractions are multiples of 1/den2 >= 2^-69.
			continue
		}
		a := new(big.Int).Mod(num2, den2)
		lo, argLo := minMod(a, den2, n)
		hi, argHi := minMod(new(big.Int).Sub(den2, a), den2, n)
		for _, m := range []*big.Int{lo, hi} {
			f, _ := new(big.Rat).SetFrac(m, den2).Float64()
			if !far(m, den2) {
				t.Errorf("q=%d: a product comes within 2^%.2f of an integer", q, math.Log2(f))
			}
			worst = max(worst, -math.Log2(f))
		}
		// Also compare roundToOdd with the exact value where it is hardest.
		for _, y := range []*big.Int{argLo, argHi} {
			checkRop(q, k, 2*y.Uint64(), num, den)
		}
	}
	t.Logf("closest non-integral product to an integer: 2^-%.2f", worst)

	// Powers of two: c = 2^52 (2^23 for float32), x = 4c-1, 4c, 4c+2.
	for _, p := range []struct{ c uint64 }{{1 << 52}, {1 << 23}} {
		for q := minQ64 + 1; q <= maxQ64; q++ {
			if p.c == 1<<23 && (q <= minQ32 || q > maxQ32) {
				continue
			}
			k := floorLog10ThreeQuartersPow2(q)
			num, den := ratPow2Pow10(q, -k)
			for _, x := range []uint64{4*p.c - 1, 4 * p.c, 4*p.c + 2} {
				frac := new(big.Int).Mul(new(big.Int).SetUint64(x), num)
				frac.Mod(frac, den)
				if frac.Sign() != 0 && (!far(frac, den) || !far(frac.Sub(den, frac), den)) {
					t.Errorf("q=%d x=%d: product within 2^-69 of an integer", q, x)
				}
				checkRop(q, k, x, num, den)
			}
		}
	}
}

// TestTable32 re-derives every entry of pow10x32 with math/big: the 64
// leading bits of 10^e, rounded up, for every exponent float32 needs.
func TestTable32(t *testing.T) {
	if minPow10x32 > -floorLog10Pow2(maxQ32) || maxPow10x32 < -floorLog10ThreeQuartersPow2(minQ32) {
		t.Fatalf("table covers 10^%d..10^%d, too few", minPow10x32, maxPow10x32)
	}
	for e := minPow10x32; e <= maxPow10x32; e++ {
		r := floorLog2Pow10(e)
		num, den := ratPow2Pow10(63-r, e) // 10^e·2^(63-r), in [2^63, 2^64)
		g, rem := new(big.Int).QuoRem(num, den, new(big.Int))
		if rem.Sign() != 0 {
			g.Add(g, big.NewInt(1))
		}
		if g.BitLen() != 64 {
			t.Fatalf("10^%d: g has %d bits", e, g.BitLen())
		}
		if got := pow10x32[e-minPow10x32]; got != g.Uint64() {
			t.Errorf("pow10x32 for 10^%d = %#x, want %#x", e, got, g.Uint64())
		}
	}
}

// TestRoundToOddExact32 proves roundToOdd32 exact for every input
// schubfach32 gives it, as TestRoundToOddExact does for roundToOdd. x is
// cbl, cb or cbr < 2^26, shifted left by h <= 4, and g exceeds the true
// 10^-k·2^(63-r) by less than 1: an integral product leaves less than 2^30
// units of 2^-64 in the word dropped, read as exact, and a product whose
// fraction is at least 2^-32 and at most 1-2^-32 leaves at least 2^32 there
// and does not carry, read as inexact. Every x is 4c-2, 4c or 4c+2 = 2y with
// y <= 2^25, or, for a power of two, 4c-1 with c = 2^23.
func TestRoundToOddExact32(t *testing.T) {
	bound := new(big.Int).Lsh(big.NewInt(1), 32)
	far := func(frac, den *big.Int) bool { // frac/den >= 2^-32
		return new(big.Int).Mul(frac, bound).Cmp(den) >= 0
	}
	check := func(q, k int, x uint64, num, den *big.Int) {
		h := q + floorLog2Pow10(-k) + 1
		if h < 1 || h > 4 || x>>26 != 0 {
			t.Fatalf("q=%d: h = %d, x = %#x", q, h, x)
		}
		g := pow10x32[-k-minPow10x32]
		if got, want := roundToOdd32(g, uint32(x<<h)), exactRoundToOdd(x, num, den); uint64(got) != want {
			t.Errorf("q=%d x=%d: roundToOdd32 = %d, want %d", q, x, got, want)
		}
	}
	n := new(big.Int).Lsh(big.NewInt(1), 25)
	for q := minQ32; q <= maxQ32; q++ {
		k := floorLog10Pow2(q)
		num, den := ratPow2Pow10(q, -k)
		num2 := new(big.Int).Lsh(num, 1)
		g := new(big.Int).GCD(nil, nil, num2, den)
		num2.Quo(num2, g)
		den2 := new(big.Int).Quo(den, g)
		if den2.BitLen() > 32 {
			a := new(big.Int).Mod(num2, den2)
			lo, argLo := minMod(a, den2, n)
			hi, argHi := minMod(new(big.Int).Sub(den2, a), den2, n)
			if !far(lo, den2) || !far(hi, den2) {
				t.Errorf("q=%d: a product comes within 2^-32 of an integer", q)
			}
			for _, y := range []*big.Int{argLo, argHi} {
				check(q, k, 2*y.Uint64(), num, den)
			}
		}
		for _, x := range []uint64{2, 4, 1<<26 - 2, 1 << 25, 4<<23 + 2} {
			check(q, k, x, num, den)
		}
		if q > minQ32 { // a power of two above the least normal
			k := floorLog10ThreeQuartersPow2(q)
			num, den := ratPow2Pow10(q, -k)
			for _, x := range []uint64{4<<23 - 1, 4 << 23, 4<<23 + 2} {
				frac := new(big.Int).Mul(new(big.Int).SetUint64(x), num)
				frac.Mod(frac, den)
				if frac.Sign() != 0 && (!far(frac, den) || !far(frac.Sub(den, frac), den)) {
					t.Errorf("q=%d x=%d: product within 2^-32 of an integer", q, x)
				}
				check(q, k, x, num, den)
			}
		}
	}
}

func TestTrimZeros(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	pow := uint64(1)
	for z := 0; z <= 15; z++ {
		for range 20000 {
			m := 1 + r.Uint64N(math.MaxUint64/pow)
			if m%10 == 0 {
				m++
			}
			if hi, _ := bits.Mul64(m, pow); hi != 0 {
				continue
			}
			if d, e := trimZeros(m*pow, 3); d != m || e != 3+z {
				t.Fatalf("trimZeros(%d·10^%d) = %d, %d", m, z, d, e)
			}
		}
		pow *= 10
	}
	for d := uint64(1); d <= 1e6; d++ {
		want, we := d, 0
		for want%10 == 0 {
			want, we = want/10, we+1
		}
		if got, e := trimZeros(d, 0); got != want || e != we {
			t.Fatalf("trimZeros(%d) = %d, %d", d, got, e)
		}
	}
}
