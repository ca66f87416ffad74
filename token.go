package json

import (
	stdjson "encoding/json"
	"io"
	"reflect"
	"unsafe"

	"github.com/jsonpipe/json/internal/number"
	"github.com/jsonpipe/json/internal/unquote"
)

// These are encoding/json's own types, so values cross between the packages.
type (
	// A Token holds a value of one of these types: Delim, bool, float64,
	// Number, string, nil.
	Token = stdjson.Token
	// A Delim is a JSON array or object delimiter, one of [ ] { or }.
	Delim = stdjson.Delim
	// A Number represents a JSON number literal.
	Number = stdjson.Number
)

// Token returns the next JSON token in the input stream, exactly as
// encoding/json's Decoder.Token does: Delim for [ ] { }, bool, float64 (or
// Number after UseNumber), string (unescaped; invalid UTF-8 and lone
// surrogates become U+FFFD), or nil for null. At the end of the input it
// returns nil, io.EOF.
//
// Delimiters, booleans and null cost no allocation; a string or number costs
// one (its boxing into the interface), its bytes taken from a shared block.
func (d *Decoder) Token() (Token, error) {
	tok, err := d.NextToken()
	if err != nil {
		return nil, d.tokenError(err)
	}
	switch c := tok[0]; c {
	case '{', '}', '[', ']':
		return Delim(c), nil
	case '"':
		d.tokScanned += int64(len(tok))
		return d.tokenString(tok), nil // interned; see Token
	case 't':
		d.tokScanned += 4
		return true, nil
	case 'f':
		d.tokScanned += 5
		return false, nil
	case 'n':
		d.tokScanned += 4
		return nil, nil
	}
	d.tokScanned += int64(len(tok))
	if d.useNumber {
		return Number(d.keep(tok)), nil
	}
	f, err := number.ParseFloat(tok, 64)
	if err != nil {
		// As encoding/json: a type error, not fatal to the stream.
		return nil, &UnmarshalTypeError{Value: "number " + string(tok), Type: float64Type, Offset: int64(len(tok)) + 1}
	}
	return f, nil
}

var float64Type = reflect.TypeFor[float64]()

// Short strings are interned per decoder, boxed once: a repeated key or
// value costs no allocation. The table is bounded (internMax entries of at
// most internLen bytes) and survives Reset.
const (
	internLen = 64
	internMax = 4096
)

// tokenString unescapes a string token and returns it boxed, interned when
// short.
func (d *Decoder) tokenString(tok []byte) Token {
	b := d.plainString(tok)
	if b == nil {
		d.scratch = unquote.Append(d.scratch[:0], tok)
		b = d.scratch
	}
	if !fastPaths || len(b) > internLen {
		return d.keep(b)
	}
	if v, ok := d.interned[string(b)]; ok {
		return v
	}
	s := d.keep(b)
	var v Token = s
	if len(d.interned) < internMax {
		if d.interned == nil {
			d.interned = make(map[string]Token)
		}
		d.interned[s] = v
	}
	return v
}

// keep returns a string with b's bytes. Small strings are carved from shared
// 4 KiB blocks (one allocation per block rather than per string; a block
// stays alive while any of its strings does); larger ones get their own.
func (d *Decoder) keep(b []byte) string {
	const block, small = 4 << 10, 512
	if len(b) == 0 {
		return ""
	}
	if !fastPaths || len(b) > small {
		return string(b)
	}
	if cap(d.strBlock)-len(d.strBlock) < len(b) {
		d.strBlock = make([]byte, 0, block)
	}
	start := len(d.strBlock)
	d.strBlock = append(d.strBlock, b...)
	// A block's bytes are never written again once handed out.
	return unsafe.String(&d.strBlock[start], len(b))
}

// Token-mode error wording, as encoding/json's Decoder.tokenError.
var tokenContext = [...]string{
	ctxTopValue:    " looking for beginning of value",
	ctxArrayFirst:  " looking for beginning of value",
	ctxArrayValue:  " looking for beginning of value",
	ctxArrayComma:  " after array element",
	ctxObjectFirst: "",
	ctxObjectKey:   " looking for beginning of object key string",
	ctxObjectColon: " after object key",
	ctxObjectValue: " looking for beginning of value",
	ctxObjectComma: " after object key:value pair",
}

// tokenError translates a NextToken error into what encoding/json's Token
// returns for the same input. encoding/json reads delimiters itself and every
// other token with an inner scanner: errors at delimiters carry the offending
// byte's offset; errors inside a token carry the count of bytes that inner
// scanner has seen; and a stream ending between tokens is io.EOF.
func (d *Decoder) tokenError(err error) error {
	if d.eofBetween {
		return io.EOF
	}
	s := &d.s
	switch s.errKind {
	case errLexical:
		if _, ok := err.(*SyntaxError); ok && s.tokPos < s.errPos {
			return &SyntaxError{msg: err.(*SyntaxError).msg, Offset: d.tokScanned + s.errPos - s.tokPos + 1}
		}
	case errBadStart, errBadFollow:
		c, ctx := s.errChar, d.ctx
		valueCtx := ctx == ctxTopValue || ctx == ctxArrayFirst || ctx == ctxArrayValue || ctx == ctxObjectValue
		if !valueCtx || isDelimiter(c) {
			return &SyntaxError{msg: "invalid character " + quoteChar(c) + tokenContext[ctx], Offset: s.errPos}
		}
		if s.errKind == errBadFollow && startsValue(c) {
			// encoding/json's Token would take c as the start of the next
			// top-level value; we require a delimiter first (see doc.go).
			return err
		}
		return &SyntaxError{msg: invalidChar(c, "looking for beginning of value"), Offset: d.tokScanned + 1}
	}
	return err
}

func isDelimiter(c byte) bool {
	switch c {
	case '[', ']', '{', '}', ',', ':':
		return true
	}
	return false
}

func startsValue(c byte) bool {
	switch c {
	case '"', 't', 'f', 'n', '-', '[', '{':
		return true
	}
	return isDigit(c)
}
