package json

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/jsonpipe/json/internal/chunkio"
)

// Two error describers render an error of either package as a comparable
// string. They stay two because expectations are written in each form, and
// rendering those tests' errors with the other one would change what they
// assert:
//
//   - errString, the token layer's form (synErr, tokenCases' err fields,
//     tokenStream's "err:" entries that errorOrNot matches, the fuzzers):
//     looks through wrapping (errors.As), leaves out an UnmarshalTypeError's
//     Struct and Field, and renders io.EOF as "*errors.errorString(EOF)".
//   - describeError, the differential Unmarshal/Decode tests' form (diffErr,
//     pinned wants such as "EOF" in TestDecodeAfterToken): takes the error's
//     own type only, includes Struct and Field, which jsonpipe matches with
//     the classic encoding/json, and renders io.EOF and io.ErrUnexpectedEOF
//     as their text.
//
// errString in place of describeError would stop comparing Struct and Field;
// describeError in place of errString would start comparing them in Token
// streams and stop looking through wrapped errors.

// errString renders an error for comparison across packages: message and,
// for syntax errors, the offset.
func errString(err error) string {
	var se *SyntaxError
	var sse *stdjson.SyntaxError
	var te *UnmarshalTypeError
	switch {
	case err == nil:
		return "<nil>"
	case errors.As(err, &se):
		return fmt.Sprintf("SyntaxError(%q, %d)", se.msg, se.Offset)
	case errors.As(err, &sse):
		return fmt.Sprintf("SyntaxError(%q, %d)", sse.Error(), sse.Offset)
	case errors.As(err, &te):
		return fmt.Sprintf("UnmarshalTypeError(%q, %v, %d)", te.Value, te.Type, te.Offset)
	}
	return fmt.Sprintf("%T(%v)", err, err)
}

// synErr is errString's form of our syntax error msg at offset off.
func synErr(msg string, off int64) string { return errString(&SyntaxError{msg: msg, Offset: off}) }

// describeError renders an error of either package in one comparable form.
func describeError(err error) string {
	switch e := err.(type) {
	case nil:
		return "<nil>"
	case *SyntaxError:
		return fmt.Sprintf("SyntaxError(%q, %d)", e.msg, e.Offset)
	case *stdjson.SyntaxError:
		return fmt.Sprintf("SyntaxError(%q, %d)", e.Error(), e.Offset)
	case *UnmarshalTypeError:
		return fmt.Sprintf("UnmarshalTypeError(%q, %v, %d, %q, %q)", e.Value, e.Type, e.Offset, e.Struct, e.Field)
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return err.Error()
	}
	return fmt.Sprintf("%T(%v)", err, err)
}

// tokenStream renders every Token (or the error ending the stream) of in.
func tokenStream(in string, next func() (Token, error)) []string {
	var out []string
	for i := 0; i < len(in)+10; i++ {
		t, err := next()
		if err != nil {
			out = append(out, "err:"+errString(err))
			if err == io.EOF || !isTypeError(err) {
				break
			}
			continue
		}
		out = append(out, fmt.Sprintf("%T:%v", t, t))
	}
	return out
}

func isTypeError(err error) bool {
	var te *UnmarshalTypeError
	return errors.As(err, &te)
}

func stdTokens(in string, useNumber bool) []string {
	d := stdjson.NewDecoder(strings.NewReader(in))
	if useNumber {
		d.UseNumber()
	}
	return tokenStream(in, d.Token)
}

func ourTokens(r io.Reader, in string, useNumber bool) []string {
	d := NewDecoder(r)
	if useNumber {
		d.UseNumber()
	}
	return tokenStream(in, d.Token)
}

// sameTokenStream compares our Token stream with encoding/json's. The one
// accepted difference: encoding/json's Decoder takes a number or literal
// directly followed by another value (`00`, `true1`, `1"a"`) as two
// top-level values; we require a delimiter, as RFC 8259 does, so our stream
// ends there with an "after top-level value" error.
func sameTokenStream(got, want []string) bool {
	if fmt.Sprint(got) == fmt.Sprint(want) {
		return true
	}
	n := len(got) - 1
	if n < 0 || !strings.Contains(got[n], "after top-level value") || len(want) <= n {
		return false
	}
	return fmt.Sprint(got[:n]) == fmt.Sprint(want[:n])
}

