package json

import (
	stdjson "encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
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
	// Random integers of every length: both halves of the vector kernels
	// (9 to 16 digits, 17 to 19) with every digit in every place.
	r := rand.New(rand.NewPCG(5, 6))
	for lo := uint64(1); lo < 1e18; lo *= 10 {
		for range 3000 {
			check(int64(lo + r.Uint64N(9*lo)))
		}
	}
	for range 3000 {
		check(int64(1e18 + r.Uint64N(math.MaxInt64-1e18)))
	}
	for _, u := range []uint64{math.MaxUint64, math.MaxUint64 - 1, 1e19, 1e19 - 1, 1e19 + 1} {
		if got, want := string(appendUint10(nil, u)), strconv.FormatUint(u, 10); got != want {
			t.Fatalf("appendUint10(%d) = %s, want %s", u, got, want)
		}
	}
}

// Every integer that threeDigits and digits6 write (below 1e6), and past
// them, against strconv, both signs, with the buffer's spare capacity
// dirty: the table's digits must land in the right places at every length.
func TestAppendInt10Small(t *testing.T) {
	buf := make([]byte, 0, 64)
	for x := int64(0); x < 1_001_000; x++ {
		for _, v := range []int64{x, -x} {
			buf = append(buf[:cap(buf)][:0], "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"...)[:1]
			got := appendInt10(buf, v)
			if want := strconv.AppendInt([]byte("x"), v, 10); string(got) != string(want) {
				t.Fatalf("appendInt10(%d) = %s, want %s", v, got, want)
			}
		}
	}
}

// Numbers appended one after another into a buffer that grows as it goes:
// the scratch bytes written past each number never show.
func TestAppendInt10Sequence(t *testing.T) {
	var got []byte
	var want string
	for x := uint64(1); x != 0; x = x*7 + x/3 {
		got = append(appendUint10(got, x), ',')
		got = append(appendInt10(got, -int64(x>>1)), ';')
		want += strconv.FormatUint(x, 10) + "," + strconv.FormatInt(-int64(x>>1), 10) + ";"
		if x > math.MaxUint64/8 {
			break
		}
	}
	if string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
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

// Every value below 1e8 goes through digits8; its lanes are checked here
// over the whole range a stride apart, and at every boundary of a lane.
func TestDigits8(t *testing.T) {
	check := func(v uint32) {
		w := digits8(v)
		var b [8]byte
		for i := range b {
			b[i] = byte(w>>(8*i)) + '0'
		}
		if want := fmt.Sprintf("%08d", v); string(b[:]) != want {
			t.Fatalf("digits8(%d) = %q, want %q", v, b, want)
		}
	}
	for v := uint32(0); v < 1e8; v += 997 {
		check(v)
	}
	for hi := uint32(0); hi < 10000; hi++ {
		check(hi*10000 + 9999)
		check(hi * 10000)
		check(hi*10000 + hi)
	}
}

// 1024 integers in a row, by digit count (and with lengths of 1 to 8
// digits mixed, where each number's branch is a guess).
func BenchmarkAppendInt10(b *testing.B) {
	for _, c := range []struct {
		name   string
		lo, hi int64 // 0, 0: mixed lengths
	}{{"1-3", 0, 1e3}, {"4-6", 1e3, 1e6}, {"7-8", 1e6, 1e8}, {"9-16", 1e8, 1e16}, {"17-19", 1e16, math.MaxInt64}, {"mixed", 0, 0}} {
		r := rand.New(rand.NewPCG(1, 2))
		xs := make([]int64, 1024)
		for i := range xs {
			if c.hi == 0 {
				xs[i] = r.Int64N([]int64{10, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8}[r.IntN(8)])
			} else {
				xs[i] = c.lo + r.Int64N(c.hi-c.lo)
			}
		}
		buf := make([]byte, 0, 32*1024)
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				d := buf[:0]
				for _, x := range xs {
					d = append(appendInt10(d, x), ',')
				}
			}
		})
	}
}

// The struct encoder writes integer fields of 0 to 999 itself (in its
// loop, from threeDigits), and the rest of int64, int32 and uint64 fields
// with the formatter's call: every one of them and their neighbours, the
// ends of each kind, in fields after one another, against encoding/json.
func TestStructIntFields(t *testing.T) {
	type rec struct {
		A int
		B int64  `json:"b"`
		C int    `json:"c,string"`
		D *int   `json:"d"`
		E uint64 `json:"e"`
		F int32  `json:"f"`
		G uint   `json:"g"`
	}
	var v []rec
	for x := -1100; x <= 1100; x++ {
		y := x * 3
		v = append(v, rec{A: x, B: int64(1000 - x), C: x, D: &y, E: uint64(x + 1100), F: int32(x), G: uint(x*x) * 1e13})
	}
	for _, u := range []uint64{math.MaxInt64, math.MaxInt64 + 1, math.MaxUint64, 1e19, 999, 1000, 1e15} {
		v = append(v, rec{A: math.MinInt64, B: math.MaxInt64, E: u, F: math.MinInt32, G: uint(u)})
	}
	got, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := stdjson.Marshal(v)
	if string(got) != string(want) {
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("Marshal differs from encoding/json at byte %d:\n got %s\nwant %s", i, got[max(0, i-40):min(len(got), i+40)], want[max(0, i-40):min(len(want), i+40)])
			}
		}
		t.Fatalf("Marshal: %d bytes, encoding/json %d", len(got), len(want))
	}
}

// Number fields, which the struct encoder checks and writes in its loop
// when valid: valid ones of every form, the empty one (0) and invalid
// ones (an error), against encoding/json.
func TestStructNumberFields(t *testing.T) {
	type rec struct {
		A Number
		B Number `json:"b"`
	}
	for _, n := range []Number{"0", "7", "12", "123", "1234", "12.5", "-3", "-0", "1e5", "1E+5", "-0.0e-1",
		"12345678901234567890123", "3.14159265358979323846", "",
		"01", "1.", ".5", "abc", " 1", "+1", "NaN", "1e", "--1", "0x1", "1_000", "12a", "1.5e+"} {
		v := []rec{{A: n, B: "1"}, {A: "2", B: n}}
		got, err := Marshal(v)
		want, stdErr := stdjson.Marshal([]struct {
			A stdjson.Number
			B stdjson.Number `json:"b"`
		}{{A: stdjson.Number(n), B: "1"}, {A: "2", B: stdjson.Number(n)}})
		if (err != nil) != (stdErr != nil) || string(got) != string(want) {
			t.Errorf("Marshal with Number %q = %s, %v; encoding/json: %s, %v", n, got, err, want, stdErr)
		}
	}
}
