package strbody

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"
)

// needsLook reports whether the character r, n bytes long as
// utf8.DecodeRuneInString read it, is one a JSON encoder must look at on
// its own.
func needsLook(r rune, n int, html bool) bool {
	switch {
	case r == utf8.RuneError && n == 1, r < 0x20, r == '"', r == '\\', r == 0x2028, r == 0x2029,
		html && (r == '<' || r == '>' || r == '&'):
		return true
	}
	return false
}

// escapeLimit is where EscapeCopy from j must stop, with room bytes for
// what escapes add: at the first character that needs a look and is not
// ASCII, or at the first ASCII escape that no longer fits.
func escapeLimit(s string, j int, html bool, room int) int {
	for j < len(s) {
		r, n := utf8.DecodeRuneInString(s[j:])
		if needsLook(r, n, html) {
			if n > 1 || r >= 0x80 || r == utf8.RuneError {
				return j
			}
			extra := 5 // \u00XX
			if strings.ContainsRune("\"\\\b\f\n\r\t", r) {
				extra = 1
			}
			if extra > room {
				return j
			}
			room -= extra
		}
		j += n
	}
	return j
}

// escapedReference sets refText to s escaped as encoding/json escapes it,
// without the quotes, a character at a time, and refAt[i] to where the
// escape of the character at s[i] starts in it (for i = len(s) too): the
// escaping of s[j:k] is refText[refAt[j]:refAt[k]].
func escapedReference(s string, html bool) {
	b, at := refText[:0], refAt[:0]
	for j := 0; j < len(s); {
		r, n := utf8.DecodeRuneInString(s[j:])
		for range n {
			at = append(at, len(b))
		}
		switch {
		case r == utf8.RuneError && n == 1:
			b = append(b, `\ufffd`...)
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\b':
			b = append(b, `\b`...)
		case r == '\f':
			b = append(b, `\f`...)
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r < 0x20, r == 0x2028, r == 0x2029, html && (r == '<' || r == '>' || r == '&'):
			const hex = "0123456789abcdef"
			b = append(b, '\\', 'u', hex[r>>12], hex[r>>8&0xF], hex[r>>4&0xF], hex[r&0xF])
		default:
			b = append(b, s[j:j+n]...)
		}
		j += n
	}
	refText, refAt = b, append(at, len(b))
}

// checkEscape checks EscapeCopy, with the assembly kernel and without it,
// on s from every start of a character, with and without html, with room
// for every escape, and from the start with room for none, for one short
// escape and for one \u00XX.
func checkEscape(t *testing.T, s string) {
	t.Helper()
	for _, html := range []bool{false, true} {
		escapedReference(s, html)
		for j := 0; j <= len(s); j++ {
			if j < len(s) && !utf8.RuneStart(s[j]) {
				continue
			}
			room := 5 * (len(s) - j) // room for every escape; from the start, also for none, one short one, one \u00XX
			if j == 0 {
				checkEscapeAt(t, s, j, html, 0, true)
				checkEscapeAt(t, s, j, html, 1, true)
				checkEscapeAt(t, s, j, html, 5, true)
			}
			checkEscapeAt(t, s, j, html, room, true)
		}
	}
}

// checkEscapeAt checks EscapeCopy on s from j (after escapedReference(s,
// html)), into a buffer of stale
// bytes with room bytes more than it must have, with and without the
// assembly kernel: it stops exactly at escapeLimit, and what it wrote is
// the reference escaping of what it passed. With
// kernel, the assembly kernel's own stop too: within three bytes past the
// limit.
func checkEscapeAt(t *testing.T, s string, j int, html bool, room int, kernel bool) {
	// No t.Helper, defer or allocation here: TestEscape calls it some
	// million times.
	avx2 := useAVX2
	limit := escapeLimit(s, j, html, room)
	need := len(s) - j + Block + room
	if cap(scratch) < need {
		scratch = make([]byte, need)
	}
	d := scratch[:need]
	for _, useAVX2 = range [2]bool{avx2, false} {
		ref := refText[refAt[j]:refAt[limit]]
		for i := range d[:len(ref)] { // stale bytes where the copy must go
			d[i] = 0xAA
		}
		k, n := EscapeCopy(d, s, j, html)
		if k != limit || n != len(ref) || string(d[:n]) != string(ref) {
			cur := useAVX2
			useAVX2 = avx2
			t.Fatalf("EscapeCopy(%q, %d, %v), room %d = %d, writing %q; want %d, %q (AVX2 %v)", s, j, html, room, k, d[:min(max(n, 0), len(d))], limit, ref, cur)
		}
	}
	useAVX2 = avx2
	if !kernel {
		return
	}
	fn := escapeCopyGeneric
	if avx2 {
		fn = escapeCopyAVX2
	}
	if k, _ := fn(d, s, j, html); k < j || k > limit+3 || k > len(s) {
		t.Fatalf("kernel (AVX2 %v) on (%q, %d, %v), room %d stopped at %d; the limit is %d", avx2, s, j, html, room, k, limit)
	}
}

