//go:build !amd64 || purego

package strbody

// useAVX2 is false: there is no assembly kernel in this build.
var useAVX2 = false

func stop(w []byte, j int) (int, uint64) { return stopGeneric(w, j) }

func escape(s string, j int, html bool) int { return escapeGeneric(s, j, html) }
