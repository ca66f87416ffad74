package json

import (
	"errors"
	"strconv"
)

// A SyntaxError is a description of a JSON syntax error. It has the same
// shape, messages and Offset conventions as encoding/json's SyntaxError:
// Offset counts the bytes read before the error, including the offending byte,
// and "unexpected end of JSON input" is reported at the input's length.
type SyntaxError struct {
	msg    string // description of error
	Offset int64  // error occurred after reading Offset bytes
}

func (e *SyntaxError) Error() string { return e.msg }

// ErrTokenTooLong is wrapped by the error returned when a token, or a raw value
// being captured, would grow the window past the limit set with SetMaxTokenSize.
var ErrTokenTooLong = errors.New("json: token too long")

// tokenTooLongError reports ErrTokenTooLong with where the token starts.
type tokenTooLongError struct {
	offset int64
	limit  int
}

func (e *tokenTooLongError) Error() string {
	return "json: token at offset " + strconv.FormatInt(e.offset, 10) +
		" exceeds the " + strconv.Itoa(e.limit) + "-byte window limit"
}

func (e *tokenTooLongError) Unwrap() error { return ErrTokenTooLong }

// quoteChar formats c as a quoted character literal, as encoding/json does.
func quoteChar(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}

func invalidChar(c byte, context string) string {
	return "invalid character " + quoteChar(c) + " " + context
}
