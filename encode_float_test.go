package json

import (
	stdjson "encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// refFloat is encoding/json's float formatting as its floatEncoder writes it.
func refFloat(f float64, bits int) string {
	abs := math.Abs(f)
	fmt := byte('f')
	if abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			fmt = 'e'
		}
	}
	b := strconv.AppendFloat(nil, f, fmt, -1, bits)
	if fmt == 'e' {
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return string(b)
}

func checkAppendFloat(t *testing.T, f float64, bits int) {
	t.Helper()
	if bits == 32 {
		f = float64(float32(f))
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return
	}
	if got, want := string(appendFloat([]byte("x"), f, bits)), "x"+refFloat(f, bits); got != want {
		t.Fatalf("appendFloat(%v, %d) = %s, want %s", f, bits, got, want)
	}
}

// appendFloat against encoding/json's formatting: the edges of the plain
// range, powers of ten, extremes, and a million random bit patterns.
func TestAppendFloat(t *testing.T) {
	edges := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1e-6, 9.999999e-7, 1e-7, 1e21, 9.99999999999999e20,
		1e20, 123456789012345678901, 0.000001234, 5e-324, math.MaxFloat64, math.SmallestNonzeroFloat32,
		math.MaxFloat32, 1.5, 100, 1e15, 1e16, 1e17, 123.456, -65.613616999999977, 1 << 53, 1<<53 + 2, 1<<53 - 1, 1 << 24, 1<<24 + 1, 1<<24 - 1, 1 << 63, 16777217, 2.2250738585072014e-308,
		0x1p-12, 0x1p-13, 0x1p-11} // 0x1p-12: float32Tie
	for _, f := range edges {
		for _, bits := range []int{64, 32} {
			checkAppendFloat(t, f, bits)
			checkAppendFloat(t, -f, bits)
		}
	}
	for e := -30; e <= 30; e++ {
		p := math.Pow10(e)
		for _, f := range []float64{p, math.Nextafter(p, 0), math.Nextafter(p, math.Inf(1)), 3 * p, 7.77 * p} {
			checkAppendFloat(t, f, 64)
			checkAppendFloat(t, f, 32)
		}
		// and the float32s next to the power (the exponent form's bounds
		// are 1e-6 and 1e21 as float32s there)
		p32 := float32(p)
		for _, f := range []float32{math.Nextafter32(p32, 0), math.Nextafter32(p32, float32(math.Inf(1)))} {
			checkAppendFloat(t, float64(f), 32)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	n := 1_000_000
	if testing.Short() {
		n = 100_000
	}
	for range n {
		checkAppendFloat(t, math.Float64frombits(r.Uint64()), 64)
		checkAppendFloat(t, float64(math.Float32frombits(r.Uint32())), 32)
		// values in the plain range, where the decimal point moves
		checkAppendFloat(t, (r.Float64()-0.5)*math.Pow10(r.IntN(28)-7), 64)
		// decimals of 1 to 17 digits with the point anywhere among them,
		// before them (0.000ddd) or after them
		nd := 1 + r.IntN(17)
		digits := strconv.FormatUint(1+r.Uint64N(uint64(math.Pow10(nd))-1), 10)
		dec, _ := strconv.ParseFloat(digits+"e"+strconv.Itoa(r.IntN(30)-23), 64)
		checkAppendFloat(t, dec, 64)
		checkAppendFloat(t, dec, 32)
		// whole numbers, around the largest exact ones of each size
		w := float64(r.Int64N(1<<(1+r.IntN(62))) - 1<<30)
		checkAppendFloat(t, w, 64)
		checkAppendFloat(t, w, 32)
	}
}

func FuzzAppendFloat(f *testing.F) {
	f.Add(uint64(0))
	f.Add(math.Float64bits(1e21))
	f.Fuzz(func(t *testing.T, u uint64) {
		checkAppendFloat(t, math.Float64frombits(u), 64)
		checkAppendFloat(t, float64(math.Float32frombits(uint32(u))), 32)
	})
}

// BenchmarkAppendFloat formats floats like GeoJSON coordinates (canada's:
// 15 to 17 significant digits, two or three before the point), one after
// another into a buffer, as a list of them is written.
func BenchmarkAppendFloat(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	vs := make([]float64, 1024)
	for i := range vs {
		vs[i] = (r.Float64() - 0.5) * 360
	}
	b.SetBytes(int64(len(refFloat(vs[0], 64))))
	buf := make([]byte, 0, 64<<10)
	for i := 0; b.Loop(); i++ {
		if len(buf) > 60<<10 {
			buf = buf[:0]
		}
		buf = append(appendFloat(buf, vs[i&(len(vs)-1)], 64), ',')
	}
}

// float64 and float32 fields, which the struct encoder writes in its loop
// when finite: whole, short, long, tiny and huge ones, and NaN and the
// infinities (an error), against encoding/json's bytes and errors.
func TestStructFloatFields(t *testing.T) {
	type rec struct {
		A float64
		B float64 `json:"b"`
		C float32 `json:"c"`
	}
	for _, x := range []float64{0, math.Copysign(0, -1), 7, -12.5, 19.99, 1e21, 1e20, 1e-6, 1e-7, 123456789.125,
		math.MaxFloat64, math.SmallestNonzeroFloat64, 1.0 / 3, math.NaN(), math.Inf(1), math.Inf(-1),
		math.MaxFloat32, math.SmallestNonzeroFloat32, 16777216, 16777217, 1e38, 3.4e-38} {
		v := []rec{{A: x, B: 1, C: float32(x)}, {A: 2, B: x, C: 0.1}, {C: float32(x)}}
		got, err := Marshal(v)
		want, stdErr := stdjson.Marshal(v)
		if (err != nil) != (stdErr != nil) || string(got) != string(want) {
			t.Errorf("Marshal with %v = %s, %v; encoding/json: %s, %v", x, got, err, want, stdErr)
		}
		if err != nil && err.Error() != stdErr.Error() {
			t.Errorf("Marshal with %v: error %q, encoding/json's %q", x, err, stdErr)
		}
	}
}

// Pointer fields to the scalars the struct encoder writes in its loop:
// nil ones, and ones pointing to strings, small and large integers,
// booleans, floats (NaN: an error) and Numbers (an invalid one: an
// error), against encoding/json's bytes and error texts.
func TestStructPointerFields(t *testing.T) {
	type rec struct {
		S *string  `json:"s"`
		I *int     `json:"i"`
		J *int64   `json:"j"`
		B *bool    `json:"b"`
		F *float64 `json:"f"`
		N *Number  `json:"n"`
	}
	str, long, i, j, yes, f, nan, n, bad := "a string", "a <string> of more than 32 bytes", 42, int64(-1234567890123), true, 19.99, math.NaN(), Number("12.5"), Number("1.")
	for _, v := range []rec{{}, {S: &str, I: &i, J: &j, B: &yes, F: &f, N: &n}, {S: &long}, {F: &nan}, {N: &bad}} {
		got, err := Marshal([]rec{v, v})
		want, stdErr := stdjson.Marshal([]rec{v, v})
		if (err != nil) != (stdErr != nil) || string(got) != string(want) {
			t.Errorf("Marshal = %s, %v; encoding/json: %s, %v", got, err, want, stdErr)
		}
	}
}