// errorOrNot keeps the values of a token stream and reduces its errors to
// their kind (syntax, type, EOF, unexpected EOF).
func errorOrNot(stream []string) []string {
	out := make([]string, len(stream))
	for i, s := range stream {
		switch {
		case strings.Contains(s, "after top-level value"):
			out[i] = s // sameTokenStream looks for it
		case strings.HasPrefix(s, "err:SyntaxError"):
			out[i] = "err:syntax"
		case strings.HasPrefix(s, "err:UnmarshalTypeError"):
			out[i] = "err:type"
		default:
			out[i] = s
		}
	}
	return out
}

// collect reads the whole stream with NextToken.
func collect(d *Decoder) (toks []string, err error) {
	for i := 0; ; i++ {
		tok, err := d.NextToken()
		if err != nil {
			return toks, err
		}
		toks = append(toks, string(tok))
	}
}

// stdCheck is encoding/json's verdict on data as a whole (Unmarshal's
// checkValid): nil or its syntax error.
func stdCheck(data []byte) error {
	var v any
	err := stdjson.Unmarshal(data, &v)
	var se *stdjson.SyntaxError
	if errors.As(err, &se) {
		return err
	}
	return nil
}

func ourCheck(data []byte) error {
	return newBytesDecoder(data).checkOne()
}

// There are two reader-shape tables because their callers need different
// sets. readerShapes, for the token-layer tables (TestNextToken,
// TestPeekSkipRaw), is every shape, and hands out Decoders, as some shapes
// are a bytes decoder or a buffer size rather than a reader.
// readerShapesFor, for the differential Decode streams (TestDecodeDiff,
// FuzzDecodeDiff), is three shapes, one with chunk sizes picked by seed:
// those run each shape for every input, target and option, and all of
// readerShapes there would change what they run and multiply their time.

// readerShapes are the ways every table case is fed to the decoder, so that
// every refill path runs.
func readerShapes(in string) map[string]func() *Decoder {
	shapes := map[string]func() *Decoder{
		"whole":         func() *Decoder { return NewDecoder(strings.NewReader(in)) },
		"bytes":         func() *Decoder { return newBytesDecoder([]byte(in)) },
		"OneByteReader": func() *Decoder { return NewDecoder(iotest.OneByteReader(strings.NewReader(in))) },
		"DataErrReader": func() *Decoder { return NewDecoder(iotest.DataErrReader(strings.NewReader(in))) },
		"HalfReader":    func() *Decoder { return NewDecoder(iotest.HalfReader(strings.NewReader(in))) },
	}
	for n := 1; n <= 4; n++ {
		shapes[fmt.Sprintf("chunk%d", n)] = func() *Decoder {
			return NewDecoder(&chunkio.Reader{R: strings.NewReader(in), N: n})
		}
	}
	for _, size := range []int{1, 2, 3, 7, 16, 100, 4096, 1 << 20} {
		shapes[fmt.Sprintf("buf%d", size)] = func() *Decoder {
			return NewDecoderBuffer(strings.NewReader(in), make([]byte, 0, size))
		}
		shapes[fmt.Sprintf("buf%d/onebyte", size)] = func() *Decoder {
			return NewDecoderBuffer(iotest.OneByteReader(strings.NewReader(in)), make([]byte, 0, size))
		}
	}
	return shapes
}

// readerShapesFor: whole, a byte at a time, and in chunks of three sizes
// cycled, picked by seed.
func readerShapesFor(seed uint64) map[string]func([]byte) io.Reader {
	sizes := []int{1 + int(seed%4), 1 + int(seed/4%7), 1 + int(seed/28%3)}
	return map[string]func([]byte) io.Reader{
		"whole":   func(b []byte) io.Reader { return strings.NewReader(string(b)) },
		"bytes1":  func(b []byte) io.Reader { return &chunkio.Reader{R: bytes.NewReader(b), N: 1} },
		"chunked": func(b []byte) io.Reader { return &chunkio.Reader{R: bytes.NewReader(b), Sizes: sizes} },
	}
}

// checkInlined builds the package with -gcflags=-m and fails for each
// function (a regexp) the compiler does not report as inlinable.
func checkInlined(t *testing.T, fns ...string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the package with -gcflags=-m")
	}
	out, err := exec.Command("go", "build", "-gcflags=-m", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	for _, fn := range fns {
		if !regexp.MustCompile(`(?m)can inline ` + fn + `( |$)`).Match(out) {
			t.Errorf("%s does not inline", fn)
		}
	}
}
