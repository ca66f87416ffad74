package json

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"unsafe"
)

// tokenCase is one named input with the tokens NextToken yields and the
// error that ends the stream (errString form; "" for io.EOF).
type tokenCase struct {
	name   string
	in     string
	tokens []string
	err    string
}

var tokenCases = []tokenCase{
	// Every token kind.
	{name: "empty", in: ``},
	{name: "only whitespace", in: " \t\r\n "},
	{name: "empty object", in: `{}`, tokens: []string{`{`, `}`}},
	{name: "empty array", in: `[ ]`, tokens: []string{`[`, `]`}},
	{name: "string", in: `"abc"`, tokens: []string{`"abc"`}},
	{name: "string escapes", in: `"\"\\\/\b\f\n\r\t\u00e9\uD834\uDD1E"`, tokens: []string{`"\"\\\/\b\f\n\r\t\u00e9\uD834\uDD1E"`}},
	{name: "string utf8", in: `"héllo, 世界"`, tokens: []string{`"héllo, 世界"`}},
	{name: "string long", in: `"` + strings.Repeat("abcdefgh", 3000) + `"`, tokens: []string{`"` + strings.Repeat("abcdefgh", 3000) + `"`}},
	{name: "numbers", in: `[0,-0,1,-1,12.5,-0.25e+10,1E-2,9007199254740993]`, tokens: []string{`[`, `0`, `-0`, `1`, `-1`, `12.5`, `-0.25e+10`, `1E-2`, `9007199254740993`, `]`}},
	{name: "literals", in: `[true,false,null]`, tokens: []string{`[`, `true`, `false`, `null`, `]`}},
	{name: "object", in: `{"a":1,"b":[true,{"c":null}],"d":"x"}`, tokens: []string{`{`, `"a"`, `1`, `"b"`, `[`, `true`, `{`, `"c"`, `null`, `}`, `]`, `"d"`, `"x"`, `}`}},
	{name: "whitespace everywhere", in: " { \"a\" \n:\t[ 1 , 2 ] , \"b\" : { } } ", tokens: []string{`{`, `"a"`, `[`, `1`, `2`, `]`, `"b"`, `{`, `}`, `}`}},
	{name: "stream ndjson", in: "{\"a\":1}\n{\"a\":2}\n", tokens: []string{`{`, `"a"`, `1`, `}`, `{`, `"a"`, `2`, `}`}},
	{name: "stream concatenated", in: `[1][2]"s"{} 3 true`, tokens: []string{`[`, `1`, `]`, `[`, `2`, `]`, `"s"`, `{`, `}`, `3`, `true`}},
	{name: "number at end", in: `123`, tokens: []string{`123`}},
	{name: "number then bracket", in: `[1]`, tokens: []string{`[`, `1`, `]`}},

	// Lexical errors, with encoding/json's wording and offsets.
	{name: "bad escape", in: `"\a"`, err: synErr(`invalid character 'a' in string escape code`, 3)},
	{name: "bad hex escape", in: `"\u12x4"`, err: synErr(`invalid character 'x' in \u hexadecimal character escape`, 6)},
	{name: "control byte in string", in: "[\"a\x01\"]", tokens: []string{`[`}, err: synErr(`invalid character '\x01' in string literal`, 4)},
	{name: "newline in string", in: "\"a\nb\"", err: synErr(`invalid character '\n' in string literal`, 3)},
	{name: "minus alone", in: `[-]`, tokens: []string{`[`}, err: synErr(`invalid character ']' in numeric literal`, 3)},
	{name: "dot without digit", in: `[1.]`, tokens: []string{`[`}, err: synErr(`invalid character ']' after decimal point in numeric literal`, 4)},
	{name: "leading dot", in: `.5`, err: synErr(`invalid character '.' looking for beginning of value`, 1)},
	{name: "plus sign", in: `+1`, err: synErr(`invalid character '+' looking for beginning of value`, 1)},
	{name: "exponent without digit", in: `[1e]`, tokens: []string{`[`}, err: synErr(`invalid character ']' in exponent of numeric literal`, 4)},
	{name: "exponent sign without digit", in: `[1e+]`, tokens: []string{`[`}, err: synErr(`invalid character ']' in exponent of numeric literal`, 5)},
	{name: "bad literal", in: `[tru]`, tokens: []string{`[`}, err: synErr(`invalid character ']' in literal true (expecting 'e')`, 5)},
	{name: "bad literal null", in: `nul1`, err: synErr(`invalid character '1' in literal null (expecting 'l')`, 4)},
	{name: "bad start", in: ` x`, err: synErr(`invalid character 'x' looking for beginning of value`, 2)},

	// A number or literal must end at a delimiter, whitespace or the end.
	{name: "number then letter", in: `1a`, tokens: []string{`1`}, err: synErr(`invalid character 'a' after top-level value`, 2)},
	{name: "literal then digit", in: `true1`, tokens: []string{`true`}, err: synErr(`invalid character '1' after top-level value`, 5)},
	{name: "leading zero", in: `00`, tokens: []string{`0`}, err: synErr(`invalid character '0' after top-level value`, 2)},
	{name: "leading zero in array", in: `[01]`, tokens: []string{`[`, `0`}, err: synErr(`invalid character '1' after array element`, 3)},
	{name: "number then string", in: `{"a":1"b"}`, tokens: []string{`{`, `"a"`, `1`}, err: synErr(`invalid character '"' after object key:value pair`, 7)},

	// Sequence errors.
	{name: "mismatched close", in: `[}`, tokens: []string{`[`}, err: synErr(`invalid character '}' looking for beginning of value`, 2)},
	{name: "mismatched close object", in: `{"a":1]`, tokens: []string{`{`, `"a"`, `1`}, err: synErr(`invalid character ']' after object key:value pair`, 7)},
	{name: "missing colon", in: `{"a" 1}`, tokens: []string{`{`, `"a"`}, err: synErr(`invalid character '1' after object key`, 6)},
	{name: "missing comma", in: `[1 2]`, tokens: []string{`[`, `1`}, err: synErr(`invalid character '2' after array element`, 4)},
	{name: "missing comma object", in: `{"a":1 "b":2}`, tokens: []string{`{`, `"a"`, `1`}, err: synErr(`invalid character '"' after object key:value pair`, 8)},
	{name: "trailing comma array", in: `[1,]`, tokens: []string{`[`, `1`}, err: synErr(`invalid character ']' looking for beginning of value`, 4)},
	{name: "trailing comma object", in: `{"a":1,}`, tokens: []string{`{`, `"a"`, `1`}, err: synErr(`invalid character '}' looking for beginning of object key string`, 8)},
	{name: "leading comma", in: `[,1]`, tokens: []string{`[`}, err: synErr(`invalid character ',' looking for beginning of value`, 2)},
	{name: "non-string key", in: `{1:2}`, tokens: []string{`{`}, err: synErr(`invalid character '1' looking for beginning of object key string`, 2)},
	{name: "bad token where colon due", in: `{"a" tru}`, tokens: []string{`{`, `"a"`}, err: synErr(`invalid character 't' after object key`, 6)},
	{name: "colon in array", in: `[1:2]`, tokens: []string{`[`, `1`}, err: synErr(`invalid character ':' after array element`, 3)},
	{name: "stray close", in: `]`, err: synErr(`invalid character ']' looking for beginning of value`, 1)},
	{name: "stray comma", in: `,`, err: synErr(`invalid character ',' looking for beginning of value`, 1)},

	// Truncation.
	{name: "truncated array", in: `[1,`, tokens: []string{`[`, `1`}, err: errString(io.ErrUnexpectedEOF)},
	{name: "truncated object", in: `{"a":`, tokens: []string{`{`, `"a"`}, err: errString(io.ErrUnexpectedEOF)},
	{name: "truncated open", in: `{`, tokens: []string{`{`}, err: errString(io.ErrUnexpectedEOF)},
	{name: "truncated string", in: `["abc`, tokens: []string{`[`}, err: errString(io.ErrUnexpectedEOF)},
	{name: "truncated escape", in: `"ab\u00`, err: errString(io.ErrUnexpectedEOF)},
	{name: "truncated number", in: `-`, err: errString(io.ErrUnexpectedEOF)},
	{name: "truncated exponent", in: `1e`, err: errString(io.ErrUnexpectedEOF)},
	{name: "truncated literal", in: `fals`, err: errString(io.ErrUnexpectedEOF)},
	{name: "truncated after value", in: `{"a":1`, tokens: []string{`{`, `"a"`, `1`}, err: errString(io.ErrUnexpectedEOF)},
}

