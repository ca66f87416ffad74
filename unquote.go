package json

import (
	"github.com/jsonpipe/json/internal/unquote"
)

// AppendUnquoted appends the value of the string token tok (quotes included,
// as NextToken returns it) to dst: escapes decoded, and invalid UTF-8 and lone
// surrogates replaced by U+FFFD as encoding/json does. It allocates only when
// dst must grow.
func AppendUnquoted(dst, tok []byte) []byte { return unquote.Append(dst, tok) }

// AppendUnquoted is the package-level AppendUnquoted with a fast path: when
// tok is the string token d returned last and the scanner saw no escape in
// it, only its UTF-8 validity is left to check.
func (d *Decoder) AppendUnquoted(dst, tok []byte) []byte {
	if body := d.plainString(tok); body != nil {
		return append(dst, body...)
	}
	return unquote.Append(dst, tok)
}

// plainString returns the body of tok when it is the last string token d
// returned and its bytes are its value (no escape, valid UTF-8); else nil.
func (d *Decoder) plainString(tok []byte) []byte {
	if fastPaths && d.s.str&strEscaped == 0 && d.isLastString(tok) {
		if body := tok[1 : len(tok)-1]; d.s.validBody(body) {
			return body
		}
	}
	return nil
}

// isLastString reports whether tok is the last string token d returned.
func (d *Decoder) isLastString(tok []byte) bool {
	last := d.s.strTok
	return len(tok) == len(last) && len(tok) > 1 && &tok[0] == &last[0]
}
