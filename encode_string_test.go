package json

import (
	"bytes"
	stdjson "encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/strbody"
)

// appendString against the classic encoding/json's string encoding, with
// and without HTML escaping, at every alignment of the 16-byte runs and of
// the strbody.Escape kernel's 32-byte blocks.
func stdString(s string, escapeHTML bool) string {
	var buf bytes.Buffer
	enc := stdjson.NewEncoder(&buf)
	enc.SetEscapeHTML(escapeHTML)
	enc.Encode(s)
	return strings.TrimSuffix(buf.String(), "\n")
}

func checkAppendString(t *testing.T, s string) {
	t.Helper()
	for _, html := range []bool{true, false} {
		want := stdString(s, html)
		if got := string(appendString([]byte("x"), s, html)); got != "x"+want {
			t.Errorf("appendString(%q, %v) = %s, want x%s", s, html, got, want)
		}
		// with spare capacity, as a growing buffer has it: the short
		// strings' word stores, with the capacity they need and no more,
		// over stale bytes; and the kernel's call from appendString
		// itself, from the room it needs (over len(s)+Block) to the room
		// for every byte escaped as \u00XX
		for _, spare := range []int{33, 34, 100, len(s) + strbody.Block, len(s) + strbody.Block + 1, 6*len(s) + strbody.Block + 2} {
			dst := append(make([]byte, 0, 3+spare), "xyz"...)
			stale := dst[:cap(dst)]
			for i := 3; i < len(stale); i++ {
				stale[i] = '#'
			}
			if got := string(appendString(dst, s, html)); got != "xyz"+want {
				t.Errorf("appendString(%q, %v) with %d spare = %s, want xyz%s", s, html, spare, got, want)
			}
		}
		if got := string(appendBytesString(nil, []byte(s), html)); got != want {
			t.Errorf("appendBytesString(%q, %v) = %s, want %s", s, html, got, want)
		}
	}
}

func TestAppendString(t *testing.T) {
	if !stdClassic {
		t.Skip("encoding/json here is built on v2, which writes invalid UTF-8 as raw U+FFFD; TestMarshalDiff covers this toolchain")
	}
	specials := []string{"\"", "\\", "\x00", "\x1f", "\n", "\t", "<", ">", "&", "\u2028", "\u2029", "é", "\xff", "\xe2\x80", "€", "\U0001F600", "\x7f", " ",
		// every edge of UTF-8 validity: overlong forms, surrogates, past U+10FFFF, cut short
		"\xc0\x80", "\xc1\xbf", "\xc2\x80", "\xdf\xbf", "\xdf", "\xe0\x9f\xbf", "\xe0\xa0\x80",
		"\xed\x9f\xbf", "\xed\xa0\x80", "\xee\x80\x80", "\xef\xbf\xbf", "\xe2\x80\xa7", "\xe2\x80\xaa",
		"\xe2\x81\xa8", "\xf0\x8f\xbf\xbf", "\xf0\x90\x80\x80", "\xf0\x90\x80", "\xf4\x8f\xbf\xbf",
		"\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xff\xfe", "\x80", "\xbf", "日本語のテキスト"}
	for _, sp := range specials {
		// every place in both words of the first 16-byte turn, in the
		// kernel's 32-byte blocks after it, and in the tail
		for pre := 0; pre <= 90; pre++ {
			for _, post := range []int{0, 3, 9, 40} {
				checkAppendString(t, strings.Repeat("a", pre)+sp+strings.Repeat("b", post))
			}
		}
	}
	// and amid three-byte characters, which are checked two at a time near
	// the end and by the kernel before: at either place of a pair, after an
	// odd or even count of them, and cut
	checkAppendString(t, "")
	for _, sp := range append(specials, "a", "語"[:2], "語"[:1]) {
		for pre := 0; pre <= 14; pre++ { // past 32 bytes: through the kernel from the first
			for post := 0; post <= 12; post++ {
				cjk := strings.Repeat("語", pre) + sp + strings.Repeat("本", post)
				checkAppendString(t, cjk)
				checkAppendString(t, "a"+cjk)
				checkAppendString(t, cjk+"\xe6\x9c")
			}
		}
	}
	checkAppendString(t, strings.Repeat("plain text, quite long ", 10))
	// two specials close together before a short tail, and short strings
	// (under 8 bytes, checked as their first and last 4): a flagged byte
	// below the tail's window must not flag a plain byte in it
	// (a '\\' wrongly flags a ']' or '\\' above it, a control byte a '!'
	// or a control byte, so those are among the neighbours)
	few := []string{"\"", "\\", "\x00", "\x1f", "<", "é", "\xff", "\u2028", "a", "]", "!", " "}
	for _, a := range few {
		for _, b := range few {
			for pre := 0; pre <= 9; pre++ {
				for gap := 0; gap <= 3; gap++ {
					for post := 0; post <= 7; post++ {
						checkAppendString(t, strings.Repeat("p", pre)+a+strings.Repeat("]", gap)+b+strings.Repeat("!", post))
					}
				}
			}
		}
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "abcdefgh<ijklmnop", "\xe2\x80\xa8 and \u2029 \xff\x00\"\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !stdClassic {
			t.Skip("needs the classic encoding/json (see TestAppendString)")
		}
		checkAppendString(t, s)
	})
}

