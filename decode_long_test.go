package json

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"
)

// tokensOf reads every token of in, as text: a string as its value (its
// token unquoted), anything else as it is; then the error that ended the
// input, as text, with a syntax error's offset. With min > 0 strings past
// min bytes and the window are streamed (StreamLongStrings) and counted.
func tokensOf(in string, min, window int, wrap func(io.Reader) io.Reader, maxTok int) (toks []string, streamed int, errText string) {
	var r io.Reader = strings.NewReader(in)
	if wrap != nil {
		r = wrap(r)
	}
	d := NewDecoderBuffer(r, make([]byte, window))
	if maxTok > 0 {
		d.SetMaxTokenSize(maxTok)
	}
	var sb bytes.Buffer
	if min > 0 {
		d.StreamLongStrings(min, func(p []byte) error {
			if len(p) == 0 {
				return errors.New("empty piece")
			}
			sb.Write(p)
			return nil
		})
	}
	for {
		tok, err := d.NextToken()
		if err != nil {
			errText = err.Error()
			var se *SyntaxError
			if errors.As(err, &se) {
				errText += fmt.Sprintf(" (offset %d)", se.Offset)
			}
			if !errors.Is(err, io.EOF) {
				errText += fmt.Sprintf(" (input offset %d)", d.InputOffset())
			}
			return toks, streamed, errText
		}
		switch {
		case Streamed(tok):
			streamed++
			toks = append(toks, "s:"+sb.String())
			sb.Reset()
		case tok[0] == '"':
			toks = append(toks, "s:"+string(AppendUnquoted(nil, tok)))
		default:
			toks = append(toks, string(tok))
		}
	}
}

// checkLong reads in with and without StreamLongStrings, for several
// piece sizes, windows and readers, and wants the same tokens, the same
// string values and the same error.
func checkLong(t *testing.T, in string, maxTok int) (streamed int) {
	t.Helper()
	want, _, wantErr := tokensOf(in, 0, 16, nil, maxTok)
	for _, min := range []int{1, 7, 40} {
		for _, window := range []int{16, 64} {
			for _, wrap := range []func(io.Reader) io.Reader{nil, iotest.OneByteReader, iotest.HalfReader} {
				got, n, gotErr := tokensOf(in, min, window, wrap, maxTok)
				streamed += n
				if fmt.Sprint(got) != fmt.Sprint(want) || gotErr != wantErr {
					t.Fatalf("input %q, min %d, window %d:\nwhole:    %q %s\nstreamed: %q %s", in, min, window, want, wantErr, got, gotErr)
				}
			}
		}
	}
	return streamed
}

func TestStreamLongStrings(t *testing.T) {
	long := strings.Repeat("abcdefgh", 20)
	cases := []string{
		`"` + long + `"`,
		`{"k":"` + long + `","n":1,"a":["` + long + `",2]}`,
		`["` + long + `","short","` + long + `"] "` + long + `"`,
		// Escapes, surrogate pairs, lone surrogates, multi-byte and
		// invalid UTF-8, at every position against the piece cuts.
		`"` + strings.Repeat(`x\n\"\\\/\u00e9\uD83D\uDE00é中😀`, 12) + `"`,
		`"` + strings.Repeat(`ab\uD800\uDC00\uD800x\uDBFF\uDFFF\uDC00\\uD800`, 10) + `"`,
		`"` + strings.Repeat("a\xff\xe2\x82b\xf0\x9f\x98c\xc3", 20) + `"`,
		`"` + strings.Repeat(`\\`, 90) + `"`,
		// Errors inside a long string, and the input ending in one.
		`"` + long + "\x01" + long + `"`,
		`"` + long + `\x` + long + `"`,
		`"` + long + `\u12G4` + long + `"`,
		`"` + long + `\uD83D\u` + `"`,
		`"` + long,
		`"` + long + `\`,
		`"` + long + `\u00`,
		`{"k":"` + long + `" "n":1}`,
		`["` + long + `"`,
		// Long keys, and long strings where a separator is due.
		`{"` + long + `":1,"` + long + `":"` + long + `"}`,
		`{"k" "` + long + `"}`,
		`{"k":1 "` + long + `"}`,
		`[1 "` + long + `"]`,
		`{"k" "` + long + "\x01" + `"}`,
		`[1 "` + long,
	}
	total := 0
	for _, in := range cases {
		total += checkLong(t, in, 0)
	}
	if total == 0 {
		t.Fatal("nothing was streamed")
	}
	// The window's limit holds for a streamed string as for one held whole.
	checkLong(t, `["`+long+`"]`, 100)
	checkLong(t, `["`+long+`"]`, 1000)
}

