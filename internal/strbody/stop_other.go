//go:build !amd64 || purego

package strbody

// asmKernels says this build has no assembly kernel.
const asmKernels = false

// useAVX2 is false: there is no assembly kernel in this build.
var useAVX2 = false

func stop(w []byte, j int) (int, uint64) { return stopGeneric(w, j) }

// EscapeKernel is EscapeCopy's kernel, unchecked (see its amd64 twin):
// escapeCopyGeneric in this build.
func EscapeKernel(d []byte, s string, j int, html bool) (k, n int) {
	return escapeCopyGeneric(d, s, j, html)
}

// escapeCopyAVX2 is never called: useAVX2 is false.
func escapeCopyAVX2(d []byte, s string, j int, html bool) (k, n int) {
	return escapeCopyGeneric(d, s, j, html)
}

// copyPlainAVX2 is never called: useAVX2 is false.
func copyPlainAVX2(d, s *byte, n int, html bool) bool { return false }
