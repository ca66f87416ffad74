//go:build purego || !amd64

package strscan

const blockSize = 8 // special16 is specialWords
