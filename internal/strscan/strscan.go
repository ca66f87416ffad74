// Package strscan finds where a JSON string body stops being plain: the
// first '"', '\\' or control byte (below 0x20), the bytes a string scanner
// must stop at, and says whether the bytes before it include any >= 0x80
// (which then need a UTF-8 check).
//
// On amd64 the search runs 16 bytes at a time with SSE2 (every amd64 CPU
// has it); elsewhere, and with the purego build tag, 8 bytes at a time in
// Go (SWAR). Both give the same results; the tests and a fuzz target check
// them against a byte-at-a-time reference.
package strscan

import (
	"encoding/binary"
	"math/bits"
)

// Special returns the index in b of the first '"', '\\' or byte below 0x20,
// or len(b) when there is none, and high: whether a byte >= 0x80 comes
// before that index. high may also be true when such a byte comes only
// after it (within the same 16 bytes): it is a "maybe", which is all a
// caller deciding whether to check UTF-8 needs.
func Special(b []byte) (n int, high bool) {
	n, high = special16(b)
	for ; n < len(b); n++ {
		c := b[n]
		if c == '"' || c == '\\' || c < 0x20 {
			return n, high
		}
		high = high || c >= 0x80
	}
	return n, high
}

// specialWords is the portable search: 8 bytes at a time, up to the last
// whole word of b, returning where it stopped (at a special byte, or where
// fewer than 8 bytes are left) and high for the words it read.
func specialWords(b []byte) (int, bool) {
	const lsb, msb = 0x0101010101010101, 0x8080808080808080
	var or uint64
	i := 0
	for ; i+8 <= len(b); i += 8 {
		v := binary.LittleEndian.Uint64(b[i:])
		or |= v
		q := v ^ (lsb * '"')
		s := v ^ (lsb * '\\')
		// Each term's lowest mark is exact (borrows only run upward), and
		// q and s keep v's top bits: one &^ v serves all three.
		if m := ((q - lsb) | (s - lsb) | (v - lsb*0x20)) &^ v & msb; m != 0 {
			return i + bits.TrailingZeros64(m)>>3, or&msb != 0
		}
	}
	return i, or&msb != 0
}