func TestNextToken(t *testing.T) {
	for _, tc := range tokenCases {
		t.Run(tc.name, func(t *testing.T) {
			wantErr := tc.err
			if wantErr == "" {
				wantErr = errString(io.EOF)
			}
			for shape, mk := range readerShapes(tc.in) {
				toks, err := collect(mk())
				if fmt.Sprintf("%q", toks) != fmt.Sprintf("%q", tc.tokens) {
					t.Errorf("%s: tokens\n got  %q\n want %q", shape, toks, tc.tokens)
				}
				if got := errString(err); got != wantErr {
					t.Errorf("%s: error %s, want %s", shape, got, wantErr)
				}
			}
		})
	}
}

// errAt is a reader error that must come out of the decoder unchanged.
var errAt = errors.New("reader failed")

func TestReaderErrors(t *testing.T) {
	in := `[{"a":"` + strings.Repeat("x", 100) + `"},12345,true,"end"]`
	// The error at every point of the input: tokens before it are
	// delivered, and the error is the reader's own.
	for cut := 0; cut < len(in); cut++ {
		r := io.MultiReader(strings.NewReader(in[:cut]), iotest.ErrReader(errAt))
		for _, size := range []int{1, 16, 8192} {
			d := NewDecoderBuffer(r, make([]byte, 0, size))
			_, err := collect(d)
			if err != errAt {
				t.Fatalf("cut %d buf %d: error %v, want the reader's", cut, size, err)
			}
			// Sticky.
			if _, err := d.NextToken(); err != errAt {
				t.Fatalf("cut %d: second error %v", cut, err)
			}
			r = io.MultiReader(strings.NewReader(in[:cut]), iotest.ErrReader(errAt))
		}
	}
	t.Run("TimeoutReader", func(t *testing.T) {
		d := NewDecoderBuffer(iotest.TimeoutReader(strings.NewReader(in)), make([]byte, 0, 16))
		toks, err := collect(d)
		if err != iotest.ErrTimeout {
			t.Fatalf("error %v after %q, want iotest.ErrTimeout", err, toks)
		}
	})
	t.Run("zero reads", func(t *testing.T) {
		d := NewDecoder(zeroReader{})
		if _, err := d.NextToken(); err != io.ErrNoProgress {
			t.Fatalf("error %v, want io.ErrNoProgress", err)
		}
	})
}

