//go:build !amd64 || purego

package unquote

// HasKernel reports whether Unescape decodes anything in this build: it
// does not (the caller decodes every escape).
const HasKernel = false

// Unescape decodes nothing in this build: see escapes.go.
func Unescape(dst, src []byte, j int) (n, next int, high uint64, full bool) {
	return len(dst), j, 0, false
}
