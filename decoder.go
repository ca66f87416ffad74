package json

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"unsafe"
)

// defaultMaxDepth is encoding/json's nesting limit.
const defaultMaxDepth = 10000

// Syntactic contexts, named after encoding/json's token states. Each state of
// the Decoder reads its token in one of these contexts; errors are worded
// from it.
type syntaxContext uint8

const (
	ctxTopValue    syntaxContext = iota // a top-level value
	ctxArrayFirst                       // after '[': a value or ']'
	ctxArrayValue                       // after ',' in an array: a value
	ctxArrayComma                       // after an element: ',' or ']'
	ctxObjectFirst                      // after '{': a key or '}'
	ctxObjectKey                        // after ',' in an object: a key
	ctxObjectColon                      // after a key: ':'
	ctxObjectValue                      // after ':': a value
	ctxObjectComma                      // after a member: ',' or '}'
)

// unmarshalContext is how encoding/json's scanner (Unmarshal, Decode) words an
// unexpected byte in each context.
var unmarshalContext = [...]string{
	ctxTopValue:    "looking for beginning of value",
	ctxArrayFirst:  "looking for beginning of value",
	ctxArrayValue:  "looking for beginning of value",
	ctxArrayComma:  "after array element",
	ctxObjectFirst: "looking for beginning of object key string",
	ctxObjectKey:   "looking for beginning of object key string",
	ctxObjectColon: "after object key",
	ctxObjectValue: "looking for beginning of value",
	ctxObjectComma: "after object key:value pair",
}

// A Decoder reads and validates a stream of JSON tokens. It is a drop-in for
// encoding/json's Decoder (Token, More, Decode, ...) built on NextToken, which
// returns each token as bytes without allocating.
type Decoder struct {
	s Scanner

	// state is the syntactic position the decoder is in: state.next
	// reads the next token there (see type state).
	state *state
	// after is the state that follows a complete value at the current
	// depth (atTop, atObjectComma or atArrayComma), kept by value and pop
	// so that a scalar value costs one store.
	after *state
	err   error // sticky
	ctx   syntaxContext

	depth    int
	maxDepth int
	stack    [8]uint64 // bit per level: 1 = object; the first 512 levels
	deep     []uint64  // levels past 512

	useNumber             bool
	disallowUnknownFields bool

	// tokScanned emulates encoding/json's count of bytes that its inner
	// scanner has seen in Token mode, which is what its Token errors
	// report as Offset.
	tokScanned int64
	eofBetween bool // the last error was the input ending between tokens

	strBlock []byte           // Token's string bytes are carved from here
	scratch  []byte           // reused unescaping buffer
	interned map[string]Token // Token's short strings, boxed once

	// tail holds the whitespace left after the last value once the window
	// has gone back to its pool (recycleWindow): the window from then on.
	tail [16]byte

	// ds is the decode state Decode last used, kept for the next call
	// while that call's value is already in the window (a stream of many
	// values, as NDJSON), instead of going back to its pool and out again
	// for every value (see keepState).
	ds *decodeState
}

// recycleWindow gives the window back to its pool when the input has
// ended after the value Decode just read: the reader said so (io.EOF), or
// it tells its length (bytes.Reader, strings.Reader, bytes.Buffer) and has
// nothing left, and the window holds only whitespace after the value, few
// enough bytes for tail. Those bytes move to tail, which is the window
// from then on: Buffered, InputOffset, More and the next Decode see the
// same input as before (a reader that gives more later is read into a new
// window). Nothing outside the decoder refers to the window by then
// (tokens from NextToken and Buffered's reader are valid only until the
// next call), and the scanner's last string token, which points into it,
// is dropped.
func (d *Decoder) recycleWindow() {
	br := &d.s.br
	// The cheap tests first: in a stream, most values have more input
	// after them in the window, which ends it before the reader is asked.
	rest := br.data[br.offset:]
	if !br.own || br.pin >= 0 || !fastPaths || len(rest) > len(d.tail) {
		return
	}
	if br.err != io.EOF {
		if l, ok := br.r.(interface{ Len() int }); !ok || l.Len() != 0 {
			return
		}
	}
	if skipWhitespace(rest, 0) != len(rest) {
		return
	}
	w := br.data
	br.base += int64(br.offset)
	br.data, br.offset, br.own = d.tail[:copy(d.tail[:], rest)], 0, false
	d.s.strTok = nil
	putWindow(w)
}

