package json

import "github.com/jsonpipe/json/internal/unquote"

// AppendUnquoted appends the value of the string token tok (quotes included,
// as NextToken returns it) to dst: escapes decoded, and invalid UTF-8 and lone
// surrogates replaced by U+FFFD as encoding/json does. It allocates only when
// dst must grow.
func AppendUnquoted(dst, tok []byte) []byte { return unquote.Append(dst, tok) }

// AppendUnquoted is the package-level AppendUnquoted with a fast path: when
// tok is the string token d returned last, what the scanner saw while reading
// it (no escape, no byte above 0x7F) spares a second look at its bytes.
func (d *Decoder) AppendUnquoted(dst, tok []byte) []byte {
	if d.s.str == 0 && d.isLastString(tok) {
		return append(dst, tok[1:len(tok)-1]...)
	}
	return unquote.Append(dst, tok)
}

// isLastString reports whether tok is the last string token d returned.
func (d *Decoder) isLastString(tok []byte) bool {
	last := d.s.strTok
	return len(tok) == len(last) && len(tok) > 1 && &tok[0] == &last[0]
}
