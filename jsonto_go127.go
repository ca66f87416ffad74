//go:build goexperiment.jsonv2 && go1.27

package json

import (
	"bytes"
	stdjson "encoding/json"
	"encoding/json/jsontext"
	jsonv2 "encoding/json/v2"
	"errors"
	"io"
	"reflect"
	"strings"
	"sync"
	"unsafe"
)

// MarshalJSONTo and UnmarshalJSONFrom, the methods of encoding/json/v2's
// MarshalerTo and UnmarshalerFrom, honoured where Go 1.27's encoding/json
// honours them: where it is built on encoding/json/v2 (goexperiment.jsonv2,
// Go 1.27's default). With GOEXPERIMENT=nojsonv2 it is the classic
// implementation, which never calls them, and jsonpipe does not either
// (jsonto_other.go). Go 1.26 with GOEXPERIMENT=jsonv2 calls them too, but
// this file cannot be built there: a module at go 1.26 may name
// encoding/json/jsontext only in files built for Go 1.27 on (README, "Which
// encoding/json").
//
// The rules are those of GOROOT's src/encoding/json/v2/arshal_methods.go
// under encoding/json's v1 options (CallMethodsWithLegacySemantics,
// ReportErrorsWithLegacySemantics):
//
//   - MarshalJSONTo comes before MarshalJSON, MarshalText and the kind;
//     UnmarshalJSONFrom before UnmarshalJSON, UnmarshalText and the kind.
//   - A method on *T is called when encoding only where the value is
//     addressable, as for MarshalJSON; never on a nil pointer (that is
//     null), except through an interface whose type has the method, which
//     hands its nil pointer to the method (encoding/json does that only for
//     an interface of type MarshalerTo itself, and crashes on others).
//   - Neither is called for a map key: keys keep MarshalText, UnmarshalText
//     or their kind.
//   - The method must write, or read, exactly one value; otherwise the call
//     fails with "must read or write exactly one value".
//   - errors.ErrUnsupported from a method that wrote or read nothing means
//     "use the next representation": MarshalJSON, MarshalText or the kind
//     (UnmarshalJSON, UnmarshalText or the kind); after a write or read it
//     is an error, errUnsupportedMutation.
//   - A failed MarshalJSONTo is a *MarshalerError that names *T and the
//     method. A failed UnmarshalJSONFrom's error is returned as it is,
//     except a jsontext.SyntacticError (a *SyntaxError, which stops
//     decoding) and a *jsonv2.SemanticError (an *UnmarshalTypeError); and,
//     unlike an UnmarshalJSON error, it does not stop decoding: the first
//     error is returned at the end.
//
// json.Number itself keeps jsonpipe's classic handling (README, "Which
// encoding/json"), although on this toolchain it has both methods; a type
// that embeds a Number gets them promoted, and is then treated as
// encoding/json treats it.
//
// The method is given a jsontext.Encoder or Decoder of its own, with the
// options encoding/json passes (methodOptions): an Encoder writing into a
// buffer, set at the value's position (after a name, in an array, or at
// the top), whose bytes are then appended to the output; a Decoder over the
// value's input alone. So the method's output and errors are
// encoding/json's. What the Encoder or Decoder says of where it is
// (StackDepth, StackPointer, OutputOffset, InputOffset) does not count the
// rest of the document, a `,string` tag on the field is not among the
// options, and a method that reads past its value meets the end of the
// input, where encoding/json would let it read on into the array or object
// around it.

var (
	marshalerToType     = reflect.TypeFor[jsonv2.MarshalerTo]()
	unmarshalerFromType = reflect.TypeFor[jsonv2.UnmarshalerFrom]()

	// nilMarshalerToType is the type encoding/json's errors name for a nil
	// pointer called through an interface: it wraps the pointer in a
	// struct embedding the interface (makeInterfaceArshaler).
	nilMarshalerToType = reflect.TypeFor[*struct{ jsonv2.MarshalerTo }]()
)

// encoding/json/v2's own errors (arshal_funcs.go), by their text: a method
// that did not write or read exactly one value, and one that returned
// errors.ErrUnsupported after it had.
var (
	errNonSingularValue    = errors.New("must read or write exactly one value")
	errUnsupportedMutation = errors.New("unsupported calls must not read or write any tokens")
)

