package json

import (
	stdjson "encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// Slices and arrays of the narrow scalars (int32, uint64, float32, beside
// int64 and float64), which appendElements writes in loops of their own:
// at their limits, as values, as struct fields (the struct loop's list
// path) and in arrays, NaN and the infinities (an error, worded by the
// element's encoder, with the elements before it written), against
// encoding/json's bytes and errors.
func TestScalarSliceElements(t *testing.T) {
	type rec struct {
		I []int32   `json:"i"`
		U []uint64  `json:"u"`
		F []float32 `json:"f"`
		A [3]uint64 `json:"a"`
		G [2]float32
		J []int64
	}
	ints := []int32{0, 1, -1, 9, 10, 999, 1000, -1000, math.MaxInt32, math.MinInt32}
	uints := []uint64{0, 1, 999, 1000, 1e15, math.MaxInt64, math.MaxInt64 + 1, 1e19, math.MaxUint64}
	floats := []float32{0, float32(math.Copysign(0, -1)), 0.1, 19.99, -12.5, 1e21, 1e20, 1e-6, 1e-7,
		16777216, 16777217, math.MaxFloat32, math.SmallestNonzeroFloat32, 1e38, 3.4e-38}
	r := rand.New(rand.NewPCG(36, 5))
	for range 200 {
		ints = append(ints, int32(r.Uint32()))
		uints = append(uints, r.Uint64()>>r.UintN(64))
		floats = append(floats, math.Float32frombits(r.Uint32()&0x7f7fffff|r.Uint32()&0x80000000))
	}
	values := []any{ints, uints, floats, ints[:0], []uint64(nil),
		[4]int32{1, -2, 3, math.MinInt32}, [2]uint64{math.MaxUint64, 7}, [3]float32{1.5, 0.1, 1e-45},
		rec{I: ints, U: uints, F: floats, A: [3]uint64{1, math.MaxUint64, 0}, G: [2]float32{0.3, 3e38}, J: []int64{math.MinInt64, 5}},
		[]rec{{I: ints[:3]}, {U: uints[:1], F: []float32{}}},
		[]*int32{&ints[1], nil}, []*uint64{nil, &uints[8]}, []*float32{&floats[2], nil},
	}
	for _, x := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
		values = append(values, []float32{1, 2, x, 4}, [2]float32{x, 0}, rec{F: []float32{0.5, x}}, []*float32{&floats[3], &x})
	}
	for _, v := range values {
		got, err := Marshal(v)
		want, stdErr := stdjson.Marshal(v)
		if (err != nil) != (stdErr != nil) || string(got) != string(want) {
			t.Errorf("Marshal(%T) = %.200s, %v;\nencoding/json: %.200s, %v", v, got, err, want, stdErr)
			continue
		}
		if err != nil && err.Error() != stdErr.Error() {
			t.Errorf("Marshal(%T): error %q, encoding/json's %q", v, err, stdErr)
		}
	}
}

// BenchmarkScalarSlices: Marshal of a slice of each scalar kind
// appendElements writes, 8 and 512 elements long, with values drawn for
// each kind as a service holds them (ids, counts, prices; float32 from a
// sensor), each kind's values distinct.
func BenchmarkScalarSlices(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{8, 512} {
		i64 := make([]int64, n)
		i32 := make([]int32, n)
		u64 := make([]uint64, n)
		f64 := make([]float64, n)
		f32 := make([]float32, n)
		for i := range n {
			i64[i] = r.Int64N(1e12) - 5e11
			i32[i] = int32(r.IntN(100000)) - 500
			u64[i] = 1e15 + r.Uint64N(1e18)
			f64[i] = float64(r.IntN(100000)) / 100
			f32[i] = float32(r.NormFloat64() * 40)
		}
		for _, c := range []struct {
			name string
			v    any
		}{{"int64", i64}, {"int32", i32}, {"uint64", u64}, {"float64", f64}, {"float32", f32}} {
			b.Run(fmt.Sprintf("kind=%s/n=%d", c.name, n), func(b *testing.B) {
				out, _ := Marshal(c.v)
				b.SetBytes(int64(len(out)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Marshal(c.v); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
