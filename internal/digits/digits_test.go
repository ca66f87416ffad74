package digits

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

func check(t *testing.T, u uint64) {
	t.Helper()
	d := [20]byte{}
	for i := range d {
		d[i] = 'x'
	}
	n := PutUint(&d, u)
	if n == 0 {
		t.Skip("no kernel in this build or on this CPU")
	}
	if want := strconv.FormatUint(u, 10); string(d[:n]) != want {
		t.Fatalf("PutUint(%d) = %d, %q, want %q", u, n, d[:n], want)
	}
}

// Every length from 9 to 20 digits at and around its bounds, every group
// of four digits in each of the four places of the last sixteen, every
// first part of a number of 17 to 20 digits (u/1e16, 1 to 1844), and
// random values of every length.
func TestPutUint(t *testing.T) {
	p := uint64(1e8)
	for k := 9; k <= 20; k++ {
		for _, u := range []uint64{p, p + 1, p + 9, p*2 - 1, p * 5, p*10 - 1} {
			if k == 20 && u < p { // past 2^64
				continue
			}
			check(t, u)
		}
		if k < 20 {
			p *= 10
		}
	}
	check(t, math.MaxUint64)
	check(t, math.MaxInt64)
	check(t, math.MaxInt64+1)
	for g := uint64(0); g < 10000; g++ {
		check(t, 1e16+g*1e12+(9999-g)*1e8+g*1e4+9999-g)
		check(t, 9e15+g*1e12+g)
		check(t, 1e8+g*1e4)
		check(t, 99999999e8+g)
	}
	for q := uint64(1); q <= 1844; q++ {
		check(t, q*1e16)
		check(t, q*1e16+9999999999999999)
		check(t, q*1e16+1234567890123456)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		u := r.Uint64() >> r.UintN(37) // 27 to 64 bits
		if u >= 1e8 {
			check(t, u)
		}
	}
}

// Without a kernel PutUint writes nothing.
func TestPutUintOff(t *testing.T) {
	saved := useKernel
	defer func() { useKernel = saved }()
	useKernel = false
	var d [20]byte
	if PutUint(&d, 123456789) != 0 || d != [20]byte{} {
		t.Fatalf("PutUint without a kernel wrote %q", d)
	}
}

// Len against strconv at every power of ten and its neighbours, every bit
// length's ends, and a stride through the whole range.
func TestLen(t *testing.T) {
	check := func(v uint32) {
		t.Helper()
		if got, want := Len(v), len(strconv.FormatUint(uint64(v), 10)); got != want {
			t.Fatalf("Len(%d) = %d, want %d", v, got, want)
		}
	}
	for p := uint64(1); p <= 1e9; p *= 10 {
		check(uint32(p - 1))
		check(uint32(p))
		check(uint32(p + 1))
	}
	for b := range 32 {
		check(1 << b)
		check(1<<b - 1)
		check(1<<b + 1)
	}
	check(math.MaxUint32)
	for v := uint32(0); v < math.MaxUint32-7919; v += 7919 {
		check(v)
	}
}
