package json

import (
	"bytes"
	stdjson "encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/corpus"
)

// Compact, Indent and HTMLEscape against the classic encoding/json (Go
// 1.26, Go 1.27 with GOEXPERIMENT=nojsonv2), byte for byte and error for
// error, offsets included; and pinned results that hold on every toolchain.

// formatDiff runs Compact, Indent and HTMLEscape on src with both packages,
// appending to a non-empty buffer, and returns the first difference, or "".
func formatDiff(src []byte) string {
	type result struct {
		out string
		err string
	}
	run := func(f func(*bytes.Buffer) error) result {
		buf := bytes.NewBufferString("pre")
		err := f(buf)
		return result{buf.String(), marshalErrString(err)}
	}
	for _, c := range []struct {
		name      string
		ours, std func(*bytes.Buffer) error
	}{
		{"Compact", func(b *bytes.Buffer) error { return Compact(b, src) }, func(b *bytes.Buffer) error { return stdjson.Compact(b, src) }},
		{"Indent", func(b *bytes.Buffer) error { return Indent(b, src, "", "\t") }, func(b *bytes.Buffer) error { return stdjson.Indent(b, src, "", "\t") }},
		{"Indent prefixed", func(b *bytes.Buffer) error { return Indent(b, src, "> ", "  ") }, func(b *bytes.Buffer) error { return stdjson.Indent(b, src, "> ", "  ") }},
		{"HTMLEscape", func(b *bytes.Buffer) error { HTMLEscape(b, src); return nil }, func(b *bytes.Buffer) error { stdjson.HTMLEscape(b, src); return nil }},
	} {
		got, want := run(c.ours), run(c.std)
		// Both packages' SyntaxError types print as *json.SyntaxError.
		if got != want {
			return c.name + ":\n got " + strings.TrimSpace(got.out) + " " + got.err + "\nwant " + strings.TrimSpace(want.out) + " " + want.err
		}
	}
	return ""
}

func formatInputs() []string {
	return []string{
		``, ` `, `1`, ` 1 `, "\t[ 1 ,\n2 ]\r\n", `{}`, `[]`, ` { } `, `[ [ ] , { } ]`,
		`{"a" : [1, {"b": null}], "c": "<&>", "d": "\u2028\u2029"}`, "\"\u2028<\u2029>&\"",
		`"\"\\\/\b\f\n\r\t\u00e9 {[,:]} "`, `-0.5e+10 `, `[true,false,null]`, `"x"  `,
		`[1,}`, ` {"a" 1}`, `[1, 2`, `1 2`, `"\u12"`, `{"a":}`, `[1,]`, `{"a":1,}`, "\"\x01\"",
		`nul`, `tru`, `01`, `1.`, `-`, `"abc`, `[`, `{`, `{"a"`, `{"a":`, "\xff", `"\xff"`,
		strings.Repeat("[{\"a\":", 300) + "1" + strings.Repeat("}]", 300),
		"[\"" + strings.Repeat("long string past eight bytes \\\" ", 3) + "\"]",
	}
}

func TestFormatDiff(t *testing.T) {
	if !stdClassic {
		t.Skip("encoding/json here is built on v2, whose Compact and Indent differ from the classic ones (other offsets and messages); TestFormatPinned covers this toolchain")
	}
	for _, in := range formatInputs() {
		if d := formatDiff([]byte(in)); d != "" {
			t.Errorf("%.80q: %s", in, d)
		}
	}
	paths, _ := filepath.Glob(filepath.Join(corpus.ConformanceDir(t), "*.json"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if d := formatDiff(data); d != "" {
			t.Errorf("%s: %s", filepath.Base(p), d)
		}
	}
	files := corpus.All
	if testing.Short() {
		files = corpus.Files
	}
	for _, f := range files(t) {
		if d := formatDiff(f.Data); d != "" {
			t.Errorf("%s: %.300s", f.Name, d)
		}
	}
}

func FuzzFormatDiff(f *testing.F) {
	for _, in := range formatInputs() {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if !stdClassic {
			t.Skip("needs the classic encoding/json (see TestFormatDiff)")
		}
		if d := formatDiff(src); d != "" {
			t.Errorf("%q: %s", src, d)
		}
	})
}

