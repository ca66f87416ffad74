package json

import (
	"encoding/binary"
	"io"
	"math/bits"
)

// Valid reports whether data is a valid JSON encoding: exactly one value,
// with only whitespace around it. Its verdict is encoding/json's Valid's on
// every input; it allocates nothing.
//
// It is a validator of its own over data, not the token path: where the
// caller needs the error, checkOne words it.
func Valid(data []byte) bool {
	var v validator
	return v.valid(data)
}

// A validator checks a whole []byte. Nesting is a depth count and a bit
// stack, one bit a level (1 = object), so no input makes it recurse or
// allocate; it stops at encoding/json's depth limit.
type validator struct {
	stack [(defaultMaxDepth + 63) / 64]uint64
}

// valid is Valid for one validator: the grammar as one loop over data, with
// whitespace, delimiters, literals and the first validRun bytes of a
// string's body (stringStopWithin, 8 bytes at a time) written out here. The
// rest is out of line: numbers (numberEnd), and a string's escapes, control
// bytes, last few bytes and longer runs (validString, which takes a long
// run to the strbody kernel).
func (v *validator) valid(data []byte) bool {
	i := v.end(data, 0, defaultMaxDepth)
	return i >= 0 && skipWhitespace(data, i) == len(data)
}

// end returns the index just after the one value that starts at data[i:]
// (after whitespace), or -1 when it is not valid, is cut short by the end
// of data, or nests limit or more arrays and objects deep (limit is at
// most defaultMaxDepth). A number that data ends in is taken as whole:
// a caller whose data may go on checks that end < len(data).
func (v *validator) end(data []byte, i, limit int) int {
	depth := 0
	obj := false // the innermost open container is an object
	ind := 0     // the last indentation indentEnd took, in bits (8 a space)
	var c byte
value: // a value must start at data[i:], after whitespace
	// Whitespace is looked for only at a byte of ' ' or below: most
	// tokens follow the one before with none, which costs one load. The
	// indexes are compared as unsigned, which proves them in bounds to
	// the compiler: no bounds check after the test. Then a newline and a
	// short indentation (indentEnd), then any whitespace.
	if uint(i) < uint(len(data)) && data[i] > ' ' {
		c = data[i]
	} else if i, ind = indentEnd(data, i, ind); uint(i) < uint(len(data)) && data[i] > ' ' {
		c = data[i]
	} else if i = skipWhitespace(data, i); uint(i) < uint(len(data)) {
		c = data[i]
	} else {
		return -1
	}
got: // c is data[i], a value's first byte
	if c == '"' { // a string, which most values are, before the switch
		j, _ := stringStopWithin(data, i+1, validRun)
		if uint(j) < uint(len(data)) && data[j] == '"' {
			i = j + 1
		} else if i = validString(data, j); i < 0 {
			return -1
		}
		goto after
	}
	switch c {
	case '{', '[':
		if depth >= limit {
			return -1
		}
		obj = c == '{'
		w, b := depth>>6, depth&63
		v.stack[w] = v.stack[w]&^(1<<b) | uint64(c>>5&1)<<b // '{' has 0x20 set, '[' not
		depth++
		open := c
		if i++; uint(i) < uint(len(data)) && data[i] > ' ' {
			c = data[i]
		} else if i, ind = indentEnd(data, i, ind); uint(i) < uint(len(data)) && data[i] > ' ' {
			c = data[i]
		} else if i = skipWhitespace(data, i); uint(i) < uint(len(data)) {
			c = data[i]
		} else {
			return -1
		}
		if c == open+2 { // '}' or ']'
			i++
			goto closed
		}
		if obj {
			goto key
		}
		goto value
	case 't':
		if len(data)-i < 4 || string(data[i:i+4]) != "true" {
			return -1
		}
		i += 4
	case 'f':
		if len(data)-i < 5 || string(data[i:i+5]) != "false" {
			return -1
		}
		i += 5
	case 'n':
		if len(data)-i < 4 || string(data[i:i+4]) != "null" {
			return -1
		}
		i += 4
	case '1', '2', '3', '4', '5', '6', '7', '8', '9':
		// An integer, which most numbers are, without a call.
		i++
		goto integer
	default:
		if c == '-' && uint(i+1) < uint(len(data)) && data[i+1]-'1' < 9 {
			// A negative integer, without a call too. (Not a case of the
			// switch: with '-' among its cases the positive ones were
			// 8-10% slower, compare/shapes Valid on AMD EPYC.)
			i += 2
			goto integer
		}
		if i = numberEnd(data, i); i < 0 {
			return -1
		}
	}
	goto after
integer: // the digits of an integer after its first, at data[i:]
	// Four bytes a turn, each tested on its own: the byte loop of intEnd,
	// with the length tested once a turn (and the slice's start once), not
	// at every digit.
	for {
		if uint(i+4) > uint(len(data)) {
			i = intEnd(data, i)
			break
		}
		d := data[i : i+4 : i+4]
		if !isDigit(d[0]) {
			break
		}
		if !isDigit(d[1]) {
			i++
			break
		}
		if !isDigit(d[2]) {
			i += 2
			break
		}
		if !isDigit(d[3]) {
			i += 3
			break
		}
		i += 4
	}
	if uint(i) < uint(len(data)) {
		// The byte after the digits, loaded once: a ',' in a container,
		// the commonest (the next member or element), goes on from here,
		// without after's tests; a fraction or an exponent is checked.
		if c = data[i]; c == ',' && depth > 0 {
			i++
			if obj {
				goto key
			}
			goto value
		}
		if c == '.' || c|0x20 == 'e' {
			if i = fractionEnd(data, i); i < 0 {
				return -1
			}
		}
	}
after: // a value ends at data[i]: what may follow it
	if depth == 0 {
		return i
	}
	if uint(i) < uint(len(data)) && data[i] > ' ' {
		c = data[i]
	} else if i, ind = indentEnd(data, i, ind); uint(i) < uint(len(data)) && data[i] > ' ' {
		c = data[i]
	} else if i = skipWhitespace(data, i); uint(i) < uint(len(data)) {
		c = data[i]
	} else {
		return -1
	}
	switch c {
	case ',':
		i++
		if obj {
			goto key
		}
		goto value
	case '}':
		if !obj {
			return -1
		}
	case ']':
		if obj {
			return -1
		}
	default:
		return -1
	}
	i++
closed: // the innermost container was closed just before data[i]
	depth--
	if depth > 0 {
		l := depth - 1
		obj = v.stack[l>>6]>>(l&63)&1 != 0
	}
	goto after
key: // an object's key must start at data[i:], after whitespace
	if uint(i) >= uint(len(data)) || data[i] != '"' { // not its quote at once
		if i, ind = indentEnd(data, i, ind); uint(i) < uint(len(data)) && data[i] > ' ' {
			c = data[i]
		} else if i = skipWhitespace(data, i); uint(i) < uint(len(data)) {
			c = data[i]
		} else {
			return -1
		}
		if c != '"' {
			return -1
		}
	}
	if j, _ := stringStopWithin(data, i+1, validRun); uint(j) < uint(len(data)) && data[j] == '"' {
		// A key and its colon with no space between, as most are
		// written: one test of the byte after the quote.
		if i = j + 1; uint(i) < uint(len(data)) && data[i] == ':' {
			i++
			goto colon
		}
	} else if i = validString(data, j); i < 0 {
		return -1
	}
	if uint(i) < uint(len(data)) && data[i] > ' ' {
		c = data[i]
	} else if i = skipWhitespace(data, i); uint(i) < uint(len(data)) {
		c = data[i]
	} else {
		return -1
	}
	if c != ':' {
		return -1
	}
	i++
colon: // just after a key's colon
	// The value's first byte, or the one space before it that
	// pretty-printed JSON has, taken here, where it is all the
	// whitespace there is, with no loop.
	if uint(i) < uint(len(data)) {
		if c = data[i]; c > ' ' {
			goto got
		}
		if c == ' ' {
			i++
		}
	}
	goto value
}

