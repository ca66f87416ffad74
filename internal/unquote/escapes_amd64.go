//go:build amd64 && !purego

package unquote

// HasKernel reports whether Unescape decodes anything in this build: the
// kernel is scalar (no vector registers), for every amd64 CPU.
const HasKernel = true

// Unescape decodes the runs and escapes of a string's body from src[j:]
// into dst's spare capacity: see escapes.go.
//
//go:noescape
func Unescape(dst, src []byte, j int) (n, next int, high uint64, full bool)
