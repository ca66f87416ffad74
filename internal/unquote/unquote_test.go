package unquote

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
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
