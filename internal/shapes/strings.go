package shapes

import (
	"fmt"
	"math/rand/v2"
	"unicode/utf8"
)

// Strings is the record of the string cases: four strings of one length
// and kind. A record holds as many of them as fit in MaxDoc (at least one),
// so at 4,000 bytes it has A alone and is a small document of its own.
type Strings struct {
	A string `json:"a"`
	B string `json:"b"`
	C string `json:"c"`
	D string `json:"d"`
}

// StringLens are the lengths of the string cases: the bytes between the
// quotes, as written.
var StringLens = []int{4, 16, 40, 100, 400, 4000}

// stringKinds: how each kind's string is made, n bytes as written.
var stringKinds = []struct {
	name, about string
	body        func(r *rand.Rand, n int) []byte
}{
	{"ascii", "letters, digits and spaces", func(r *rand.Rand, n int) []byte { return text(r, n) }},
	{"url", "URLs: scheme, host, path, a query with & and =", urlBody},
	{"esc10", `letters with an escape (\n or \") every 10 bytes`, esc10Body},
	{"uesc", `half letters, half non-ASCII written as \uXXXX, a quarter of those surrogate pairs (emoji)`, uescBody},
	{"utf8", "raw UTF-8: CJK, emoji and a few ASCII letters and spaces", utf8Body},
}

func stringCases() []*Case {
	var cs []*Case
	for _, n := range StringLens {
		for _, k := range stringKinds {
			fields := min(4, max(1, (MaxDoc-2)/(n+7)))
			cs = append(cs, newCase[Strings]("str", fmt.Sprintf("str-len%d-%s", n, k.name),
				fmt.Sprintf("%d of %d-byte strings: %s", fields, n, k.about),
				func(e *enc, r *rand.Rand) {
					e.open('{')
					for _, key := range []string{"a", "b", "c", "d"}[:fields] {
						e.key(key)
						e.quoted(k.body(r, n))
					}
					e.close('}')
				}))
		}
	}
	return cs
}

// urlBody: short ones a path, longer ones a scheme, a host, a path and,
// from 40 bytes, a query from about half way, cut to n bytes.
func urlBody(r *rand.Rand, n int) []byte {
	var b []byte
	if n >= 24 {
		b = append(b, "https://"...)
		b = append(b, word(r, 3+r.IntN(6))...)
		b = append(b, ".example.com"...)
	}
	query, path := n >= 40, false
	for len(b) < n {
		if query && path && len(b) >= n/2 {
			b = append(b, "?id="...)
			b = append(b, word(r, 4)...)
			for len(b) < n {
				b = append(append(append(b, '&'), word(r, 1+r.IntN(4))...), '=')
				b = append(b, word(r, 1+r.IntN(8))...)
			}
			break
		}
		b = append(b, '/')
		b = append(b, word(r, 2+r.IntN(8))...)
		path = true
		if r.IntN(4) == 0 {
			b = append(b, '-')
		}
	}
	return b[:n]
}

// esc10Body: letters, and an escape at every tenth byte from the second.
func esc10Body(r *rand.Rand, n int) []byte {
	b := make([]byte, 0, n)
	for len(b) < n {
		if len(b)%10 == 1 && len(b)+2 <= n {
			b = append(b, [][]byte{[]byte(`\n`), []byte(`\"`)}[r.IntN(2)]...)
			continue
		}
		b = append(b, alnum[r.IntN(len(alnum))])
	}
	return b
}

// Non-ASCII runes of the \u and UTF-8 kinds: Latin-1, Greek, Cyrillic,
// CJK, and emoji (beyond the BMP: a surrogate pair, or 4 bytes of UTF-8).
var bmpRanges = [][2]rune{{0xc0, 0xff}, {0x3b1, 0x3c9}, {0x430, 0x44f}, {0x4e00, 0x9fa5}}

func bmpRune(r *rand.Rand) rune {
	rg := bmpRanges[r.IntN(len(bmpRanges))]
	return rg[0] + rune(r.IntN(int(rg[1]-rg[0]+1)))
}

func emoji(r *rand.Rand) rune { return 0x1f300 + rune(r.IntN(0x1f650-0x1f300)) }

// uescBody: letters and \u escapes, half and half, a quarter of the
// escapes surrogate pairs; it starts with an escape, so even a 4-byte one
// has one (and is 6 bytes long: a pair comes first only from 12 bytes).
func uescBody(r *rand.Rand, n int) []byte {
	b := make([]byte, 0, n+6)
	for len(b) < n {
		if len(b) > 0 && r.IntN(2) == 0 {
			b = append(b, alnum[r.IntN(len(alnum))])
			continue
		}
		var u []byte
		if r.IntN(4) == 0 && (len(b) > 0 || n >= 12) {
			hi, lo := surrogates(emoji(r))
			u = fmt.Appendf(nil, `\u%04x\u%04x`, hi, lo)
		} else {
			u = fmt.Appendf(nil, `\u%04x`, bmpRune(r))
		}
		if len(b) > 0 && len(b)+len(u) > n {
			b = append(b, alnum[r.IntN(len(alnum))])
			continue
		}
		b = append(b, u...)
	}
	return b
}

func surrogates(c rune) (hi, lo rune) {
	c -= 0x10000
	return 0xd800 + c>>10, 0xdc00 + c&0x3ff
}

// utf8Body: CJK (7 in 10), emoji (1 in 10), ASCII letters and spaces (2 in
// 10); it starts with a CJK character, and letters fill what a character
// would overrun.
func utf8Body(r *rand.Rand, n int) []byte {
	b := make([]byte, 0, n)
	for len(b) < n {
		var c rune
		switch k := r.IntN(10); {
		case len(b) == 0 || k < 7:
			c = 0x4e00 + rune(r.IntN(0x9fa5-0x4e00+1))
		case k == 7:
			c = emoji(r)
		case k == 8 && len(b) > 0 && b[len(b)-1] != ' ':
			c = ' '
		default:
			c = rune(alnum[r.IntN(len(alnum))])
		}
		if len(b)+utf8.RuneLen(c) > n {
			c = rune(alnum[r.IntN(len(alnum))])
		}
		b = utf8.AppendRune(b, c)
	}
	return b
}
