package utf8dfa

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"testing"
	"unicode/utf8"
)

// vectorOn skips, saying so, where there is no vector check to test.
func vectorOn(t *testing.T) {
	t.Helper()
	if !useAVX2 {
		t.Skip("this build or CPU has no vector check (not amd64 with AVX2, or purego): Valid is the automaton, tested by TestAgainstStdlibShort")
	}
}

// check compares Valid, CopyValid and the automaton with utf8.Valid on b,
// and CopyValid's copy with b (and the bytes after it in d, untouched).
func check(t *testing.T, b []byte) {
	t.Helper()
	want := utf8.Valid(b)
	if got := Valid(b); got != want {
		t.Fatalf("Valid(% x) (len %d) = %v, want %v", b, len(b), got, want)
	}
	d := make([]byte, len(b)+4)
	for i := range d {
		d[i] = 0xA5
	}
	if got := CopyValid(d, b); got != want {
		t.Fatalf("CopyValid(% x) (len %d) = %v, want %v", b, len(b), got, want)
	}
	if !bytes.Equal(d[:len(b)], b) || string(d[len(b):]) != "\xa5\xa5\xa5\xa5" {
		t.Fatalf("CopyValid(% x) (len %d) wrote % x", b, len(b), d)
	}
	if got := validDFA(b); got != want {
		t.Fatalf("validDFA(% x) = %v, want %v", b, got, want)
	}
}

var edges = []byte{0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF}

// TestVectorEdges puts every sequence of four bytes from the values where
// UTF-8's rules change (and, with -short, every sequence of three) where
// the vector check is likeliest to go wrong: across a block's edge, at the
// start, in the last block (which overlaps the one before), ending at the
// very end, in text of ASCII and of two-, three- and four-byte runes.
func TestVectorEdges(t *testing.T) {
	vectorOn(t)
	fills := []string{"a", "é", "語", "🌍"}
	type place struct{ n, at int }
	var places []place
	for _, n := range []int{35, 36, 37, 38, 64, 67, 95} {
		for _, at := range []int{0, 1, 29, 30, 31, 32, 33, n - 4, n - 3, n - 2, n - 1} {
			if at >= 0 && at < n {
				places = append(places, place{n, at})
			}
		}
	}
	// Four bytes at every place is 80 million checks: four at the places
	// that matter most (a block's first bytes and last, the end), three
	// at all.
	width := 3
	if !testing.Short() {
		width = 4
		places = []place{{35, 0}, {35, 2}, {35, 3}, {35, 31}, {64, 30}, {64, 31}, {64, 61}, {67, 1}, {67, 32}, {67, 64}, {67, 66}}
		fills = fills[:3]
	}
	seq := make([]byte, width)
	var walk func(k int)
	buf := make([]byte, 0, 128)
	walk = func(k int) {
		if k == width {
			for _, f := range fills {
				for _, p := range places {
					// The fill, cut at a rune's edge, then the sequence
					// (cut by the end if it must be), then the fill again.
					buf = buf[:0]
					for len(buf)+len(f) <= p.at {
						buf = append(buf, f...)
					}
					for len(buf) < p.at {
						buf = append(buf, 'a')
					}
					buf = append(buf, seq...)
					for len(buf) < p.n {
						buf = append(buf, 'a')
					}
					check(t, buf[:p.n])
				}
			}
			return
		}
		for _, c := range edges {
			seq[k] = c
			walk(k + 1)
		}
	}
	walk(0)
}

// TestVectorRandom: valid text of every rune length with a byte changed,
// or a rune cut, at a random place, at lengths 1 to 300 (both sides of
// minAVX2).
func TestVectorRandom(t *testing.T) {
	vectorOn(t)
	r := rand.New(rand.NewPCG(1, 2))
	n := 200000
	if testing.Short() {
		n = 20000
	}
	for i := 0; i < n; i++ {
		size := 1 + r.IntN(300)
		var b []byte
		for len(b) < size {
			switch r.IntN(5) {
			case 0:
				b = append(b, byte(r.IntN(0x80)))
			case 1:
				b = utf8.AppendRune(b, rune(0x80+r.IntN(0x780)))
			case 2:
				b = utf8.AppendRune(b, rune(0x800+r.IntN(0xF800)))
			default:
				b = utf8.AppendRune(b, rune(0x10000+r.IntN(0x100000)))
			}
		}
		b = b[:size] // may cut a rune
		switch r.IntN(4) {
		case 0:
			b[r.IntN(size)] = edges[r.IntN(len(edges))]
		case 1:
			b[r.IntN(size)] = byte(r.IntN(256))
		case 2:
			for k := r.IntN(4); k > 0; k-- {
				b[r.IntN(size)] = byte(r.IntN(256))
			}
		}
		check(t, b)
	}
}