// appendEscapedShort, the byte loop for strings under 8 bytes, against
// the kernel's way (appendEscaped, checked against encoding/json above)
// on every string of one and two bytes, and on three to seven bytes
// drawn from the bytes that matter (escapes, UTF-8 lead and continuation
// bytes, U+2028's, invalid ones), with and without HTML escaping.
func TestAppendEscapedShort(t *testing.T) {
	check := func(s string) {
		t.Helper()
		for _, html := range []bool{false, true} {
			if got, want := appendEscapedShort([]byte("x"), s, html), appendEscaped([]byte("x"), s, html); string(got) != string(want) {
				t.Fatalf("appendEscapedShort(%q, %v) = %s, want %s", s, html, got, want)
			}
		}
	}
	for a := range 256 {
		check(string([]byte{byte(a)}))
		for b := range 256 {
			check(string([]byte{byte(a), byte(b)}))
		}
	}
	some := []byte{'a', '"', '\\', '\n', 0, 0x1f, '<', '&', 0x7f, 0xc3, 0xa9, 0xe2, 0x80, 0xa8, 0xa9, 0xe8, 0xaa, 0x9e, 0xf0, 0x9f, 0x98, 0x80, 0xed, 0xa0, 0xff, 0xc0}
	r := rand.New(rand.NewPCG(7, 8))
	for range 200_000 {
		b := make([]byte, 3+r.IntN(5))
		for i := range b {
			b[i] = some[r.IntN(len(some))]
		}
		check(string(b))
	}
}

// appendString on every string of one and two bytes, and of three bytes
// drawn from the bytes that matter to shortText (each ASCII byte that
// needs an escape or none, every byte of 0x80 and more), against the
// kernel's way (appendEscaped, checked against encoding/json above), with
// and without HTML escaping and with room for the short strings' stores.
func TestAppendStringShort(t *testing.T) {
	var some []byte
	for c := range 256 {
		if c >= 0x80 || strings.IndexByte("a\"\\\n\x00\x1f<>&\x7f ", byte(c)) >= 0 {
			some = append(some, byte(c))
		}
	}
	check := func(b []byte) {
		for _, html := range []bool{false, true} {
			dst := append(make([]byte, 0, 64), 'x')
			if got, want := appendString(dst, string(b), html), appendEscaped([]byte("x"), string(b), html); string(got) != string(want) {
				t.Fatalf("appendString(%q, %v) = %s, want %s", b, html, got, want)
			}
		}
	}
	for a := range 256 {
		check([]byte{byte(a)})
		for b := range 256 {
			check([]byte{byte(a), byte(b)})
		}
	}
	for _, a := range some {
		for _, m := range some {
			for _, z := range some {
				check([]byte{a, m, z})
			}
		}
	}
}