// NewDecoder returns a new decoder that reads from r. Its window starts at
// the size r says it holds (a Len method, as bytes.Reader has), or 512
// bytes, and grows up to 32 KiB while r keeps filling it; past that it grows
// only while a single token (or a value Decode reads whole) is longer than
// it: by doubling, or towards all that r says it has left (at most 16
// times a step), when r has a Len method and StreamLongStrings is off.
// Decode, when the window holds no value yet (as at first) and the value
// it reads next does not end in the window, makes the window big enough
// for all of r's input when r has a Len method that says it holds at most
// 8 MiB: Decode then reads a document longer than 32 KiB from the window
// in one pass, at the cost of a copy of it, as encoding/json's Decoder
// holds the whole value it decodes.
func NewDecoder(r io.Reader) *Decoder {
	return NewDecoderBuffer(r, nil)
}

// holdInput makes the window big enough for all the input the reader has
// left (holdRest, up to wholeWindow) when the next value runs past the
// window. Decode calls it when the decoder is between top-level values
// (inside an array or object, the passes do not run) and its window holds
// no unread byte, as a new decoder's: the passes (streamOnePass into an
// any, streamPass into a struct or slice) read a value only when the
// window holds all of it, and a document longer than the first window
// (32 KiB) was cut by its end, the pass gave up there and the token path
// read the value again.
//
// It reads into the window first (as Decode would next) and holds the
// rest only when the value there does not end in it (valueEnds): the
// records of an NDJSON stream fit the window one after another, and a
// window of the whole stream made them slower, its size in cache most
// likely (the sweep's 1 MB NDJSON into structs, AMD EPYC, 8 rounds: +10%
// geomean, \u escapes +33%).
//
// It looks for the value's end in the first endProbe bytes only. A
// stream's records end there; a long document does not, and walking the
// whole window byte by byte to find that out was 4% of the instructions
// of Decode of a 185 KB document into an any (territories, callgrind,
// Intel Xeon). A stream of values longer than endProbe is held whole too.
//
// A slice the typed pass fills in a held window grows by the rest of the
// window (estimateLen): growing as append does, Decode of the wide
// corpus's arrays of records was slower from the held window than from
// the token path (movies +12% from a pooled window, B/op +64%; AMD EPYC),
// which gathers its chunks and copies them once.
func (d *Decoder) holdInput() {
	br := &d.s.br
	if br.restLen()-br.offset <= cap(br.data) {
		return // nothing to hold, or the window holds it all
	}
	i := skipWhitespace(br.data, br.offset)
	if i >= len(br.data) {
		if br.extend() == 0 {
			return // the input's end, or an error, for skipSpace to find
		}
		i = skipWhitespace(br.data, br.offset)
	}
	if i < len(br.data) && valueEnds(br.data[:min(len(br.data), i+endProbe)], i) {
		return
	}
	if br.holdRest(wholeWindow) {
		d.s.strTok = nil // it pointed into the window given back
		br.extend()      // the rest, which skipSpace would not read now
	}
}

// endProbe is how far into the window holdInput looks for the end of the
// value there.
const endProbe = 4 << 10

// valueEnds reports whether the value that starts at data[i] (not
// whitespace) ends in data: a scalar, or an array or object whose
// brackets close there (those in strings not counted). It checks nothing
// else: malformed input is the decoder's to report, and it only decides
// whether holding the input pays.
func valueEnds(data []byte, i int) bool {
	if c := data[i]; c != '[' && c != '{' {
		return true
	}
	depth := 0
	for ; i < len(data); i++ {
		switch data[i] {
		case '[', '{':
			depth++
		case ']', '}':
			if depth--; depth == 0 {
				return true
			}
		case '"':
			// To the closing quote: one not escaped by an odd run of
			// backslashes.
			for {
				q := bytes.IndexByte(data[i+1:], '"')
				if q < 0 {
					return false
				}
				i += 1 + q
				b := i - 1
				for data[b] == '\\' {
					b--
				}
				if (i-1-b)%2 == 0 {
					break
				}
			}
		}
	}
	return false
}

// NewDecoderBuffer returns a new decoder that reads from r and uses buf as its
// initial window.
func NewDecoderBuffer(r io.Reader, buf []byte) *Decoder {
	d := new(Decoder)
	d.maxDepth = defaultMaxDepth
	d.s.resetBuffer(r, buf)
	d.resetState()
	return d
}