// scratch, refText and refAt are checkEscapeAt's buffers (the tests of
// this package do not run in parallel).
var (
	scratch, refText []byte
	refAt            []int
)

// TestEscape puts every byte value, and each character and fragment of the
// list below, at every place in inputs of 0 to 100 bytes, alone and with a
// second one after it.
func TestEscape(t *testing.T) {
	t.Logf("AVX2 kernel: %v", useAVX2)
	pieces := escapePieces()
	step := 1 // -short (the race detector's run) takes every third length
	if testing.Short() {
		step = 3
	}
	for n := 0; n <= 100; n += step {
		plain := strings.Repeat("abcdefghijklmnopqrstuvwxyz", 4)[:n]
		checkEscape(t, plain)
		for p := 0; p < n; p += 1 + p/40 {
			for c := 0; c < 256; c++ {
				checkEscape(t, plain[:p]+string([]byte{byte(c)})+plain[p+1:])
			}
		}
	}
	for _, pre := range []string{"", "é", "語", "😀", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaa"} {
		for p := 0; p <= 40; p++ {
			for _, x := range pieces {
				for _, y := range []string{"", "\"", "語", "\xe2\x80\xa9", "\xff"} {
					s := strings.Repeat("a", p) + pre + x + strings.Repeat("b", 7) + y + strings.Repeat("c", 40)
					checkEscape(t, s)
				}
			}
		}
	}
}

// TestEscapeDense puts escapes close together (one byte in 2, 3, 5 and 10;
// every ASCII byte with an escape, and now and then a non-ASCII character)
// in strings of 0 to 200 bytes, where the AVX2 kernel escapes several in
// one block, and checks them with every room from none to twelve bytes
// over what they must have: a store past the room, or a byte copied
// before the escape that needs it, shows.
func TestEscapeDense(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 36))
	escapes := "\"\\\n\t\x00\x1f<>&"
	others := []string{"é", "語", "😀", "\u2028"}
	for n := 0; n <= 200; n++ {
		for _, every := range []int{2, 3, 5, 10} {
			b := make([]byte, 0, n+4)
			for len(b) < n {
				switch k := r.IntN(every * 8); {
				case k < 8:
					b = append(b, escapes[r.IntN(len(escapes))])
				case k == 8 && every > 2:
					b = append(b, others[r.IntN(len(others))]...)
				default:
					b = append(b, 'a'+byte(r.IntN(26)))
				}
			}
			s := string(b)
			for _, html := range []bool{false, true} {
				escapedReference(s, html)
				for room := 0; room <= 12; room++ {
					checkEscapeAt(t, s, 0, html, room, true)
				}
				checkEscapeAt(t, s, 0, html, 5*len(s), true)
			}
		}
	}
}

// escapePieces are characters and fragments at the edges of what Escape
// passes over.
func escapePieces() []string {
	return []string{"a", "\"", "\\", "\x00", "\x1f", " ", "\x7f", "<", ">", "&", "=", "?", "%", "'",
		"é", "\u07ff", "\u0800", "語", "\ud7ff", "\ue000", "\uffff", "😀", "\U00010000", "\U0010ffff",
		"\u2028", "\u2029", "\u2027", "\u202a", "\u2128", "\xe2\x81\xa8", "\xe2\x80",
		"\x80", "\xbf", "\xc0\x80", "\xc1\xbf", "\xc2\x80", "\xdf\xbf", "\xdf", "\xc2",
		"\xe0\x9f\xbf", "\xe0\xa0\x80", "\xed\x9f\xbf", "\xed\xa0\x80", "\xee\x80\x80", "\xef\xbf\xbf",
		"\xe1\x80", "\xe1", "\xf0\x8f\xbf\xbf", "\xf0\x90\x80\x80", "\xf0\x90\x80", "\xf0\x90", "\xf0",
		"\xf4\x8f\xbf\xbf", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xf8\x80\x80\x80\x80", "\xff", "\xfe",
		"\xc3\xa9\xa9", "\xe8\xaa\x9e\x80", "\xf0\x9f\x98\x80\x80"}
}

