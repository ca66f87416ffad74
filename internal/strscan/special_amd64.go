//go:build !purego

package strscan

// special16 searches b 16 bytes at a time (special_amd64.s) and returns
// where it stopped: at a special byte, or where fewer than 16 bytes are
// left; high covers every 16-byte block it read.
//
//go:noescape
func special16(b []byte) (n int, high bool)
