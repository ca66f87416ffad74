package json

import (
	"encoding/binary"
	"slices"
	"unicode/utf8"
	"unsafe"

	"github.com/jsonpipe/json/internal/strbody"
)

// The module's one string escaper: Marshal's per-type encoders, the token
// writer and the database exports all append strings through appendString.

const hexDigits = "0123456789abcdef"

// appendString appends s to dst as a quoted JSON string, escaped exactly as
// encoding/json escapes it: '"' and '\\' with a backslash; \b, \f, \n, \r and
// \t as those short escapes; other control bytes as \u00XX; invalid UTF-8 as
// \ufffd; U+2028 and U+2029 always as \u2028 and \u2029; and '<', '>' and '&'
// as \u003c, \u003e and \u0026 when escapeHTML is set.
//
// A string of up to 32 bytes that needs no escape, most of the strings a
// struct holds, is checked and copied in the same words, stored straight
// into dst's spare capacity (one with a byte of 0x80 or more is then
// checked as one block, appendNonASCII, or under 8 bytes a character at a
// time, plainText). One under 8 bytes that needs an escape is written a
// byte at a time from a table (appendEscapedShort; of 1 to 3 ASCII bytes,
// appendASCIIShort); the rest goes through appendEscaped, whose kernel
// call a string over 32 bytes makes here when dst has the room.
func appendString(dst []byte, s string, escapeHTML bool) []byte {
	n, l := len(s), len(dst)
	if n > 32 && fastPaths && cap(dst)-l > n+strbody.Block {
		// Room for the quote, the body and the kernel's last block: the
		// kernel at once, as appendEscaped calls it, without that call and
		// its check of the room (17 of the 72 instructions a plain string
		// of 100 bytes cost outside the kernel, callgrind), and without
		// EscapeCopy's frame around it (30 more: 67 became 51).
		d := dst[l+1 : cap(dst)]
		_ = d[n+strbody.Block-1] // EscapeKernel's room, checked
		k, m := strbody.EscapeKernel(d, s, 0, escapeHTML)
		if k != n {
			k, m = strbody.EscapeFinish(d, s, 0, k, m, escapeHTML)
		}
		dst = dst[:l+1+m]
		dst[l] = '"'
		if k == n {
			return append(dst, '"')
		}
		return appendEscapedFrom(dst, s, k, escapeHTML)
	}
	if !fastPaths || n > 32 || cap(dst)-l < 34 {
		return appendEscaped(dst, s, escapeHTML)
	}
	d := dst[l : l+34]
	switch {
	case n >= 8:
		// Whole words from the front, then the last word, which overlaps
		// the one before it; each is written where it goes as it is checked.
		// Nothing is flagged unless a byte needs a look: a wrong flag only
		// ever sits above a right one.
		for i := 0; i < n-8; i += 8 {
			w := binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[i:]), 8))
			if strbody.EscapeMask(w, escapeHTML) != 0 {
				if w&0x8080808080808080 != 0 {
					return appendNonASCII(dst, s, escapeHTML)
				}
				return appendEscaped(dst, s, escapeHTML)
			}
			binary.LittleEndian.PutUint64(d[1+i:], w)
		}
		w := binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[n-8:]), 8))
		if strbody.EscapeMask(w, escapeHTML) != 0 {
			if w&0x8080808080808080 != 0 {
				return appendNonASCII(dst, s, escapeHTML)
			}
			return appendEscaped(dst, s, escapeHTML)
		}
		binary.LittleEndian.PutUint64(d[n-7:], w)
	case n >= 4:
		// The first 4 bytes and the last 4, which overlap, in one word.
		lo := binary.LittleEndian.Uint32(unsafe.Slice(unsafe.StringData(s), 4))
		hi := binary.LittleEndian.Uint32(unsafe.Slice(unsafe.StringData(s[n-4:]), 4))
		if w := uint64(lo) | uint64(hi)<<32; strbody.EscapeMask(w, escapeHTML) != 0 &&
			(w&0x8080808080808080 == 0 || !plainText(s, escapeHTML)) {
			return appendEscapedShort(dst, s, escapeHTML)
		}
		binary.LittleEndian.PutUint32(d[1:], lo)
		binary.LittleEndian.PutUint32(d[n-3:], hi)
	case n > 0:
		// The first, the middle and the last byte are all of 1 to 3.
		a, m, z, plain := shortBytes(s, escapeHTML)
		if !plain[a] || !plain[m] || !plain[z] {
			if (a | m | z) >= utf8.RuneSelf {
				if !shortText(a, m, z, n, plain) {
					return appendEscapedShort(dst, s, escapeHTML)
				}
			} else {
				return appendASCIIShort(dst, a, m, z, n, escapeHTML)
			}
		}
		d[1], d[1+n>>1], d[n] = a, m, z
	}
	d[0] = '"'
	d[n+1] = '"'
	return dst[:l+n+2]
}