// newBytesDecoder returns a decoder whose window is data itself: no copy and
// no writes to data.
func newBytesDecoder(data []byte) *Decoder {
	d := new(Decoder)
	d.maxDepth = defaultMaxDepth
	d.resetBytes(data)
	return d
}

// resetBytes makes d decode data, keeping its options.
func (d *Decoder) resetBytes(data []byte) {
	d.s.resetBytes(data)
	d.resetState()
}

// dropInput drops d's references to the input resetBytes gave it (the
// window and the last string token), which a pooled state must not keep
// alive; the next resetBytes sets the rest.
func (d *Decoder) dropInput() {
	d.s.br.data = nil
	if d.s.strTok != nil { // (see endCall)
		d.s.strTok = nil
	}
}

// Reset makes d read from r, keeping its window and options (UseNumber,
// DisallowUnknownFields, limits) and dropping any state and error.
func (d *Decoder) Reset(r io.Reader) {
	if w := d.s.br.data; cap(w) == len(d.tail) && unsafe.SliceData(w) == &d.tail[0] {
		d.s.resetBuffer(r, nil) // the window went back to its pool: a new one
	} else {
		d.s.Reset(r)
	}
	d.resetState()
}

func (d *Decoder) resetState() {
	if d.ds != nil { // kept for a value of the old input (keepState)
		putState(d.ds)
		d.ds = nil
	}
	// Pointers stored only where they change (see endCall).
	if d.state != &atTop || d.after != &atTop {
		d.state, d.after = &atTop, &atTop
	}
	if d.err != nil {
		d.err = nil
	}
	d.depth = 0
	if len(d.deep) != 0 {
		d.deep = d.deep[:0]
	}
	d.tokScanned = 0
	d.eofBetween = false
}

// SetMaxDepth sets the nesting limit (default 10000, as encoding/json).
// Deeper input fails with a *SyntaxError "exceeded max depth".
func (d *Decoder) SetMaxDepth(n int) {
	if n < 1 {
		n = 1
	}
	d.maxDepth = n
}

// SetMaxTokenSize caps how far the window may grow to hold one token or a raw
// value (default 512 MiB). Past it, NextToken fails with an error that wraps
// ErrTokenTooLong.
func (d *Decoder) SetMaxTokenSize(n int) { d.s.SetMaxTokenSize(n) }

// UseNumber causes the Decoder to unmarshal a number into an interface value
// as a Number instead of as a float64.
func (d *Decoder) UseNumber() { d.useNumber = true }

// DisallowUnknownFields causes the Decoder to return an error when the
// destination is a struct and the input contains object keys which do not
// match any non-ignored, exported fields in the destination.
func (d *Decoder) DisallowUnknownFields() { d.disallowUnknownFields = true }

// Depth is the current nesting depth: 0 between top-level values.
func (d *Decoder) Depth() int { return d.depth }

// NextToken returns the next token of the stream: '{', '}', '[' or ']' (one
// byte), a string with its quotes and escapes as in the input, a number as
// written, or true, false, null. ':' and ',' are checked and consumed, never
// returned. The whole token sequence is validated.
//
// The token is a subslice of the decoder's window, valid only until the next
// call on d. NextToken does not allocate.
//
// At a clean end of input between top-level values the error is io.EOF; if
// the input ends inside a value it is io.ErrUnexpectedEOF; a reader's error
// is returned unchanged; anything else is a *SyntaxError whose Offset counts
// the bytes read up to and including the offending one. Errors are sticky.
func (d *Decoder) NextToken() ([]byte, error) {
	return d.state.next(d)
}

// StreamLongStrings makes NextToken hand any string token that runs past
// min bytes and past the decoder's window to fn instead of holding it whole:
// its value, unescaped as AppendUnquoted would (escapes decoded; invalid
// UTF-8 and lone surrogates replaced by U+FFFD), goes to fn in pieces as the
// input is read, each valid only during the call, and NextToken returns a
// token `""` for which Streamed reports true. The window then never grows
// for that string, which still counts towards SetMaxTokenSize as if it were
// held whole; an error from fn ends the token and is returned, sticky. Keys
// are tokens too: a caller that cannot take a streamed key says so. A nil
// fn turns streaming off. It is for callers of NextToken alone: Decode and
// Token would see such a string as "". With a Decoder over a byte slice,
// which holds its input whole anyway, nothing is streamed.
func (d *Decoder) StreamLongStrings(min int, fn func(piece []byte) error) {
	d.s.sink, d.s.sinkMin = fn, max(min, 1)
	d.s.br.streams = fn != nil
}

