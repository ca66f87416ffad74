package strscan

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// reference is Special a byte at a time, with an exact high.
func reference(b []byte) (int, bool) {
	high := false
	for i, c := range b {
		if c == '"' || c == '\\' || c < 0x20 {
			return i, high
		}
		high = high || c >= 0x80
	}
	return len(b), high
}

// check compares Special and the portable search with the reference: the
// same index, and high whenever the reference's is (a "maybe" otherwise
// only where a byte >= 0x80 follows the index within the block read).
func check(t *testing.T, b []byte) {
	t.Helper()
	checkKernel(t, "special16", special16, blockSize, b)
	checkKernel(t, "specialWords", specialWords, 8, b)
	wn, wh := reference(b)
	for name, fn := range map[string]func([]byte) (int, bool){"Special": Special, "specialWords+tail": func(b []byte) (int, bool) {
		n, h := specialWords(b)
		for ; n < len(b); n++ {
			if c := b[n]; c == '"' || c == '\\' || c < 0x20 {
				break
			} else if c >= 0x80 {
				h = true
			}
		}
		return n, h
	}} {
		n, h := fn(b)
		if n != wn || (wh && !h) {
			t.Fatalf("%s(%q) = %d, %v; want %d, %v", name, b, n, h, wn, wh)
		}
		// high may be a "maybe" only because of the bytes read past n.
		if h && !wh && !hasHigh(b[n:min(len(b), n+16)]) {
			t.Fatalf("%s(%q): high with no byte >= 0x80 near", name, b)
		}
	}
}

// checkKernel checks a kernel's own contract: it stops at the first
// special byte, or only where fewer than block bytes are left, and its high
// covers every byte before where it stopped.
func checkKernel(t *testing.T, name string, kernel func([]byte) (int, bool), block int, b []byte) {
	t.Helper()
	n, h := kernel(b)
	wn, wh := reference(b[:n])
	stopped := n < len(b) && (b[n] == '"' || b[n] == '\\' || b[n] < 0x20)
	if wn != n || (wh && !h) || (!stopped && len(b)-n >= block) {
		t.Fatalf("%s(%q) = %d, %v", name, b, n, h)
	}
}

func hasHigh(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return true
		}
	}
	return false
}

// TestSpecial puts each special byte, and a byte >= 0x80, at every offset
// of inputs of every length up to 80, and checks the bytes around the
// class edges (0x1f, 0x20, 0x7f, 0x80, 0xff).
func TestSpecial(t *testing.T) {
	for n := 0; n <= 80; n++ {
		plain := make([]byte, n)
		for i := range plain {
			plain[i] = 'a' + byte(i%26)
		}
		check(t, plain)
		for at := 0; at < n; at++ {
			for _, c := range []byte{'"', '\\', 0x00, 0x1f, 0x20, 0x21, 0x7f, 0x80, 0xc3, 0xff, '!', '#', '[', ']'} {
				b := append([]byte(nil), plain...)
				b[at] = c
				check(t, b)
				if at+1 < n {
					b[at+1] = '"'
					check(t, b)
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, r.IntN(100))
		for i := range b {
			switch r.IntN(20) {
			case 0:
				b[i] = byte(r.IntN(256))
			case 1:
				b[i] = 0x80 + byte(r.IntN(128))
			default:
				b[i] = 0x20 + byte(r.IntN(0x5f))
			}
		}
		check(t, b)
	}
}

func FuzzSpecial(f *testing.F) {
	f.Add([]byte("plain ASCII text that runs past one block\""))
	f.Add([]byte("caf\xc3\xa9 \\n"))
	f.Fuzz(func(t *testing.T, b []byte) { check(t, b) })
}

func BenchmarkSpecial(b *testing.B) {
	for _, n := range []int{8, 16, 64, 1024} {
		buf := make([]byte, n+1)
		for i := range buf {
			buf[i] = 'x'
		}
		buf[n] = '"'
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				if k, _ := Special(buf); k != n {
					b.Fatal(k)
				}
			}
		})
	}
}
