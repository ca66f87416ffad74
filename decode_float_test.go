package json

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// checkFloat compares parseFloat64 with strconv.ParseFloat, bit for bit and
// error for error.
func checkFloat(t *testing.T, s string) {
	t.Helper()
	want, werr := strconv.ParseFloat(s, 64)
	if !checkScanFloat(t, []byte(s+",")) && len(s) < 16 && !strings.ContainsAny(s, "eE") {
		t.Fatalf("scanFloat64(%q) left a short number without exponent to the scanner", s+",")
	}
	checkScanFloat(t, []byte(s))
	got, gerr := parseFloat64([]byte(s))
	if (werr == nil) != (gerr == nil) || math.Float64bits(got) != math.Float64bits(want) {
		t.Fatalf("parseFloat64(%q) = %v (%x), %v; want %v (%x), %v", s, got, math.Float64bits(got), gerr, want, math.Float64bits(want), werr)
	}
}

// checkScanFloat checks scanFloat64 on data: when it takes a number, that
// is a valid JSON number followed by a byte that may end a value, and its
// value is strconv's. It reports whether it took one.
func checkScanFloat(t *testing.T, data []byte) bool {
	t.Helper()
	if len(data) == 0 {
		return false // its callers never ask
	}
	got, end := scanFloat64(data, 0)
	if end == 0 {
		return false
	}
	num := string(data[:end])
	want, err := strconv.ParseFloat(num, 64)
	if !isValidNumber(data[:end]) || end >= len(data) || !endsValue[data[end]] || err != nil || math.Float64bits(got) != math.Float64bits(want) {
		t.Fatalf("scanFloat64(%q) = %v, %d; want %q = %v (%v) followed by a value's end", data, got, end, num, want, err)
	}
	return true
}

func TestScanFloat64(t *testing.T) {
	for _, c := range []struct {
		in   string
		took bool
	}{
		{"0,", true}, {"-0]", true}, {"1.5}", true}, {"-65.613616999999977,", true}, {"0.000123 ", true},
		{"1234567890.123456789\\", false}, {"1234567890.123456789\n", true}, {"12345678901234567890,", false},
		{"0.12345678,", true}, {"0.123456789,", true}, {"12345678.1,", true},
		{"1e5,", true}, {"1.5E-3,", true}, {"-6.02214076e+23}", true}, {"3e08 ", true}, {"1e,", false}, {"1e+,", false},
		{"1e5", false}, {"1e5x", false}, {"1e400,", false}, {"1e-400,", false}, {"0e999,", true}, {"1e99999999999,", false},
		{"1.7976931348623157e308,", true}, {"01,", false}, {"-,", false}, {"1.,", false}, {"-.5,", false},
		{".5,", false}, {"1.5", false}, {"1.5x", false}, {"00.5,", false}, {"-01.5,", false}, {"1.5.5,", false},
		{"1 ", true}, {"-", false}, {"0", false},
		// More than 19 digits, of which at most 19 significant: the zeros
		// before the first other digit add nothing to the mantissa.
		{"0.0006988752666567719,", true}, {"-0.0000000000000000001234567890123456789]", true},
		{"0.00000000000000000000,", true}, {"-0.000000000000000000000}", true},
		{"0.00000000000000000000123456789012345678901,", false}, {"0.00012345678901234567890,", false},
		{"0.10000000000000000000001,", false}, {"1.00000000000000000001,", false},
		{"100000000000000000000.5,", false}, {"0.0000000000000000000000000000001,", true},
	} {
		if took := checkScanFloat(t, []byte(c.in)); took != c.took {
			t.Errorf("scanFloat64(%q) took the number: %v, want %v", c.in, took, c.took)
		}
	}
}