// zeroReader returns (0, nil) forever.
type zeroReader struct{}

func (zeroReader) Read([]byte) (int, error) { return 0, nil }

func TestMoreAndOffsets(t *testing.T) {
	d := NewDecoder(strings.NewReader(` [ 1 , {"a" : 2} ] `))
	type step struct {
		more bool
		tok  string
		off  int64
	}
	var got []step
	for {
		more := d.More()
		tok, err := d.NextToken()
		if err != nil {
			break
		}
		got = append(got, step{more, string(tok), d.InputOffset()})
	}
	want := []step{{true, "[", 2}, {true, "1", 4}, {true, "{", 8}, {true, `"a"`, 11}, {true, "2", 15}, {false, "}", 16}, {false, "]", 18}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got  %v\nwant %v", got, want)
	}
	if b, _ := io.ReadAll(d.Buffered()); string(b) != "" {
		t.Fatalf("Buffered = %q", b)
	}
}

func TestBuffered(t *testing.T) {
	d := NewDecoder(strings.NewReader(`{"a":1} trailing stuff`))
	for d.Depth() > 0 || d.InputOffset() == 0 {
		if _, err := d.NextToken(); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := io.ReadAll(d.Buffered())
	if string(b) != " trailing stuff" {
		t.Fatalf("Buffered = %q", b)
	}
}

func TestPeekSkipRaw(t *testing.T) {
	in := `{"a": [1, {"b": "c"}] , "d": "e", "f": 12, "g": {}}`
	for shape, mk := range readerShapes(in) {
		d := mk()
		tok, _ := d.NextToken() // {
		if string(tok) != "{" {
			t.Fatal(shape, string(tok))
		}
		d.NextToken() // "a"
		if k := d.PeekKind(); k != '[' {
			t.Fatalf("%s: PeekKind = %q", shape, k)
		}
		raw, err := d.RawValue()
		if err != nil || string(raw) != `[1, {"b": "c"}]` {
			t.Fatalf("%s: RawValue = %q, %v", shape, raw, err)
		}
		d.NextToken() // "d"
		if err := d.SkipValue(); err != nil {
			t.Fatalf("%s: SkipValue: %v", shape, err)
		}
		d.NextToken() // "f"
		if k := d.PeekKind(); k != '0' {
			t.Fatalf("%s: PeekKind = %q", shape, k)
		}
		raw, err = d.RawValue()
		if err != nil || string(raw) != `12` {
			t.Fatalf("%s: RawValue = %q, %v", shape, raw, err)
		}
		d.NextToken() // "g"
		raw, err = d.RawValue()
		if err != nil || string(raw) != `{}` {
			t.Fatalf("%s: RawValue = %q, %v", shape, raw, err)
		}
		if tok, err := d.NextToken(); err != nil || string(tok) != "}" {
			t.Fatalf("%s: end %q %v", shape, tok, err)
		}
		if _, err := d.NextToken(); err != io.EOF {
			t.Fatalf("%s: %v", shape, err)
		}
	}
}

func TestReset(t *testing.T) {
	d := NewDecoder(strings.NewReader(`[1,`))
	collect(d)
	d.Reset(strings.NewReader(`[2]`))
	toks, err := collect(d)
	if err != io.EOF || fmt.Sprint(toks) != "[[ 2 ]]" {
		t.Fatalf("after Reset: %q %v", toks, err)
	}
}

func TestAppendUnquoted(t *testing.T) {
	cases := []struct{ tok, want string }{
		{`""`, ""},
		{`"plain"`, "plain"},
		{`"a\"b\\c\/d\b\f\n\r\t"`, "a\"b\\c/d\b\f\n\r\t"},
		{`"\u00e9\u4e16"`, "é世"},
		{`"\ud834\udd1e"`, "\U0001D11E"},
		{`"\ud800"`, "\uFFFD"},
		{`"\ud800\u0041"`, "\uFFFDA"},
		{`"\udd1e\ud834"`, "\uFFFD\uFFFD"},
		{"\"a\xffb\"", "a\uFFFDb"},
		{"\"\xed\xa0\x80\"", "\uFFFD\uFFFD\uFFFD"},
		{`"héllo"`, "héllo"},
	}
	for _, c := range cases {
		if got := string(AppendUnquoted(nil, []byte(c.tok))); got != c.want {
			t.Errorf("AppendUnquoted(%s) = %q, want %q", c.tok, got, c.want)
		}
		d := NewDecoder(strings.NewReader(c.tok))
		tok, err := d.NextToken()
		if err != nil {
			t.Fatal(err)
		}
		if got := string(d.AppendUnquoted([]byte("x"), tok)); got != "x"+c.want {
			t.Errorf("Decoder.AppendUnquoted(%s) = %q, want %q", c.tok, got, "x"+c.want)
		}
	}
}

func TestParseNumbers(t *testing.T) {
	ints := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true}, {"-0", 0, true}, {"123", 123, true}, {"-9223372036854775808", -9223372036854775808, true},
		{"9223372036854775807", 9223372036854775807, true}, {"9223372036854775808", 0, false},
		{"-9223372036854775809", 0, false}, {"1.5", 0, false}, {"1e3", 0, false}, {"123456789012345678", 123456789012345678, true},
	}
	for _, c := range ints {
		got, err := ParseInt([]byte(c.in))
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("ParseInt(%s) = %d, %v", c.in, got, err)
		}
	}
	if _, err := ParseUint([]byte("-1")); err == nil {
		t.Error("ParseUint(-1) succeeded")
	}
	if got, err := ParseUint([]byte("18446744073709551615")); err != nil || got != 1<<64-1 {
		t.Errorf("ParseUint(max) = %d, %v", got, err)
	}
	if _, err := ParseUint([]byte("18446744073709551616")); err == nil {
		t.Error("ParseUint(max+1) succeeded")
	}
	for _, c := range []struct {
		in   string
		want float64
	}{{"0", 0}, {"-12", -12}, {"1.5", 1.5}, {"-2.5e-3", -2.5e-3}, {"123456789012345678901234567890", 1.2345678901234568e29}} {
		if got, err := ParseFloat([]byte(c.in)); err != nil || got != c.want {
			t.Errorf("ParseFloat(%s) = %v, %v", c.in, got, err)
		}
	}
	if _, err := ParseFloat([]byte("1e999")); err == nil {
		t.Error("ParseFloat(1e999) succeeded")
	}
	if f, _ := ParseFloat([]byte("-0")); f != 0 || !signbit(f) {
		t.Errorf("ParseFloat(-0) = %v", f)
	}
}