// compact is valid that also appends data to *out without the whitespace
// between tokens: Compact in one pass. Each place that skips whitespace
// copies what came before it. It is the same loop as valid's, kept apart:
// the copies, even behind a nil test, cost Valid 8-12% more instructions.
func (v *validator) compact(data []byte, out *[]byte) bool {
	depth := 0
	obj := false // the innermost open container is an object
	i := 0
	start := 0 // compacting: data[start:i] is still to be copied
value: // a value must start at data[i:], after whitespace
	if j := skipWhitespace(data, i); j != i {
		*out = append(*out, data[start:i]...)
		start = j
		i = j
	}
	if i >= len(data) {
		return false
	}
	switch data[i] {
	case '"':
		j, _ := stringStop(data, i+1)
		if j < len(data) && data[j] == '"' {
			i = j + 1
		} else if i = validString(data, j); i < 0 {
			return false
		}
	case '{', '[':
		if depth >= defaultMaxDepth {
			return false
		}
		c := data[i]
		obj = c == '{'
		w, b := depth>>6, depth&63
		v.stack[w] = v.stack[w]&^(1<<b) | uint64(c>>5&1)<<b // '{' has 0x20 set, '[' not
		depth++
		i++
		if j := skipWhitespace(data, i); j != i {
			*out = append(*out, data[start:i]...)
			start = j
			i = j
		}
		if i < len(data) && data[i] == c+2 { // '}' or ']'
			i++
			goto closed
		}
		if obj {
			goto key
		}
		goto value
	case 't':
		if len(data)-i < 4 || string(data[i:i+4]) != "true" {
			return false
		}
		i += 4
	case 'f':
		if len(data)-i < 5 || string(data[i:i+5]) != "false" {
			return false
		}
		i += 5
	case 'n':
		if len(data)-i < 4 || string(data[i:i+4]) != "null" {
			return false
		}
		i += 4
	case '1', '2', '3', '4', '5', '6', '7', '8', '9':
		// An integer, which most numbers are, without a call.
		i = intEnd(data, i+1)
		if i < len(data) && (data[i] == '.' || data[i]|0x20 == 'e') {
			if i = fractionEnd(data, i); i < 0 {
				return false
			}
		}
	default:
		if i = numberEnd(data, i); i < 0 {
			return false
		}
	}
after: // a value ends at data[i]: what may follow it
	if depth == 0 {
		*out = append(*out, data[start:i]...)
		return skipWhitespace(data, i) == len(data)
	}
	if j := skipWhitespace(data, i); j != i {
		*out = append(*out, data[start:i]...)
		start = j
		i = j
	}
	if i >= len(data) {
		return false
	}
	switch data[i] {
	case ',':
		i++
		if obj {
			goto key
		}
		goto value
	case '}':
		if !obj {
			return false
		}
	case ']':
		if obj {
			return false
		}
	default:
		return false
	}
	i++
closed: // the innermost container was closed just before data[i]
	depth--
	if depth > 0 {
		l := depth - 1
		obj = v.stack[l>>6]>>(l&63)&1 != 0
	}
	goto after
key: // an object's key must start at data[i:], after whitespace
	if j := skipWhitespace(data, i); j != i {
		*out = append(*out, data[start:i]...)
		start = j
		i = j
	}
	if i >= len(data) || data[i] != '"' {
		return false
	}
	if j, _ := stringStop(data, i+1); j < len(data) && data[j] == '"' {
		i = j + 1
	} else if i = validString(data, j); i < 0 {
		return false
	}
	if j := skipWhitespace(data, i); j != i {
		*out = append(*out, data[start:i]...)
		start = j
		i = j
	}
	if i >= len(data) || data[i] != ':' {
		return false
	}
	i++
	goto value
}

