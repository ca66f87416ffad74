// Package unquote turns JSON string tokens into their values.
package unquote

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/jsonpipe/json/internal/utf8dfa"
)

// Append appends the value of the JSON string token tok (quotes included,
// already validated by a scanner) to dst. As in encoding/json, invalid UTF-8
// bytes and lone surrogate escapes become U+FFFD.
func Append(dst, tok []byte) []byte {
	if len(tok) < 2 {
		return dst
	}
	return appendBody(dst, tok[1:len(tok)-1], false)
}

// AppendKnown is Append for a token the scanner found to be all ASCII (no
// byte >= 0x80) when ascii is true: its UTF-8 is then not checked again.
func AppendKnown(dst, tok []byte, ascii bool) []byte {
	if len(tok) < 2 {
		return dst
	}
	return appendBody(dst, tok[1:len(tok)-1], ascii)
}

// AppendBody is Append for the body of a token, or a part of it cut where
// no escape, surrogate pair or UTF-8 sequence spans the cut: a long string
// unquoted in pieces comes out as it would whole.
func AppendBody(dst, body []byte) []byte { return appendBody(dst, body, false) }

func appendBody(dst, body []byte, ascii bool) []byte {
	// Escapes are ASCII, and a multi-byte rune cannot span an ASCII byte, so
	// the body is valid UTF-8 exactly when every run between escapes is: one
	// check of the whole body, and then each run stands for itself.
	if !ascii && !utf8dfa.Valid(body) {
		dst, _ = appendSlow(dst, body)
		return dst
	}
	// Each run between escapes is found 8 bytes at a time and copied whole
	// (the hot part), and then the escapes that follow it decoded.
	// (A loop that copied each word as it searched it measured slower than
	// the search and then the runtime's copy.) A run that goes on past 32
	// bytes is searched by bytes.IndexByte, whose vector loop wins on long
	// runs; below that its call costs more than the search. The loop is
	// here, not in a function of its own: on short strings a second call
	// measured 10-30% of the time.
	for {
		k := indexBackslash32(body)
		if k < len(body) && body[k] != '\\' {
			k = indexBackslashLong(body, k)
		}
		dst = append(dst, body[:k]...)
		if k == len(body) {
			return dst
		}
		// One-letter escapes (\n, \" ...), most escapes, and \u escapes of
		// one UTF-16 unit are decoded here; surrogate pairs and anything
		// else out of line.
		if k+1 < len(body) {
			if c := shortEscape[body[k+1]]; c != 0 {
				dst = append(dst, c)
				body = body[k+2:]
				continue
			}
			r := rune(-1)
			if k+6 <= len(body) && body[k+1] == 'u' {
				r = Hex4(binary.LittleEndian.Uint32(body[k+2 : k+6]))
			}
			if r >= 0 && (r < 0xd800 || r >= 0xe000) {
				dst = appendRune3(dst, r)
				body = body[k+6:]
				// Text in another script, written in \u escapes, has
				// them one after another.
				for len(body) >= 6 && body[0] == '\\' && body[1] == 'u' {
					r := Hex4(binary.LittleEndian.Uint32(body[2:6]))
					if r < 0 || r >= 0xd800 && r < 0xe000 {
						break
					}
					dst = appendRune3(dst, r)
					body = body[6:]
				}
				continue
			}
		}
		var n int
		if dst, n = appendEscape(dst, body[k:]); n == 0 {
			return dst // not from a scanner; Append's callers never pass it
		}
		body = body[k+n:]
	}
}

// appendRune3 appends the UTF-8 encoding of r, which is below 0x10000 and
// not a surrogate: utf8.AppendRune's cases for such runes, inlined.
func appendRune3(dst []byte, r rune) []byte {
	switch {
	case r < 0x80:
		return append(dst, byte(r))
	case r < 0x800:
		return append(dst, 0xc0|byte(r>>6), 0x80|byte(r)&0x3f)
	}
	return append(dst, 0xe0|byte(r>>12), 0x80|byte(r>>6)&0x3f, 0x80|byte(r)&0x3f)
}

