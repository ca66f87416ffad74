package strbody

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// reference is Stop byte by byte.
func reference(w []byte, j int) (int, uint64) {
	var high byte
	for ; j+Block <= len(w); j += Block {
		for _, c := range w[j : j+Block] {
			high |= c
		}
		for k, c := range w[j : j+Block] {
			if c == '"' || c == '\\' || c < 0x20 {
				return j + k, uint64(high & 0x80)
			}
		}
	}
	return j, uint64(high & 0x80)
}

// check compares Stop, the generic version and the reference on w from
// every start.
func check(t *testing.T, w []byte) {
	t.Helper()
	for j := 0; j <= len(w); j++ {
		wk, wh := reference(w, j)
		if k, h := Stop(w, j); k != wk || h != wh {
			t.Fatalf("Stop(%q, %d) = %d, %#x; want %d, %#x (AVX2 %v)", w, j, k, h, wk, wh, useAVX2)
		}
		if k, h := stopGeneric(w, j); k != wk || h != wh {
			t.Fatalf("stopGeneric(%q, %d) = %d, %#x; want %d, %#x", w, j, k, h, wk, wh)
		}
	}
}

// TestStop puts each kind of stop byte, and a non-ASCII byte before or
// after it, at every place in inputs of 0 to 100 bytes.
func TestStop(t *testing.T) {
	t.Logf("AVX2 kernel: %v", useAVX2)
	for n := 0; n <= 100; n++ {
		plain := make([]byte, n)
		for i := range plain {
			plain[i] = 'a' + byte(i%26)
		}
		check(t, plain)
		for p := 0; p < n; p++ {
			for _, c := range []byte{'"', '\\', 0, 0x1f, '\n'} {
				w := append([]byte(nil), plain...)
				w[p] = c
				check(t, w)
				for _, q := range []int{0, p / 2, p + 1, n - 1} {
					if q < n && q != p {
						x := append([]byte(nil), w...)
						x[q] = 0xe9
						check(t, x)
					}
				}
			}
			// Bytes next to the stops in value: none of them stops.
			for _, c := range []byte{0x20, '!', '#', '[', ']', 0x7f, 0x80, 0xa2, 0xdc, 0xff} {
				w := append([]byte(nil), plain...)
				w[p] = c
				check(t, w)
			}
		}
	}
}

func TestStopRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte{'a', ' ', '"', '\\', 0x1f, 0x20, 0x7f, 0x80, 0xff, 'z'}
	for range 20000 {
		w := make([]byte, r.IntN(200))
		for i := range w {
			if r.IntN(40) == 0 {
				w[i] = alphabet[r.IntN(len(alphabet))]
			} else {
				w[i] = byte(r.IntN(256))%0x5b + 0x20 // 0x20 to 0x7a: '"' and '\\' among them
			}
		}
		check(t, w)
	}
}

func FuzzStop(f *testing.F) {
	f.Add([]byte(`0123456789abcdef0123456789abcdef"`), 0)
	f.Add([]byte("\xe9aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\\"), 3)
	f.Fuzz(func(t *testing.T, w []byte, j int) {
		if j < 0 || j > len(w) {
			return
		}
		wk, wh := reference(w, j)
		if k, h := Stop(w, j); k != wk || h != wh {
			t.Fatalf("Stop(%q, %d) = %d, %#x; want %d, %#x", w, j, k, h, wk, wh)
		}
		if k, h := stopGeneric(w, j); k != wk || h != wh {
			t.Fatalf("stopGeneric(%q, %d) = %d, %#x; want %d, %#x", w, j, k, h, wk, wh)
		}
	})
}

// kernelLengths are the run lengths every kernel is timed at against its
// pure-Go twin: a kernel's call has a fixed cost that long runs hide.
var kernelLengths = []int{8, 16, 32, 40, 64, 100, 256, 1024, 4096}

// BenchmarkStop times Stop on a run of n plain bytes and a quote, with 64
// more bytes of window after it, by the assembly kernel (where this build
// and CPU have it) and by the pure-Go twin:
// benchstat -col /impl compares them at each n.
func BenchmarkStop(b *testing.B) {
	for _, n := range kernelLengths {
		w := make([]byte, n+1+64)
		for i := range w {
			w[i] = 'a' + byte(i%26)
		}
		w[n] = '"'
		for _, impl := range []struct {
			name string
			fn   func([]byte, int) (int, uint64)
		}{{"avx2", stop}, {"generic", stopGeneric}} {
			b.Run(fmt.Sprintf("n=%d/impl=%s", n, impl.name), func(b *testing.B) {
				if impl.name == "avx2" && !useAVX2 {
					b.Skip("no AVX2 kernel in this build or on this CPU")
				}
				b.SetBytes(int64(n))
				b.ReportAllocs()
				for b.Loop() {
					if k, _ := impl.fn(w, 0); k != n {
						b.Fatalf("stopped at %d, want %d", k, n)
					}
				}
			})
		}
	}
}