func signbit(f float64) bool { return fmt.Sprint(f) == "-0" }

func TestDepthLimit(t *testing.T) {
	in := strings.Repeat("[", 100000)
	var err error
	var ntok int
	// Flat memory: the bit stack for 10000 levels is 157 words; the
	// window stays at 32 KiB.
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	d := NewDecoder(strings.NewReader(in))
	for {
		if _, err = d.NextToken(); err != nil {
			break
		}
		ntok++
	}
	runtime.ReadMemStats(&after)
	want := synErr("invalid character '[' exceeded max depth", 10001)
	if errString(err) != want || ntok != 10000 {
		t.Fatalf("after %d tokens: %s, want %s", ntok, errString(err), want)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<10 {
		t.Fatalf("100000 '[' allocated %d bytes", grew)
	}
	d = NewDecoder(strings.NewReader(`[[[1]]]`))
	d.SetMaxDepth(2)
	if _, err := collect(d); errString(err) != synErr("invalid character '[' exceeded max depth", 3) {
		t.Fatalf("SetMaxDepth(2): %v", err)
	}
	// Up to the limit, fine, and through the bit stack past its inline words.
	deep := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)
	if !Valid([]byte(deep)) {
		t.Fatal("10000 levels rejected")
	}
	mixed := strings.Repeat(`{"a":[`, 600) + strings.Repeat(`]}`, 600)
	if !Valid([]byte(mixed)) {
		t.Fatal("1200 mixed levels rejected")
	}
	if Valid([]byte(strings.Repeat(`{"a":[`, 600) + `]]` + strings.Repeat(`]}`, 599))) {
		t.Fatal("mismatched deep close accepted")
	}
}