// shortBytes returns the first, middle and last byte of s, of 1 to 3
// bytes (all of them: in 1 byte all three are the first, in 2 the middle
// is the last), and the table of the bytes written as they are.
func shortBytes(s string, escapeHTML bool) (a, m, z byte, plain *[256]bool) {
	plain = &plainBytes
	if escapeHTML {
		plain = &plainBytesHTML
	}
	n := uint(len(s))
	p := unsafe.Pointer(unsafe.StringData(s))
	return *(*byte)(p), *(*byte)(unsafe.Add(p, n>>1)), *(*byte)(unsafe.Add(p, n-1)), plain
}

// appendASCIIShort is appendString for an ASCII string of 1 to 3 bytes
// with one that needs an escape, a, m and z its first, middle and last
// (as appendString reads them), with 34 bytes of dst's capacity spare:
// each written as asciiWords writes it, itself or its escape, one after
// another, without a branch on which. The middle one is counted only in
// 3 bytes, the last only from 2 (in 1 byte all three are the first, in 2
// the middle is the last).
func appendASCIIShort(dst []byte, a, m, z byte, n int, escapeHTML bool) []byte {
	words := &asciiWords
	if escapeHTML {
		words = &asciiWordsHTML
	}
	l := len(dst)
	d := (*[34]byte)(dst[l : l+34])
	wa, wm, wz := words[a&0x7F], words[m&0x7F], words[z&0x7F]
	binary.LittleEndian.PutUint64(d[1:], wa)
	j := 1 + int(wa>>56) // at most 7, then 13: each index below 16
	binary.LittleEndian.PutUint64(d[j&15:], wm)
	j += int(wm>>56) & -(n & 1 & (n >> 1))
	binary.LittleEndian.PutUint64(d[j&15:], wz)
	j += int(wz>>56) & -(n >> 1)
	d[0] = '"'
	d[j&31] = '"'
	return dst[:l+j+1]
}

// appendNonASCII is appendString for a string of 8 to 32 bytes in which
// a word with a byte of 0x80 or more was flagged: most often text in
// another script, which seldom needs an escape. With 34 bytes of dst's
// capacity spare, the whole string is copied and checked as one block
// (strbody.CopyPlain): one call in place of the escape kernel's set-up
// and walk. A string that check turns down (an escape, invalid UTF-8,
// U+2028 or U+2029) goes through appendEscaped, which pays for both.
func appendNonASCII(dst []byte, s string, escapeHTML bool) []byte {
	if l := len(dst); cap(dst)-l >= 34 {
		d := dst[l : l+34]
		if strbody.CopyPlain(d[1:], s, escapeHTML) {
			d[0] = '"'
			d[len(s)+1] = '"'
			return dst[:l+len(s)+2]
		}
	}
	return appendEscaped(dst, s, escapeHTML)
}