// indent is valid that also appends data to dst indented as Indent
// indents it (nl writes each line's start): Indent in one pass, where
// validating first and then indenting read everything twice. What follows
// the value (space only, in valid JSON) is kept, as encoding/json keeps it.
// Like compact, the same loop as valid's, kept apart.
func (v *validator) indent(data, dst []byte, nl *newline) ([]byte, bool) {
	depth := 0
	obj := false // the innermost open container is an object
	i := 0
value: // a value must start at data[i:], after whitespace
	i = skipWhitespace(data, i)
	if i >= len(data) {
		return dst, false
	}
	switch data[i] {
	case '"':
		j, _ := stringStop(data, i+1)
		if j < len(data) && data[j] == '"' {
			j++
		} else if j = validString(data, j); j < 0 {
			return dst, false
		}
		dst = append(dst, data[i:j]...)
		i = j
	case '{', '[':
		if depth >= defaultMaxDepth {
			return dst, false
		}
		c := data[i]
		obj = c == '{'
		w, b := depth>>6, depth&63
		v.stack[w] = v.stack[w]&^(1<<b) | uint64(c>>5&1)<<b // '{' has 0x20 set, '[' not
		depth++
		i = skipWhitespace(data, i+1)
		if i < len(data) && data[i] == c+2 { // '}' or ']': empty, on one line
			dst = append(dst, c, c+2)
			i++
			goto closed
		}
		dst = nl.append(append(dst, c), depth)
		if obj {
			goto key
		}
		goto value
	case 't':
		if len(data)-i < 4 || string(data[i:i+4]) != "true" {
			return dst, false
		}
		dst = append(dst, "true"...)
		i += 4
	case 'f':
		if len(data)-i < 5 || string(data[i:i+5]) != "false" {
			return dst, false
		}
		dst = append(dst, "false"...)
		i += 5
	case 'n':
		if len(data)-i < 4 || string(data[i:i+4]) != "null" {
			return dst, false
		}
		dst = append(dst, "null"...)
		i += 4
	default:
		j := i
		if c := data[i]; '1' <= c && c <= '9' {
			// An integer, which most numbers are, without a call.
			j = intEnd(data, i+1)
			if j < len(data) && (data[j] == '.' || data[j]|0x20 == 'e') {
				j = fractionEnd(data, j)
			}
		} else {
			j = numberEnd(data, i)
		}
		if j < 0 {
			return dst, false
		}
		dst = append(dst, data[i:j]...)
		i = j
	}
after: // a value ends at data[i]: what may follow it
	if depth == 0 {
		if skipWhitespace(data, i) != len(data) {
			return dst, false
		}
		return append(dst, data[i:]...), true
	}
	i = skipWhitespace(data, i)
	if i >= len(data) {
		return dst, false
	}
	switch data[i] {
	case ',':
		i++
		dst = nl.append(append(dst, ','), depth)
		if obj {
			goto key
		}
		goto value
	case '}':
		if !obj {
			return dst, false
		}
	case ']':
		if obj {
			return dst, false
		}
	default:
		return dst, false
	}
	dst = append(nl.append(dst, depth-1), data[i])
	i++
closed: // the innermost container was closed just before data[i]
	depth--
	if depth > 0 {
		l := depth - 1
		obj = v.stack[l>>6]>>(l&63)&1 != 0
	}
	goto after
key: // an object's key must start at data[i:], after whitespace
	i = skipWhitespace(data, i)
	if i >= len(data) || data[i] != '"' {
		return dst, false
	}
	if j, _ := stringStop(data, i+1); j < len(data) && data[j] == '"' {
		dst = append(dst, data[i:j+1]...)
		i = j + 1
	} else if j = validString(data, j); j < 0 {
		return dst, false
	} else {
		dst = append(dst, data[i:j]...)
		i = j
	}
	i = skipWhitespace(data, i)
	if i >= len(data) || data[i] != ':' {
		return dst, false
	}
	i++
	dst = append(dst, ':', ' ')
	goto value
}