func TestHostileInput(t *testing.T) {
	t.Run("64MiB string", func(t *testing.T) {
		const n = 64 << 20
		r := io.MultiReader(strings.NewReader(`["`), &repeatReader{b: 'x', n: n}, strings.NewReader(`"]`))
		d := NewDecoder(r)
		d.NextToken()
		tok, err := d.NextToken()
		if err != nil || len(tok) != n+2 {
			t.Fatalf("len %d, %v", len(tok), err)
		}
		if tok, err := d.NextToken(); err != nil || string(tok) != "]" {
			t.Fatalf("%q %v", tok, err)
		}
	})
	t.Run("limit rejects", func(t *testing.T) {
		r := io.MultiReader(strings.NewReader(`["`), &repeatReader{b: 'x', n: 64 << 20}, strings.NewReader(`"]`))
		d := NewDecoder(r)
		d.SetMaxTokenSize(1 << 20)
		d.NextToken()
		_, err := d.NextToken()
		if !errors.Is(err, ErrTokenTooLong) || !strings.Contains(err.Error(), "offset 1 ") {
			t.Fatalf("error %v, want ErrTokenTooLong at offset 1", err)
		}
		if cap(d.s.br.data) > 1<<20 {
			t.Fatalf("window grew to %d", cap(d.s.br.data))
		}
	})
	t.Run("whitespace run", func(t *testing.T) {
		r := io.MultiReader(&repeatReader{b: ' ', n: 32 << 20}, strings.NewReader(`1`))
		d := NewDecoder(r)
		tok, err := d.NextToken()
		if err != nil || string(tok) != "1" || d.InputOffset() != 32<<20+1 {
			t.Fatalf("%q %v at %d", tok, err, d.InputOffset())
		}
		if cap(d.s.br.data) > defaultBufSize {
			t.Fatalf("window grew to %d on whitespace", cap(d.s.br.data))
		}
	})
	t.Run("1MiB number", func(t *testing.T) {
		for _, onebyte := range []bool{false, true} {
			var r io.Reader = io.MultiReader(strings.NewReader(`[1`), &repeatReader{b: '0', n: 1 << 20}, strings.NewReader(`]`))
			if onebyte {
				r = iotest.OneByteReader(r)
			}
			d := NewDecoder(r)
			d.NextToken()
			tok, err := d.NextToken()
			if err != nil || len(tok) != 1<<20+1 {
				t.Fatalf("len %d, %v", len(tok), err)
			}
			if _, err := ParseFloat(tok); err == nil {
				t.Fatal("1e1048576 parsed as a float64")
			}
		}
	})
	t.Run("long unclosed prefix", func(t *testing.T) {
		in := strings.Repeat(`[{"":`, 1000)
		toks, err := collect(NewDecoder(strings.NewReader(in)))
		if err != io.ErrUnexpectedEOF || len(toks) != 3000 {
			t.Fatalf("%d tokens, %v", len(toks), err)
		}
	})
}

// repeatReader yields n copies of b.
type repeatReader struct {
	b byte
	n int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	if len(p) > r.n {
		p = p[:r.n]
	}
	for i := range p {
		p[i] = r.b
	}
	r.n -= len(p)
	return len(p), nil
}

func TestBytesDecoderDoesNotWrite(t *testing.T) {
	in := []byte(`{"a":"b\n","c":[1,2,{"d":null}]}`)
	orig := bytes.Clone(in)
	d := newBytesDecoder(in)
	if _, err := collect(d); err != io.EOF {
		t.Fatal(err)
	}
	if !bytes.Equal(in, orig) {
		t.Fatal("input modified")
	}
}

// TestRawValueAfterBadSeparator: RawValue looks past a separator before
// consuming it; when the separator is wrong there, it must fail cleanly.
func TestRawValueAfterBadSeparator(t *testing.T) {
	for _, c := range []struct {
		in   string
		skip int // tokens read before RawValue
		want string
	}{
		{`, 0`, 0, synErr(`invalid character ',' looking for beginning of value`, 1)},
		{`[1 : 2]`, 2, synErr(`invalid character ':' after array element`, 4)},
		{`{"a" , 1}`, 2, synErr(`invalid character ',' after object key`, 6)},
	} {
		d := NewDecoder(strings.NewReader(c.in))
		for i := 0; i < c.skip; i++ {
			if _, err := d.NextToken(); err != nil {
				t.Fatal(err)
			}
		}
		raw, err := d.RawValue()
		if raw != nil || errString(err) != c.want {
			t.Errorf("%q: RawValue = %q, %s; want %s", c.in, raw, errString(err), c.want)
		}
	}
}

