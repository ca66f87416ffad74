//go:build amd64 && !purego

package strbody

import "golang.org/x/sys/cpu"

// asmKernels says this build has the assembly kernels (tests look for
// them in the test binary).
const asmKernels = true

// useAVX2 selects the assembly kernel; tests turn it off to compare.
var useAVX2 = cpu.X86.HasAVX2

func stop(w []byte, j int) (int, uint64) {
	if useAVX2 {
		return stopAVX2(w, j)
	}
	return stopGeneric(w, j)
}

// stopAVX2 is Stop with AVX2, 32 bytes a turn (stop_amd64.s).
//
//go:noescape
func stopAVX2(w []byte, j int) (k int, nonASCII uint64)

// EscapeKernel is EscapeCopy's kernel, unchecked: escapeCopyAVX2 when
// useAVX2, else escapeCopyGeneric, chosen by a jump in assembly
// (escape_amd64.s), so that a caller pays for one call, not two. j must be
// in [0, len(s)] and d must hold len(s)-j+Block bytes (EscapeCopy checks
// both); where it returns a k that is not len(s), EscapeFinish takes the
// last steps.
//
//go:noescape
func EscapeKernel(d []byte, s string, j int, html bool) (k, n int)

// escapeCopyAVX2 is the kernel of EscapeCopy with AVX2, 32 bytes a turn
// (escape_amd64.s).
//
//go:noescape
func escapeCopyAVX2(d []byte, s string, j int, html bool) (k, n int)

// ValidUTF8AVX2 reports whether p is entirely valid UTF-8, as utf8.Valid
// does, with AVX2, 32 bytes a turn (valid_amd64.s): utf8dfa.Valid's
// kernel, here because it reads the UTF-8 tables the escape kernel reads
// (const_amd64.s). len(p) must be at least MinValidUTF8, and the CPU must
// have AVX2.
func ValidUTF8AVX2(p []byte) bool {
	if len(p) < MinValidUTF8 {
		panic("strbody: ValidUTF8AVX2 of fewer than MinValidUTF8 bytes")
	}
	return validUTF8AVX2(p)
}

// MinValidUTF8 is the shortest text ValidUTF8AVX2 takes: it reads the
// three bytes before its last 32-byte block.
const MinValidUTF8 = 35

// CopyValidUTF8AVX2 copies p into d, as copy does, and reports whether p
// is entirely valid UTF-8, as ValidUTF8AVX2 does, reading p once for both
// (valid_amd64.s). len(p) must be at least MinValidUTF8, d at least as
// long as p, and the CPU must have AVX2. d and p must not overlap.
func CopyValidUTF8AVX2(d, p []byte) bool {
	if len(p) < MinValidUTF8 {
		panic("strbody: CopyValidUTF8AVX2 of fewer than MinValidUTF8 bytes")
	}
	_ = d[len(p)-1] // room for p in d
	return copyValidUTF8AVX2(&d[0], p)
}

// copyValidUTF8AVX2 is CopyValidUTF8AVX2's kernel (valid_amd64.s).
//
//go:noescape
func copyValidUTF8AVX2(d *byte, p []byte) bool

// validUTF8AVX2 is ValidUTF8AVX2's kernel (valid_amd64.s).
//
//go:noescape
func validUTF8AVX2(p []byte) bool

// copyPlainAVX2 is CopyPlain's kernel (escape_amd64.s).
//
//go:noescape
func copyPlainAVX2(d, s *byte, n int, html bool) bool