// validRun is how far Valid's loop looks in line before validString, which
// takes a longer run to the strbody kernel: 128 bytes, where the decoder's
// loops look 32 (shortRun). Past it the kernel's call pays on a long run
// and costs one just past it: a string's SWAR loop, stopped and called out
// of, costs about what five more of its words do (Intel Xeon,
// BenchmarkStringShapes Valid, 10 rounds, against the loop to the quote:
// looking 128 bytes, strings of 136 bytes took 12-20% longer, of 256
// 28-31% less, of 1,024 68-70% less, of 4,096 about 80% less; looking 64,
// those of 72 and 80 took up to 42% longer, a window where URLs are).
const validRun = 128

// validString is the slow part of a string: it goes on from data[j], where
// stringStopWithin stopped short of a closing quote (at an escape, a
// control byte, fewer than 8 bytes before the end, or validRun bytes into
// a run), and returns the index after the closing quote, or -1 when the
// string is invalid or not closed. A long run goes to bodyStop (the strbody
// kernel, 32 bytes a turn). A string with escapes is often long text: its
// runs after the first escape are scanned by stringStopWithin and, past
// shortRun bytes, bodyStop.
func validString(data []byte, j int) int {
	for j < len(data) {
		switch c := data[j]; {
		case c == '"':
			return j + 1
		case c == '\\':
			if j = escapeEnd(data, j); j <= 0 {
				return -1
			}
		case c < 0x20:
			return -1
		default:
			if j+8 <= len(data) {
				j, _ = bodyStop(data, j) // a long run
				continue
			}
			j++
		}
		j, _ = stringStopWithin(data, j, shortRun)
	}
	return -1
}

