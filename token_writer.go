package json

import (
	"errors"
	"io"
	"math"
	"reflect"
	"strconv"
)

// A TokenWriter writes JSON one token at a time: the output side of
// [Decoder.NextToken]. It adds the ':' and ',' between tokens itself, as
// NextToken consumes them, checks that the tokens come in an order that
// makes valid JSON, escapes strings and formats numbers exactly as [Marshal]
// does, and allocates nothing once its buffer has grown: a document is
// written by appending to one reused buffer, which goes to the io.Writer
// when it passes 4 KiB and on [TokenWriter.Flush].
//
// Top-level values are written one after another, each followed by a
// newline, so a TokenWriter writes NDJSON as readily as a single document.
//
// The first error (a token out of order, a value JSON cannot hold, or the
// io.Writer's) is kept: every later call returns it and writes nothing.
type TokenWriter struct {
	w          io.Writer
	buf        []byte
	err        error
	escapeHTML bool

	// The order of tokens: what may come next, and the open containers,
	// one bit each (1 = object).
	state  twState
	depth  int
	stack  []uint64
	stack0 [2]uint64
}

// twState is what a TokenWriter has just written, and so what may follow.
type twState uint8

const (
	twTop         twState = iota // nothing, or whole top-level values: a value
	twArrayFirst                 // '[': a value or ']'
	twArrayNext                  // an element: ',' and a value, or ']'
	twObjectFirst                // '{': a key or '}'
	twObjectNext                 // a member: ',' and a key, or '}'
	twObjectValue                // a key and ':': a value
)

const twFlushAt = 4 << 10

// NewTokenWriter returns a TokenWriter that writes to w. With a nil w, the
// output stays in the buffer, for [TokenWriter.Bytes]. Like [Encoder], it
// escapes '<', '>' and '&' in strings unless [TokenWriter.SetEscapeHTML]
// turns that off.
func NewTokenWriter(w io.Writer) *TokenWriter {
	t := &TokenWriter{escapeHTML: true}
	t.Reset(w)
	return t
}

// Reset makes t write a new stream to w, keeping its buffer and its HTML
// escaping setting; what was not flushed is dropped.
func (t *TokenWriter) Reset(w io.Writer) {
	t.w = w
	t.buf = t.buf[:0]
	t.err = nil
	t.state = twTop
	t.depth = 0
	t.stack = t.stack0[:0]
}

// SetEscapeHTML sets whether '<', '>' and '&' in strings are escaped as
// \u003c, \u003e and \u0026, as [Encoder.SetEscapeHTML] does.
func (t *TokenWriter) SetEscapeHTML(on bool) { t.escapeHTML = on }

// Bytes returns what has been written and not yet flushed. It is valid
// until the next call on t.
func (t *TokenWriter) Bytes() []byte { return t.buf }

// Depth returns the number of objects and arrays open.
func (t *TokenWriter) Depth() int { return t.depth }

// Flush writes the buffered output to the io.Writer, if there is one. It
// does not check that the last value is complete: [TokenWriter.Close]
// does.
func (t *TokenWriter) Flush() error {
	if t.err != nil {
		return t.err
	}
	if t.w == nil || len(t.buf) == 0 {
		return nil
	}
	if _, err := t.w.Write(t.buf); err != nil {
		t.err = err
		return err
	}
	t.buf = t.buf[:0]
	return nil
}

// Close reports an error if a value was left incomplete (an object or array
// still open, or a key without its value), and otherwise flushes. It does
// not close the io.Writer.
func (t *TokenWriter) Close() error {
	if t.err == nil && t.state != twTop {
		t.err = errors.New("json: TokenWriter closed inside a value")
	}
	return t.Flush()
}

// orderError records that a token came where it cannot.
func (t *TokenWriter) orderError(what string) error {
	var due string
	switch t.state {
	case twTop:
		due = "a top-level value"
	case twArrayFirst:
		due = "an array element or EndArray"
	case twArrayNext:
		due = "another array element or EndArray"
	case twObjectFirst:
		due = "a key or EndObject"
	case twObjectNext:
		due = "another key or EndObject"
	case twObjectValue:
		due = "the value of a key"
	}
	t.err = errors.New("json: TokenWriter: " + what + " where " + due + " is due")
	return t.err
}

