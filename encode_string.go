package json

import (
	"encoding/binary"
	"unicode/utf8"
	"unsafe"
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
// Runs of ASCII that need no escape are skipped 8 bytes at a time and
// copied whole; only the bytes that end a run are looked at one by one.
func appendString(dst []byte, s string, escapeHTML bool) []byte {
	dst = append(dst, '"')
	start := 0 // s[start:i] is still to be copied
	i := 0
	for {
		for i+8 <= len(s) && !mayEscape(binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[i:]), 8)), escapeHTML) {
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (!escapeHTML || (c != '<' && c != '>' && c != '&')) {
				i++
				continue
			}
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
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
		default:
			i += size
		}
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendBytesString is appendString for a []byte, read in place.
func appendBytesString(dst, b []byte, escapeHTML bool) []byte {
	return appendString(dst, unsafe.String(unsafe.SliceData(b), len(b)), escapeHTML)
}

// mayEscape reports whether any of the 8 bytes in v might need a look of
// its own: a control byte, '"', '\\', a byte of a multi-byte character, or
// with escapeHTML '<', '>' or '&'. It may say yes for a plain run (a borrow
// from a byte that does need a look reaches the bytes above it) but never
// no for one that needs a look.
func mayEscape(v uint64, escapeHTML bool) bool {
	const lsb, msb = 0x0101010101010101, 0x8080808080808080
	m := (v - lsb*0x20) | (v ^ (lsb * '"') - lsb) | (v ^ (lsb * '\\') - lsb)
	if escapeHTML {
		m |= (v ^ (lsb * '<') - lsb) | (v ^ (lsb * '>') - lsb) | (v ^ (lsb * '&') - lsb)
	}
	return (m|v)&msb != 0
}
