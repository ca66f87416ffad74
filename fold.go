package json

import (
	"unicode"
	"unicode/utf8"
)

// Case-insensitive key matching, as encoding/json does it: a key matches a
// field name when both fold to the same bytes, where folding maps ASCII
// letters to upper case and every other rune to the smallest rune of its
// unicode.SimpleFold orbit (so 'ſ' and 'S' match 's', and the Kelvin sign
// matches 'k'). Invalid UTF-8 folds to U+FFFD.

// appendFolded appends the folded form of name to dst.
func appendFolded(dst, name []byte) []byte {
	for i := 0; i < len(name); {
		c := name[i]
		if c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(name[i:])
		dst = utf8.AppendRune(dst, foldRune(r))
		i += n
	}
	return dst
}

// foldRune returns the smallest rune that r folds to.
func foldRune(r rune) rune {
	for {
		r2 := unicode.SimpleFold(r)
		if r2 <= r {
			return r2
		}
		r = r2
	}
}

// foldASCIIEqual reports whether key, which is all ASCII, folds to folded
// (already folded). It is the allocation-free fast path of the
// case-insensitive match.
func foldASCIIEqual(key []byte, folded string) bool {
	if len(key) != len(folded) {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		if c != folded[i] {
			return false
		}
	}
	return true
}
