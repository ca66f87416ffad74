package shortest

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// benchValues is a mix like a JSON document's: coordinates with many digits
// and few, random doubles, small integers with a binary fraction, and
// numbers far from 1.
func benchValues() []float64 {
	r := rand.New(rand.NewPCG(11, 12))
	vs := []float64{-65.613616999999977, 45.5, 12.25, 1e-7, 3.14e25, -122.41941550000001, 37.7749295, 0.1, 2.5e-3}
	for len(vs) < 1024 {
		switch len(vs) % 4 {
		case 0: // a coordinate: up to 15 significant digits
			f, _ := strconv.ParseFloat(strconv.FormatFloat(r.Float64()*360-180, 'f', 1+r.IntN(14), 64), 64)
			vs = append(vs, f)
		case 1: // random bits
			if f := math.Float64frombits(r.Uint64()); f != 0 && !math.IsNaN(f) && !math.IsInf(f, 0) {
				vs = append(vs, f)
			}
		case 2: // 12.25 and the like
			vs = append(vs, float64(r.IntN(10000))+float64(1+r.IntN(15))/16)
		case 3: // short decimals far from 1
			f, _ := strconv.ParseFloat(randomDecimal(r, 4, -30+r.IntN(60)), 64)
			vs = append(vs, f)
		}
	}
	return vs
}

func BenchmarkFloat64(b *testing.B) {
	vs := benchValues()
	bs := make([]uint64, len(vs))
	for i, v := range vs {
		bs[i] = math.Float64bits(v)
	}
	b.Run("shortest", func(b *testing.B) {
		b.ReportAllocs()
		var sink uint64
		for i := 0; b.Loop(); i++ {
			d, e := Float64(bs[i&(len(bs)-1)])
			sink += d + uint64(e)
		}
		_ = sink
	})
	b.Run("strconv", func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]byte, 0, 32)
		for i := 0; b.Loop(); i++ {
			buf = strconv.AppendFloat(buf[:0], vs[i&(len(vs)-1)], 'e', -1, 64)
		}
	})
}

func BenchmarkFloat32(b *testing.B) {
	vs := benchValues()
	bs := make([]uint32, len(vs))
	for i, v := range vs {
		bs[i] = math.Float32bits(float32(v))
		if f := math.Float32frombits(bs[i]); f == 0 || math.IsInf(float64(f), 0) {
			bs[i] = math.Float32bits(1.25)
		}
	}
	b.Run("shortest", func(b *testing.B) {
		b.ReportAllocs()
		var sink uint64
		for i := 0; b.Loop(); i++ {
			d, e := Float32(bs[i&(len(bs)-1)])
			sink += d + uint64(e)
		}
		_ = sink
	})
	b.Run("strconv", func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]byte, 0, 32)
		for i := 0; b.Loop(); i++ {
			buf = strconv.AppendFloat(buf[:0], float64(math.Float32frombits(bs[i&(len(bs)-1)])), 'e', -1, 32)
		}
	})
}
