package strbody

import (
	"math/bits"
	"unsafe"
)

// EscapeCopy writes s from j into d escaped as a JSON encoder escapes it,
// up to the first character it leaves to the caller, and returns that
// character's index k (len(s) when there is none) and the number n of
// bytes of d written for s[j:k].
//
// Valid multi-byte characters are copied as they are. The ASCII bytes with
// an escape ('"', '\\', bytes below 0x20, and with html '<', '>' and '&';
// see ASCIIEscape) are written escaped while d has room for the escape
// beyond the len(s)-j+Block bytes it must hold, so that the caller decides
// how d grows. Left to the caller: a byte that does not start a valid UTF-8
// character, U+2028 and U+2029, and an ASCII escape there is no room for.
// j must be in [0, len(s)] and at the start of a character; d
// must hold at least len(s)-j+Block bytes, as the kernel stores whole
// blocks (what it stores past d[n] is to be written over).
//
// The kernel (EscapeKernel: escapeCopyAVX2 on amd64 with AVX2,
// escapeCopyGeneric elsewhere) returns a place at most three bytes past a
// character it leaves, and len(s) only when it left none; the last steps
// are taken by EscapeFinish, a character at a time, from the start of the
// character it stopped in.
func EscapeCopy(d []byte, s string, j int, html bool) (k, n int) {
	_ = s[j:]               // j in range, for the assembly
	_ = d[len(s)-j+Block-1] // room for the last block, for the assembly
	if k, n = EscapeKernel(d, s, j, html); k == len(s) {
		return k, n
	}
	return EscapeFinish(d, s, j, k, n, html)
}

// EscapeFinish takes the last steps after EscapeKernel stopped at k, not
// at len(s): given the kernel's (k, n) for s[j:], written into d, it
// returns EscapeCopy's.
func EscapeFinish(d []byte, s string, j, k, n int, html bool) (int, int) {
	if k == len(s) || s[k] < 0x80 && (k == j || s[k-1] < 0x80) {
		// The common stops: the end, which both kernels report only when
		// no character is cut short there; or an ASCII byte after an
		// ASCII byte (or none), as a complete character before it leaves
		// nothing to check. Such a byte is left only when it must be
		// escaped and there was no room.
		return k, n
	}
	// Back from k to the start of the character it is in, if that starts
	// at j or after: over at most three continuation bytes, which were
	// copied one for one (an escaped byte is ASCII: the walk stops there).
	p := k
	for q := k - 1; q >= j && q >= k-3; q-- {
		if c := s[q]; c >= 0xC0 {
			p = q
			break
		} else if c < 0x80 {
			break
		}
	}
	n -= k - p
	start := p
	for p < len(s) {
		m := plainSize(s[p:], html)
		if m == 0 {
			break
		}
		p += m
	}
	if p > k { // the kernel copied s[start:k] already
		copy(d[n+k-start:], s[k:p])
	}
	return p, n + p - start
}

// CopyPlain copies s, of 1 to 32 bytes, to d and reports whether s is
// written as it is, with no escape: valid UTF-8 with no U+2028 or U+2029
// and no ASCII byte with an escape (with html, '<', '>' and '&' too). It
// stores 32 bytes at d, those past len(s) as scratch. Without the AVX2
// kernel (in this build or on this CPU) it reports false and copies
// nothing, and the caller escapes s its usual way.
//
// It is the escape kernel's check of one block, for a short string in
// another script, which most often needs no escape: one call in place of
// the escape kernel's set-up and its walk to the end.
func CopyPlain(d []byte, s string, html bool) bool {
	if !useAVX2 || len(s) == 0 || len(s) > Block {
		return false
	}
	_ = d[Block-1] // room for the block, for the assembly
	return copyPlainAVX2(&d[0], unsafe.StringData(s), len(s), html)
}

// ASCIIEscape is the escape of the ASCII byte c as encoding/json writes it
// ("\\n", "\\u0001", "\\u003c"...), or "" when c has none ('<', '>' and
// '&' have one: the caller decides whether HTML escaping applies).
func ASCIIEscape(c byte) string {
	if c >= 0x80 {
		return ""
	}
	return asciiEscapes[c]
}

var asciiEscapes = func() (e [0x80]string) {
	const hex = "0123456789abcdef"
	for c := range 0x20 {
		e[c] = `\u00` + string(hex[c>>4]) + string(hex[c&0xF])
	}
	e['\b'], e['\f'], e['\n'], e['\r'], e['\t'] = `\b`, `\f`, `\n`, `\r`, `\t`
	e['"'], e['\\'] = `\"`, `\\`
	e['<'], e['>'], e['&'] = `\u003c`, `\u003e`, `\u0026`
	return
}()

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
// and no byte that needs a look goes unflagged. Only an ASCII byte with an
// escape starts a borrow, so EscapeMask(v, html) &^ v is 0 exactly when v
// has no such byte (whatever its bytes of 0x80 or more).
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

// QuickMask is EscapeMask for a yes or no: it is 0 exactly when EscapeMask
// is, but for the bytes '^', '|' and '~', which it also flags with html,
// and its flags, when there are any, say nothing of where. With html it
// makes one test fewer: '<', '>' and '\\' are, with those three and two
// control bytes, the only bytes that are '~' with bits 1, 5 and 6 set.
func QuickMask(v uint64, html bool) uint64 {
	m := v - lsb*0x20
	if html {
		m |= ((v | lsb*4) ^ (lsb * '&') - lsb) | ((v | lsb*0x62) ^ (lsb * '~') - lsb)
	} else {
		m |= (v ^ (lsb * '\\') - lsb) | (v ^ (lsb * '"') - lsb)
	}
	return (m | v) & msb
}

// escapeCopyGeneric is the kernel in Go: whole words of plain ASCII are
// passed over, the rest a character at a time; it writes the ASCII escapes
// as the AVX2 kernel does, while there is room, and stops at the first
// other character it leaves (exactly, not past it).
func escapeCopyGeneric(d []byte, s string, j int, html bool) (int, int) {
	room := len(d) - (len(s) - j) - Block // for the bytes escapes add
	k, n, r := j, 0, j                    // s[j:r] is d[:n]; s[r:k] is plain
	for k < len(s) {
		if k+8 <= len(s) {
			m := EscapeMask(word(s, k), html)
			if m == 0 {
				k += 8
				continue
			}
			k += bits.TrailingZeros64(m) >> 3
		}
		if c := plainSize(s[k:], html); c > 0 {
			k += c
			continue
		}
		e := ASCIIEscape(s[k])
		if e == "" || len(e)-1 > room {
			break
		}
		n += copy(d[n:], s[r:k])
		n += copy(d[n:], e)
		room -= len(e) - 1
		k++
		r = k
	}
	n += copy(d[n:], s[r:k])
	return k, n
}

// word is s[j:j+8] read little-endian.
func word(s string, j int) uint64 {
	_ = s[j+7]
	return uint64(s[j]) | uint64(s[j+1])<<8 | uint64(s[j+2])<<16 | uint64(s[j+3])<<24 |
		uint64(s[j+4])<<32 | uint64(s[j+5])<<40 | uint64(s[j+6])<<48 | uint64(s[j+7])<<56
}