// TestFormatPinned: results that encoding/json's classic functions give,
// checked on every toolchain.
func TestFormatPinned(t *testing.T) {
	deep := strings.Repeat("[", 10001) + strings.Repeat("]", 10001)
	for _, c := range []struct {
		fn, in, want string
	}{
		{"Compact", " [ 1 , \"<\\u2028>\" ]  ", `pre[1,"<\u2028>"]`},
		{"Compact", "{\"a\" :\t[ ],\n\"b\": \"x y\" }", `pre{"a":[],"b":"x y"}`},
		{"Compact", `[1,}`, `pre SyntaxError("invalid character '}' looking for beginning of value", 0)`},
		{"Compact", `1 2`, `pre SyntaxError("invalid character '2' after top-level value", 0)`},
		{"Compact", ``, `pre SyntaxError("unexpected end of JSON input", 0)`},
		{"Indent", `{"a":[],"b":{}, "c":[{}, 1]}  `, "pre{\n>  \"a\": [],\n>  \"b\": {},\n>  \"c\": [\n>    {},\n>    1\n>  ]\n>}  "},
		{"Indent", ` "x" `, `pre"x" `},
		{"Indent", `[1,}`, `pre SyntaxError("invalid character '}' looking for beginning of value", 4)`},
		{"Indent", ` {"a" 1}`, `pre SyntaxError("invalid character '1' after object key", 7)`},
		{"Indent", `  `, `pre SyntaxError("unexpected end of JSON input", 2)`},
		{"Indent", `"\u12"`, "pre SyntaxError(\"invalid character '\\\"' in \\\\u hexadecimal character escape\", 6)"},
		// encoding/json's own Indent takes seconds here: it writes 10,000
		// levels of indentation before its scanner stops.
		{"Compact", deep, `pre SyntaxError("invalid character '[' exceeded max depth", 0)`},
		{"Indent", deep, `pre SyntaxError("invalid character '[' exceeded max depth", 10001)`},
		{"HTMLEscape", "\"<a href='x'>&\u2028\u2029\" <", `pre"\u003ca href='x'\u003e\u0026\u2028\u2029" \u003c`},
	} {
		buf := bytes.NewBufferString("pre")
		var err error
		switch c.fn {
		case "Compact":
			err = Compact(buf, []byte(c.in))
		case "Indent":
			err = Indent(buf, []byte(c.in), ">", "  ")
		case "HTMLEscape":
			HTMLEscape(buf, []byte(c.in))
		}
		got := buf.String()
		if err != nil {
			got += " " + describeError(err)
		}
		if got != c.want {
			t.Errorf("%s(%q):\n got %s\nwant %s", c.fn, c.in, got, c.want)
		}
	}
}

// Compact and Indent of valid input allocate nothing beyond the buffer's
// growth.
func TestFormatAllocs(t *testing.T) {
	if raceBuild {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	src := []byte(` {"a" : [1, {"b": null}], "c": "<&>", "d": [ ] } `)
	var buf bytes.Buffer
	buf.Grow(1 << 10)
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"Compact", func() { buf.Reset(); Compact(&buf, src) }},
		{"Indent", func() { buf.Reset(); Indent(&buf, src, "", "  ") }},
		{"HTMLEscape", func() { buf.Reset(); HTMLEscape(&buf, src) }},
	} {
		if n := testing.AllocsPerRun(100, c.f); n != 0 {
			t.Errorf("%s: %v allocations, want 0", c.name, n)
		}
	}
}

// TestIndentDeepLines: lines too deep for Indent's newline buffer, going
// deeper, back up and deeper again, with prefixes and indents of several
// lengths (a prefix longer than the buffer among them), against encoding/json.
func TestIndentDeepLines(t *testing.T) {
	if !stdClassic {
		t.Skip("needs the classic encoding/json (see TestFormatDiff)")
	}
	src := strings.Repeat("[", 200) + "1," + strings.Repeat("[", 50) + "2" + strings.Repeat("]", 50) + "," +
		strings.Repeat(`{"k":`, 100) + "3" + strings.Repeat("}", 100) + ",[[4]]" + strings.Repeat("]", 200)
	for _, prefix := range []string{"", ">", strings.Repeat("p", 130)} {
		for _, indent := range []string{"", " ", "\t", "abc", strings.Repeat("x", 50)} {
			var got, want bytes.Buffer
			if err := Indent(&got, []byte(src), prefix, indent); err != nil {
				t.Fatal(err)
			}
			if err := stdjson.Indent(&want, []byte(src), prefix, indent); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("Indent(prefix %q, indent %q): differs from encoding/json", prefix, indent)
			}
		}
	}
}

// hasHTML, a word at a time, against the byte loop: each character at each
// place of strings of 0 to 39 bytes.
func TestHasHTML(t *testing.T) {
	for n := 0; n < 40; n++ {
		for pos := 0; pos < n; pos++ {
			for _, c := range []byte{'<', '>', '&', 0xE2, 0x80, 0xFF, '"', '=', '?', ';', '%', '\'', '.', '$', 0} {
				s := make([]byte, n)
				for i := range s {
					s[i] = "abc\"{}[]:,019xyzAZ"[i%18]
				}
				s[pos] = c
				want := c == '<' || c == '>' || c == '&' || c == 0xE2
				if got := hasHTML(s); got != want || htmlBytes(s) != want {
					t.Fatalf("hasHTML(%q) = %v, want %v", s, got, want)
				}
			}
		}
	}
}