// plainText reports whether s, of under 8 bytes and with a byte of 0x80 or
// more, is written as it is: appendString's words flag every such byte,
// and most short strings in other scripts (a name, a word in CJK) need no
// escape, only a look at each of their one to seven characters, cheaper
// than the escape kernel's set-up. (From 8 bytes on, a string of mixed
// scripts costs more here than in the kernel: each character's length is
// a branch to mispredict.)
func plainText(s string, escapeHTML bool) bool {
	plain := &plainBytes
	if escapeHTML {
		plain = &plainBytesHTML
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if !plain[c] {
				return false
			}
			i++
			continue
		}
		n := strbody.CharSize(s[i:])
		if n == 0 || n == 3 && c == 0xE2 && s[i+1] == 0x80 && s[i+2]&^1 == 0xA8 { // invalid, U+2028, U+2029
			return false
		}
		i += n
	}
	return true
}

// shortText is plainText for a string of 1 to 3 bytes, a, m and z its
// first, middle and last (as appendString reads them), one of them 0x80 or
// more: one character of two or three bytes, or one of two bytes and a
// plain ASCII byte. Written out, not plainText's loop and its CharSize
// call: a word or a name of one character in another script, such as
// "é" or "中", took plainText and CharSize 95 instructions, appendString
// as many again.
func shortText(a, m, z byte, n int, plain *[256]bool) bool {
	cont := func(c byte) bool { return c&0xC0 == 0x80 }
	lead2 := func(c byte) bool { return 0xC2 <= c && c <= 0xDF }
	switch n {
	case 2: // m is z
		return lead2(a) && cont(z)
	case 3:
		switch {
		case a < utf8.RuneSelf:
			return plain[a] && lead2(m) && cont(z)
		case lead2(a):
			return cont(m) && z < utf8.RuneSelf && plain[z]
		case 0xE0 <= a && a <= 0xEF:
			lo, hi := byte(0x80), byte(0xBF)
			if a == 0xE0 {
				lo = 0xA0 // else overlong
			} else if a == 0xED {
				hi = 0x9F // else a surrogate
			}
			// U+2028 and U+2029 are escaped
			return lo <= m && m <= hi && cont(z) && !(a == 0xE2 && m == 0x80 && z&^1 == 0xA8)
		}
	}
	return false // a lone byte of 0x80 or more, or a longer character cut short
}

// appendEscapedShort is appendEscaped for a string of under 8 bytes: a
// byte at a time, each ASCII byte stored as the word asciiWords holds for
// it (itself, or its escape: no branch on which), and each other
// character checked as plainText checks it. For so few bytes this costs
// less than the kernel's set-up (4 bytes with an escape: 30% less); from
// 8 bytes on the kernel costs less, and with characters of other scripts
// even at 8.
func appendEscapedShort(dst []byte, s string, escapeHTML bool) []byte {
	if len(s) >= 8 {
		return appendEscaped(dst, s, escapeHTML)
	}
	words := &asciiWords
	if escapeHTML {
		words = &asciiWordsHTML
	}
	// The output, at most 7 bytes of 6 each and the quotes, is written
	// in the first 64 bytes of d and a word stored there spills into the
	// 8 after them: an index masked to 64 needs no bounds check.
	const room = 64 + 8
	l := len(dst)
	if cap(dst)-l < room {
		dst = slices.Grow(dst, room)
	}
	d := (*[room]byte)(dst[l : l+room])
	d[0] = '"'
	j := 1
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			w := words[c]
			binary.LittleEndian.PutUint64(d[j&63:], w)
			j += int(w >> 56)
			i++
			continue
		}
		n := strbody.CharSize(s[i:])
		switch {
		case n == 0:
			j += copy(d[j:], `\ufffd`)
			i++
		case n == 3 && c == 0xE2 && s[i+1] == 0x80 && s[i+2]&^1 == 0xA8:
			j += copy(d[j:], `\u2028`)
			d[j-1] += s[i+2] & 1
			i += 3
		default:
			j += copy(d[j:], s[i:i+n])
			i += n
		}
	}
	d[j] = '"'
	return dst[:l+j+1]
}