// TestHugeTokenWindow: past bigWindow the window grows by a quarter, so a
// huge token ends in a window near its size, and decodes whole.
func TestHugeTokenWindow(t *testing.T) {
	if testing.Short() {
		t.Skip("decodes a 100 MB string")
	}
	const n = 100 << 20
	in := make([]byte, 0, n+8)
	in = append(in, '"')
	for len(in) < n+1 {
		in = append(in, "0123456789abcdef"...)
	}
	in = append(in[:n+1], '"')
	d := NewDecoder(iotest.HalfReader(bytes.NewReader(in)))
	var s string
	if err := d.Decode(&s); err != nil || len(s) != n || s[:16] != "0123456789abcdef" {
		t.Fatalf("%d bytes, %v", len(s), err)
	}
	if c := cap(d.s.br.data); c > n+n/4 {
		t.Errorf("window of %d MB for a %d MB token", c>>20, n>>20)
	}
}

// TestDecoderWindowSize: a decoder made for one small document takes a
// window of about its size (the power of two at or above it, from 512
// bytes), not 32 KiB; a document longer than the window grows it as far as
// its one token needs, no further; a stream of unknown length starts at
// 512 bytes and grows to 32 KiB while the reader keeps filling it; a
// caller's buffer keeps its size.
func TestDecoderWindowSize(t *testing.T) {
	doc := func(n int) string { return `{"s":"` + strings.Repeat("x", n-8) + `"}` }
	for _, c := range []struct {
		name string
		r    func() io.Reader
		want int // the window's capacity before the document is read
	}{
		{"bytes.Reader of 100 bytes", func() io.Reader { return bytes.NewReader([]byte(doc(100))) }, minBufSize},
		{"strings.Reader of 3000 bytes", func() io.Reader { return strings.NewReader(doc(3000)) }, 4096},
		{"bytes.Buffer of 5000 bytes", func() io.Reader { return bytes.NewBufferString(doc(5000)) }, 8192},
		{"bytes.Reader of 1 MB", func() io.Reader { return bytes.NewReader([]byte(doc(1 << 20))) }, defaultBufSize},
		{"a reader without Len, 100 bytes", func() io.Reader { return io.MultiReader(strings.NewReader(doc(100))) }, minBufSize},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := NewDecoder(c.r())
			if got := cap(d.s.br.data); got != c.want {
				t.Errorf("window %d bytes, want %d", got, c.want)
			}
			var v struct{ S string }
			if err := d.Decode(&v); err != nil {
				t.Fatal(err)
			}
		})
	}
	t.Run("a long document's window", func(t *testing.T) {
		// A reader that never says its input ended, so that the window
		// stays: twice the token at most, as it doubles past it.
		in := doc(1 << 20)
		d := NewDecoder(io.MultiReader(strings.NewReader(in), neverEnds{}))
		var v struct{ S string }
		if err := d.Decode(&v); err != nil {
			t.Fatal(err)
		}
		if got := cap(d.s.br.data); got < len(in) || got > 2*len(in) {
			t.Errorf("window %d bytes for a token of %d", got, len(in))
		}
	})
	t.Run("a stream of small tokens grows to 32 KiB", func(t *testing.T) {
		in := "[" + strings.Repeat("1,", 100000) + "1]"
		for name, r := range map[string]io.Reader{
			"reads that fill the window": io.MultiReader(strings.NewReader(in)),
			"reads of half the room":     iotest.HalfReader(strings.NewReader(in)),
		} {
			// Token by token: Decode may hold a whole value in the window
			// (it does without the fast paths).
			d := NewDecoder(r)
			n := 0
			for _, err := d.NextToken(); err != io.EOF; _, err = d.NextToken() {
				if err != nil {
					t.Fatal(err)
				}
				n++
			}
			if n != 100003 {
				t.Fatalf("%s: %d tokens", name, n)
			}
			if got := cap(d.s.br.data); got != defaultBufSize {
				t.Errorf("%s: window %d bytes after a long stream, want %d", name, got, defaultBufSize)
			}
		}
	})
	t.Run("a caller's buffer keeps its size", func(t *testing.T) {
		in := "[" + strings.Repeat(`"ab",`, 10000) + `"ab"]`
		d := NewDecoderBuffer(io.MultiReader(strings.NewReader(in)), make([]byte, 0, 64))
		for _, err := d.NextToken(); err != io.EOF; _, err = d.NextToken() {
			if err != nil {
				t.Fatal(err)
			}
		}
		if got := cap(d.s.br.data); got != 64 {
			t.Errorf("window %d bytes, want the caller's 64", got)
		}
	})
	t.Run("a token limit below the first window", func(t *testing.T) {
		d := NewDecoder(io.MultiReader(strings.NewReader(`["` + strings.Repeat("x", 100) + `", 1, 2]`)))
		d.SetMaxTokenSize(200)
		var v []any
		if err := d.Decode(&v); err != nil || len(v) != 3 {
			t.Fatalf("%v, %v", v, err)
		}
	})
}

