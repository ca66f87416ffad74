package json

import (
	stdjson "encoding/json"
	"reflect"
	"unsafe"
)

// Encoders that call the value's own MarshalJSON or MarshalText method.
// User code runs here, so these keep encoding/json's reflect-based steps as
// they are (TypeAssert, Addr, the nil checks): exactly the same methods are
// called on exactly the same values.

// hookEncoder makes t's encoder from f, which encodes a reflect.Value of t.
func hookEncoder(t reflect.Type, f valueFn) *typeEncoder {
	return &typeEncoder{
		fn: func(es *encodeState, b []byte, p unsafe.Pointer) ([]byte, error) {
			return f(es, b, reflect.NewAt(t, p).Elem())
		},
		value: f,
	}
}

func marshalerValue(es *encodeState, b []byte, v reflect.Value) ([]byte, error) {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		return append(b, "null"...), nil
	}
	if v.Kind() == reflect.Interface && dynamicMarshalTo(v) {
		return es.encodeAny(b, v.Interface()) // its MarshalJSONTo, on Go 1.27 (jsonto_go127.go)
	}
	m, ok := reflect.TypeAssert[Marshaler](v)
	if !ok {
		return append(b, "null"...), nil
	}
	return es.appendMarshalJSON(b, m, v.Type())
}

func addrMarshalerValue(es *encodeState, b []byte, v reflect.Value) ([]byte, error) {
	va := v.Addr()
	if va.IsNil() {
		return append(b, "null"...), nil
	}
	m, _ := reflect.TypeAssert[Marshaler](va)
	return es.appendMarshalJSON(b, m, v.Type())
}

// appendMarshalJSON appends what m.MarshalJSON returns, checked and
// compacted (and HTML-escaped when that is on), as encoding/json does.
func (es *encodeState) appendMarshalJSON(b []byte, m Marshaler, t reflect.Type) ([]byte, error) {
	js, err := m.MarshalJSON()
	if err == nil {
		b, err = appendCompact(b, js, es.escapeHTML)
	}
	if err != nil {
		return b, &MarshalerError{Type: t, Err: err}
	}
	return b, nil
}

func textMarshalerValue(es *encodeState, b []byte, v reflect.Value) ([]byte, error) {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		return append(b, "null"...), nil
	}
	if v.Kind() == reflect.Interface && dynamicMarshalTo(v) {
		return es.encodeAny(b, v.Interface())
	}
	m, ok := reflect.TypeAssert[textMarshaler](v)
	if !ok {
		return append(b, "null"...), nil
	}
	return es.appendMarshalText(b, m, v.Type())
}

func addrTextMarshalerValue(es *encodeState, b []byte, v reflect.Value) ([]byte, error) {
	va := v.Addr()
	if va.IsNil() {
		return append(b, "null"...), nil
	}
	m, _ := reflect.TypeAssert[textMarshaler](va)
	return es.appendMarshalText(b, m, v.Type())
}

type textMarshaler = interface{ MarshalText() ([]byte, error) }

func (es *encodeState) appendMarshalText(b []byte, m textMarshaler, t reflect.Type) ([]byte, error) {
	text, err := m.MarshalText()
	if err != nil {
		return b, marshalTextError(t, err)
	}
	return appendBytesString(b, text, es.escapeHTML), nil
}

// marshalTextError is encoding/json's error for a failed MarshalText: a
// *MarshalerError that names MarshalText. Which method failed is an
// unexported field of encoding/json's type, so the error is made by
// encoding/json itself, from a value whose MarshalText returns err, and then
// given the type that failed.
func marshalTextError(t reflect.Type, err error) error {
	_, e := stdjson.Marshal(failingText{err})
	if me, ok := e.(*MarshalerError); ok {
		me.Type = t
		return me
	}
	return &MarshalerError{Type: t, Err: err}
}

type failingText struct{ err error }

func (f failingText) MarshalText() ([]byte, error) { return nil, f.err }

// encodeRawMessage writes a RawMessage as its MarshalJSON method would have
// it written, without boxing it in an interface to call that method.
func encodeRawMessage(es *encodeState, b []byte, p unsafe.Pointer) ([]byte, error) {
	m := *(*RawMessage)(p)
	if m == nil {
		return append(b, "null"...), nil
	}
	b, err := appendCompact(b, m, es.escapeHTML)
	if err != nil {
		return b, &MarshalerError{Type: rawMessageType, Err: err}
	}
	return b, nil
}
