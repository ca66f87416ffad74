package strbody

import (
	"math/rand/v2"
	"testing"
)

// escapeReference is Escape byte by byte.
func escapeReference(w []byte, j int, html bool) int {
	for ; j+Block <= len(w); j += Block {
		for k, c := range w[j : j+Block] {
			if c == '"' || c == '\\' || c < 0x20 || c >= 0x80 || html && (c == '<' || c == '>' || c == '&') {
				return j + k
			}
		}
	}
	return j
}

// checkEscape compares Escape, the generic version and the reference on w
// from every start, with and without html.
func checkEscape(t *testing.T, w []byte) {
	t.Helper()
	for _, html := range []bool{false, true} {
		for j := 0; j <= len(w); j++ {
			want := escapeReference(w, j, html)
			if k := Escape(w, j, html); k != want {
				t.Fatalf("Escape(%q, %d, %v) = %d; want %d (AVX2 %v)", w, j, html, k, want, useAVX2)
			}
			if k := escapeGeneric(w, j, html); k != want {
				t.Fatalf("escapeGeneric(%q, %d, %v) = %d; want %d", w, j, html, k, want)
			}
		}
	}
}

// TestEscape puts each kind of byte Escape stops at, and each of the bytes
// next to them in value, at every place in inputs of 0 to 100 bytes, alone
// and with a second stop after it.
func TestEscape(t *testing.T) {
	t.Logf("AVX2 kernel: %v", useAVX2)
	stops := []byte{'"', '\\', 0, 0x1f, '\n', '<', '>', '&', 0x80, 0xe2, 0xff}
	near := []byte{0x20, '!', '#', '%', '\'', ';', '=', '?', '[', ']', 0x7f, '|', '.', 'n'}
	for n := 0; n <= 100; n++ {
		plain := make([]byte, n)
		for i := range plain {
			plain[i] = 'a' + byte(i%26)
		}
		checkEscape(t, plain)
		for p := 0; p < n; p++ {
			for _, c := range stops {
				w := append([]byte(nil), plain...)
				w[p] = c
				checkEscape(t, w)
				if q := p + 1 + (n-p)/2; q < n {
					w[q] = '"'
					checkEscape(t, w)
				}
			}
			for _, c := range near {
				w := append([]byte(nil), plain...)
				w[p] = c
				checkEscape(t, w)
			}
		}
	}
}

func TestEscapeRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte{'"', '\\', 0x1f, 0x80, 0xff, '<', '>', '&', '=', '?', '$'}
	for range 20000 {
		w := make([]byte, r.IntN(200))
		for i := range w {
			if r.IntN(40) == 0 {
				w[i] = alphabet[r.IntN(len(alphabet))]
			} else {
				w[i] = byte(r.IntN(0x60)) + 0x20 // 0x20 to 0x7f
			}
		}
		checkEscape(t, w)
	}
}

func FuzzEscape(f *testing.F) {
	f.Add([]byte(`0123456789abcdef0123456789abcdef<`), 0, true)
	f.Add([]byte("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\xe2\x80\xa8"), 3, false)
	f.Fuzz(func(t *testing.T, w []byte, j int, html bool) {
		if j < 0 || j > len(w) {
			return
		}
		want := escapeReference(w, j, html)
		if k := Escape(w, j, html); k != want {
			t.Fatalf("Escape(%q, %d, %v) = %d; want %d", w, j, html, k, want)
		}
		if k := escapeGeneric(w, j, html); k != want {
			t.Fatalf("escapeGeneric(%q, %d, %v) = %d; want %d", w, j, html, k, want)
		}
	})
}

func BenchmarkEscape(b *testing.B) {
	w := make([]byte, 4096)
	for i := range w {
		w[i] = 'a'
	}
	w[len(w)-1] = '<'
	for _, kernel := range []struct {
		name string
		fn   func([]byte, int, bool) int
	}{{"Escape", Escape}, {"generic", escapeGeneric}} {
		b.Run(kernel.name, func(b *testing.B) {
			b.SetBytes(int64(len(w)))
			b.ReportAllocs()
			for b.Loop() {
				kernel.fn(w, 0, true)
			}
		})
	}
}
