package json

import (
	"bytes"
	"encoding/binary"
	"math/bits"

	"github.com/jsonpipe/json/internal/strbody"
)

// Compact, Indent and HTMLEscape, and the compaction and indentation that
// Marshal, MarshalIndent and Encoder apply to what MarshalJSON returns and
// to their own output. Compact and Indent check and copy in one pass (the
// validator's compact and indent); the HTML-escaping compaction validates
// its input with Valid (no allocation, no recursion) and then rewrites it
// knowing it is valid, run by run; MarshalIndent indents what Marshal wrote
// (appendIndentValid); HTMLEscape, as encoding/json's, checks nothing. Only
// an invalid input pays for wording the error (syntaxErrorOf).

// Compact appends to dst the JSON-encoded src with insignificant space
// characters elided. On a syntax error it appends nothing and returns a
// *SyntaxError with encoding/json's message and, as encoding/json's Compact
// gives it, Offset 0.
func Compact(dst *bytes.Buffer, src []byte) error {
	dst.Grow(len(src))
	var v validator
	b, err := appendCompact(&v, dst.AvailableBuffer(), src, false)
	dst.Write(b)
	return err
}

// Indent appends to dst an indented form of the JSON-encoded src. Each
// element of an object or array begins on a new line beginning with prefix
// followed by one or more copies of indent according to the nesting depth.
// The data appended to dst does not begin with the prefix nor any
// indentation, to make it easier to embed inside other formatted JSON data.
// Leading space characters in src are dropped and trailing ones kept, as
// encoding/json does. On a syntax error it appends nothing and returns a
// *SyntaxError with encoding/json's message and Offset.
func Indent(dst *bytes.Buffer, src []byte, prefix, indent string) error {
	dst.Grow(2 * len(src)) // as encoding/json does: indenting mostly adds
	b, err := appendIndent(dst.AvailableBuffer(), src, prefix, indent)
	dst.Write(b)
	return err
}

// HTMLEscape appends to dst the JSON-encoded src with <, >, &, U+2028 and
// U+2029 characters inside string literals changed to \u003c, \u003e, \u0026,
// \u2028, \u2029 so that the JSON will be safe to embed inside HTML <script>
// tags. Like encoding/json's, it does not check src: those characters can
// appear only in strings of valid JSON.
func HTMLEscape(dst *bytes.Buffer, src []byte) {
	dst.Grow(len(src))
	dst.Write(appendHTMLEscape(dst.AvailableBuffer(), src))
}

// syntaxErrorOf words the syntax error of src, which Valid rejected, as
// Unmarshal reports it. It reads a copy, so that src does not escape
// through the pooled decoder and callers' inputs can stay on the stack:
// the error path allocates anyway.
func syntaxErrorOf(src []byte) error {
	ds := getState()
	ds.bd.resetBytes(bytes.Clone(src))
	err := ds.bd.checkOne()
	ds.bd.dropInput()
	putState(ds)
	return err
}

// appendCompact appends src without the space outside its strings, and with
// the HTML-sensitive characters in its strings escaped when escapeHTML is
// set. An invalid src appends nothing; its error has Offset 0, which is what
// encoding/json's Compact and its MarshalJSON checks report. It checks
// with v, whose stack it need not have cleared: a validator's stack is
// written before it is read, and zeroing one (1.2 KB) would cost more
// than checking a short method result.
func appendCompact(v *validator, dst, src []byte, escapeHTML bool) ([]byte, error) {
	// One pass: the validator copies as it checks.
	out := dst
	if !v.compact(src, &out) {
		return dst, compactError(src)
	}
	if !escapeHTML || !hasHTML(out[len(dst):]) {
		return out, nil
	}
	// Rare: a string with an HTML-sensitive character. src is valid.
	dst = out[:len(dst)]
	start := 0 // src[start:i] is still to be copied
	for i := 0; i < len(src); {
		switch c := src[i]; {
		case c == '"':
			j := validStringEnd(src, i+1)
			if escapeHTML {
				dst = append(dst, src[start:i]...)
				dst = appendHTMLEscape(dst, src[i:j])
				start = j
			}
			i = j
		case whitespace[c]:
			dst = append(dst, src[start:i]...)
			i = skipWhitespace(src, i)
			start = i
		default:
			i = skipPlain(src, i+1)
		}
	}
	return append(dst, src[start:]...), nil
}

