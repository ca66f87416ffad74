package strbody

import "math/bits"

// EscapeCopy is the encoder's Stop, copying as it looks: it returns the
// index k >= j of the first character of s[j:] that a JSON encoder must
// look at on its own ('"', '\\', a byte below 0x20, with html '<', '>' and
// '&', a byte that does not start a valid UTF-8 character, and U+2028 and
// U+2029), or len(s) when there is none, and copies s[j:k] to the start of
// d. Valid multi-byte characters are passed over. j must be in [0, len(s)]
// and at the start of a character; d must hold at least len(s)-j+Block
// bytes, as the kernel stores whole blocks (what it stores past s[j:k] is
// to be written over).
//
// The kernel (escapeCopyAVX2 on amd64 with AVX2, escapeCopyGeneric
// elsewhere) returns a place at most three bytes past the character
// sought; the last steps are taken here, a character at a time, from the
// start of the character the kernel stopped in.
func EscapeCopy(d []byte, s string, j int, html bool) int {
	_ = s[j:]               // j in range, for the assembly
	_ = d[len(s)-j+Block-1] // room for the last block, for the assembly
	var k int
	if useAVX2 { // the kernel chosen here, not in a function of its own: one call less
		k = escapeCopyAVX2(d, s, j, html)
	} else {
		k = escapeCopyGeneric(d, s, j, html)
	}
	if (k == len(s) || s[k] < 0x80) && (k == j || s[k-1] < 0x80) {
		// The common stop: an ASCII byte after an ASCII byte (or none)
		// is flagged only when it must be escaped, as a complete
		// character before it leaves nothing to check.
		return k
	}
	// Back from k to the start of the character it is in, if that starts
	// at j or after: over at most three continuation bytes.
	p := k
	for q := k - 1; q >= j && q >= k-3; q-- {
		if c := s[q]; c >= 0xC0 {
			p = q
			break
		} else if c < 0x80 {
			break
		}
	}
	for p < len(s) {
		n := plainSize(s[p:], html)
		if n == 0 {
			break
		}
		p += n
	}
	if p > k { // never from the kernels as they are; copied all the same
		copy(d[k-j:], s[k:p])
	}
	return p
}

// plainSize is the length of the character at the start of s, which is
// not empty, when it needs no escape and ends within s; else 0.
func plainSize(s string, html bool) int {
	c := s[0]
	if c < 0x80 {
		if EscapeMask(uint64(c), html)&0x80 != 0 {
			return 0
		}
		return 1
	}
	n := CharSize(s)
	if n == 3 && c == 0xE2 && s[1] == 0x80 && s[2]&^1 == 0xA8 { // U+2028, U+2029
		return 0
	}
	return n
}

// CharSize is the length of the valid UTF-8 encoding of a character at the
// start of s, which starts with a byte of 0x80 or more, or 0 where
// utf8.DecodeRuneInString would return (RuneError, 1): a stray continuation
// byte, an overlong form, a surrogate, a code point past U+10FFFF, or a
// sequence cut short.
func CharSize(s string) int {
	c := s[0]
	switch {
	case c < 0xC2:
	case c < 0xE0:
		if len(s) >= 2 && s[1]&0xC0 == 0x80 {
			return 2
		}
	case c < 0xF0:
		lo, hi := byte(0x80), byte(0xBF)
		if c == 0xE0 {
			lo = 0xA0 // else overlong
		} else if c == 0xED {
			hi = 0x9F // else a surrogate
		}
		if len(s) >= 3 && lo <= s[1] && s[1] <= hi && s[2]&0xC0 == 0x80 {
			return 3
		}
	case c < 0xF5:
		lo, hi := byte(0x80), byte(0xBF)
		if c == 0xF0 {
			lo = 0x90 // else overlong
		} else if c == 0xF4 {
			hi = 0x8F // else past U+10FFFF
		}
		if len(s) >= 4 && lo <= s[1] && s[1] <= hi && s[2]&0xC0 == 0x80 && s[3]&0xC0 == 0x80 {
			return 4
		}
	}
	return 0
}

// EscapeMask flags, in the high bit of each of the 8 bytes of v (read
// little-endian), the ASCII bytes Escape stops at and every byte of 0x80
// or more. A flag may be wrong above a byte that is rightly flagged (a
// borrow reaches the bytes above it), but the lowest flag is always right,
// and no byte that needs a look goes unflagged.
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

// escapeCopyGeneric is the kernel in Go: whole words of plain ASCII are
// passed over, the rest a character at a time; it returns exactly the
// place EscapeCopy returns, and copies what it passed over.
func escapeCopyGeneric(d []byte, s string, j int, html bool) int {
	k := j
	for k < len(s) {
		if k+8 <= len(s) {
			m := EscapeMask(word(s, k), html)
			if m == 0 {
				k += 8
				continue
			}
			if k += bits.TrailingZeros64(m) >> 3; s[k] < 0x80 {
				break // an ASCII byte to escape
			}
		}
		n := plainSize(s[k:], html)
		if n == 0 {
			break
		}
		k += n
	}
	copy(d, s[j:k])
	return k
}

// word is s[j:j+8] read little-endian.
func word(s string, j int) uint64 {
	_ = s[j+7]
	return uint64(s[j]) | uint64(s[j+1])<<8 | uint64(s[j+2])<<16 | uint64(s[j+3])<<24 |
		uint64(s[j+4])<<32 | uint64(s[j+5])<<40 | uint64(s[j+6])<<48 | uint64(s[j+7])<<56
}