// The struct encoder writes strings of 4 to 24 bytes itself (in its
// loop, as appendString would): every length around that range, each
// with a byte that needs a look at every place, or none, in fields after
// one another (the pooled buffer's spare capacity holds what earlier
// calls left), with and without HTML escaping, against encoding/json.
func TestStructStringFields(t *testing.T) {
	if !stdClassic {
		t.Skip("encoding/json here is built on v2, which writes invalid UTF-8 as raw U+FFFD; TestMarshalDiff covers this toolchain")
	}
	type rec struct {
		A string
		B string `json:"b"`
		N int    `json:"n"`
	}
	for n := 0; n <= 34; n++ {
		for _, sp := range []string{"", "\"", "\\", "\n", "\x00", "<", "&", "é", "\xff", "\u2028", "語"} {
			for pos := 0; pos <= n; pos++ {
				if sp == "" && pos > 0 {
					break
				}
				body := []byte(strings.Repeat("abcdefghij", 4)[:n])
				s := string(body[:pos]) + sp + string(body[pos:])
				if len(sp) > 0 && len(s) > n {
					s = s[:max(n, len(sp))] // n bytes where the special fits, cut characters too
				}
				v := []rec{{A: s, B: s[:len(s)/2], N: n}, {A: s[len(s)/3:], B: s, N: pos}}
				for _, html := range []bool{true, false} {
					var got, want bytes.Buffer
					enc := NewEncoder(&got)
					enc.SetEscapeHTML(html)
					if err := enc.Encode(v); err != nil {
						t.Fatal(err)
					}
					stdEnc := stdjson.NewEncoder(&want)
					stdEnc.SetEscapeHTML(html)
					stdEnc.Encode(v)
					if got.String() != want.String() {
						t.Fatalf("%q, html %v:\n got %s\nwant %s", s, html, got.String(), want.String())
					}
				}
				if got, err := Marshal(v); err != nil {
					t.Fatal(err)
				} else if want, _ := stdjson.Marshal(v); string(got) != string(want) {
					t.Fatalf("Marshal of %q:\n got %s\nwant %s", s, got, want)
				}
			}
		}
	}
}

// BenchmarkAppendStringShort: appendString on 1,024 distinct strings of n
// bytes (1 to 7, and lengths mixed) of letters and digits ("plain"), or
// with one byte that needs an escape at a random place ("esc": a quote, a
// backslash, a newline, a tab or a control byte; "html": '<', '>' or '&',
// with HTML escaping).
func BenchmarkAppendStringShort(b *testing.B) {
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	for _, kind := range []struct {
		name, escapes string
		html          bool
	}{{"plain", "", true}, {"esc", "\"\\\n\t\x01", false}, {"html", "<>&", true}} {
		for _, n := range []int{1, 2, 3, 4, 5, 6, 7, 0} {
			r := rand.New(rand.NewPCG(uint64(n), 9))
			ss := make([]string, 1024)
			for i := range ss {
				m := n
				if m == 0 {
					m = 1 + r.IntN(7)
				}
				s := make([]byte, m)
				for k := range s {
					s[k] = letters[r.IntN(len(letters))]
				}
				if kind.escapes != "" {
					s[r.IntN(m)] = kind.escapes[r.IntN(len(kind.escapes))]
				}
				ss[i] = string(s)
			}
			name := fmt.Sprintf("kind=%s/n=%d", kind.name, n)
			if n == 0 {
				name = fmt.Sprintf("kind=%s/n=1-7", kind.name)
			}
			buf := make([]byte, 0, 64*1024)
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					d := buf[:0]
					for _, s := range ss {
						d = appendString(d, s, kind.html)
					}
				}
			})
		}
	}
}