// neverEnds is a reader with nothing to give yet: it never says its input
// ended.
type neverEnds struct{}

func (neverEnds) Read([]byte) (int, error) { return 0, nil }

// TestRecycleWindow: a decoder whose input has ended after the value Decode
// read (the reader said io.EOF, or tells its length and has none left)
// gives its window back to the pool, and from then on reads the same
// input as before: Buffered, InputOffset, More, the next Decode and Reset
// agree with encoding/json's decoder. A decoder made for each document
// then allocates itself and its reader, not a window. A caller's buffer,
// a window with more than whitespace left, and a reader that has not
// ended keep their windows.
func TestRecycleWindow(t *testing.T) {
	onTail := func(d *Decoder) bool {
		w := d.s.br.data
		return cap(w) == len(d.tail) && unsafe.SliceData(w) == &d.tail[0]
	}
	type rec struct {
		A int
		S string
	}
	for _, in := range []string{`{"A":1,"S":"x"}`, "{\"A\":1,\"S\":\"x\"}\n", "  {\"A\":1,\"S\":\"x\"} \r\n\t ", `[1,2]`, `"s"`, `12 `} {
		for name, r := range map[string]func() io.Reader{
			"bytes.Reader": func() io.Reader { return bytes.NewReader([]byte(in)) },
			"bytes.Buffer": func() io.Reader { return bytes.NewBufferString(in) },
			"DataErrReader (EOF with the last bytes)": func() io.Reader {
				return iotest.DataErrReader(io.MultiReader(strings.NewReader(in)))
			},
		} {
			var want, got any
			wd, d := stdjson.NewDecoder(r()), NewDecoder(r())
			werr, gerr := wd.Decode(&want), d.Decode(&got)
			if werr != nil || gerr != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("%q %s: %v, %v; %v, %v", in, name, got, gerr, want, werr)
			}
			if fastPaths && !onTail(d) {
				t.Errorf("%q %s: the window was not recycled", in, name)
			}
			wb, _ := io.ReadAll(wd.Buffered())
			gb, _ := io.ReadAll(d.Buffered())
			if string(gb) != string(wb) || d.InputOffset() != wd.InputOffset() {
				t.Errorf("%q %s: Buffered %q, InputOffset %d; want %q, %d", in, name, gb, d.InputOffset(), wb, wd.InputOffset())
			}
			if d.More() != wd.More() || d.InputOffset() != wd.InputOffset() {
				t.Errorf("%q %s: More, then InputOffset %d, want %d", in, name, d.InputOffset(), wd.InputOffset())
			}
			if werr, gerr := wd.Decode(&want), d.Decode(&got); werr != io.EOF || gerr != io.EOF {
				t.Errorf("%q %s: next Decode %v, want %v", in, name, gerr, werr)
			}
		}
	}

	// Two values in the window: the first leaves it; the last recycles it.
	d := NewDecoder(strings.NewReader(`{"A":1} {"A":2}`))
	var v rec
	if err := d.Decode(&v); err != nil || v.A != 1 || onTail(d) {
		t.Fatalf("first of two: %v, %v, recycled %v", v, err, onTail(d))
	}
	if err := d.Decode(&v); err != nil || v.A != 2 || fastPaths && !onTail(d) {
		t.Fatalf("last of two: %v, %v, recycled %v", v, err, onTail(d))
	}
	// A bytes.Buffer written to again after its window went back (a
	// pipe): the next document is read as if nothing had happened.
	var buf bytes.Buffer
	d = NewDecoder(&buf)
	for i := range 50 {
		v = rec{}
		fmt.Fprintf(&buf, "{\"A\":%d,\"S\":%q}\n", i, strings.Repeat("y", i*37))
		if err := d.Decode(&v); err != nil || v.A != i || len(v.S) != i*37 {
			t.Fatalf("document %d through the pipe: %+v, %v", i, v, err)
		}
	}
	// Reset after recycling takes a new window.
	d.Reset(strings.NewReader(`{"A":7}`))
	if err := d.Decode(&v); err != nil || v.A != 7 {
		t.Fatalf("after Reset: %v, %v", v, err)
	}
	// What keeps its window: a caller's buffer, a reader that has not
	// ended, and an error.
	own := make([]byte, 0, 512)
	d = NewDecoderBuffer(strings.NewReader(`{"A":1}`), own)
	if err := d.Decode(&v); err != nil || onTail(d) || unsafe.SliceData(d.s.br.data) != unsafe.SliceData(own) {
		t.Errorf("a caller's buffer: %v, recycled %v", err, onTail(d))
	}
	d = NewDecoder(io.MultiReader(strings.NewReader(`{"A":1}`), neverEnds{}))
	if err := d.Decode(&v); err != nil || onTail(d) {
		t.Errorf("a reader that has not ended: %v, recycled %v", err, onTail(d))
	}
	d = NewDecoder(strings.NewReader(`{"A":"x"}`))
	if err := d.Decode(&v); err == nil || onTail(d) {
		t.Errorf("a type error: %v, recycled %v", err, onTail(d))
	}

	if !fastChecks(t, "windows recycled") || raceBuild {
		return
	}
	doc := []byte(`{"A":12345,"S":"` + strings.Repeat("z", 900) + `"}`)
	if n := testing.AllocsPerRun(100, func() {
		var v rec
		if err := NewDecoder(bytes.NewReader(doc)).Decode(&v); err != nil {
			t.Fatal(err)
		}
	}); n > 4 { // the reader, the decoder, v and its string
		t.Errorf("a decoder per document: %v allocations, want at most 4", n)
	}
}