func TestParseFloat64(t *testing.T) {
	for _, s := range []string{
		"0", "-0", "0.0", "-0.0e10", "1", "-1", "1.5", "123456789", "1e22", "1e23", "9007199254740993",
		"18446744073709551615", "18446744073709551616", "123456789012345678901234567890",
		"0.1", "0.2", "0.30000000000000004", "-65.613616999999977", "43.420273000000009",
		"1e308", "1.7976931348623157e308", "1.7976931348623159e308", "1e309", "1e-307", "2.2250738585072014e-308",
		"2.2250738585072011e-308", "4.9406564584124654e-324", "5e-324", "1e-400", "0.000000000000000000000000000001",
		"1.00000000000000011102230246251565404236316680908203125", "1.0000000000000001110223024625156540423631668090820312",
		"9.999999999999999e22", "1e-5", "123.456e-7", "7e-10", "3.4028235e38", "0e999", "0.0000e-999",
		// 19 and 20 digits, split across the point at every place, and
		// leading zeros that make a long number short.
		"1234567890123456789", "12345678901234567890", "1234567890.123456789", "1234567890.1234567891",
		"0.1234567890123456789", "0.12345678901234567891", "9999999999999999999", "99999999999999999999",
		"0.00000000000000000001234", "0.0000000000000000000000000000000000000000000001e46",
		"12345678.12345678", "1.1234567812345678", "123456781234567812.3", "-0.000000012345678123456789e-5",
	} {
		checkFloat(t, s)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200000; i++ {
		f := math.Float64frombits(r.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		for _, s := range []string{
			strconv.FormatFloat(f, 'g', -1, 64),
			strconv.FormatFloat(f, 'e', r.IntN(20), 64),
			strconv.FormatFloat(float64(r.Uint64()>>r.IntN(64))/math.Pow10(r.IntN(30)), 'f', -1, 64),
			// a random digit string of 1 to 25 digits with the point anywhere in it
			randomDecimal(r),
		} {
			checkFloat(t, s)
		}
	}
}

// randomDecimal returns 1 to 25 random digits, without a leading zero
// unless the integer part is 0, with a point among them or not.
func randomDecimal(r *rand.Rand) string {
	n := 1 + r.IntN(25)
	b := make([]byte, 0, n+1)
	for i := 0; i < n; i++ {
		b = append(b, byte('0'+r.IntN(10)))
	}
	if p := r.IntN(n + 1); p < n {
		b = append(b[:p+1], b[p:]...)
		b[p] = '.'
		if p == 0 {
			b = append([]byte{'0'}, b...)
		}
	}
	for len(b) > 1 && b[0] == '0' && b[1] != '.' {
		b = b[1:]
	}
	return string(b)
}

// FuzzParseFloat64: any valid JSON number parses as strconv parses it, and
// whatever scanFloat64 or scanInt64 takes from any input is a valid number
// with strconv's value.
func FuzzParseFloat64(f *testing.F) {
	for _, s := range []string{"0", "-1.5e-3", "1e23", "123456789012345678901234567890", "2.2250738585072011e-308"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkScanFloat(t, []byte(s))
		checkScanInt(t, []byte(s))
		if !isValidNumber([]byte(s)) {
			return
		}
		checkFloat(t, s)
	})
}

// BenchmarkScanFloat64 times scanFloat64 on 4,096 distinct numbers of one
// kind each, followed by more of a record (as in a window): prices (whole
// cents, the shortest form: 1 to 4 digits, a fraction of 0 to 2),
// coordinates (3 to 7 decimals), random float64s below 1,000 in their
// shortest form (16 or 17 digits), exponents, and ints of 1 to 3 and of 1
// to 16 digits. The lengths vary from one number to the next, as in data,
// so a branch on a length is mispredicted as often as it would be there.
func BenchmarkScanFloat64(b *testing.B) {
	kinds := []struct {
		name  string
		write func(r *rand.Rand, b []byte) []byte
	}{
		{"price", func(r *rand.Rand, b []byte) []byte {
			return strconv.AppendFloat(b, float64(r.IntN(1000000))/100, 'f', -1, 64)
		}},
		{"coord", func(r *rand.Rand, b []byte) []byte {
			return strconv.AppendFloat(b, r.Float64()*360-180, 'f', 3+r.IntN(5), 64)
		}},
		{"float17", func(r *rand.Rand, b []byte) []byte { return strconv.AppendFloat(b, r.Float64()*1000, 'f', -1, 64) }},
		{"exp", func(r *rand.Rand, b []byte) []byte {
			return strconv.AppendFloat(b, r.Float64()*1e100, 'e', r.IntN(9), 64)
		}},
		{"small", func(r *rand.Rand, b []byte) []byte { return strconv.AppendInt(b, int64(r.IntN(1000)), 10) }},
		{"int", func(r *rand.Rand, b []byte) []byte { return strconv.AppendInt(b, r.Int64N(1<<r.IntN(53)), 10) }},
	}
	for _, k := range kinds {
		r := rand.New(rand.NewPCG(7, 9))
		in := make([][]byte, 4096)
		for i := range in {
			in[i] = append(k.write(r, nil), `,"b":12}`...)
		}
		left := 0 // to strconv: halfway cases
		for _, s := range in {
			if _, end := scanFloat64(s, 0); end == 0 {
				left++
			}
		}
		if left > len(in)/100 {
			b.Fatalf("%s: scanFloat64 left %d of %d numbers to strconv", k.name, left, len(in))
		}
		b.Run("kind="+k.name, func(b *testing.B) {
			sum := 0.0
			for i := 0; b.Loop(); i++ {
				f, _ := scanFloat64(in[i&4095], 0)
				sum += f
			}
			sinkFloat = sum
		})
	}
}

var sinkFloat float64

// TestScanFloat32: every number scanFloat32 takes it reads to
// strconv.ParseFloat(s, 32)'s bits (one rounding, to nearest even), and it
// takes prices and short decimals: random mantissas around 2^24, with up
// to twelve digits after the point, signs, zeros, and the halfway cases
// of float32's precision.
func TestScanFloat32(t *testing.T) {
	r := rand.New(rand.NewPCG(32, 1))
	var ins []string
	for range 200000 {
		var m uint64
		switch r.IntN(3) {
		case 0:
			m = r.Uint64N(100000)
		case 1:
			m = 1<<24 - 50 + r.Uint64N(100)
		default:
			m = r.Uint64N(1 << 26)
		}
		s := strconv.FormatUint(m, 10)
		if k := r.IntN(13); k > 0 {
			for len(s) <= k {
				s = "0" + s
			}
			s = s[:len(s)-k] + "." + s[len(s)-k:]
		}
		if r.IntN(2) == 0 {
			s = "-" + s
		}
		ins = append(ins, s)
	}
	// Halfway between two float32s, and either side: 2^24+1 is one.
	for m := uint64(1<<24 - 3); m <= 1<<24+3; m++ {
		ins = append(ins, strconv.FormatUint(m, 10), strconv.FormatUint(m, 10)+".5", "0."+strconv.FormatUint(m, 10))
	}
	ins = append(ins, "0", "-0", "0.0", "-0.0", "1.5", "4213.7", "0.1", "3.4028234", "16777216", "16777217", "16777218")
	took := 0
	for _, s := range ins {
		want, err := strconv.ParseFloat(s, 32)
		f, end := scanFloat32([]byte(s+","), 0)
		if end == 0 {
			continue
		}
		took++
		if err != nil || end != len(s) || math.Float32bits(f) != math.Float32bits(float32(want)) {
			t.Fatalf("scanFloat32(%q) = %v (%#x), end %d; strconv: %v (%#x), %v", s, f, math.Float32bits(f), end, float32(want), math.Float32bits(float32(want)), err)
		}
	}
	if took < len(ins)/3 {
		t.Errorf("scanFloat32 took %d of %d", took, len(ins))
	}
	for _, s := range []string{"4213.7", "0.1", "-0", "16777216", "9999.99", "-12.5"} {
		if _, end := scanFloat32([]byte(s+","), 0); end != len(s) {
			t.Errorf("scanFloat32(%q) left it to strconv", s)
		}
	}
	// Past what one float32 operation gives exactly, or not a number
	// that ends there: strconv's.
	for _, s := range []string{"1e3", "01", "1.", "-", "1.5x", "123456789012345678901", "0.00000000001", "16777217", "1.23456789012"} {
		if _, end := scanFloat32([]byte(s+","), 0); end != 0 {
			t.Errorf("scanFloat32(%q) took it", s)
		}
	}
}