// TestEscapePairs puts every pair of bytes on both sides of the boundary
// between two blocks, and every three-byte sequence that starts with a
// lead byte of three or four and ends at either of two edges.
func TestEscapePairs(t *testing.T) {
	if testing.Short() {
		t.Skip("65,536 pairs and their three-byte kin: not in -short")
	}
	a := strings.Repeat("a", 80)
	for c := 0; c < 256; c++ {
		for d := 0; d < 256; d++ {
			for _, p := range []int{30, 31, 32} {
				s := a[:p] + string([]byte{byte(c), byte(d)}) + a[p+2:]
				checkEscapeFrom(t, s, 0)
			}
			if c >= 0xE0 && c < 0xF8 {
				for _, e := range []byte{0x7f, 0x80, 0xbf, 0xc0} {
					checkEscapeFrom(t, a[:31]+string([]byte{byte(c), byte(d), e})+a[34:], 0)
				}
			}
		}
	}
}

// checkEscapeFrom is checkEscape from one start.
func checkEscapeFrom(t *testing.T, s string, j int) {
	t.Helper()
	for _, html := range []bool{false, true} {
		escapedReference(s, html)
		checkEscapeAt(t, s, j, html, 0, false)
		checkEscapeAt(t, s, j, html, 100, false)
	}
}

// TestEscapeEnds checks strings cut off where the bytes after them would
// complete, or spoil, their last character: the kernel reads the bytes
// past the last whole block as one more block and must not let what lies
// beyond the end count. Each string is checked in place in a larger one,
// and again laid at the end of a page, where the kernel must not read
// past it (here the next page is there, holding the same bytes, so that
// reading it would show).
func TestEscapeEnds(t *testing.T) {
	const page = 4096
	mem := make([]byte, 3*page)
	base := page - int(uintptr(unsafe.Pointer(&mem[0]))%page) // the start of a page in mem
	for _, after := range []string{"\x80\x80\x80\x80", "\xa8\xa9aa", "\"aaa"} {
		for n := 0; n <= 70; n++ {
			for _, x := range escapePieces() {
				for _, pre := range []string{"", "é", "語"} {
					s := pre + strings.Repeat("a", n) + x
					if len(s) > 100 {
						continue
					}
					whole := s + after
					checkEscape(t, whole[:len(s)])
					end := base + page
					copy(mem[end-len(s):], s)
					copy(mem[end:], after)
					checkEscape(t, unsafe.String(&mem[end-len(s)], len(s)))
				}
			}
		}
	}
}

func TestEscapeRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	pieces := escapePieces()
	for range 5000 {
		var b strings.Builder
		for b.Len() < 150 {
			if r.IntN(4) == 0 {
				b.WriteString(pieces[r.IntN(len(pieces))])
			} else {
				b.WriteString([]string{"a", "語", "é", " ", "text "}[r.IntN(5)])
			}
		}
		checkEscape(t, b.String())
	}
}

func FuzzEscape(f *testing.F) {
	f.Add(`0123456789abcdef0123456789abcdef<`, 0, true, uint8(0))
	f.Add("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\xe2\x80\xa8", 3, false, uint8(7))
	f.Add("語語語語語語語語語語語語語語語語語語語語語\xed\xa0\x80", 0, false, uint8(1))
	f.Add("a\"b\nc<d\x01e\\f語\"g", 0, true, uint8(6))
	f.Fuzz(func(t *testing.T, s string, j int, html bool, room uint8) {
		if j < 0 || j > len(s) || j < len(s) && !utf8.RuneStart(s[j]) {
			return
		}
		escapedReference(s, html)
		checkEscapeAt(t, s, j, html, int(room), true)
	})
}