// asciiWords and asciiWordsHTML hold what each ASCII byte is written as,
// without and with HTML escaping: the byte itself, or its escape
// (strbody.ASCIIEscape, up to 6 bytes), in the low bytes of a word, and
// how many bytes that is in the top byte (stored too, past the end, where
// the next byte or the closing quote goes).
var asciiWords, asciiWordsHTML = func() (p, h [utf8.RuneSelf]uint64) {
	word := func(b string) uint64 {
		var w [8]byte
		w[7] = byte(copy(w[:], b))
		return binary.LittleEndian.Uint64(w[:])
	}
	for c := range byte(utf8.RuneSelf) {
		p[c], h[c] = word(string(c)), word(string(c))
		if !plainBytes[c] {
			p[c] = word(strbody.ASCIIEscape(c))
		}
		if !plainBytesHTML[c] {
			h[c] = word(strbody.ASCIIEscape(c))
		}
	}
	return
}()

// appendEscaped is appendString's long way, for strings over 32 bytes and
// those with a byte that needs a look.
//
// The strbody.EscapeCopy kernel copies the string into dst's spare
// capacity as it looks at it, 32 bytes at a time, passing over valid
// UTF-8 and writing the escapes of ASCII bytes while the spare capacity
// holds them, up to the first character it leaves: invalid UTF-8, U+2028
// or U+2029, or an ASCII escape there was no room for. That one is
// written here, and the kernel goes on after it.
func appendEscaped(dst []byte, s string, escapeHTML bool) []byte {
	if cap(dst)-len(dst) <= len(s)+strbody.Block {
		dst = slices.Grow(dst, 1+len(s)+strbody.Block)
	}
	// From here as appendString's strings over 32 bytes, which it writes
	// without this call.
	l := len(dst)
	k, n := strbody.EscapeCopy(dst[l+1:cap(dst)], s, 0, escapeHTML)
	dst = dst[:l+1+n]
	dst[l] = '"'
	if k == len(s) {
		return append(dst, '"')
	}
	return appendEscapedFrom(dst, s, k, escapeHTML)
}

// appendEscapedFrom is appendEscaped from s[i:], where the kernel stopped
// (dst holds the opening quote and what it wrote of s[:i]): the character
// at i first, then the kernel again after it.
func appendEscapedFrom(dst []byte, s string, i int, escapeHTML bool) []byte {
	for {
		if c := s[i]; c < utf8.RuneSelf {
			dst = append(dst, strbody.ASCIIEscape(c)...)
			i++
		} else if strbody.CharSize(s[i:]) == 0 {
			dst = append(dst, `\ufffd`...)
			i++
		} else { // U+2028 or U+2029, the only valid characters the kernel stops at
			dst = append(dst, '\\', 'u', '2', '0', '2', '8'+s[i+2]&1)
			i += 3
		}
		if cap(dst)-len(dst) < len(s)-i+strbody.Block {
			dst = slices.Grow(dst, len(s)-i+strbody.Block)
		}
		l := len(dst)
		k, n := strbody.EscapeCopy(dst[l:cap(dst)], s, i, escapeHTML)
		dst = dst[:l+n]
		if k == len(s) {
			return append(dst, '"')
		}
		i = k
	}
}

// appendBytesString is appendString for a []byte, read in place.
func appendBytesString(dst, b []byte, escapeHTML bool) []byte {
	return appendString(dst, unsafe.String(unsafe.SliceData(b), len(b)), escapeHTML)
}

// plainBytes and plainBytesHTML are the bytes written as they are, without
// and with HTML escaping: ASCII but for control bytes, '"' and '\\' (and
// '<', '>' and '&').
var plainBytes, plainBytesHTML = func() (p, h [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		p[c] = c != '"' && c != '\\'
		h[c] = p[c] && c != '<' && c != '>' && c != '&'
	}
	return
}()
