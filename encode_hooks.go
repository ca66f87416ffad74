package json

import (
	stdjson "encoding/json"
	"reflect"
	"unsafe"
)

// Encoders that call the value's own MarshalJSON or MarshalText method.
// User code runs here: exactly the methods encoding/json calls are called,
// on the same values, with its nil checks. A value of a reflect.Value
// (value: in an interface, a map) takes encoding/json's reflect steps
// (TypeAssert, Addr); one at a pointer (fn: a field, an element) is put in
// the interface value directly (methodEncoder).

// hookEncoder makes t's encoder from f, which encodes a reflect.Value of t.
func hookEncoder(t reflect.Type, f valueFn) *typeEncoder {
	return &typeEncoder{
		fn: func(es *encodeState, b []byte, p unsafe.Pointer) ([]byte, error) {
			return f(es, b, reflect.NewAt(t, p).Elem())
		},
		value: f,
	}
}

// methodEncoder is hookEncoder(t, f) for t's MarshalJSON (text: its
// MarshalText), called on *t (addr) or on t, which is no interface. It
// makes the interface value that encoding/json's TypeAssert makes from the
// method's interface table, found once, and a data word: the value's
// pointer (addr, and a t an interface holds indirectly: the wrapper of a
// value receiver copies the value from there), or the value's one word (a
// pointer, a map, a struct of one pointer...; a nil pointer is null). So
// neither fn nor, for a value receiver, an interface holding a t (inPlace,
// word) goes through reflect, whose Addr, NewAt, TypeAssert and itab
// lookup were a quarter of encoding records with three such members
// (rec-methods, AMD EPYC).
func methodEncoder(t reflect.Type, addr, text bool, f valueFn) *typeEncoder {
	te := hookEncoder(t, f)
	if !fastPaths || !addr && t.Kind() == reflect.Interface {
		return te
	}
	x := reflect.New(t)
	if !addr {
		x = x.Elem()
	}
	var tab unsafe.Pointer
	if text {
		m, _ := reflect.TypeAssert[textMarshaler](x)
		tab = (*iface)(unsafe.Pointer(&m)).tab
	} else {
		m, _ := reflect.TypeAssert[Marshaler](x)
		tab = (*iface)(unsafe.Pointer(&m)).tab
	}
	nilIsNull := t.Kind() == reflect.Pointer
	core := func(es *encodeState, b []byte, data unsafe.Pointer) ([]byte, error) {
		if data == nil && nilIsNull {
			return append(b, "null"...), nil
		}
		if text {
			var m textMarshaler
			*(*iface)(unsafe.Pointer(&m)) = iface{tab, data}
			return es.appendMarshalText(b, m, t)
		}
		var m Marshaler
		*(*iface)(unsafe.Pointer(&m)) = iface{tab, data}
		return es.appendMarshalJSON(b, m, t)
	}
	switch {
	case addr:
		te.fn = core
	case storedIndirect(t):
		te.fn, te.inPlace = core, true
	default:
		te.fn = func(es *encodeState, b []byte, p unsafe.Pointer) ([]byte, error) {
			return core(es, b, *(*unsafe.Pointer)(p))
		}
		te.word = core
	}
	return te
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
		b, err = appendCompact(&es.check, b, js, es.escapeHTML)
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
	b, err := appendCompact(&es.check, b, m, es.escapeHTML)
	if err != nil {
		return b, &MarshalerError{Type: rawMessageType, Err: err}
	}
	return b, nil
}