// beginValue checks that a value may come next and writes the comma before
// it; what says what the value is, for the error.
func (t *TokenWriter) beginValue(what string) bool {
	switch t.state {
	case twTop, twArrayFirst, twObjectValue:
		return true
	case twArrayNext:
		t.buf = append(t.buf, ',')
		return true
	}
	t.orderError(what)
	return false
}

// endValue moves on after a whole value: the next element or member, or,
// at the top level, a newline and perhaps a flush.
func (t *TokenWriter) endValue() error {
	switch {
	case t.depth == 0:
		t.state = twTop
		t.buf = append(t.buf, '\n')
	case t.inObject():
		t.state = twObjectNext
	default:
		t.state = twArrayNext
	}
	if len(t.buf) >= twFlushAt {
		return t.Flush()
	}
	return nil
}

func (t *TokenWriter) inObject() bool {
	l := t.depth - 1
	return t.stack[l>>6]>>(l&63)&1 != 0
}

// BeginObject writes '{'.
func (t *TokenWriter) BeginObject() error { return t.begin('{', twObjectFirst, "BeginObject") }

// BeginArray writes '['.
func (t *TokenWriter) BeginArray() error { return t.begin('[', twArrayFirst, "BeginArray") }

func (t *TokenWriter) begin(c byte, next twState, what string) error {
	if t.err != nil {
		return t.err
	}
	if !t.beginValue(what) {
		return t.err
	}
	if t.depth >= defaultMaxDepth {
		t.err = errors.New("json: TokenWriter: exceeded max depth")
		return t.err
	}
	w, b := t.depth>>6, uint(t.depth&63)
	if w == len(t.stack) {
		t.stack = append(t.stack, 0)
	}
	if c == '{' {
		t.stack[w] |= 1 << b
	} else {
		t.stack[w] &^= 1 << b
	}
	t.depth++
	t.buf = append(t.buf, c)
	t.state = next
	return nil
}

// EndObject writes '}'.
func (t *TokenWriter) EndObject() error {
	return t.end('}', twObjectFirst, twObjectNext, "EndObject")
}

// EndArray writes ']'.
func (t *TokenWriter) EndArray() error {
	return t.end(']', twArrayFirst, twArrayNext, "EndArray")
}

func (t *TokenWriter) end(c byte, first, next twState, what string) error {
	if t.err != nil {
		return t.err
	}
	if t.state != first && t.state != next {
		return t.orderError(what)
	}
	t.depth--
	t.buf = append(t.buf, c)
	return t.endValue()
}

// Key writes an object's key, escaped as [Marshal] escapes strings, and the
// ':' after it.
func (t *TokenWriter) Key(s string) error {
	if t.err != nil {
		return t.err
	}
	switch t.state {
	case twObjectFirst:
	case twObjectNext:
		t.buf = append(t.buf, ',')
	default:
		return t.orderError("Key")
	}
	t.buf = appendString(t.buf, s, t.escapeHTML)
	t.buf = append(t.buf, ':')
	t.state = twObjectValue
	return nil
}

// String writes a string value, escaped as [Marshal] escapes strings.
func (t *TokenWriter) String(s string) error {
	if t.err != nil {
		return t.err
	}
	if !t.beginValue("String") {
		return t.err
	}
	t.buf = appendString(t.buf, s, t.escapeHTML)
	return t.endValue()
}

// StringBytes writes b as a string value, as String does.
func (t *TokenWriter) StringBytes(b []byte) error {
	if t.err != nil {
		return t.err
	}
	if !t.beginValue("StringBytes") {
		return t.err
	}
	t.buf = appendBytesString(t.buf, b, t.escapeHTML)
	return t.endValue()
}

