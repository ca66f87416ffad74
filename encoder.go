package json

import "io"

// An Encoder writes JSON values to an output stream, as encoding/json's
// Encoder does, byte for byte.
type Encoder struct {
	w          io.Writer
	err        error
	escapeHTML bool

	indentPrefix string
	indentValue  string

	// es is this encoder's own state from its second Encode on, kept from
	// one call to the next (its buffer, the last type's encoder) rather
	// than taken from and given back to the pool on every call: an
	// Encoder is used by one goroutine at a time, as encoding/json's is.
	// Its first Encode takes a state from the pool and gives it back, as
	// Marshal does: NewEncoder(w).Encode(v), once per HTTP response, is
	// the most common use of all, and a state kept by an Encoder that is
	// never used again would leave the pool empty for the next one, which
	// would then allocate a state and grow its buffer from nothing.
	es     *encodeState
	stream bool // Encode has been called before: keep es
}

// NewEncoder returns a new encoder that writes to w.
func NewEncoder(w io.Writer) *Encoder {
	return &Encoder{w: w, escapeHTML: true}
}

// Encode writes the JSON encoding of v to the stream, with insignificant
// space characters elided, followed by a newline character. See [Marshal]
// for how Go values become JSON. Once a write to the stream has failed,
// Encode returns that error and writes nothing more.
//
// In steady use, Encode of a value without user methods allocates nothing:
// its buffer is kept from one call to the next. NewEncoder(w).Encode(v)
// allocates the Encoder alone, as with encoding/json: a first call's
// buffer comes from a pool and goes back to it.
func (enc *Encoder) Encode(v any) error {
	if enc.err != nil {
		return enc.err
	}
	// Taken out while in use: a MarshalJSON method that calls Encode on
	// this same encoder gets a state of its own.
	es := enc.es
	enc.es = nil
	if es == nil {
		es = getEncodeState(enc.escapeHTML)
	}
	es.setEscapeHTML(enc.escapeHTML)
	// Without the lazy check of Marshal (encode_lazy.go): the values of a
	// stream are most often records with too few strings for it to pay.
	b, err := es.encodeAny(es.buf[:0], v)
	if err != nil {
		enc.done(es, b)
		return err
	}
	// A newline ends each value: some space is needed after a number
	// anyway, so that a reader knows no more digits are coming.
	b = append(b, '\n')
	out := b
	if enc.indentPrefix != "" || enc.indentValue != "" {
		// Into the state's buffer for MarshalIndent, pooled or kept with
		// the state.
		if es.indentBuf, err = indentMarshalled(es.indentBuf[:0], b, enc.indentPrefix, enc.indentValue); err != nil {
			enc.done(es, b)
			return err
		}
		out = es.indentBuf
	}
	if _, err = enc.w.Write(out); err != nil {
		enc.err = err
	}
	enc.done(es, b)
	return err
}

// done ends an Encode with es, whose buffer the call grew to b: the first
// call gives es back to the pool, the later ones keep it. (A call that
// panics, in a user's method or its Writer, drops es: the next takes
// another.)
func (enc *Encoder) done(es *encodeState, b []byte) {
	if !enc.stream {
		enc.stream = true
		es.put(b)
		return
	}
	es.keep(b)
	enc.es = es
}

// SetIndent makes the encoder format each following value as if indented by
// [Indent](dst, src, prefix, indent). SetIndent("", "") turns indentation
// off.
func (enc *Encoder) SetIndent(prefix, indent string) {
	enc.indentPrefix = prefix
	enc.indentValue = indent
}

// SetEscapeHTML says whether '<', '>' and '&' inside JSON strings are
// written as \u003c, \u003e and \u0026, which is the default: the output can
// then be embedded in HTML safely. SetEscapeHTML(false) writes them as they
// are.
func (enc *Encoder) SetEscapeHTML(on bool) {
	enc.escapeHTML = on
}