// Streamed reports whether tok, as NextToken returned it, is a string that
// went to the function given to StreamLongStrings.
func Streamed(tok []byte) bool { return len(tok) == 2 && &tok[0] == &streamedToken[0] }

// A state is one position of the token state machine: the method that reads
// the token due there, and the syntactic context that position is in. The
// Decoder holds a pointer to one of the states below, so that code outside
// the state machine (Decode after Token, the fast paths) can tell where it is
// by comparing pointers, and NextToken is one indirect call.
type state struct {
	next func(*Decoder) ([]byte, error)
	ctx  syntaxContext
}

var (
	atTop         = state{ctx: ctxTopValue}
	atArrayFirst  = state{ctx: ctxArrayFirst}
	atArrayValue  = state{ctx: ctxArrayValue}
	atArrayComma  = state{ctx: ctxArrayComma}
	atObjectFirst = state{ctx: ctxObjectFirst}
	atObjectKey   = state{ctx: ctxObjectKey}
	atObjectColon = state{ctx: ctxObjectColon}
	atObjectValue = state{ctx: ctxObjectValue}
	atObjectComma = state{ctx: ctxObjectComma}
	atError       = state{ctx: ctxTopValue} // sticky: repeats the error
)

// The methods refer to the states, so they are tied together here rather
// than in the declarations (which would be an initialization cycle).
func init() {
	atTop.next = (*Decoder).stateTop
	atArrayFirst.next = (*Decoder).stateArrayFirst
	atArrayValue.next = (*Decoder).stateArrayValue
	atArrayComma.next = (*Decoder).stateArrayComma
	atObjectFirst.next = (*Decoder).stateObjectFirst
	atObjectKey.next = (*Decoder).stateObjectKey
	atObjectColon.next = (*Decoder).stateObjectColon
	atObjectValue.next = (*Decoder).stateObjectValue
	atObjectComma.next = (*Decoder).stateObjectComma
	atError.next = (*Decoder).stateError
}

// Each state reads its own token. value dispatches on a token read where a
// value may start.

func (d *Decoder) stateTop() ([]byte, error) {
	tok := d.s.Next()
	if tok == nil {
		if d.s.err == nil {
			return nil, io.EOF
		}
		if d.s.errKind == errBadFollow {
			d.ctx = ctxTopValue
			return nil, d.syntaxError("after top-level value")
		}
		return nil, d.fail(ctxTopValue)
	}
	return d.value(tok, ctxTopValue)
}

func (d *Decoder) stateArrayFirst() ([]byte, error) {
	tok := d.s.Next()
	if tok == nil {
		return nil, d.fail(ctxArrayFirst)
	}
	if tok[0] == ']' {
		d.pop()
		return tok, nil
	}
	return d.value(tok, ctxArrayFirst)
}

func (d *Decoder) stateArrayComma() ([]byte, error) {
	switch d.s.nextDelim() {
	case ',':
		return d.stateArrayValue()
	case ']':
		d.pop()
		return d.s.lastByte(), nil
	case 0:
	default:
		return nil, d.unexpected(d.s.lastByte(), ctxArrayComma)
	}
	tok := d.s.Next()
	if tok == nil {
		return nil, d.fail(ctxArrayComma)
	}
	switch tok[0] {
	case ',':
		return d.stateArrayValue()
	case ']':
		d.pop()
		return tok, nil
	}
	return nil, d.unexpected(tok, ctxArrayComma)
}

func (d *Decoder) stateArrayValue() ([]byte, error) {
	tok := d.s.Next()
	if tok == nil {
		return nil, d.fail(ctxArrayValue)
	}
	return d.value(tok, ctxArrayValue)
}

func (d *Decoder) stateObjectFirst() ([]byte, error) {
	tok := d.s.Next()
	if tok == nil {
		return nil, d.fail(ctxObjectFirst)
	}
	switch tok[0] {
	case '"':
		d.state = &atObjectColon
		return tok, nil
	case '}':
		d.pop()
		return tok, nil
	}
	return nil, d.unexpected(tok, ctxObjectFirst)
}

