//go:build amd64 && !purego

package utf8dfa

import (
	"github.com/jsonpipe/json/internal/strbody"
	"golang.org/x/sys/cpu"
)

// useAVX2 selects the vector check; tests turn it off to compare.
var useAVX2 = cpu.X86.HasAVX2

// minAVX2 is the length from which the vector check is used: the
// shortest it takes (three bytes before its last block), where its set-up
// already costs less than the automaton (BenchmarkValidLen).
const minAVX2 = strbody.MinValidUTF8

// Valid reports whether p is entirely valid UTF-8, exactly as utf8.Valid
// does.
func Valid(p []byte) bool {
	if useAVX2 && len(p) >= minAVX2 {
		return validAVX2(p)
	}
	return validDFA(p)
}

// validAVX2 is Valid for len(p) >= minAVX2: the kernel is strbody's, which
// shares its tables with the escape kernel.
func validAVX2(p []byte) bool { return strbody.ValidUTF8AVX2(p) }

// CopyValid copies p into d, as copy does, and reports whether p is
// entirely valid UTF-8, as Valid does: from minAVX2 bytes on with AVX2,
// reading p once for both. d must be at least as long as p, and apart
// from it.
func CopyValid(d, p []byte) bool {
	if useAVX2 && len(p) >= minAVX2 {
		return strbody.CopyValidUTF8AVX2(d, p)
	}
	copy(d[:len(p)], p)
	return validDFA(p)
}