// marshalToEncoder returns t's encoder if a MarshalJSONTo method decides
// how values of t are written (addr: the value is addressable, so a method
// on *t counts), or nil. newTypeEncoder asks it first.
func marshalToEncoder(t reflect.Type, addr, quoted bool) *typeEncoder {
	switch t.Kind() {
	case reflect.Interface:
		if t.Implements(marshalerToType) {
			return interfaceToEncoder(t)
		}
		return nil
	case reflect.Pointer:
		// The pointer is followed (nil is null) and the method called on
		// the element, which is addressable: t's MarshalJSON, if it has
		// one too, is not looked at.
		if t.Elem() != numberType && t.Implements(marshalerToType) {
			return newPointerEncoder(t, quoted)
		}
		return nil
	}
	if t == numberType {
		return nil
	}
	var f valueFn
	switch {
	case t.Implements(marshalerToType):
		f = marshalToValue(t, addr, quoted, false)
	case addr && reflect.PointerTo(t).Implements(marshalerToType):
		f = marshalToValue(t, addr, quoted, true)
	default:
		return nil
	}
	return hookEncoder(t, f)
}

// hasMarshalTo reports whether t has a MarshalJSONTo method, or *t has one
// and the value is addressable.
func hasMarshalTo(t reflect.Type, addr bool) bool {
	return t.Implements(marshalerToType) || addr && reflect.PointerTo(t).Implements(marshalerToType)
}

// marshalToValue makes the valueFn that calls MarshalJSONTo on a value of
// t (onAddr: the method is on *t, and the value addressable).
func marshalToValue(t reflect.Type, addr, quoted, onAddr bool) valueFn {
	errType := reflect.PointerTo(t)
	next := sync.OnceValue(func() *typeEncoder { return encoderWithoutTo(t, addr, quoted) })
	return func(es *encodeState, b []byte, v reflect.Value) ([]byte, error) {
		var m jsonv2.MarshalerTo
		if onAddr || v.CanAddr() {
			m, _ = reflect.TypeAssert[jsonv2.MarshalerTo](v.Addr())
		} else {
			m, _ = reflect.TypeAssert[jsonv2.MarshalerTo](v)
		}
		b, unsupported, err := es.appendMarshalTo(b, m, errType)
		if unsupported {
			if v.CanAddr() {
				return next().fn(es, b, v.Addr().UnsafePointer())
			}
			return next().value(es, b, v)
		}
		return b, err
	}
}

// bytesAsArray reports whether a slice of et, a byte type, is written as an
// array of its elements rather than as a base64 string because of et's
// MarshalJSONTo, as it is for MarshalJSON and MarshalText
// (makeBytesArshaler). Decoding is not affected: a string is base64, an
// array is decoded element by element.
func bytesAsArray(et reflect.Type) bool {
	return reflect.PointerTo(et).Implements(marshalerToType)
}

// interfaceToEncoder is for an interface type that has MarshalJSONTo: what
// it holds is written as its own type says (so its MarshalJSONTo, even where
// the interface also has MarshalJSON), except that a nil pointer is handed
// to the method, as encoding/json does under its v1 options.
func interfaceToEncoder(t reflect.Type) *typeEncoder {
	value := func(es *encodeState, b []byte, v reflect.Value) ([]byte, error) {
		if v.IsNil() {
			return append(b, "null"...), nil
		}
		if e := v.Elem(); e.Kind() == reflect.Pointer && e.IsNil() {
			m, _ := reflect.TypeAssert[jsonv2.MarshalerTo](v)
			b, unsupported, err := es.appendMarshalTo(b, m, nilMarshalerToType)
			if unsupported {
				// encoding/json recurses without end here; the pointer
				// itself is null.
				return append(b, "null"...), nil
			}
			return b, err
		}
		return es.encodeAny(b, v.Interface())
	}
	return &typeEncoder{
		fn: func(es *encodeState, b []byte, p unsafe.Pointer) ([]byte, error) {
			return value(es, b, reflect.NewAt(t, p).Elem())
		},
		value: value,
	}
}

// dynamicMarshalTo reports whether v, an interface whose type has
// MarshalJSON or MarshalText, holds a value that encoding/json writes with
// its MarshalJSONTo rather than by calling the interface's method.
func dynamicMarshalTo(v reflect.Value) bool {
	if v.IsNil() {
		return false
	}
	e := v.Elem()
	if e.Kind() == reflect.Pointer && e.IsNil() {
		return false // the interface's method is called on the nil pointer
	}
	return e.Type() != numberType && e.Type().Implements(marshalerToType)
}

