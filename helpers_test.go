package json

import (
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

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