// TestVectorRunsAndStops: a long valid text is valid whatever its length,
// and one bad byte anywhere in it, in every block and at every place of
// the tail, is found.
func TestVectorRunsAndStops(t *testing.T) {
	vectorOn(t)
	text := benchText("random")[:1000]
	for n := 0; n <= len(text); n++ {
		b := text[:n]
		check(t, b)
	}
	b := append([]byte(nil), benchText("japanese")[:700]...)
	for i := range b {
		old := b[i]
		b[i] = 0xFF
		if Valid(b) {
			t.Fatalf("0xFF at %d of %d not found", i, len(b))
		}
		b[i] = old
	}
	if !Valid(b) {
		t.Fatal("valid text reported invalid")
	}
}

// runePieces cuts text into 64 pieces of about n bytes, at rune edges.
func runePieces(text []byte, n int) [][]byte {
	var pieces [][]byte
	for i := 0; len(pieces) < 64; {
		for i < len(text) && !utf8.RuneStart(text[i]) {
			i++
		}
		j := i + n
		for j < len(text) && !utf8.RuneStart(text[j]) {
			j++
		}
		if j > len(text) {
			i = 0
			continue
		}
		pieces = append(pieces, text[i:j])
		i = j
	}
	return pieces
}

// BenchmarkValidLen times the automaton and the vector check on strings
// of 8 bytes to 4 KiB, each a different piece of the text (as the strings
// of a document are), to set minAVX2.
func BenchmarkValidLen(b *testing.B) {
	for _, kind := range []string{"accented", "mixed", "japanese"} {
		text := benchText(kind)
		for _, n := range []int{8, 16, 24, 35, 48, 64, 128, 256, 1024, 4096} {
			pieces := runePieces(text, n)
			for _, impl := range []string{"dfa", "vector"} {
				if impl == "vector" && (!useAVX2 || n < minAVX2) {
					continue
				}
				f := validDFA
				if impl == "vector" {
					f = validAVX2
				}
				b.Run("text="+kind+"/n="+strconv.Itoa(n)+"/impl="+impl, func(b *testing.B) {
					b.SetBytes(int64(n))
					i := 0
					for b.Loop() {
						sink = f(pieces[i&63])
						i++
					}
				})
			}
		}
	}
}

// BenchmarkCopyValidLen times CopyValid ("fused") against what it
// replaces, Valid and then a copy ("apart"), on pieces of 8 bytes to 4 KiB
// of text: into memory that is there already ("-noalloc", as the decoder's
// block of short strings is), and each into a new string's memory, "fused"
// into a new []byte (zeroed by make), "apart" Valid and then string(p)
// (not zeroed). On Intel Xeon the first pays from 40 bytes on (-5% to
// -31%), the second not at all: the zeroing and the allocation cost what
// the second read saved.
func BenchmarkCopyValidLen(b *testing.B) {
	buf := make([]byte, 4096+64)
	impls := []struct {
		name string
		fn   func(p []byte)
	}{
		{"apart-noalloc", func(p []byte) {
			if Valid(p) {
				copy(buf, p)
			}
		}},
		{"fused-noalloc", func(p []byte) { CopyValid(buf, p) }},
		{"apart", func(p []byte) {
			if Valid(p) {
				sinkString = string(p)
			}
		}},
		{"fused", func(p []byte) {
			d := make([]byte, len(p))
			if CopyValid(d, p) {
				sinkBytes = d
			}
		}},
	}
	for _, kind := range []string{"mixed", "japanese"} {
		text := benchText(kind)
		for _, n := range []int{8, 16, 40, 64, 128, 256, 1024, 4096} {
			pieces := runePieces(text, n)
			for _, im := range impls {
				b.Run("text="+kind+"/n="+strconv.Itoa(n)+"/impl="+im.name, func(b *testing.B) {
					b.SetBytes(int64(n))
					i := 0
					for b.Loop() {
						im.fn(pieces[i%len(pieces)])
						i++
					}
				})
			}
		}
	}
}

var (
	sinkString string
	sinkBytes  []byte
)
