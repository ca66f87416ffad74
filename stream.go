package json

import "io"

// What Decode needs of the Decoder beyond NextToken: where a value may start
// after Token calls (prepareForDecode, from the state's syntactic context),
// and how the ends and errors of a value are worded as encoding/json words
// them for Unmarshal and Decode.

// unmarshalEnd reports what encoding/json's Unmarshal reports when something other
// than whitespace follows the value: it is called after one value was read.
func (d *Decoder) unmarshalEnd() error {
	if br := &d.s.br; br.r == nil && d.s.err == nil && d.err == nil &&
		skipWhitespace(br.data, br.offset) == len(br.data) {
		return nil // the usual end of a whole input: nothing but whitespace left
	}
	if c, ok := d.skipSpace(); ok {
		return &SyntaxError{msg: invalidChar(c, "after top-level value"), Offset: d.InputOffset() + 1}
	}
	if d.s.err != nil {
		return d.s.err
	}
	return nil
}

// unmarshalError words a token-layer error from a bytes decoder as
// encoding/json's Unmarshal does.
func (d *Decoder) unmarshalError(err error) error {
	switch err {
	case io.EOF:
		return &SyntaxError{msg: "unexpected end of JSON input", Offset: d.pos()}
	case io.ErrUnexpectedEOF:
		return d.unexpectedEOFError()
	}
	return err
}

// prepareForDecode is encoding/json's tokenPrepareForDecode and
// tokenValueAllowed: Decode after Token must start where a value may. It
// returns where the value's input starts, after any separator, which is what
// encoding/json's error Offsets count from.
func (d *Decoder) prepareForDecode() (int64, error) {
	switch d.decodeContext() {
	case ctxArrayComma, ctxObjectColon:
		want, msg := byte(','), "expected comma after array element"
		if d.decodeContext() == ctxObjectColon {
			want, msg = ':', "expected colon after object key"
		}
		c, ok := d.skipSpace()
		if !ok && d.cleanEnd() {
			return 0, io.EOF
		}
		if !ok && d.s.errKind == errBadFollow {
			// A byte right after the last number or literal: not the
			// separator.
			return 0, &SyntaxError{msg: msg, Offset: d.InputOffset()}
		}
		if !ok {
			_, err := d.NextToken()
			return 0, err
		}
		if c != want {
			return 0, &SyntaxError{msg: msg, Offset: d.InputOffset()}
		}
		return d.InputOffset() + 1, nil
	case ctxObjectFirst, ctxObjectKey, ctxObjectComma:
		return 0, &SyntaxError{msg: "not at beginning of value", Offset: d.InputOffset()}
	}
	return d.InputOffset(), nil
}

// resumeAfterTopValue lets a value start right after a top-level number or
// literal, as encoding/json's Decoder does for "1x" (the next Decode fails
// looking for a value) and "falsetrue" (two values): the scanner's pending
// complaint about the byte after the value is dropped, so the byte is
// scanned again as the start of a token.
func (d *Decoder) resumeAfterTopValue() {
	if d.depth == 0 && d.s.errKind == errBadFollow {
		d.s.err = nil
		d.s.errKind = errNone
	}
}

// cleanEnd reports whether the input ended with no error pending.
func (d *Decoder) cleanEnd() bool {
	return d.err == nil && d.s.err == nil && d.s.br.err == io.EOF
}

// decodeContext reports the syntactic position of d from its state.
func (d *Decoder) decodeContext() syntaxContext { return d.state.ctx }