// Int writes an integer.
func (t *TokenWriter) Int(n int64) error {
	if t.err != nil {
		return t.err
	}
	if !t.beginValue("Int") {
		return t.err
	}
	t.buf = appendInt10(t.buf, n)
	return t.endValue()
}

// Uint writes an unsigned integer.
func (t *TokenWriter) Uint(n uint64) error {
	if t.err != nil {
		return t.err
	}
	if !t.beginValue("Uint") {
		return t.err
	}
	t.buf = appendUint10(t.buf, n)
	return t.endValue()
}

// Float writes f as [Marshal] writes a float64. NaN and the infinities,
// which JSON cannot hold, are an [*UnsupportedValueError], as from Marshal.
func (t *TokenWriter) Float(f float64) error { return t.float(f, 64) }

// Float32 writes f as [Marshal] writes a float32: the shortest decimal that
// reads back as the same float32.
func (t *TokenWriter) Float32(f float32) error { return t.float(float64(f), 32) }

func (t *TokenWriter) float(f float64, bits int) error {
	if t.err != nil {
		return t.err
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		t.err = floatError(f, bits)
		return t.err
	}
	if !t.beginValue("Float") {
		return t.err
	}
	t.buf = appendFloat(t.buf, f, bits)
	return t.endValue()
}

// AppendQuote appends s to dst as a JSON string, escaped as [Marshal]
// escapes strings with HTML escaping off ([Encoder.SetEscapeHTML](false)):
// '"', '\\' and control characters escaped, invalid UTF-8 as \ufffd, U+2028
// and U+2029 as \u2028 and \u2029. It is the module's one string escaper:
// Marshal, [TokenWriter] and package sqlite's export all use it.
func AppendQuote(dst []byte, s string) []byte { return appendString(dst, s, false) }

// AppendFloat appends f to dst as [Marshal] writes a float64 (bits 64) or
// a float32 (bits 32): the shortest decimal that reads back as f, with an
// exponent below 1e-6 and from 1e21 on. NaN and the infinities, which JSON
// cannot hold, append nothing and return Marshal's
// [*UnsupportedValueError].
func AppendFloat(dst []byte, f float64, bits int) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return dst, floatError(f, bits)
	}
	return appendFloat(dst, f, bits), nil
}

// floatError is Marshal's error for a float JSON cannot hold.
func floatError(f float64, bits int) error {
	v := reflect.ValueOf(f)
	if bits == 32 {
		v = reflect.ValueOf(float32(f))
	}
	return &UnsupportedValueError{Value: v, Str: strconv.FormatFloat(f, 'g', -1, bits)}
}

// Bool writes true or false.
func (t *TokenWriter) Bool(b bool) error {
	if t.err != nil {
		return t.err
	}
	if !t.beginValue("Bool") {
		return t.err
	}
	if b {
		t.buf = append(t.buf, "true"...)
	} else {
		t.buf = append(t.buf, "false"...)
	}
	return t.endValue()
}

// Null writes null.
func (t *TokenWriter) Null() error {
	if t.err != nil {
		return t.err
	}
	if !t.beginValue("Null") {
		return t.err
	}
	t.buf = append(t.buf, "null"...)
	return t.endValue()
}

// RawValue writes a whole JSON value as it is given, checked and compacted
// (and HTML-escaped unless that is off) as Marshal treats what MarshalJSON
// returns: invalid JSON is a [*SyntaxError] and writes nothing. A string,
// number or literal token from [Decoder.NextToken] is a value too.
func (t *TokenWriter) RawValue(v []byte) error {
	if t.err != nil {
		return t.err
	}
	if t.state == twObjectFirst || t.state == twObjectNext {
		return t.orderError("RawValue")
	}
	n := len(t.buf)
	if t.state == twArrayNext {
		t.buf = append(t.buf, ',')
	}
	var vr validator
	b, err := appendCompact(&vr, t.buf, v, t.escapeHTML)
	if err != nil {
		t.buf = t.buf[:n]
		t.err = err
		return err
	}
	t.buf = b
	return t.endValue()
}
