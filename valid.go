package json

import (
	"io"
	"sync"
)

var validPool = sync.Pool{New: func() any {
	d := new(Decoder)
	d.maxDepth = defaultMaxDepth
	return d
}}

// Valid reports whether data is a valid JSON encoding: exactly one value,
// with only whitespace around it.
func Valid(data []byte) bool {
	d := validPool.Get().(*Decoder)
	d.resetBytes(data)
	err := d.checkOne()
	d.resetBytes(nil) // drop the reference to data
	validPool.Put(d)
	return err == nil
}

// checkOne reads exactly one value and the end of input, and returns the
// error encoding/json's Unmarshal reports for the same input (its checkValid):
// a *SyntaxError, with "unexpected end of JSON input" (or the wording for the
// token cut short) when the input ends early, or the reader's error.
func (d *Decoder) checkOne() error {
	tok, err := d.NextToken()
	if err == nil && (tok[0] == '{' || tok[0] == '[') {
		for d.depth > 0 && err == nil {
			_, err = d.NextToken()
		}
	}
	if err != nil {
		if err == io.EOF {
			return &SyntaxError{msg: "unexpected end of JSON input", Offset: d.pos()}
		}
		if err == io.ErrUnexpectedEOF {
			return d.unexpectedEOFError()
		}
		return err
	}
	// Only whitespace may follow.
	if c, ok := d.skipSpace(); ok {
		return &SyntaxError{msg: invalidChar(c, "after top-level value"), Offset: d.InputOffset() + 1}
	}
	if d.s.err != nil {
		return d.s.err // a byte right after a number or literal, or a reader error
	}
	return nil
}