// toWriter is what appendMarshalTo gives a method to write to: an Encoder
// and its buffer, pooled.
type toWriter struct {
	buf bytes.Buffer
	enc jsontext.Encoder
}

var toWriters sync.Pool

// appendMarshalTo appends what m.MarshalJSONTo writes, or returns the
// error encoding/json gives (errType: the type it names). unsupported: the
// method returned errors.ErrUnsupported having written nothing, on a Go
// whose encoding/json then uses the next representation; b is as it was.
//
// The method writes where its value goes: after an object member's name,
// in an array, or at the top, so the Encoder is first given that position
// (`{"":`, `[` or nothing): a second value is then refused or accepted as
// the real one would, and a SyntacticError's offset, moved by where the
// value starts in b, is the offset in the whole output, which is what
// encoding/json reports.
func (es *encodeState) appendMarshalTo(b []byte, m jsonv2.MarshalerTo, errType reflect.Type) (_ []byte, unsupported bool, _ error) {
	w, _ := toWriters.Get().(*toWriter)
	if w == nil {
		w = new(toWriter)
	}
	w.buf.Reset()
	w.enc.Reset(&w.buf, methodOptions().enc[es.html])
	enc := &w.enc
	start := int64(0) // where the value starts in w.buf
	var end jsontext.Token
	primed := false
	if n := len(b); n > 0 {
		switch b[n-1] {
		case ':':
			enc.WriteToken(jsontext.BeginObject)
			enc.WriteToken(jsontext.String(""))
			start, end, primed = 4, jsontext.EndObject, true // `{"":`, the colon written with the value
		case '[', ',':
			enc.WriteToken(jsontext.BeginArray)
			start, end, primed = 1, jsontext.EndArray, true
		}
	}
	depth := enc.StackDepth()
	_, length := enc.StackIndex(depth)
	err := m.MarshalJSONTo(enc)
	depth2 := enc.StackDepth()
	_, length2 := enc.StackIndex(depth2)
	if err == nil && (depth2 != depth || length2 != length+1) {
		err = errNonSingularValue
	}
	if err == nil && primed {
		err = enc.WriteToken(end) // the value is then complete, and flushed
	}
	if err != nil {
		putToWriter(w)
		if errors.Is(err, errors.ErrUnsupported) {
			if depth2 == depth && length2 == length {
				return b, true, nil
			}
			err = errUnsupportedMutation
		}
		if se, ok := err.(*jsontext.SyntacticError); ok {
			moved := *se
			moved.ByteOffset += int64(len(b)) - start
			err = &moved
		}
		return b, false, marshalToError(errType, err)
	}
	// Complete at the top, the output was flushed with a newline after it.
	out := w.buf.Bytes()[start:]
	if primed {
		out = out[:len(out)-2] // the closing delimiter, the newline
	} else {
		out = out[:len(out)-1]
	}
	b = append(b, out...)
	putToWriter(w)
	return b, false, nil
}

func putToWriter(w *toWriter) {
	if w.buf.Cap() > 64<<10 {
		w.buf = bytes.Buffer{}
	}
	w.buf.Reset()
	w.enc.Reset(&w.buf) // no reference to the method's output or options kept
	toWriters.Put(w)
}

// marshalToError is encoding/json's error for a MarshalJSONTo of the type
// errType names that failed with err: a *MarshalerError naming the method.
// Which method failed is an unexported field of that type, and encoding/json
// rewrites some errors (a SyntacticError becomes a *SyntaxError), so the
// error is made by encoding/json itself, from a value whose MarshalJSONTo
// returns err, and then given the type that failed; a *SyntaxError in it
// becomes this package's.
func marshalToError(errType reflect.Type, err error) error {
	_, e := stdjson.Marshal(failingTo{err})
	me, ok := e.(*MarshalerError)
	if !ok {
		return &MarshalerError{Type: errType, Err: err}
	}
	me.Type = errType
	me.Err = ownSyntaxError(me.Err)
	return me
}

type failingTo struct{ err error }

func (f failingTo) MarshalJSONTo(*jsontext.Encoder) error { return f.err }