func (d *Decoder) stateObjectKey() ([]byte, error) {
	tok := d.s.Next()
	if tok == nil {
		return nil, d.fail(ctxObjectKey)
	}
	if tok[0] == '"' {
		d.state = &atObjectColon
		return tok, nil
	}
	return nil, d.unexpected(tok, ctxObjectKey)
}

func (d *Decoder) stateObjectColon() ([]byte, error) {
	switch d.s.nextDelim() {
	case ':':
		return d.stateObjectValue()
	case 0:
	default:
		return nil, d.unexpected(d.s.lastByte(), ctxObjectColon)
	}
	tok := d.s.Next()
	if tok == nil {
		return nil, d.fail(ctxObjectColon)
	}
	if tok[0] == ':' {
		return d.stateObjectValue()
	}
	return nil, d.unexpected(tok, ctxObjectColon)
}

func (d *Decoder) stateObjectValue() ([]byte, error) {
	tok := d.s.Next()
	if tok == nil {
		return nil, d.fail(ctxObjectValue)
	}
	return d.value(tok, ctxObjectValue)
}

func (d *Decoder) stateObjectComma() ([]byte, error) {
	switch d.s.nextDelim() {
	case ',':
		return d.stateObjectKey()
	case '}':
		d.pop()
		return d.s.lastByte(), nil
	case 0:
	default:
		return nil, d.unexpected(d.s.lastByte(), ctxObjectComma)
	}
	tok := d.s.Next()
	if tok == nil {
		return nil, d.fail(ctxObjectComma)
	}
	switch tok[0] {
	case ',':
		return d.stateObjectKey()
	case '}':
		d.pop()
		return tok, nil
	}
	return nil, d.unexpected(tok, ctxObjectComma)
}

func (d *Decoder) stateError() ([]byte, error) { return nil, d.err }

// objectMore reads what follows a member's value (state atObjectComma), as
// NextToken would: the ',', and reports true (a key comes next, state
// atObjectKey); or the '}' that closes the object, and reports false.
func (d *Decoder) objectMore() (bool, error) {
	if d.err != nil {
		return false, d.err
	}
	var tok []byte
	if d.s.nextDelim() != 0 {
		tok = d.s.lastByte()
	} else if tok = d.s.Next(); tok == nil {
		return false, d.fail(ctxObjectComma)
	}
	switch tok[0] {
	case ',':
		d.state = &atObjectKey
		return true, nil
	case '}':
		d.pop()
		return false, nil
	}
	return false, d.unexpected(tok, ctxObjectComma)
}

// value handles a token read where a value may start.
func (d *Decoder) value(tok []byte, ctx syntaxContext) ([]byte, error) {
	c := tok[0]
	if !delimiter[c] { // a scalar, the common case
		d.state = d.after
		return tok, nil
	}
	switch c {
	case '{':
		if d.depth >= d.maxDepth {
			return nil, d.tooDeep(ctx)
		}
		d.push(true)
		d.state = &atObjectFirst
		d.after = &atObjectComma
	case '[':
		if d.depth >= d.maxDepth {
			return nil, d.tooDeep(ctx)
		}
		d.push(false)
		d.state = &atArrayFirst
		d.after = &atArrayComma
	default: // ']', '}', ':', ','
		return nil, d.unexpected(tok, ctx)
	}
	return tok, nil
}

// The nesting stack: one bit per level, the first 512 levels inline.

func (d *Decoder) push(object bool) {
	w, b := d.depth>>6, uint(d.depth&63)
	if w >= len(d.stack) {
		if w-len(d.stack) >= len(d.deep) {
			d.deep = append(d.deep, 0)
		}
		if object {
			d.deep[w-len(d.stack)] |= 1 << b
		} else {
			d.deep[w-len(d.stack)] &^= 1 << b
		}
	} else if object {
		d.stack[w] |= 1 << b
	} else {
		d.stack[w] &^= 1 << b
	}
	d.depth++
}

// pop closes the innermost container: what follows is what follows a value
// in the one around it.
func (d *Decoder) pop() {
	d.depth--
	switch {
	case d.depth == 0:
		d.after = &atTop
	case d.inObject():
		d.after = &atObjectComma
	default:
		d.after = &atArrayComma
	}
	d.state = d.after
}