// BenchmarkEscape times EscapeCopy (html) on strings of n bytes, plain
// ASCII, CJK, and ASCII with a '"' every 10 bytes, by the assembly kernel
// (where this build and CPU have it) and by the pure-Go twin:
// benchstat -col /impl compares them at each n.
func BenchmarkEscape(b *testing.B) {
	for _, text := range []struct{ name, unit string }{
		{"ascii", "abcdefghij"}, {"cjk", "語"}, {"quote10", `abcdefghi"`},
	} {
		for _, n := range kernelLengths {
			m := n // whole characters: n bytes, or for CJK the most under n
			if text.name == "cjk" {
				m = n / 3 * 3
			}
			s := strings.Repeat(text.unit, n/len(text.unit)+1)[:m]
			for _, impl := range []struct {
				name string
				avx2 bool
			}{{"avx2", true}, {"generic", false}} {
				b.Run(fmt.Sprintf("text=%s/n=%d/impl=%s", text.name, n, impl.name), func(b *testing.B) {
					if impl.avx2 && !useAVX2 {
						b.Skip("no AVX2 kernel in this build or on this CPU")
					}
					avx2 := useAVX2
					defer func() { useAVX2 = avx2 }()
					useAVX2 = impl.avx2
					d := make([]byte, 2*len(s)+Block)
					b.SetBytes(int64(len(s)))
					b.ReportAllocs()
					for b.Loop() {
						if k, _ := EscapeCopy(d, s, 0, true); k != len(s) {
							b.Fatalf("stopped at %d of %d", k, len(s))
						}
					}
				})
			}
		}
	}
}

// TestEscapeMasks: EscapeMask, and EscapeMask(v) &^ v for the ASCII
// bytes with an escape alone, on words of every byte at one place among
// bytes of each class (plain ASCII, escapes, 0x80 and more) at the
// others: each is 0 exactly when no byte it looks for is in the word, and
// its lowest flag is at the first such byte. QuickMask is 0 exactly when
// no such byte is there, nor, with html, '^', '|' or '~'.
func TestEscapeMasks(t *testing.T) {
	asciiEscape := func(c byte, html bool) bool {
		return c < 0x20 || c == '"' || c == '\\' || html && (c == '<' || c == '>' || c == '&')
	}
	plain := []byte("az AZ09 _-./:;=?@#!$%'()*+,[]{}`")
	fill := []byte{'a', ' ', '~', 0x80, 0xA0, 0xDC, 0xE2, 0xFF, '"', 0x1F, 0, '<', '&', '\\'}
	r := rand.New(rand.NewPCG(1, 2))
	for _, html := range []bool{false, true} {
		for c := range 256 {
			for at := range 8 {
				for range 64 {
					var b [8]byte
					for i := range b {
						b[i] = fill[r.IntN(len(fill))]
					}
					b[at] = byte(c)
					v := uint64(0)
					for i := 7; i >= 0; i-- {
						v = v<<8 | uint64(b[i])
					}
					firstASCII, firstAny := 8, 8
					quick := false // QuickMask flags a byte
					for i := 7; i >= 0; i-- {
						quick = quick || asciiEscape(b[i], html) || b[i] >= 0x80 ||
							html && (b[i] == '^' || b[i] == '|' || b[i] == '~')
						if asciiEscape(b[i], html) {
							firstASCII = i
						}
						if asciiEscape(b[i], html) || b[i] >= 0x80 {
							firstAny = i
						}
					}
					for _, m := range []struct {
						name  string
						mask  uint64
						first int
					}{{"EscapeMask &^ v", EscapeMask(v, html) &^ v, firstASCII}, {"EscapeMask", EscapeMask(v, html), firstAny}} {
						got := 8
						if m.mask != 0 {
							got = bits.TrailingZeros64(m.mask) >> 3
						}
						if got != m.first {
							t.Fatalf("%s(% x, html %v): first flag at %d, want %d", m.name, b, html, got, m.first)
						}
					}
					if got := QuickMask(v, html) != 0; got != quick {
						t.Fatalf("QuickMask(% x, html %v) != 0 is %v, want %v", b, html, got, quick)
					}
				}
				// Among plain bytes, where it must be 0 but for c.
				var b [8]byte
				for i := range b {
					b[i] = plain[r.IntN(len(plain))]
				}
				b[at] = byte(c)
				v := binary.LittleEndian.Uint64(b[:])
				want := asciiEscape(byte(c), html) || c >= 0x80 || html && (c == '^' || c == '|' || c == '~')
				if got := QuickMask(v, html) != 0; got != want {
					t.Fatalf("QuickMask(% x, html %v) != 0 is %v, want %v", b, html, got, want)
				}
			}
		}
	}
}