// indexBackslash32 returns the index of the first backslash in s when it is
// among s's first 32 bytes, or len(s) when s has none; else the index, from
// 32 on, where it stopped looking (a byte it has not read). It reads 8
// bytes at a time, and a last 1 to 7 one at a time, and inlines: it is the
// inner loop of every string with escapes, whose runs are mostly short, and
// whose last run is under 8 bytes as often as not.
func indexBackslash32(s []byte) int {
	const lsb, msb = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s) && i < 32; i += 8 {
		b := binary.LittleEndian.Uint64(s[i:i+8]) ^ (lsb * '\\')
		if m := (b - lsb) &^ b & msb; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	if len(s)-i < 8 {
		for i < len(s) && s[i] != '\\' {
			i++
		}
	}
	return i
}

// indexBackslashLong returns the index of the first backslash in s from i
// on, or len(s): bytes.IndexByte, for a long run.
func indexBackslashLong(s []byte, i int) int {
	if k := bytes.IndexByte(s[i:], '\\'); k >= 0 {
		return i + k
	}
	return len(s)
}

// AppendChecked is Append for bytes no scanner has validated (such as the
// content of a ",string" value): ok is false when tok is not a well-formed
// JSON string as encoding/json's unquote judges it (which also accepts \').
func AppendChecked(dst, tok []byte) (_ []byte, ok bool) {
	if len(tok) < 2 || tok[0] != '"' || tok[len(tok)-1] != '"' {
		return dst, false
	}
	return appendSlow(dst, tok[1:len(tok)-1])
}

// Simple reports whether the string body needs no unescaping and no UTF-8
// repair, so its bytes are its value.
func Simple(body []byte) bool { return plainPrefix(body) == len(body) }

// plainPrefix returns the length of body's prefix that is printable ASCII
// with no escape, 8 bytes at a time.
func plainPrefix(body []byte) int {
	const lsb, msb = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(body); i += 8 {
		v := uint64(body[i]) | uint64(body[i+1])<<8 | uint64(body[i+2])<<16 | uint64(body[i+3])<<24 |
			uint64(body[i+4])<<32 | uint64(body[i+5])<<40 | uint64(body[i+6])<<48 | uint64(body[i+7])<<56
		b := v ^ (lsb * '\\')
		if (((b-lsb)&^b)|v)&msb != 0 {
			break
		}
	}
	for ; i < len(body); i++ {
		if c := body[i]; c == '\\' || c >= utf8.RuneSelf {
			break
		}
	}
	return i
}

// appendSlow handles escapes and non-ASCII bytes one at a time. ok is false
// for input a scanner would have rejected: a bad escape, a raw quote or
// control byte.
func appendSlow(dst, s []byte) (_ []byte, ok bool) {
	for r := 0; r < len(s); {
		c := s[r]
		switch {
		case c == '\\':
			var n int
			if dst, n = appendEscape(dst, s[r:]); n == 0 {
				return dst, false
			}
			r += n
		case c == '"' || c < ' ':
			return dst, false
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			r++
		default:
			rr, size := utf8.DecodeRune(s[r:])
			if rr == utf8.RuneError && size == 1 {
				dst = utf8.AppendRune(dst, unicode.ReplacementChar)
			} else {
				dst = append(dst, s[r:r+size]...)
			}
			r += size
		}
	}
	return dst, true
}

// AppendU appends the value of the \u escape that s starts with (s[0] is
// a backslash), or of the surrogate pair of two such escapes, and returns
// the number of bytes it took (6 or 12), or 0 when s does not start with
// one: for a caller that unescapes as it scans.
func AppendU(dst, s []byte) ([]byte, int) {
	r := rune(-1)
	if len(s) >= 6 && s[1] == 'u' {
		r = Hex4(binary.LittleEndian.Uint32(s[2:6]))
	}
	if r >= 0 && (r < 0xd800 || r >= 0xe000) {
		return appendRune3(dst, r), 6
	}
	// A surrogate pair (an emoji, a rare CJK character) written here; a
	// lone surrogate, and anything that is not a \u escape, by
	// appendEscape.
	if r >= 0xd800 && r < 0xdc00 && len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
		if r2 := Hex4(binary.LittleEndian.Uint32(s[8:12])); r2 >= 0xdc00 && r2 < 0xe000 {
			c := 0x10000 + (r-0xd800)<<10 | (r2 - 0xdc00)
			return append(dst, 0xf0|byte(c>>18), 0x80|byte(c>>12)&0x3f, 0x80|byte(c>>6)&0x3f, 0x80|byte(c)&0x3f), 12
		}
	}
	return appendEscape(dst, s)
}