// ownSyntaxError returns encoding/json's *SyntaxError as this package's.
func ownSyntaxError(err error) error {
	if se, ok := err.(*stdjson.SyntaxError); ok {
		return &SyntaxError{msg: se.Error(), Offset: se.Offset}
	}
	return err
}

// hasUnmarshalFrom reports whether the pointer type pt has an
// UnmarshalJSONFrom method that decoding calls.
func hasUnmarshalFrom(pt reflect.Type) bool {
	return pt.Elem() != numberType && pt.Implements(unmarshalerFromType)
}

// fromHook sets td to call UnmarshalJSONFrom of pointer type pt on the value
// at p (of type elem), if pt has one. errType is what type errors name, in
// the representation the method may fall back to.
func (b *builder) fromHook(td *typeDecoder, pt, elem, errType reflect.Type) bool {
	if !hasUnmarshalFrom(pt) {
		return false
	}
	td.selfHooks = true
	next := sync.OnceValue(func() decodeFn { return decoderWithoutFrom(pt, elem, errType) })
	td.fn = func(ds *decodeState, tok []byte, p unsafe.Pointer) error {
		u := reflect.NewAt(elem, p).Interface().(jsonv2.UnmarshalerFrom)
		return ds.unmarshalFrom(tok, u, next, p)
	}
	return true
}

// decoderWithoutFrom is what the builder's hook chooses for pt when it has
// no UnmarshalJSONFrom: the representation a method falls back to when it
// returns errors.ErrUnsupported.
func decoderWithoutFrom(pt, elem, errType reflect.Type) decodeFn {
	switch {
	case pt.Implements(unmarshalerType):
		return unmarshalerDecoder(elem)
	case pt.Implements(textUnmarshalerType):
		null := cachedDecoder(decodeKey{elem, modeElem, errType})
		return textUnmarshalerDecoder(elem, errType, null)
	}
	return cachedDecoder(decodeKey{elem, modeElem, errType}).fn
}

// fromReader is what unmarshalFrom gives a method to read from: a Decoder
// over the value's input, pooled.
type fromReader struct {
	in  bytes.Buffer
	dec jsontext.Decoder
}

var fromReaders sync.Pool

// unmarshalFrom reads the value that starts with tok whole and calls
// u.UnmarshalJSONFrom with a Decoder over it. Errors are encoding/json's
// (unmarshalFromError); next is the decoder to use instead when the method
// returns errors.ErrUnsupported having read nothing.
func (ds *decodeState) unmarshalFrom(tok []byte, u jsonv2.UnmarshalerFrom, next func() decodeFn, p unsafe.Pointer) error {
	raw, err := ds.rawValue(tok)
	if err != nil {
		return err
	}
	start := ds.d.InputOffset() - int64(len(raw))
	r, _ := fromReaders.Get().(*fromReader)
	if r == nil {
		r = new(fromReader)
	}
	r.in = *bytes.NewBuffer(raw) // read in place: the method must not keep or change what it reads
	r.dec.Reset(&r.in, methodOptions().dec[ds.decodeOptionsIndex()])
	err = u.UnmarshalJSONFrom(&r.dec)
	depth := r.dec.StackDepth()
	_, length := r.dec.StackIndex(0)
	r.in = bytes.Buffer{}
	r.dec.Reset(&r.in) // no reference to the input or options kept
	fromReaders.Put(r)
	if err == nil && (depth != 0 || length != 1) {
		err = errNonSingularValue
	}
	if err == nil {
		return nil
	}
	if errors.Is(err, errors.ErrUnsupported) {
		if depth == 0 && length == 0 {
			return ds.decodeAgain(next(), raw, start, p)
		}
		err = errUnsupportedMutation
	}
	if err == io.EOF {
		// The method read past its value, into the end of the input it
		// was given: encoding/json's error where the input ends there.
		err = &jsontext.SyntacticError{ByteOffset: int64(len(raw)), Err: io.ErrUnexpectedEOF}
	}
	return ds.unmarshalFromError(err, start)
}

// decodeOptionsIndex picks this call's options from methodOptions().dec.
func (ds *decodeState) decodeOptionsIndex() int {
	i := 0
	if ds.useNumber {
		i |= 1
	}
	if ds.disallowUnknown {
		i |= 2
	}
	return i
}