// numberEnd returns the index after the number at data[i:], or -1 when none
// that encoding/json accepts starts there: -?(0|[1-9][0-9]*)(\.[0-9]+)?
// ([eE][+-]?[0-9]+)?. What follows it is the caller's to check.
func numberEnd(data []byte, i int) int {
	if data[i] == '-' {
		i++
		if i >= len(data) {
			return -1
		}
	}
	switch c := data[i]; {
	case c == '0':
		i++
	case c-'1' < 9:
		i = intEnd(data, i+1)
	default:
		return -1
	}
	return fractionEnd(data, i)
}

// intEnd returns the index of the first non-digit in data at or after i, a
// byte at a time: integer parts are short (skipDigits pays from about 8
// digits on, and fractions, which are often longer, take it).
func intEnd(data []byte, i int) int {
	for uint(i) < uint(len(data)) && isDigit(data[i]) {
		i++
	}
	return i
}

// fractionEnd returns the index after the fraction and exponent, each
// optional, of the number whose integer part ends at data[i], or -1 when
// they are invalid.
func fractionEnd(data []byte, i int) int {
	if i < len(data) && data[i] == '.' {
		j := skipDigits(data, i+1)
		if j == i+1 {
			return -1
		}
		i = j
	}
	if i < len(data) && data[i]|0x20 == 'e' {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		j := intEnd(data, i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
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

// indentEnd returns the index after a newline at data[i] and the fewer
// than 8 spaces after it, or i: an indentation of 8 spaces or more is left
// to skipWhitespace, which takes it 8 bytes at a time. ind is the width,
// in bits (8 a space), of the indentation it took last, returned updated.
// Most lines of pretty-printed JSON (a record's members) are indented as
// the line before: the spaces counted in the word are compared with ind,
// and when they match, the index returned is computed from ind, so that
// the next token's load waits for no count, only the branch does (a count
// alone, tried: Valid was up to 24% slower on the sweep's pretty-printed
// records, Intel Xeon; the byte loop it replaces took 50 to 80
// instructions a line, and num-small-int pretty 11% more in all).
func indentEnd(data []byte, i, ind int) (int, int) {
	if i+9 <= len(data) && data[i] == '\n' {
		w := binary.LittleEndian.Uint64(data[i+1 : i+9])
		if n := bits.TrailingZeros64(w^eightSpaces) &^ 7; n == ind && byte(w>>(n&63)) > ' ' {
			return i + 1 + ind>>3, ind // ind's spaces, then a byte that is no whitespace
		} else if n < 64 {
			return i + 1 + n>>3, n
		}
	}
	return i, ind
}

// eightSpaces is a variable, not a constant, so that indentEnd compares
// with memory: as a constant, the compiler kept it in a register through
// end and put it back at the end of every turn of the string loop.
var eightSpaces uint64 = lsb * ' '
