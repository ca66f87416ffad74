//go:build amd64 && !purego

package strbody

import (
	"math/rand/v2"
	"strings"
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
	for range 20000 {
		b := mixedText(r)
		if got, want := ValidUTF8AVX2(b), utf8.Valid(b); got != want {
			t.Fatalf("ValidUTF8AVX2(% x) = %v, want %v", b, got, want)
		}
	}
}

// mixedText is 35 to 134 bytes of text in mixed scripts, every other one
// with a byte changed to any value.
func mixedText(r *rand.Rand) []byte {
	pieces := []string{"a", "bc ", "é", "語", "🌍", "\u2028", "\x7f"}
	var b []byte
	for n := 35 + r.IntN(100); len(b) < n; {
		b = append(b, pieces[r.IntN(len(pieces))]...)
	}
	if r.IntN(2) == 0 {
		b[r.IntN(len(b))] = byte(r.IntN(256))
	}
	return b
}

// TestCopyValidUTF8AVX2 compares the copying kernel with utf8.Valid and
// copy on the same text, and checks it writes nothing past len(p) in d
// (utf8dfa's tests check it at every edge, through utf8dfa.CopyValid).
func TestCopyValidUTF8AVX2(t *testing.T) {
	if !useAVX2 {
		t.Skip("no AVX2 on this CPU")
	}
	r := rand.New(rand.NewPCG(9, 10))
	for range 20000 {
		b := mixedText(r)
		d := make([]byte, len(b)+33)
		for i := range d {
			d[i] = '#'
		}
		if got, want := CopyValidUTF8AVX2(d, b), utf8.Valid(b); got != want {
			t.Fatalf("CopyValidUTF8AVX2(% x) = %v, want %v", b, got, want)
		}
		if string(d[:len(b)]) != string(b) || strings.Trim(string(d[len(b):]), "#") != "" {
			t.Fatalf("CopyValidUTF8AVX2(% x) wrote % x", b, d)
		}
	}
}