// decodeAgain decodes raw, the input of the value just read, which starts
// at start in ds.d, into p with fn: errors keep their offsets in the whole
// input, and their struct field context.
func (ds *decodeState) decodeAgain(fn decodeFn, raw []byte, start int64, p unsafe.Pointer) error {
	sub := newBytesDecoder(raw)
	sub.maxDepth = max(1, ds.d.maxDepth-ds.d.Depth())
	d, base := ds.d, ds.base
	ds.d, ds.base = sub, base-start
	tok, err := sub.NextToken()
	if err == nil {
		err = fn(ds, tok, p)
	}
	ds.d, ds.base = d, base
	return err
}

// unmarshalFromError handles the error of an UnmarshalJSONFrom method whose
// value started at start, as encoding/json does under its v1 options: a
// jsontext.SyntacticError (its offset moved into the whole input) stops
// decoding as a *SyntaxError; any other error is kept, if it is the first,
// and decoding goes on. encoding/json returns the error as it is, except
// that it rewrites some (SyntacticError, SemanticError), so the error is
// passed through encoding/json itself, from a value whose
// UnmarshalJSONFrom returns it; an *UnmarshalTypeError made
// from a SemanticError that names a field then gets the name of the
// Unmarshal argument's type, as encoding/json gives it.
func (ds *decodeState) unmarshalFromError(err error, start int64) error {
	se, fatal := err.(*jsontext.SyntacticError)
	if fatal {
		moved := *se
		moved.ByteOffset += start
		err = &moved
	}
	e := stdjson.Unmarshal(nullLiteral, &failingFrom{err})
	if e == nil {
		e = err
	}
	e = ownSyntaxError(e)
	if te, ok := e.(*UnmarshalTypeError); ok {
		if te.Struct != "" {
			te.Struct = ""
			if pt := ds.lastType; pt != nil {
				te.Struct = pt.Elem().Name()
			}
		}
		te.Err = ownSyntaxError(te.Err)
	}
	if fatal {
		return e
	}
	if ds.saved == nil {
		ds.saved = e // as it is: encoding/json adds no field context
	}
	return nil
}

var nullLiteral = []byte("null")

type failingFrom struct{ err error }

func (f *failingFrom) UnmarshalJSONFrom(*jsontext.Decoder) error { return f.err }

// methodOptions are the options encoding/json's Encoder and Decoder hold
// when it calls a method: enc by HTML escaping (index 1: on, as Marshal
// has it; 0: SetEscapeHTML(false)), dec by decodeOptionsIndex (UseNumber,
// DisallowUnknownFields). They are read once, from encoding/json itself:
// it calls a probe's method, which copies the options it was handed. The
// copy is taken after a nested call to a second probe, from which
// encoding/json returns with its in-method mark cleared, so that the
// Encoders and Decoders made with these options can be Reset and reused.
var methodOptions = sync.OnceValue(func() (o struct {
	enc [2]jsonv2.Options
	dec [4]jsonv2.Options
}) {
	for html := range 2 {
		enc := stdjson.NewEncoder(new(strings.Builder))
		enc.SetEscapeHTML(html == 1)
		enc.Encode(optionsProbe{&o.enc[html]})
	}
	for i := range 4 {
		dec := stdjson.NewDecoder(strings.NewReader("null"))
		if i&1 != 0 {
			dec.UseNumber()
		}
		if i&2 != 0 {
			dec.DisallowUnknownFields()
		}
		dec.Decode(&optionsProbe{&o.dec[i]})
	}
	for _, opts := range append(o.enc[:], o.dec[:]...) {
		if opts == nil {
			panic("json: encoding/json did not call MarshalJSONTo or UnmarshalJSONFrom")
		}
	}
	return o
})

type optionsProbe struct{ dst *jsonv2.Options }

func (p optionsProbe) MarshalJSONTo(enc *jsontext.Encoder) error {
	if err := jsonv2.MarshalEncode(enc, nestedProbe{}); err != nil {
		return err
	}
	*p.dst = jsonv2.JoinOptions(enc.Options())
	return nil
}

func (p *optionsProbe) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	if err := jsonv2.UnmarshalDecode(dec, &nestedProbe{}); err != nil {
		return err
	}
	*p.dst = jsonv2.JoinOptions(dec.Options())
	return nil
}

type nestedProbe struct{}

func (nestedProbe) MarshalJSONTo(enc *jsontext.Encoder) error {
	return enc.WriteToken(jsontext.Null)
}

func (*nestedProbe) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	return dec.SkipValue()
}
