package json

import "encoding/binary"

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

// stringHash hashes b (2 bytes or more) from its length and its first and
// last bytes: constant time.
func stringHash(b []byte) uint32 {
	n := len(b)
	var h uint32
	if n >= 8 {
		lo := binary.LittleEndian.Uint64(b)
		hi := binary.LittleEndian.Uint64(b[n-8:])
		h = uint32(lo) ^ uint32(lo>>32)*hashMul1 ^ uint32(hi)*hashMul2 ^ uint32(hi>>32)*hashMul3
	} else {
		lo := uint32(binary.LittleEndian.Uint16(b))
		hi := uint32(binary.LittleEndian.Uint16(b[n-2:]))
		h = lo*hashMul1 ^ hi*hashMul2 ^ uint32(n)*hashMul4
	}
	return h ^ h>>15
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

// floatSlot is the slot of a float64's bits in a table of 1<<bits slots.
func floatSlot(f uint64, bits uint) uint64 { return (f * hashMul64) >> (64 - bits) }