// AppendRune3 appends the UTF-8 encoding of r, which is below 0x10000 and
// not a surrogate: a caller that unescapes as it scans decodes the \u
// escapes of one UTF-16 unit that are not surrogates (most of them) with
// Hex4 and AppendRune3, both inlined, and leaves the others to AppendU.
func AppendRune3(dst []byte, r rune) []byte { return appendRune3(dst, r) }

// appendEscape appends the value of the escape that s starts with (a lone
// surrogate, or a pair that is not one, becomes U+FFFD, as in encoding/json)
// and returns the number of bytes it took, or 0 for a bad escape.
func appendEscape(dst, s []byte) (_ []byte, n int) {
	if len(s) < 2 {
		return dst, 0
	}
	switch s[1] {
	case '"', '\\', '/', '\'':
		dst = append(dst, s[1])
	case 'b':
		dst = append(dst, '\b')
	case 'f':
		dst = append(dst, '\f')
	case 'n':
		dst = append(dst, '\n')
	case 'r':
		dst = append(dst, '\r')
	case 't':
		dst = append(dst, '\t')
	case 'u':
		rr := getu4(s)
		if rr < 0 {
			return dst, 0
		}
		if utf16.IsSurrogate(rr) {
			if dec := utf16.DecodeRune(rr, getu4(s[6:])); dec != unicode.ReplacementChar {
				return utf8.AppendRune(dst, dec), 12
			}
			rr = unicode.ReplacementChar
		}
		return utf8.AppendRune(dst, rr), 6
	default:
		return dst, 0
	}
	return dst, 2
}

// shortEscape is the byte a one-letter escape stands for, by its letter,
// or 0: the same escapes appendEscape decodes. That is EscapeByte's JSON
// escapes and \', which encoding/json's unquote takes too (its scanner
// rejects it first); the kernel leaves \' to its caller.
var shortEscape = func() [256]byte {
	t := EscapeByte
	t['\''] = '\''
	return t
}()

// getu4 decodes \uXXXX from the beginning of s, returning the hex value, or
// -1 when s does not start with one.
func getu4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	return Hex4(binary.LittleEndian.Uint32(s[2:6]))
}

// Hex4 returns the value of the four hexadecimal digits in x, the first in
// its low byte, or -1 when one is not a digit. The four are checked and
// converted together (SWAR), without a branch or a table load each: a
// string written all in \u escapes (names in other scripts, as some
// exporters write them) spends its time here.
//
// It inlines: the loops over escapes call it on the word they load. As a
// call, it was 15% of the profile of strings written in \u escapes
// (BenchmarkStringShapes kind=uesc n=100, typed, Intel Xeon).
func Hex4(x uint32) rune {
	// A digit's value is its low four bits, plus 9 for a letter (bit 6).
	v := x&0x0f0f0f0f + 9*(x>>6&0x01010101)
	// Pairs of digits into bytes (the first digit of each pair is in
	// the lower byte, and goes to the high nibble), then the two bytes
	// into the value.
	p := (v<<4 | v>>8) & 0x00ff00ff
	if notHex4(x) != 0 {
		return -1
	}
	return rune(p&0xff)<<8 | rune(p>>16)
}

// notHex4 is not 0 when a byte of x is not a hexadecimal digit. Each sum
// sets a byte's top bit when the byte is at least the bound ('0' and '9'+1
// for digits, 'a' and 'f'+1 for letters, with A-F turned into a-f by the
// 0x20 bit, which digits have too); a byte of 0x80 or more can carry into
// the next, but it fails itself (| x), and one failing byte is enough.
func notHex4(x uint32) uint32 {
	const ones = 0x01010101
	y := x | 0x20202020
	// One expression: as variables, digit and letter cost Hex4 its
	// inlining.
	return (^((x+ones*(0x80-'0'))&^(x+ones*(0x80-'9'-1)) | // digit
		(y+ones*(0x80-'a'))&^(y+ones*(0x80-'f'-1))) | x) & 0x80808080 // letter
}
