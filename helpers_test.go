package json

import (
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
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