// TestRecycleWindowParallel: decoders in many goroutines, each made for
// one document, take and give back windows: each gets its own document's
// values (run with -race).
func TestRecycleWindowParallel(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				n := (g*2000 + i) % 3000
				in := fmt.Sprintf(`{"n":%d,"s":%q}`, n, strings.Repeat(string(rune('a'+g)), n))
				var v struct {
					N int
					S string
				}
				if err := NewDecoder(strings.NewReader(in)).Decode(&v); err != nil || v.N != n || v.S != strings.Repeat(string(rune('a'+g)), n) {
					t.Errorf("goroutine %d, document %d: %d, %d bytes, %v", g, i, v.N, len(v.S), err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// Decode keeps its state for the next call only while the next value is
// in the window already: a stream of values goes on with it; a Decoder
// whose input has only whitespace left after its value (an HTTP body that
// ends in a newline), or that ended in an error, holds none. What each
// call decodes is the same either way, with each call's own settings.
func TestDecodeKeepsState(t *testing.T) {
	skipNoFast(t, "keeping the state between Decode calls")
	type rec struct {
		A string `json:"a"`
		N any    `json:"n"`
	}
	d := NewDecoder(strings.NewReader("{\"a\":\"x\",\"n\":1}\n{\"a\":\"y\",\"n\":2}\n{\"a\":\"z\",\"n\":3,\"extra\":0}\n"))
	var got []rec
	for i := 0; ; i++ {
		switch i {
		case 1:
			d.UseNumber()
		case 2:
			d.DisallowUnknownFields()
		}
		var r rec
		err := d.Decode(&r)
		if i == 2 {
			if err == nil || !strings.Contains(err.Error(), `unknown field "extra"`) {
				t.Fatalf("third value: %v, want the unknown field's error", err)
			}
			if d.ds != nil {
				t.Error("after an error: the Decoder still holds its state")
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
		if d.ds == nil {
			t.Errorf("after value %d, with another in the window: no state kept", i+1)
		}
	}
	if want := []rec{{"x", 1.0}, {"y", Number("2")}}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v", got, want)
	}

	// Reset to new input: the state kept for the old one goes back.
	d = NewDecoder(strings.NewReader(`{"a":"x"} {"a":"y"}`))
	if err := d.Decode(new(rec)); err != nil || d.ds == nil {
		t.Fatalf("first of two values: %v, state kept %v", err, d.ds != nil)
	}
	d.Reset(strings.NewReader(`{"a":"z"}`))
	if d.ds != nil {
		t.Error("after Reset: the Decoder still holds the state kept for its old input")
	}

	d = NewDecoder(strings.NewReader("{\"a\":\"x\",\"n\":1}\n \t\n"))
	var r rec
	if err := d.Decode(&r); err != nil {
		t.Fatal(err)
	}
	if d.ds != nil {
		t.Error("after the last value, only whitespace left: the Decoder still holds its state")
	}
	if err := d.Decode(&r); err != io.EOF {
		t.Errorf("after the last value: %v, want io.EOF", err)
	}
}
