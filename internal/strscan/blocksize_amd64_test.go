//go:build !purego

package strscan

const blockSize = 16 // special16 reads 16 bytes at a time