// TestStreamLongStringsRandom is TestStreamLongStrings over generated
// strings.
func TestStreamLongStringsRandom(t *testing.T) {
	parts := []string{"a", "bcdefg", `\n`, `\"`, `\\`, `\u00e9`, `\uD83D\uDE00`, `\uD800`, `\uDC00`, "é", "中", "😀",
		"\xff", "\xe2\x82", "\xf0\x9f", `\/`, strings.Repeat("z", 30)}
	rng := rand.New(rand.NewPCG(3, 4))
	n := 300
	if testing.Short() {
		n = 40
	}
	for range n {
		var b strings.Builder
		b.WriteString(`[{"`)
		for range 1 + rng.IntN(30) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		b.WriteString(`":"`)
		for range 1 + rng.IntN(60) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		b.WriteString(`"},1]`)
		checkLong(t, b.String(), 0)
	}
}

// A streamed string leaves the window as it was: it does not grow.
func TestStreamLongStringsWindow(t *testing.T) {
	in := `{"s":"` + strings.Repeat("é\\n", 1<<20) + `","n":1}`
	d := NewDecoderBuffer(strings.NewReader(in), make([]byte, 4096))
	n := 0
	d.StreamLongStrings(1024, func(p []byte) error { n += len(p); return nil })
	for {
		_, err := d.NextToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if want := 3 << 20; n != want {
		t.Errorf("streamed %d bytes, want %d", n, want)
	}
	if c := cap(d.s.br.data); c > defaultBufSize {
		t.Errorf("window grew to %d bytes", c)
	}
	// Reset keeps the setting.
	d.Reset(strings.NewReader(in))
	n = 0
	for {
		if _, err := d.NextToken(); err != nil {
			break
		}
	}
	if n != 3<<20 {
		t.Errorf("after Reset, streamed %d bytes", n)
	}
}

// An error from the piece function ends the token, sticky.
func TestStreamLongStringsSinkError(t *testing.T) {
	boom := errors.New("boom")
	d := NewDecoderBuffer(strings.NewReader(`["`+strings.Repeat("x", 500)+`"]`), make([]byte, 64))
	d.StreamLongStrings(10, func([]byte) error { return boom })
	d.NextToken()
	if _, err := d.NextToken(); err != boom {
		t.Fatalf("err %v", err)
	}
	if _, err := d.NextToken(); err != boom {
		t.Fatalf("then %v", err)
	}
}

func FuzzStreamLongStrings(f *testing.F) {
	f.Add(`["`+strings.Repeat(`ab\u00e9\uD83D\uDE00é`, 8)+`",1]`, uint8(3), uint8(16))
	f.Add(`{"k":"`+strings.Repeat("x", 100)+"\x01\"}", uint8(1), uint8(16))
	f.Add(`"\uD800\uDC00\\uD800"`, uint8(1), uint8(16))
	f.Fuzz(func(t *testing.T, in string, min, window uint8) {
		w := 16 + int(window)%64
		want, _, wantErr := tokensOf(in, 0, w, nil, 0)
		got, _, gotErr := tokensOf(in, 1+int(min)%32, w, iotest.OneByteReader, 0)
		if fmt.Sprint(got) != fmt.Sprint(want) || gotErr != wantErr {
			t.Fatalf("whole:    %q %s\nstreamed: %q %s", want, wantErr, got, gotErr)
		}
	})
}

// A value captured whole (RawValue) is not streamed, long strings inside
// it included: its exact text comes back, and fn is not called.
func TestStreamLongStringsRawValue(t *testing.T) {
	// Past the window even once it has grown to its first 32 KiB.
	long := strings.Repeat(`ab\n`, 40000)
	in := `{"a":{"s":"` + long + `"},"b":"` + strings.Repeat(long, 4) + `"}`
	d := NewDecoderBuffer(strings.NewReader(in), make([]byte, 64))
	calls := 0
	d.StreamLongStrings(100, func([]byte) error { calls++; return nil })
	d.NextToken() // {
	d.NextToken() // "a"
	raw, err := d.RawValue()
	if err != nil || string(raw) != `{"s":"`+long+`"}` {
		t.Fatalf("RawValue %.40q... %v", raw, err)
	}
	if calls != 0 {
		t.Errorf("fn called %d times inside RawValue", calls)
	}
	d.NextToken() // "b"
	tok, err := d.NextToken()
	if err != nil || !Streamed(tok) || calls == 0 {
		t.Errorf("then %q %v, %d calls", tok, err, calls)
	}
}
