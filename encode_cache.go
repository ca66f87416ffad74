package json

import (
	"encoding"
	"reflect"
	"sync"
	"unsafe"
)

// Per-type encoders, built once per reflect.Type and cached: the mirror of
// decode_cache.go.
//
// An encodeFn appends the JSON encoding of the Go value at p to b. A
// valueFn does the same for v, a value held by an interface (so not
// addressable, and not at an address this package may take).
type (
	encodeFn func(es *encodeState, b []byte, p unsafe.Pointer) ([]byte, error)
	valueFn  func(es *encodeState, b []byte, v reflect.Value) ([]byte, error)
)

type typeEncoder struct {
	fn    encodeFn
	value valueFn
	// direct: fn is the plain encoder of a scalar kind, which struct, slice
	// and array encoders write inline instead of calling fn.
	direct encDirect
	// st, for a struct type, is fn's receiver, which those loops call
	// directly rather than through fn, a method value.
	st *structEncoder
	// floats, for an array or slice of float64 (GeoJSON's coordinates),
	// lets the loop over an array of them write their floats itself.
	floats *floatList
	// list, for a slice of scalars (its element's direct is not encCall),
	// lets the loop over a struct's fields write it with appendElements,
	// without fn's call and the cycle check: a slice of scalars holds
	// nothing that could lead back to it.
	list *listInfo
	// inPlace: fn may read a value of this type where an interface holds
	// it (see encodeAny).
	inPlace bool
	// word, for a type an interface holds directly (a pointer; a map or a
	// struct of one pointer with a MarshalJSON method), writes the value
	// given that word.
	word encodeFn
	// building: a placeholder, handed out while the real encoder is being
	// built (encoderFor), which no one should keep.
	building bool
	// lazy: writing a value with this encoder runs no user code (no
	// MarshalJSON, MarshalText or MarshalJSONTo method but RawMessage's
	// and time.Time's, no interface, which could hold anything), so
	// Marshal may write its short strings unchecked (encode_lazy.go), and
	// a map may range over copies of such values (wordsMapEncoder). Each
	// builder sets it from its own choice and its parts' encoders
	// (partLazy), before the encoder is published: no second walk of the
	// type.
	lazy bool
}

// floatList describes an array (n, its length) or a slice (n < 0) of
// float64s.
type floatList struct{ n int }

// listInfo describes a slice of scalars: its element's encoder and size.
type listInfo struct {
	elem *typeEncoder
	size uintptr
}

// encDirect names the scalar encoders written inline by the loops over
// fields and elements.
type encDirect uint8

const (
	encCall encDirect = iota // call fn
	encString
	encInt64
	encInt32
	encUint64
	encFloat64
	encFloat32
	encBool
	encNumber
	// A pointer to one of the above: null when nil. A pointer to a scalar
	// cannot be part of a cycle, so it need not be counted.
	encPtr
)

// appendDirect writes the value at p as d says, which is not encCall.
// It returns false, having written nothing, for a NaN or infinite float:
// the type's encoder words that error.
func (es *encodeState) appendDirect(b []byte, d encDirect, p unsafe.Pointer) ([]byte, bool) {
	if d >= encPtr {
		p = *(*unsafe.Pointer)(p)
		if p == nil {
			return append(b, "null"...), true
		}
		d -= encPtr
	}
	switch d {
	case encString:
		b = appendString(b, *(*string)(p), es.escapeHTML)
	case encInt64:
		b = appendInt10(b, *(*int64)(p))
	case encInt32:
		b = appendInt10(b, int64(*(*int32)(p)))
	case encUint64:
		b = appendUint10(b, *(*uint64)(p))
	case encBool:
		b = appendFlag(b, *(*bool)(p))
	case encFloat64:
		x := *(*float64)(p)
		if !finite(x) {
			return b, false
		}
		b = appendFloat(b, x, 64)
	case encFloat32:
		x := float64(*(*float32)(p))
		if !finite(x) {
			return b, false
		}
		b = appendFloat(b, x, 32)
	case encNumber:
		s := *(*string)(p)
		if s == "" {
			return append(b, '0'), true
		}
		return appendNumberLit(b, s)
	}
	return b, true
}

