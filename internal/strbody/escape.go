package strbody

import (
	"encoding/binary"
	"math/bits"
)

// Escape is the encoder's Stop: it returns the index k >= j of the first
// byte of w[j:] that a JSON encoder must look at one by one ('"', '\\', a
// byte below 0x20, a byte of 0x80 or more, which may start an invalid or
// a U+2028 sequence, and with html '<', '>' and '&') when it lies in one of
// the whole 32-byte blocks from j; else (no such byte in those blocks) the
// index where fewer than 32 bytes are left, for the caller to finish. j
// must be in [0, len(w)].
func Escape(w []byte, j int, html bool) int {
	_ = w[j:] // j in range, for the assembly
	return escape(w, j, html)
}

// EscapeMask flags, in the high bit of each of the 8 bytes of v (read
// little-endian), those Escape stops at. A flag may be wrong above a byte
// that is rightly flagged (a borrow reaches the bytes above it), but the
// lowest flag is always right, and no byte that needs a look goes
// unflagged.
func EscapeMask(v uint64, html bool) uint64 {
	m := (v - lsb*0x20) | (v ^ (lsb * '\\') - lsb)
	if html {
		// '"' and '&' are the only ASCII bytes that are '&' with bit 2
		// set, '<' and '>' the only ones that are '>' with bit 1 set.
		m |= ((v | lsb*4) ^ (lsb * '&') - lsb) | ((v | lsb*2) ^ (lsb * '>') - lsb)
	} else {
		m |= v ^ (lsb * '"') - lsb
	}
	return (m | v) & msb
}

// escapeGeneric is Escape in Go: a block is four words, tested in order.
func escapeGeneric(w []byte, j int, html bool) int {
	for ; j+Block <= len(w); j += Block {
		b := w[j : j+Block]
		if m := EscapeMask(binary.LittleEndian.Uint64(b[0:8]), html); m != 0 {
			return j + bits.TrailingZeros64(m)>>3
		}
		if m := EscapeMask(binary.LittleEndian.Uint64(b[8:16]), html); m != 0 {
			return j + 8 + bits.TrailingZeros64(m)>>3
		}
		if m := EscapeMask(binary.LittleEndian.Uint64(b[16:24]), html); m != 0 {
			return j + 16 + bits.TrailingZeros64(m)>>3
		}
		if m := EscapeMask(binary.LittleEndian.Uint64(b[24:32]), html); m != 0 {
			return j + 24 + bits.TrailingZeros64(m)>>3
		}
	}
	return j
}
