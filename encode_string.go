package json

import (
	"encoding/binary"
	"math/bits"
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
// into dst's spare capacity; the rest goes through appendEscaped.
func appendString(dst []byte, s string, escapeHTML bool) []byte {
	n, l := len(s), len(dst)
	if n > 32 || cap(dst)-l < 34 {
		return appendEscaped(dst, s, escapeHTML)
	}
	d := dst[l : l+34]
	switch {
	case n >= 8:
		// Whole words from the front, then the last word, which overlaps
		// the one before it; each is written where it goes as it is checked.
		// Nothing is flagged unless a byte needs a look: a wrong flag only
		// ever sits above a right one.
		var m uint64
		for i := 0; i < n-8; i += 8 {
			w := binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[i:]), 8))
			m |= strbody.EscapeMask(w, escapeHTML)
			binary.LittleEndian.PutUint64(d[1+i:], w)
		}
		w := binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[n-8:]), 8))
		if m|strbody.EscapeMask(w, escapeHTML) != 0 {
			return appendEscaped(dst, s, escapeHTML)
		}
		binary.LittleEndian.PutUint64(d[n-7:], w)
	case n >= 4:
		// The first 4 bytes and the last 4, which overlap, in one word.
		lo := binary.LittleEndian.Uint32(unsafe.Slice(unsafe.StringData(s), 4))
		hi := binary.LittleEndian.Uint32(unsafe.Slice(unsafe.StringData(s[n-4:]), 4))
		if strbody.EscapeMask(uint64(lo)|uint64(hi)<<32, escapeHTML) != 0 {
			return appendEscaped(dst, s, escapeHTML)
		}
		binary.LittleEndian.PutUint32(d[1:], lo)
		binary.LittleEndian.PutUint32(d[n-3:], hi)
	case n > 0:
		// The first, the middle and the last byte are all of 1 to 3.
		plain := &plainBytes
		if escapeHTML {
			plain = &plainBytesHTML
		}
		a, m, z := s[0], s[n>>1], s[n-1]
		if !plain[a] || !plain[m] || !plain[z] {
			return appendEscaped(dst, s, escapeHTML)
		}
		d[1], d[1+n>>1], d[n] = a, m, z
	}
	d[0] = '"'
	d[n+1] = '"'
	return dst[:l+n+2]
}

