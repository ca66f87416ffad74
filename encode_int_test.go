package json

import (
	"math"
	"strconv"
	"testing"
)

// The integer formatter against strconv, at every power of ten and its
// neighbours, both limits, and whatever the fuzzer finds.
func TestAppendInt10(t *testing.T) {
	check := func(x int64) {
		t.Helper()
		if got, want := string(appendInt10([]byte("x"), x)), "x"+strconv.FormatInt(x, 10); got != want {
			t.Fatalf("appendInt10(%d) = %s, want %s", x, got, want)
		}
		if got, want := string(appendUint10(nil, uint64(x))), strconv.FormatUint(uint64(x), 10); got != want {
			t.Fatalf("appendUint10(%d) = %s, want %s", uint64(x), got, want)
		}
	}
	for _, x := range []int64{0, 1, 9, 10, 11, 99, 100, 101, math.MaxInt64, math.MinInt64, math.MinInt64 + 1} {
		check(x)
		check(-x)
	}
	for p := uint64(1); p <= 1e18; p *= 10 {
		for _, x := range []uint64{p - 1, p, p + 1, 2*p - 1, 9 * p, 10*p - 1} {
			check(int64(x))
			check(-int64(x))
		}
	}
	for _, u := range []uint64{math.MaxUint64, math.MaxUint64 - 1, 1e19, 1e19 - 1, 1e19 + 1} {
		if got, want := string(appendUint10(nil, u)), strconv.FormatUint(u, 10); got != want {
			t.Fatalf("appendUint10(%d) = %s, want %s", u, got, want)
		}
	}
}

func FuzzAppendInt10(f *testing.F) {
	f.Add(int64(0))
	f.Add(int64(math.MinInt64))
	f.Fuzz(func(t *testing.T, x int64) {
		if got, want := string(appendInt10(nil, x)), strconv.FormatInt(x, 10); got != want {
			t.Fatalf("appendInt10(%d) = %s, want %s", x, got, want)
		}
		if got, want := string(appendUint10([]byte("ab"), uint64(x)>>(x&63))), "ab"+strconv.FormatUint(uint64(x)>>(x&63), 10); got != want {
			t.Fatalf("appendUint10(%d) = %s, want %s", uint64(x)>>(x&63), got, want)
		}
	})
}