// compactError is the error of appendCompact for the invalid src: its
// syntax error with Offset 0.
func compactError(src []byte) error {
	err := syntaxErrorOf(src)
	if se, ok := err.(*SyntaxError); ok {
		se.Offset = 0
	}
	return err
}

// skipPlain returns the index of the first space or '"' at or after i in
// src, valid JSON outside a string, 8 bytes at a time while it can: the
// bytes in between (punctuation, numbers, literals) are copied as they are.
func skipPlain(src []byte, i int) int {
	for ; i+8 <= len(src); i += 8 {
		v := binary.LittleEndian.Uint64(src[i : i+8])
		// bytes below 0x21 (the spaces), then '"'; the lowest mark is exact
		if m := ((v - lsb*0x21) | (v ^ (lsb * '"') - lsb)) &^ v & msb; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for i < len(src) && src[i] > ' ' && src[i] != '"' {
		i++
	}
	return i
}

// appendIndent is Indent on byte slices: checked and indented in one pass
// (the validator's indent). An invalid src appends nothing.
func appendIndent(dst, src []byte, prefix, indent string) ([]byte, error) {
	var v validator
	var nl newline
	nl.init(prefix, indent)
	if out, ok := v.indent(src, dst, &nl); ok {
		return out, nil
	}
	return dst, syntaxErrorOf(src)
}

// appendIndentValid indents src, which is valid JSON: MarshalIndent and an
// indenting Encoder call it directly on what Marshal wrote.
func appendIndentValid(dst, src []byte, prefix, indent string) []byte {
	open := 0           // containers open at src[i]
	depth := 0          // indentation of the current line
	needIndent := false // a container was opened and its first element not yet written
	var nl newline
	nl.init(prefix, indent)
	for i := skipWhitespace(src, 0); i < len(src); {
		c := src[i]
		if whitespace[c] {
			i = skipWhitespace(src, i)
			continue
		}
		if needIndent && c != '}' && c != ']' {
			needIndent = false
			depth++
			dst = nl.append(dst, depth)
		}
		switch c {
		case '{', '[':
			// The newline waits for the first element, so that empty
			// containers stay {} and [].
			needIndent = true
			open++
			dst = append(dst, c)
			i++
			continue
		case ',':
			dst = append(dst, c)
			dst = nl.append(dst, depth)
			i++
			continue
		case ':':
			dst = append(dst, c, ' ')
			i++
			continue
		case '}', ']':
			if needIndent {
				needIndent = false
			} else {
				depth--
				dst = nl.append(dst, depth)
			}
			open--
			dst = append(dst, c)
			i++
		case '"':
			j := validStringEnd(src, i+1)
			dst = append(dst, src[i:j]...)
			i = j
		default: // a number or a literal
			j := i + 1
			for j < len(src) && !whitespace[src[j]] && src[j] != ',' && src[j] != ']' && src[j] != '}' && src[j] != ':' {
				j++
			}
			dst = append(dst, src[i:j]...)
			i = j
		}
		if open == 0 {
			// The value is complete; encoding/json keeps what follows it
			// (space only, in valid JSON).
			return append(dst, src[i:]...)
		}
	}
	return dst
}

// newline writes the newline, prefix and indents that start a line of
// Indent's output. A line at depth d is the first base+d*len(indent) bytes
// of buf[:n], the deepest line so far that fits in buf: one copy. A line
// too deep for buf is copied from the indents of the last such line, which
// are still in dst (at deep, deepN bytes of them), and where that one was
// shorter, made longer by copying what it has written: a copy or two a
// line whatever the depth, and no allocation. (Lengths, not a slice of
// buf: a newline pointing into itself would move to the heap.)
type newline struct {
	buf         [128]byte
	n, base     int
	prefix      string
	indent      string
	deep, deepN int
}

func (nl *newline) init(prefix, indent string) {
	nl.buf[0] = '\n'
	nl.n = 1 + copy(nl.buf[1:], prefix)
	nl.base = 1 + len(prefix) // past buf when the prefix is too long for it: every line the long way
	nl.prefix, nl.indent = prefix, indent
}

// append appends to dst the start of a line at depth.
func (nl *newline) append(dst []byte, depth int) []byte {
	n := nl.base + depth*len(nl.indent)
	if n > len(nl.buf) {
		return nl.appendDeep(dst, n-nl.base)
	}
	for nl.n < n {
		nl.n += copy(nl.buf[nl.n:], nl.indent)
	}
	return append(dst, nl.buf[:n]...)
}

// appendDeep is append for a line too deep for buf, with need bytes of
// indents.
func (nl *newline) appendDeep(dst []byte, need int) []byte {
	dst = append(dst, '\n')
	dst = append(dst, nl.prefix...)
	if need <= nl.deepN {
		return append(dst, dst[nl.deep:nl.deep+need]...)
	}
	start := len(dst)
	if nl.deepN > 0 {
		dst = append(dst, dst[nl.deep:nl.deep+nl.deepN]...)
	} else {
		dst = append(dst, nl.indent...)
	}
	for w := len(dst) - start; w < need; {
		c := min(w, need-w)
		dst = append(dst, dst[start:start+c]...)
		w += c
	}
	nl.deep, nl.deepN = start, need
	return dst
}

// validStringEnd returns the index after the closing quote of the string
// whose body starts at src[i], in valid JSON: the first 32 bytes of each
// run inline, as the scanner reads them, and a longer run through the
// string kernel (bodyStop).
func validStringEnd(src []byte, i int) int {
	for i < len(src) {
		i, _ = stringStopWithin(src, i, shortRun)
		if i < len(src) && src[i] != '"' && src[i] != '\\' {
			i, _ = bodyStop(src, i)
		}
		if i >= len(src) {
			break
		}
		switch src[i] {
		case '"':
			return i + 1
		case '\\':
			i += 2
		default: // fewer than 8 bytes were left for stringStop
			i++
		}
	}
	return len(src)
}

// appendHTMLEscape appends src with <, >, &, U+2028 and U+2029 escaped,
// wherever they are.
// hasHTML reports whether s, valid compact JSON, has a character that
// appendHTMLEscape escapes: outside strings, none can be. A word at a time
// (a byte at a time, it cost a compacted 7 KB array more than compacting
// it): a word with '&', '<', '>' or a byte of 0x80 or more (0xE2 starts
// U+2028 and U+2029) is looked at byte by byte.
func hasHTML(s []byte) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := binary.LittleEndian.Uint64(s[i:])
		// x - lsb sets a byte's high bit where x is 0 (and maybe above
		// it); '<' and '>' are the only bytes that are '>' with bit 1 set.
		m := (w ^ lsb*'&' - lsb) | ((w | lsb*2) ^ lsb*'>' - lsb) | w
		if m&msb != 0 && htmlBytes(s[i:i+8]) {
			return true
		}
	}
	return htmlBytes(s[i:])
}

func htmlBytes(s []byte) bool {
	for _, c := range s {
		if c == '<' || c == '>' || c == '&' || c == 0xE2 {
			return true
		}
	}
	return false
}

func appendHTMLEscape(dst, src []byte) []byte {
	start := 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '<' || c == '>' || c == '&':
			dst = append(dst, src[start:i]...)
			dst = append(dst, strbody.ASCIIEscape(c)...)
			start = i + 1
		case c == 0xE2 && i+2 < len(src) && src[i+1] == 0x80 && src[i+2]&^1 == 0xA8:
			dst = append(dst, src[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[src[i+2]&0xF])
			i += 2
			start = i + 1
		}
	}
	return append(dst, src[start:]...)
}
