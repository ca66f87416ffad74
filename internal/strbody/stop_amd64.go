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

// escapeCopyAVX2 is the kernel of EscapeCopy with AVX2, 32 bytes a turn
// (escape_amd64.s).
//
//go:noescape
func escapeCopyAVX2(d []byte, s string, j int, html bool) (k, n int)