// inObject reports whether the innermost open container is an object.
func (d *Decoder) inObject() bool {
	l := d.depth - 1
	w, b := l>>6, uint(l&63)
	if w >= len(d.stack) {
		return d.deep[w-len(d.stack)]>>b&1 != 0
	}
	return d.stack[w]>>b&1 != 0
}

// Errors. All are sticky: the state becomes stateError.

func (d *Decoder) setErr(err error) error {
	d.err = err
	d.state = &atError
	return err
}

// fail turns the scanner's stop (nil token) in context ctx into the
// decoder's error.
func (d *Decoder) fail(ctx syntaxContext) error {
	d.ctx = ctx
	switch d.s.errKind {
	case errNone:
		// Clean end of input, but inside a value.
		d.eofBetween = true
		d.s.errKind = errEOF
		d.s.errPos = d.s.br.pos()
		d.s.tokPos = d.s.errPos
		d.s.eofMsg = "unexpected end of JSON input"
		return d.setErr(io.ErrUnexpectedEOF)
	case errBadStart, errBadFollow:
		return d.syntaxError(unmarshalContext[ctx])
	case errLexical, errEOF:
		// encoding/json rejects a token that is wrong here by its first
		// byte, before it could see the token is malformed.
		if w := d.s.br.window(); ctx.structural() && d.s.tokPos == d.s.br.pos() && len(w) > 0 &&
			(w[0] != '"' || ctx == ctxArrayComma || ctx == ctxObjectColon || ctx == ctxObjectComma) {
			d.s.errKind = errBadStart
			d.s.errChar = w[0]
			d.s.errPos = d.s.tokPos
			return d.syntaxError(unmarshalContext[ctx])
		}
		if d.s.streaming && (ctx == ctxArrayComma || ctx == ctxObjectColon || ctx == ctxObjectComma) {
			// A string being streamed where a separator is due: wrong by
			// its quote, as the check above finds for one held whole.
			d.s.errKind = errBadStart
			d.s.errChar = '"'
			d.s.errPos = d.s.streamStart
			return d.syntaxError(unmarshalContext[ctx])
		}
	}
	return d.setErr(d.s.err)
}

// syntaxError words the scanner's errBadStart or errBadFollow in context.
func (d *Decoder) syntaxError(context string) error {
	return d.setErr(&SyntaxError{msg: invalidChar(d.s.errChar, context), Offset: d.s.errPos + 1})
}

// unexpected reports a token that cannot stand in context ctx; it was the
// last token consumed. Like encoding/json, it names the token's first byte.
func (d *Decoder) unexpected(tok []byte, ctx syntaxContext) error {
	d.ctx = ctx
	d.s.errKind = errBadStart
	d.s.errChar = tok[0]
	d.s.errPos = d.s.br.pos() - int64(len(tok))
	if Streamed(tok) {
		d.s.errPos = d.s.streamStart
	}
	d.s.tokPos = d.s.errPos
	return d.setErr(&SyntaxError{msg: invalidChar(tok[0], unmarshalContext[ctx]), Offset: d.s.errPos + 1})
}

// structural reports whether ctx admits only a structural token (or a key):
// there, a token that is lexically bad is wrong by its first byte already.
func (ctx syntaxContext) structural() bool {
	switch ctx {
	case ctxArrayComma, ctxObjectFirst, ctxObjectKey, ctxObjectColon, ctxObjectComma:
		return true
	}
	return false
}

func (d *Decoder) tooDeep(ctx syntaxContext) error {
	d.ctx = ctx
	d.s.errKind = errLexical
	d.s.errPos = d.s.br.pos() - 1
	d.s.tokPos = d.s.errPos
	c := d.s.br.data[d.s.br.offset-1]
	return d.setErr(&SyntaxError{msg: invalidChar(c, "exceeded max depth"), Offset: d.s.errPos + 1})
}

// unexpectedEOFError is encoding/json's Unmarshal wording for an input that
// ends inside a value, for callers that report syntax errors rather than
// io.ErrUnexpectedEOF. It is valid after NextToken returned
// io.ErrUnexpectedEOF.
func (d *Decoder) unexpectedEOFError() *SyntaxError {
	msg := d.s.eofMsg
	if msg == "" {
		msg = "unexpected end of JSON input"
	}
	return &SyntaxError{msg: msg, Offset: d.s.errPos}
}

