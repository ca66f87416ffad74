package json

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// checkScanInt checks scanInt64 on data: when it takes a number, that is a
// valid JSON integer followed by a byte that may end a value, and its value
// is strconv's. It reports whether it took one.
func checkScanInt(t *testing.T, data []byte) bool {
	t.Helper()
	if len(data) == 0 {
		return false // its callers never ask
	}
	got, end := scanInt64(data, 0)
	if end == 0 {
		return false
	}
	num := string(data[:end])
	want, err := strconv.ParseInt(num, 10, 64)
	if !isValidNumber(data[:end]) || end >= len(data) || !endsValue[data[end]] || err != nil || got != want {
		t.Fatalf("scanInt64(%q) = %d, %d; want %q = %d (%v) followed by a value's end", data, got, end, num, want, err)
	}
	return true
}

func TestScanInt64(t *testing.T) {
	for _, c := range []struct {
		in   string
		took bool
	}{
		{"0,", true}, {"-0]", true}, {"7}", true}, {"-42 ", true}, {"12345678,", true}, {"123456789\n", true},
		{"999999999999999999,", true}, {"-999999999999999999,", true}, {"1000000000000000000,", true},
		{"9223372036854775807,", true}, {"-9223372036854775808,", true}, {"9223372036854775808,", false},
		{"-9223372036854775809,", false}, {"9999999999999999999,", false}, {"-9999999999999999999,", false},
		{"18446744073709551615,", false}, {"18446744073709551616,", false}, {"10000000000000000000,", false},
		{"1.5,", false}, {"1e5,", false}, {"1E5,", false}, {"01,", false}, {"00,", false}, {"-,", false},
		{"-01,", false}, {"1x,", false}, {"1", false}, {"-", false}, {"0", false}, {"1.", false}, {"\"1\",", false},
		{"12345678901234567\\", false}, {"1:", true},
	} {
		if took := checkScanInt(t, []byte(c.in)); took != c.took {
			t.Errorf("scanInt64(%q) took the number: %v, want %v", c.in, took, c.took)
		}
	}
	// Every length from 1 to 20 digits, signed or not, with every ending.
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 100000; i++ {
		n := r.Uint64() >> r.IntN(64)
		s := strconv.FormatUint(n, 10)
		if r.IntN(2) == 0 {
			s = "-" + s
		}
		const ends = ",]} \t\n\r:.eE0x"
		end := ends[r.IntN(len(ends))]
		took := checkScanInt(t, []byte(s+string(end)))
		digits := len(s)
		if s[0] == '-' {
			digits--
		}
		_, err := strconv.ParseInt(s, 10, 64)
		if want := endsValue[end] && digits <= 19 && err == nil; took != want {
			t.Fatalf("scanInt64(%q) took the number: %v, want %v", s+string(end), took, want)
		}
	}
	for _, s := range []string{strconv.Itoa(math.MaxInt64), strconv.Itoa(math.MinInt64), "9223372036854775806", "-9223372036854775807"} {
		if n, end := scanInt64([]byte(s+","), 0); end == 0 || strconv.FormatInt(n, 10) != s {
			t.Errorf("scanInt64(%s) = %d, %d", s, n, end)
		}
	}
}

// BenchmarkInt64Digits times integers of each length decoded into int64s
// (scanInt64): 4,096 different numbers of d digits in an array, a turn.
func BenchmarkInt64Digits(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, d := range []int{1, 2, 3, 4, 5, 6, 7, 8, 10, 13, 16, 19} {
		lo := int64(1)
		for range d - 1 {
			lo *= 10
		}
		in := []byte{'['}
		for i := range 4096 {
			if i > 0 {
				in = append(in, ',')
			}
			n := lo + r.Int64N(lo*9) // d digits; for d = 19, up to 9.2e18 - 1
			if d == 1 {
				n = r.Int64N(10)
			}
			in = strconv.AppendInt(in, n, 10)
		}
		in = append(in, ']')
		out := make([]int64, 0, 4096)
		b.Run(fmt.Sprintf("digits=%d", d), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				out = out[:0]
				if err := Unmarshal(in, &out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFloat64Fraction times Unmarshal of 4,096 numbers into a new
// []float64, each an integer part of 1 to 4 digits and a fraction of f
// digits (f=mixed: 1 to 3, as prices and measures written without their
// trailing zeros are), so that a change to how fractions are read is
// timed at every length, not on one file's numbers.
func BenchmarkFloat64Fraction(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, f := range []int{0, 1, 2, 3, 4, 6, 8, 12, 16} {
		in := []byte{'['}
		for i := range 4096 {
			if i > 0 {
				in = append(in, ',')
			}
			in = strconv.AppendInt(in, r.Int64N(10000)>>r.IntN(12), 10)
			in = append(in, '.')
			k := f
			if f == 0 {
				k = 1 + r.IntN(3)
			}
			for j := range k {
				c := byte('0' + r.IntN(10))
				if j == k-1 && c == '0' {
					c = '5' // no trailing zero: a writer would drop it
				}
				in = append(in, c)
			}
		}
		in = append(in, ']')
		name := fmt.Sprintf("fraction=%d", f)
		if f == 0 {
			name = "fraction=mixed"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				var out []float64 // a new value, as most decoding fills
				if err := Unmarshal(in, &out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