// plainInteger reports whether s is a JSON integer without sign, fraction
// or exponent. Its loop is inlined: appendNumberLit's general path takes
// it for Numbers of up to three bytes (a count), where it costs less than
// the call to validNumber; from four bytes validNumber, which reads the
// number in words, is faster even for integers (BenchmarkValidNumber).
func plainInteger(s string) bool {
	if len(s) == 0 || s[0] == '0' && len(s) > 1 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i]-'0' > 9 {
			return false
		}
	}
	return true
}

// encoderCache holds the encoders built so far, one map for each pair of
// the flags an encoder is built for: encoding/json calls a method with a
// pointer receiver only when the value is addressable (a field or element
// reached through a pointer or a slice), and ",string" changes how a
// scalar is written. Each map is keyed by the reflect.Type alone, whose
// hash is its pointer's: a struct key holding the type and the flags was
// hashed field by field, a quarter of the time of encoding a small record.
var encoderCache [4]sync.Map // [addr + 2*quoted]: reflect.Type -> *typeEncoder

func encoderMap(addr, quoted bool) *sync.Map {
	i := 0
	if addr {
		i = 1
	}
	if quoted {
		i += 2
	}
	return &encoderCache[i]
}

var (
	marshalerType     = reflect.TypeFor[Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	isZeroerType      = reflect.TypeFor[interface{ IsZero() bool }]()
)

// encoderFor returns the encoder of t, building it on first use. A
// recursive type finds its own placeholder while it is being built; the
// placeholder waits for the real encoder, so concurrent first uses are safe.
func encoderFor(t reflect.Type, addr, quoted bool) *typeEncoder {
	if quoted {
		switch t.Kind() {
		case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
			reflect.Float32, reflect.Float64, reflect.String, reflect.Pointer:
		default:
			quoted = false
		}
	}
	cache := encoderMap(addr, quoted)
	if te, ok := cache.Load(t); ok {
		return te.(*typeEncoder)
	}
	built := sync.OnceValue(func() *typeEncoder { return newTypeEncoder(t, addr, quoted) })
	placeholder := &typeEncoder{
		fn: func(es *encodeState, b []byte, p unsafe.Pointer) ([]byte, error) {
			return built().fn(es, b, p)
		},
		value: func(es *encodeState, b []byte, v reflect.Value) ([]byte, error) {
			return built().value(es, b, v)
		},
		building: true,
	}
	if te, loaded := cache.LoadOrStore(t, placeholder); loaded {
		return te.(*typeEncoder)
	}
	te := built()
	cache.Store(t, te)
	return te
}

// newTypeEncoder builds t's encoder, choosing as encoding/json's
// newTypeEncoder does: a MarshalJSON method first (on *t only when addr),
// then MarshalText, then the kind.
func newTypeEncoder(t reflect.Type, addr, quoted bool) *typeEncoder {
	// RawMessage's and time.Time's own encoders; without the fast paths,
	// their MarshalJSON methods, as any Marshaler's. Either way no user
	// code runs (typeEncoder.lazy).
	if t == rawMessageType || t == timeType {
		var te *typeEncoder
		switch {
		case !fastPaths:
			te = encoderWithoutTo(t, addr, quoted)
		case t == rawMessageType:
			te = addrEncoder(t, encodeRawMessage)
		default:
			te = timeEncoder()
		}
		te.lazy = true
		return te
	}
	if te := marshalToEncoder(t, addr, quoted); te != nil { // MarshalJSONTo first (jsonto_go127.go)
		return te
	}
	return encoderWithoutTo(t, addr, quoted)
}

// encoderWithoutTo is newTypeEncoder after MarshalJSONTo: the
// MarshalJSON and MarshalText methods, then the kind. It is also the
// representation a MarshalJSONTo method falls back to when it returns
// errors.ErrUnsupported (jsonto_go127.go).
func encoderWithoutTo(t reflect.Type, addr, quoted bool) *typeEncoder {
	if t.Kind() != reflect.Pointer && addr && reflect.PointerTo(t).Implements(marshalerType) {
		return methodEncoder(t, true, false, addrMarshalerValue)
	}
	if t.Implements(marshalerType) {
		return methodEncoder(t, false, false, marshalerValue)
	}
	if t.Kind() != reflect.Pointer && addr && reflect.PointerTo(t).Implements(textMarshalerType) {
		return methodEncoder(t, true, true, addrTextMarshalerValue)
	}
	if t.Implements(textMarshalerType) {
		return methodEncoder(t, false, true, textMarshalerValue)
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.String:
		return scalarEncoder(t, quoted)
	case reflect.Interface:
		return interfaceEncoder(t)
	case reflect.Struct:
		return newStructEncoder(t, addr)
	case reflect.Map:
		return newMapEncoder(t)
	case reflect.Slice:
		return newSliceEncoder(t)
	case reflect.Array:
		return newArrayEncoder(t, addr)
	case reflect.Pointer:
		return newPointerEncoder(t, quoted)
	}
	return unsupportedEncoder(t)
}

// addrEncoder is the typeEncoder of a type whose encoder, fn, reads the
// value through its address (a struct, an array, RawMessage). reflect gives
// no address for a value that is not addressable, such as one an interface
// holds, so its valueFn copies the value into memory of its own: an
// allocation. encodeAny avoids it where it can (inPlace).
func addrEncoder(t reflect.Type, fn encodeFn) *typeEncoder {
	return &typeEncoder{fn: fn, value: valueByCopy(t, fn), inPlace: storedIndirect(t)}
}

// valueByCopy makes the valueFn of a type whose encoder needs an address:
// the value is copied into memory of its own.
func valueByCopy(t reflect.Type, fn encodeFn) valueFn {
	return func(es *encodeState, b []byte, v reflect.Value) ([]byte, error) {
		c := reflect.New(t)
		c.Elem().Set(v)
		return fn(es, b, c.UnsafePointer())
	}
}

func unsupportedEncoder(t reflect.Type) *typeEncoder {
	err := func() error { return &UnsupportedTypeError{Type: t} }
	return &typeEncoder{
		fn: func(es *encodeState, b []byte, p unsafe.Pointer) ([]byte, error) {
			return b, err()
		},
		value: func(es *encodeState, b []byte, v reflect.Value) ([]byte, error) {
			return b, err()
		},
	}
}

// encodeAny appends the value an interface holds, v, which is not
// addressable. The dynamic types that Unmarshal into any produces are
// written here without asking reflect; others go through their type's
// encoder.
func (es *encodeState) encodeAny(b []byte, v any) ([]byte, error) {
	if !fastPaths {
		if v == nil {
			return append(b, "null"...), nil
		}
		return encoderFor(reflect.TypeOf(v), false, false).value(es, b, reflect.ValueOf(v))
	}
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return appendString(b, x, es.escapeHTML), nil
	case float64:
		if finite(x) {
			return appendFloat(b, x, 64), nil
		}
		return appendFloatValue(b, x, float64Type, false)
	case bool:
		return appendFlag(b, x), nil
	case map[string]any:
		es.lazy = 0 // its values may run user code (decideLazy)
		return es.encodeMapStringAny(b, x)
	case []any:
		es.lazy = 0
		return es.encodeSliceAny(b, x)
	case Number:
		return appendNumber(b, x, false)
	}
	t := reflect.TypeOf(v)
	te := es.lastEnc
	if t != es.lastType {
		if te = encoderFor(t, false, false); !te.building {
			es.lastType, es.lastEnc = t, te
		}
	}
	if es.lazy == lazyDecide { // Marshal's value (encode_lazy.go)
		es.decideLazy(t, te)
	}
	if te.inPlace {
		// The interface holds a pointer to the value: fn reads it there,
		// as encoding/json's reflect path does, instead of a copy. The
		// encoder was made with addr false, so it calls no method with a
		// pointer receiver, and no encoder writes to what it reads.
		return te.fn(es, b, ifaceData(v))
	}
	if te.word != nil {
		return te.word(es, b, ifaceData(v))
	}
	return te.value(es, b, reflect.ValueOf(v))
}

// ifaceData is the data word of v: for a type stored indirectly (see
// storedIndirect), the address of the value v holds.
func ifaceData(v any) unsafe.Pointer {
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&v))[1]
}

// storedIndirect reports whether an interface holds a value of type t
// through a pointer to it, as it does for every type but the pointer-shaped
// ones (pointers, maps, channels, funcs, and a struct or array of one such
// element), whose value is the data word itself. The zero value tells the
// two apart: held directly, it is a nil word; held indirectly, the word
// points to a zero value.
func storedIndirect(t reflect.Type) bool {
	return ifaceData(reflect.Zero(t).Interface()) != nil
}
