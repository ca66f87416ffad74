package json

import (
	"encoding/binary"
	"math/bits"
)

// The package's hashes, in one place. None is for security: each picks a
// slot in a small table (field names, interned strings and numbers, the any
// decoder's key guesses), and a collision costs a comparison, never a wrong
// result. They mix a few bytes with the same odd multipliers: the 32- and
// 64-bit golden ratios and xxHash's 32-bit primes.
const (
	hashMul1  = 0x9E3779B1 // 2^32/φ
	hashMul2  = 0x85EBCA6B
	hashMul3  = 0xC2B2AE35
	hashMul4  = 0x27D4EB2F
	hashMul64 = 0x9E3779B97F4A7C15 // 2^64/φ
)

// nameHash hashes a field name from its length and three of its bytes:
// constant time, and enough to tell a struct's names apart.
func nameHash(b []byte) uint32 {
	n := len(b)
	if n == 0 {
		return 0
	}
	h := uint32(n)*hashMul1 ^ uint32(b[0])*hashMul2 ^ uint32(b[n-1])*hashMul3 ^ uint32(b[n>>1])*hashMul4
	return h ^ h>>15
}

// wordHash hashes the two words of a plain key token (findWords); its top
// bits pick the slot, the ones every bit of both words reaches.
func wordHash(w0, w1 uint64) uint64 {
	return (w0 ^ bits.RotateLeft64(w1, 32)) * hashMul64
}

// foldHash is nameHash of the ASCII-folded bytes: for a name already folded
// it equals nameHash.
func foldHash(b []byte) uint32 {
	n := len(b)
	if n == 0 {
		return 0
	}
	h := uint32(n)*hashMul1 ^ uint32(upperASCII(b[0]))*hashMul2 ^ uint32(upperASCII(b[n-1]))*hashMul3 ^ uint32(upperASCII(b[n>>1]))*hashMul4
	return h ^ h>>15
}

// stringHash hashes b (2 bytes or more) from its length and its bytes:
// all of them up to 8; else its first and last 8, and past 16 another 8
// from its middle. Constant time. Every byte it reads reaches the top bits
// of the hash, the ones a table slot is taken from (stringSlot): a
// multiply carries each bit of its input into the top of its product and
// none into the bits below, so the bottom bits would leave the last bytes
// out (strings that differ only there, such as ids, times and URLs ending
// in a number, would share a few slots and evict each other).
func stringHash(b []byte) uint32 {
	n := len(b)
	var x uint64
	switch {
	case n > 16:
		x = binary.LittleEndian.Uint64(b) +
			bits.RotateLeft64(binary.LittleEndian.Uint64(b[n-8:]), 32) +
			bits.RotateLeft64(binary.LittleEndian.Uint64(b[n/2-4:]), 16)
	case n >= 8:
		x = binary.LittleEndian.Uint64(b) + bits.RotateLeft64(binary.LittleEndian.Uint64(b[n-8:]), 32)
	case n >= 4:
		x = uint64(binary.LittleEndian.Uint32(b)) | uint64(binary.LittleEndian.Uint32(b[n-4:]))<<32
	default:
		x = uint64(binary.LittleEndian.Uint16(b)) | uint64(binary.LittleEndian.Uint16(b[n-2:]))<<16
	}
	return uint32((x ^ uint64(n)) * hashMul64 >> 32)
}

// keyContext is the context of the value of member key in an object of
// context ctx, for anyKey's guesses.
func keyContext(ctx uint32, key string) uint32 {
	h := ctx*31 + uint32(len(key))<<8
	if key != "" {
		h += uint32(key[0]) + uint32(key[len(key)-1])<<16
	}
	return h * hashMul1
}

// varyingKeys marks the context of a value whose key missed its guess
// (anyObjectAt).
const varyingKeys = 0x5bd1e995

// guessSlot is the slot of anyKey's guess for member n of an object in
// context ctx (keyContext).
func guessSlot(ctx uint32, n int) uint8 { return uint8((ctx + uint32(n)*hashMul1) >> 24) }

// startSlot is the slot in anyState.keyStarts for a key at context ctx
// whose member starts with the four bytes w4 (its quote and three bytes).
func startSlot(ctx, w4 uint32) uint8 { return uint8(((ctx ^ w4) * hashMul2) >> 24) }