// appendEscaped is appendString's long way, for strings over 32 bytes and
// those with a byte that needs a look.
//
// Runs of ASCII that need no escape are skipped 16 bytes at a time; past
// their first 16 bytes, and from a multi-byte character on, the
// strbody.Escape kernel takes over, 32 bytes at a time, passing over valid
// UTF-8 too, up to the first character that needs a look. The bytes that
// do are the only ones looked at one by one. Near a string's end
// multi-byte characters are checked in place, without decoding them to a
// rune.
func appendEscaped(dst []byte, s string, escapeHTML bool) []byte {
	dst = append(dst, '"')
	plain := &plainBytes
	if escapeHTML {
		plain = &plainBytesHTML
	}
	start := 0 // s[start:i] is still to be copied
	i := 0
	for i < len(s) {
		if i+16 <= len(s) { // two words a turn: long plain runs are most of a text
			p := unsafe.Slice(unsafe.StringData(s[i:]), 16)
			if m := strbody.EscapeMask(binary.LittleEndian.Uint64(p), escapeHTML); m != 0 {
				i += bits.TrailingZeros64(m) >> 3 // the lowest byte flagged does need a look
			} else if m := strbody.EscapeMask(binary.LittleEndian.Uint64(p[8:]), escapeHTML); m != 0 {
				i += 8 + bits.TrailingZeros64(m)>>3
			} else {
				i += 16
				if i+strbody.Block <= len(s) {
					// A long plain run, as in a text: on to the kernel,
					// 32 bytes a turn, up to its first character that
					// needs a look.
					i = strbody.Escape(s, i, escapeHTML)
				}
				continue
			}
		} else if i+8 <= len(s) {
			m := strbody.EscapeMask(binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[i:]), 8)), escapeHTML)
			if m == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(m) >> 3
		} else if len(s) >= 8 {
			// Fewer than 8 bytes left: the string's last 8 in one word,
			// those before i made plain, so that only bytes from i on are
			// flagged (a flagged byte below them could wrongly flag the
			// one above it).
			low := uint64(1)<<((8-(len(s)-i))*8) - 1
			w := binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[len(s)-8:]), 8))
			m := strbody.EscapeMask(w&^low|plainWord&low, escapeHTML)
			if m == 0 {
				i = len(s)
				continue
			}
			i = len(s) - 8 + bits.TrailingZeros64(m)>>3
		} else if i == 0 && len(s) >= 4 {
			// A string of 4 to 7 bytes: its first 4 and its last 4 in one
			// word. A flag in the last 4 is right when none is in the
			// first 4: only a flagged byte wrongly flags the one above.
			lo := binary.LittleEndian.Uint32(unsafe.Slice(unsafe.StringData(s), 4))
			hi := binary.LittleEndian.Uint32(unsafe.Slice(unsafe.StringData(s[len(s)-4:]), 4))
			m := strbody.EscapeMask(uint64(lo)|uint64(hi)<<32, escapeHTML)
			if m == 0 {
				i = len(s)
				continue
			}
			if i = bits.TrailingZeros64(m) >> 3; i >= 4 {
				i += len(s) - 8 // byte i-4 of the last 4
			}
		} else if plain[s[i]] {
			i++
			continue
		}
		c := s[i]
		if c < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		// A multi-byte character. With 32 bytes or more left, the kernel
		// passes over it and what follows up to the first character that
		// needs a look; if that is this one, or fewer bytes are left, it
		// and the ones right after it are checked here, in place.
		if i+strbody.Block <= len(s) {
			if k := strbody.Escape(s, i, escapeHTML); k > i {
				i = k
				continue
			}
		}
		for {
			if i+8 <= len(s) {
				// Two three-byte characters at once (a CJK text is made
				// of them): lead bytes whose every pair of continuation
				// bytes is valid and none of U+2028 and U+2029.
				w := binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[i:]), 8))
				if w&0xC0C0F0_C0C0F0 == 0x8080E0_8080E0 && simpleLead3>>(w&15)&(simpleLead3>>(w>>24&15))&1 != 0 {
					i += 6
					goto next
				}
			}
			if c-0xE1 <= 0xEF-0xE1 && c != 0xE2 && c != 0xED && i+2 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 {
				i += 3 // after these lead bytes any two continuation bytes are valid, and none is U+2028 or U+2029
			} else {
				switch size := strbody.CharSize(s[i:]); {
				case size == 0:
					dst = append(dst, s[start:i]...)
					dst = append(dst, `\ufffd`...)
					i++
					start = i
				case size == 3 && c == 0xE2 && s[i+1] == 0x80 && s[i+2]&^1 == 0xA8: // U+2028, U+2029
					dst = append(dst, s[start:i]...)
					dst = append(dst, '\\', 'u', '2', '0', '2', '8'+s[i+2]&1)
					i += 3
					start = i
				default:
					i += size
				}
			}
		next:
			if i >= len(s) || s[i] < utf8.RuneSelf {
				break
			}
			c = s[i]
		}
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// plainWord is eight bytes that need no escape.
const plainWord = 0x61616161_61616161 // "aaaaaaaa"

// simpleLead3 has bit n set for the lead byte 0xE0+n of a three-byte
// character after which any two continuation bytes make a valid one that
// needs no escape: all but 0xE0 (overlong forms), 0xE2 (U+2028, U+2029)
// and 0xED (surrogates).
const simpleLead3 = 0xFFFF &^ (1<<0 | 1<<2 | 1<<13)

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
