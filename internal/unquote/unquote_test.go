package unquote

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/corpus"
)

func TestAppendChecked(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{`"abc"`, "abc", true},
		{`"a\'b\u00e9"`, "a'bé", true},
		{`"\ud800x"`, "\uFFFDx", true},
		{`"a\x"`, "", false},
		{`"a\u12"`, "", false},
		{`"a\"`, "", false},
		{`"a"b"`, "", false},
		{"\"a\nb\"", "", false},
		{`abc`, "", false},
		{`"`, "", false},
	} {
		got, ok := AppendChecked(nil, []byte(c.in))
		if ok != c.ok || (ok && string(got) != c.want) {
			t.Errorf("AppendChecked(%s) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestAppendAgainstStdlib builds string tokens from pieces that take every
// path (plain ASCII, escapes, surrogate pairs and lone halves, multi-byte
// runes, invalid UTF-8) and checks Append and AppendChecked against
// encoding/json.
func TestAppendAgainstStdlib(t *testing.T) {
	pieces := []string{
		"a", "plain text ", `\"`, `\\`, `\/`, `\n`, `\t`, `\u00e9`, `\u3042`, `\ud83d\ude00`, `\ud800`, `\udc00`,
		`\ud800\u0041`, "é", "あいう", "😀", "\xff", "\xe3\x81", "\xed\xa0\x80", "\xc0\xaf", `'`, `\'`,
		"0123456789abcdefghij", "seven77", `\\\\`, // runs across the 8-byte words
	}
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 20000; i++ {
		tok := []byte{'"'}
		for n := r.IntN(16); n >= 0; n-- {
			tok = append(tok, pieces[r.IntN(len(pieces))]...)
		}
		tok = append(tok, '"')
		var want string
		werr := json.Unmarshal(tok, &want)
		got, ok := AppendChecked(nil, tok)
		if ok && werr == nil && string(got) != want {
			t.Fatalf("AppendChecked(%q) = %q; want %q", tok, got, want)
		}
		if !ok && !bytes.Contains(tok, []byte(`\'`)) {
			t.Fatalf("AppendChecked(%q) refused it", tok)
		}
		if werr != nil {
			continue // \' : encoding/json's scanner refuses it
		}
		if got := Append(nil, tok); string(got) != want {
			t.Fatalf("Append(%q) = %q; want %q", tok, got, want)
		}
		prefix := append(make([]byte, 0, 6+r.IntN(8)), "prefix"...) // with or without room
		if got := Append(prefix, tok); string(got) != "prefix"+want {
			t.Fatalf("Append(prefix, %q) = %q; want %q", tok, got, "prefix"+want)
		}
		if ascii := !bytes.ContainsFunc(tok, func(c rune) bool { return c >= 0x80 }); ascii {
			if got := AppendKnown(nil, tok, true); string(got) != want {
				t.Fatalf("AppendKnown(%q, ascii) = %q; want %q", tok, got, want)
			}
		}
	}
}

// FuzzAppend: for any string token encoding/json accepts, Append gives its
// value, after what dst held.
func FuzzAppend(f *testing.F) {
	for _, s := range []string{`"abc"`, `"a\nb\u00e9\ud83d\ude00"`, "\"\xff\"", `"0123456789\t0123456789\"x"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, tok []byte) {
		var want string
		if len(tok) < 2 || tok[0] != '"' || tok[len(tok)-1] != '"' || json.Unmarshal(tok, &want) != nil {
			return
		}
		if got := Append([]byte("dst"), tok); string(got) != "dst"+want {
			t.Fatalf("Append(%q) = %q; want %q", tok, got, "dst"+want)
		}
	})
}

// escapedTokens returns the string tokens of data that hold an escape.
func escapedTokens(data []byte) [][]byte {
	var toks [][]byte
	for i := 0; i < len(data); i++ {
		if data[i] != '"' {
			continue
		}
		j := i + 1
		for data[j] != '"' {
			if data[j] == '\\' {
				j++
			}
			j++
		}
		if tok := data[i : j+1]; bytes.IndexByte(tok, '\\') >= 0 {
			toks = append(toks, tok)
		}
		i = j
	}
	return toks
}

// BenchmarkAppend unquotes every escaped string token of each corpus file
// (the tokens Append is called for), into a reused buffer.
func BenchmarkAppend(b *testing.B) {
	for _, f := range corpus.Files(b) {
		toks := escapedTokens(f.Data)
		if len(toks) == 0 {
			continue
		}
		n := 0
		for _, t := range toks {
			n += len(t)
		}
		b.Run(f.Name, func(b *testing.B) {
			b.SetBytes(int64(n))
			var buf []byte
			for b.Loop() {
				for _, t := range toks {
					buf = Append(buf[:0], t)
				}
			}
		})
	}
}

// TestAppendRunLengths puts escapes at every place in runs of 0 to 100
// bytes, before and after runs of every length: the run search has a word
// loop up to 32 bytes, a byte loop for the last 1 to 7, and bytes.IndexByte
// past 32, and each hand-over must find the first backslash.
func TestAppendRunLengths(t *testing.T) {
	for n := 0; n <= 100; n++ {
		plain := make([]byte, n)
		for i := range plain {
			plain[i] = 'a' + byte(i%26)
		}
		for p := 0; p <= n; p++ {
			for _, tail := range []string{"", "xyz", `\"q`} {
				tok := []byte(`"` + string(plain[:p]) + `\n` + string(plain[p:]) + tail + `"`)
				want := string(plain[:p]) + "\n" + string(plain[p:])
				if tail != "" {
					want += map[string]string{"xyz": "xyz", `\"q`: `"q`}[tail]
				}
				if got := Append(nil, tok); string(got) != want {
					t.Fatalf("Append(%q) = %q; want %q", tok, got, want)
				}
				// Into a buffer with room, after bytes already there (the
				// short-run copy writes past the run, never before it).
				roomy := append(make([]byte, 0, 3+2*len(tok)+32), "pfx"...)
				if got := Append(roomy, tok); string(got) != "pfx"+want {
					t.Fatalf("Append(roomy, %q) = %q; want %q", tok, got, "pfx"+want)
				}
			}
		}
		if got := Append(nil, []byte(`"`+string(plain)+`"`)); string(got) != string(plain) {
			t.Fatalf("Append of %d plain bytes = %q", n, got)
		}
	}
}

// BenchmarkAppendShapes unquotes one string token of n bytes between its
// quotes: esc10 has an escape (\n) every 10 bytes, esc1 one escape at the
// front and then a run of letters to its end (the long way, where there is
// one). Short runs and long ones, and the last run of a string, which is
// short as often as not, each have a fixed cost per call to watch.
func BenchmarkAppendShapes(b *testing.B) {
	for _, kind := range []string{"esc10", "esc1", "uesc"} {
		for _, n := range []int{8, 16, 32, 40, 64, 100, 256, 1024, 4096} {
			body := make([]byte, 0, n)
			for kind == "uesc" && len(body) < n {
				// Names in other scripts written as \uXXXX (Cyrillic, and a
				// surrogate pair now and then), as some exporters write every
				// non-ASCII character.
				if len(body)%60 == 48 && len(body)+12 <= n {
					body = append(body, `\ud83d\ude00`...)
				} else if len(body)+6 <= n {
					body = fmt.Appendf(body, `\u%04x`, 0x410+len(body)%32)
				} else {
					body = append(body, 'a')
				}
			}
			for len(body) < n {
				if (kind == "esc10" && len(body)%10 == 8 || kind == "esc1" && len(body) == 0) && len(body)+2 <= n {
					body = append(body, '\\', 'n')
					continue
				}
				body = append(body, 'a'+byte(len(body)%26))
			}
			tok := append(append([]byte{'"'}, body...), '"')
			b.Run(fmt.Sprintf("kind=%s/n=%d", kind, n), func(b *testing.B) {
				b.SetBytes(int64(n))
				buf := make([]byte, 0, 2*n)
				for b.Loop() {
					buf = Append(buf[:0], tok)
				}
			})
		}
	}
}

// TestGetu4 checks the table lookup against strconv for every byte in
// every digit's place and for every value.
func TestGetu4(t *testing.T) {
	check := func(s []byte) {
		want := rune(-1)
		if v, err := strconv.ParseUint(string(s[2:6]), 16, 16); err == nil && !strings.ContainsAny(string(s[2:6]), "+-_xX") {
			want = rune(v)
		}
		if got := getu4(s); got != want {
			t.Fatalf("getu4(%q) = %d, want %d", s, got, want)
		}
	}
	for pos := 2; pos < 6; pos++ {
		for c := 0; c < 256; c++ {
			s := []byte(`\u0a0F`)
			s[pos] = byte(c)
			check(s)
		}
	}
	for v := 0; v < 1<<16; v++ {
		check(fmt.Appendf(nil, `\u%04X`, v))
		check(fmt.Appendf(nil, `\u%04x`, v))
	}
	for _, s := range []string{`\u12`, `\x0000`, `u00000`, `\U0041`} {
		if got := getu4([]byte(s)); got != -1 {
			t.Errorf("getu4(%q) = %d, want -1", s, got)
		}
	}
}

// TestShortEscape: the table the run loop decodes one-letter escapes with
// says what appendEscape says, for every byte after a backslash.
func TestShortEscape(t *testing.T) {
	for c := 0; c < 256; c++ {
		got, n := appendEscape(nil, []byte{'\\', byte(c)})
		want := shortEscape[c]
		if (n == 2) != (want != 0) || n == 2 && (len(got) != 1 || got[0] != want) {
			t.Errorf("escape %q: appendEscape %q, %d; table %q", byte(c), got, n, want)
		}
	}
}

// TestAppendMalformed: tokens no scanner would pass (a lone backslash at
// the end, a bad escape, a short \u) end the value where they stand, and
// never loop or panic.
func TestAppendMalformed(t *testing.T) {
	for _, tc := range []struct{ tok, want string }{
		{`"\"`, ``},
		{`"ab\"`, `ab`},
		{`"ab\n\"`, "ab\n"},
		{`"a\x"`, `a`},
		{`"a\u12"`, `a`},
		{`"a\u12g4b"`, `a`},
		{`"\u0041\`, `A`},
	} {
		if got := string(Append(nil, []byte(tc.tok))); got != tc.want {
			t.Errorf("Append(%s) = %q, want %q", tc.tok, got, tc.want)
		}
	}
}

// TestHex4 checks hex4 against getu4's definition for every value of the
// first two digits' bytes with the other two fixed, and every valid value.
func TestHex4(t *testing.T) {
	for a := 0; a < 256; a++ {
		for b := 0; b < 256; b++ {
			for _, cd := range []string{"0F", "a9", "zz", "G0"} {
				s := []byte{byte(a), byte(b), cd[0], cd[1]}
				want := rune(-1)
				if v, err := strconv.ParseUint(string(s), 16, 16); err == nil && !strings.ContainsAny(string(s), "+-_xX") {
					want = rune(v)
				}
				if got := Hex4(binary.LittleEndian.Uint32(s)); got != want {
					t.Fatalf("Hex4(%q) = %d, want %d", s, got, want)
				}
			}
		}
	}
}

// TestAppendU: AppendU, whose first \u escape and surrogate pairs are
// decoded in place, appends what appendEscape (the rule every path shares)
// appends and takes as many bytes, for escapes of every kind of unit and
// what may follow them: pairs, lone and reversed surrogates, a high one
// followed by something else or cut short, bad digits, other escapes.
func TestAppendU(t *testing.T) {
	units := []string{`\u0041`, `\u00e9`, `\u07ff`, `\u0800`, `\u4e16`, `\uffff`, `\ud7ff`, `\ue000`,
		`\ud800`, `\udbff`, `\ud83d`, `\udc00`, `\udfff`, `\ude00`, `\uD83D`, `\uDE00`, `\u12G4`, `\u12`, `\n`, `\"`, `\x`, ``, `x`}
	for _, a := range units {
		for _, b := range units {
			for _, tail := range []string{"", "z", `\u`, "\xff"} {
				s := []byte(a + b + tail)
				if len(s) < 2 || s[0] != '\\' || s[1] != 'u' {
					continue
				}
				want, wn := appendEscape([]byte("pre"), s)
				got, gn := AppendU([]byte("pre"), s)
				if gn != wn || gn != 0 && !bytes.Equal(got, want) {
					t.Errorf("AppendU(%q) = %q, %d; appendEscape %q, %d", s, got, gn, want, wn)
				}
			}
		}
	}
}
