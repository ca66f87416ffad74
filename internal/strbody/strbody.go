// Package strbody finds where a run of a JSON string body ends: for the
// decoder (Stop) the first '"', '\\' or control byte (below 0x20), for the
// encoder (EscapeCopy, which also copies what it passes over) the first
// character it must escape or check. Each is the inner loop of every long
// string, so on amd64 with AVX2 it reads 32 bytes a turn in assembly; the
// pure-Go version (the purego build tag, other architectures, older CPUs)
// reads a word at a time and returns the same results.
package strbody

import (
	"encoding/binary"
	"math/bits"
)

// Block is how many bytes Stop reads a turn: it stops looking when fewer
// than Block bytes are left.
const Block = 32

// Stop returns the index k >= j of the first '"', '\\' or byte below 0x20
// in w[j:] when it lies in one of the whole 32-byte blocks from j on; else
// (no such byte in those blocks) the index where fewer than 32 bytes are
// left, for the caller to finish. nonASCII is 0x80 when a byte >= 0x80 was
// seen in the blocks read, including the one holding the stop (a "maybe"
// for bytes after it), else 0. j must be in [0, len(w)].
func Stop(w []byte, j int) (k int, nonASCII uint64) {
	_ = w[j:] // j in range, for the assembly
	return stop(w, j)
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// stopMask marks the '"', '\\' and bytes below 0x20 in the word v (little
// endian): its lowest mark is exact, higher ones may be false (borrows run
// upward).
func stopMask(v uint64) uint64 {
	q, b := v^(lsb*'"'), v^(lsb*'\\')
	return ((q - lsb) | (b - lsb) | (v - lsb*0x20)) &^ v & msb
}

// stopGeneric is Stop in Go: a block is four words, tested in order.
func stopGeneric(w []byte, j int) (int, uint64) {
	var high uint64
	for ; j+Block <= len(w); j += Block {
		b := w[j : j+Block]
		v0 := binary.LittleEndian.Uint64(b[0:8])
		v1 := binary.LittleEndian.Uint64(b[8:16])
		v2 := binary.LittleEndian.Uint64(b[16:24])
		v3 := binary.LittleEndian.Uint64(b[24:32])
		high |= v0 | v1 | v2 | v3
		if m := stopMask(v0); m != 0 {
			return j + bits.TrailingZeros64(m)>>3, seen(high)
		}
		if m := stopMask(v1); m != 0 {
			return j + 8 + bits.TrailingZeros64(m)>>3, seen(high)
		}
		if m := stopMask(v2); m != 0 {
			return j + 16 + bits.TrailingZeros64(m)>>3, seen(high)
		}
		if m := stopMask(v3); m != 0 {
			return j + 24 + bits.TrailingZeros64(m)>>3, seen(high)
		}
	}
	return j, seen(high)
}

// seen is 0x80 when a top bit of high is set, else 0.
func seen(high uint64) uint64 {
	if high&msb != 0 {
		return 0x80
	}
	return 0
}
