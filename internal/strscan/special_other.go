//go:build purego || !amd64

package strscan

func special16(b []byte) (int, bool) { return specialWords(b) }
