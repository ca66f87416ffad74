//go:build !amd64 || purego

package utf8dfa

// useAVX2 is false: there is no assembly in this build.
var useAVX2 = false

// minAVX2 is as on amd64; nothing uses it in this build.
const minAVX2 = 35

// Valid reports whether p is entirely valid UTF-8, exactly as utf8.Valid
// does.
func Valid(p []byte) bool { return validDFA(p) }

// validAVX2 is never called: useAVX2 is false.
func validAVX2(p []byte) bool { return validDFA(p) }

// CopyValid copies p into d, as copy does, and reports whether p is
// entirely valid UTF-8, as Valid does. d must be at least as long as p.
func CopyValid(d, p []byte) bool {
	copy(d[:len(p)], p)
	return validDFA(p)
}
