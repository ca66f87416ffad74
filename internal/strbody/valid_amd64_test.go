//go:build amd64 && !purego

package strbody

import (
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// TestValidUTF8AVX2 compares the kernel with utf8.Valid on text of mixed
// scripts, valid and with a byte changed; utf8dfa's tests (TestVectorEdges
// and the rest, through utf8dfa.Valid) check it byte by byte at every
// edge. Here it also keeps the kernel in this package's test binary, for
// TestAsmVEXOnlyObject.
func TestValidUTF8AVX2(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 on this CPU")
	}
	r := rand.New(rand.NewPCG(7, 8))
	pieces := []string{"a", "bc ", "é", "語", "🌍", "\u2028", "\x7f"}
	for range 20000 {
		var b []byte
		for n := 35 + r.IntN(100); len(b) < n; {
			b = append(b, pieces[r.IntN(len(pieces))]...)
		}
		if r.IntN(2) == 0 {
			b[r.IntN(len(b))] = byte(r.IntN(256))
		}
		if got, want := ValidUTF8AVX2(b), utf8.Valid(b); got != want {
			t.Fatalf("ValidUTF8AVX2(% x) = %v, want %v", b, got, want)
		}
	}
}