// pos is the absolute offset of the window's start: everything consumed,
// trailing whitespace included (what Unmarshal's offsets count).
func (d *Decoder) pos() int64 { return d.s.br.pos() }

// InputOffset returns the input stream byte offset of the current decoder
// position: just after the last token returned (and any whitespace that More
// or PeekKind skipped before a token; not whitespace at the end of input).
func (d *Decoder) InputOffset() int64 {
	if d.s.streaming {
		// An error inside a streamed string: where it started, as for a
		// string held whole, which the window still starts with.
		return d.s.streamStart
	}
	if d.s.atEnd {
		return d.s.endPos // trailing whitespace does not count
	}
	return d.s.br.pos()
}

// Buffered returns a reader of the data remaining in the Decoder's window.
// The reader is valid until the next call on d. Once Decode has returned
// io.EOF it is empty, where encoding/json's still holds the whitespace
// after the last value.
func (d *Decoder) Buffered() io.Reader {
	return bytes.NewReader(d.s.br.window())
}

// skipSpace consumes whitespace and returns the next byte, reading more input
// as needed. ok is false at the end of input or on an error.
func (d *Decoder) skipSpace() (c byte, ok bool) {
	if d.s.err != nil || d.err != nil {
		return 0, false
	}
	if !d.s.skipSpaceSlow() {
		return 0, false
	}
	return d.s.br.window()[0], true
}

// More reports whether there is another element in the current array or
// object being parsed.
func (d *Decoder) More() bool {
	c, ok := d.skipSpace()
	return ok && c != ']' && c != '}'
}

// PeekKind returns the first byte of the next value or token without
// consuming it: '{', '[', '"', 't', 'f', 'n', '0' for any number, or ']' and
// '}' at the end of a container. It looks past a ':' or ',' before it. It
// returns 0 at the end of input or on an error, which the next NextToken
// reports. Only whitespace is consumed.
func (d *Decoder) PeekKind() byte {
	c, _ := d.peek()
	if c == '-' || isDigit(c) {
		return '0'
	}
	return c
}

// peek returns the next byte that is not whitespace and not a ':' or ','
// separator, and its index in the window (whitespace before it is consumed;
// the separator is not). It returns c == 0 at the end of input or on error.
func (d *Decoder) peek() (c byte, i int) {
	c, ok := d.skipSpace()
	if !ok {
		return 0, 0
	}
	if c != ':' && c != ',' {
		return c, 0
	}
	i = 1
	for {
		w := d.s.br.window()
		for i < len(w) && whitespace[w[i]] {
			i++
		}
		if i < len(w) {
			return w[i], i
		}
		if d.s.br.extend() == 0 {
			return 0, 0
		}
	}
}

// SkipValue consumes the next value whole, validating it, without allocating.
func (d *Decoder) SkipValue() error { return d.skipValue(nil) }

// skipValue is SkipValue; given ds, whose decoder is d (Decode's capture,
// captureValue), what ds.skipWhole passes over whole before a token is
// not read by tokens.
func (d *Decoder) skipValue(ds *decodeState) error {
	if ds != nil && ds.skipWhole() {
		return nil
	}
	tok, err := d.NextToken()
	if err != nil {
		return err
	}
	switch tok[0] {
	case '{', '[':
	case '}', ']':
		return d.setErr(errors.New("json: SkipValue: no value before " + string(tok) + " at offset " + strconv.FormatInt(d.InputOffset()-1, 10)))
	default:
		return nil
	}
	for depth := d.depth - 1; d.depth > depth; {
		if ds != nil && ds.skipWhole() {
			continue
		}
		if _, err := d.NextToken(); err != nil {
			return err
		}
	}
	return nil
}

// RawValue consumes the next value whole and returns its exact input bytes,
// whitespace inside it included. The window grows to hold the value (up to
// SetMaxTokenSize). The slice is valid only until the next call on d.
func (d *Decoder) RawValue() ([]byte, error) {
	c, i := d.peek()
	if c == 0 {
		_, err := d.NextToken()
		if err == nil {
			err = errors.New("json: RawValue: no value")
		}
		return nil, err
	}
	br := &d.s.br
	br.pinAt(br.offset + i)
	err := d.SkipValue()
	raw := br.unpin()
	if err != nil {
		return nil, err
	}
	return raw, nil
}
