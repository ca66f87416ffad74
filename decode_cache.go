package json

import (
	"encoding"
	"reflect"
	"sync"
	"time"
	"unsafe"
)

// Per-type decoders, built once per reflect.Type and cached.
//
// A decodeFn decodes the JSON value that starts with tok (the token just
// read from ds.d) into the Go value at p, reading the rest of the value from
// ds.d. It returns only fatal errors; type errors are saved in ds and
// decoding carries on, as encoding/json does.
type decodeFn func(ds *decodeState, tok []byte, p unsafe.Pointer) error

type typeDecoder struct {
	fn decodeFn
	// hooks reports whether decoding may run user code (an Unmarshaler or
	// encoding.TextUnmarshaler other than the package's own RawMessage and
	// time.Time): then Unmarshal validates the whole input first.
	hooks bool

	// flat says what decoding can write into: for a flat type, only the
	// value's own memory (no pointers, slices, maps or interfaces inside;
	// strings are replaced, never written through).
	flat flatness

	// direct: fn is the plain decoder of a float64, int64 or string kind,
	// which array, slice and struct decoders may replace by scalarNext.
	direct direct

	// sd, when fn is a struct decoder (sd.decode), is that decoder. It is
	// given the '{' token, which slice decoders may read with openObject;
	// a slice's elements, a struct's fields and Unmarshal's value call it
	// straight (a branch at each, not a helper: one holding both calls
	// does not inline), as fn's call goes through the method value's
	// wrapper, once for every record (about 1% of rec-fields3's
	// instructions).
	sd *structDecoder

	selfHooks bool           // this decoder itself may run user code
	deps      []*typeDecoder // decoders this one calls
	forward   *typeDecoder   // fn only calls forward.fn: resolved at publish

	// slice, when fn is a slice decoder (buildSlice), is what the typed
	// one pass needs of it to gather a new slice (decode_struct_bytes.go);
	// pass, when fn is a pointer's or a map's with string keys, how the
	// pass reads its values (passInfo).
	slice *sliceInfo
	pass  *passInfo
}

// How the value at p is reached, which decides where encoding/json looks for
// Unmarshaler and TextUnmarshaler methods (its indirect function).
type decodeMode uint8

const (
	// modeLoc: a settable location of type t (a field, an element): a named
	// non-pointer type is addressed first, so methods on *t count.
	modeLoc decodeMode = iota
	// modeElem: a settable location reached through a pointer: no
	// addressing step; pointers are followed, allocating when nil.
	modeElem
	// modeTop: t is a non-nil pointer type that cannot be set (the argument
	// of Unmarshal, or a pointer held by an interface): t's methods count,
	// then its element is decoded as modeElem.
	modeTop
	// modeRO: a location that cannot be set nor interfaced (a tagged,
	// unexported embedded struct field): no methods are looked at.
	modeRO
	// modeKind: the value's kind decides, no methods.
	modeKind
)

type decodeKey struct {
	t    reflect.Type
	mode decodeMode
	// errType is the type UnmarshalTypeError names when a value does not
	// fit a TextUnmarshaler: the type of the location decoding started at.
	errType reflect.Type
}

var decoderCache sync.Map // decodeKey -> *typeDecoder

var (
	unmarshalerType     = reflect.TypeFor[Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	rawMessageType      = reflect.TypeFor[RawMessage]()
	numberType          = reflect.TypeFor[Number]()
	timeType            = reflect.TypeFor[time.Time]()
)

// topDecoder returns the decoder for the argument of Unmarshal or Decode, a
// pointer of type pt.
func topDecoder(pt reflect.Type) *typeDecoder {
	if td, ok := topCache.Load(pt); ok {
		return td.(*typeDecoder)
	}
	td := cachedDecoder(decodeKey{pt, modeTop, pt})
	topCache.Store(pt, td)
	return td
}

var topCache sync.Map // pointer type -> *typeDecoder, for topDecoder

// canonical maps a key whose decoder would only call another one to that
// other key, so that every type has as few decoders as it needs.
func canonical(k decodeKey) decodeKey {
	for {
		t := k.t
		switch k.mode {
		case modeLoc:
			if k.errType == nil {
				k.errType = t
			}
			if t.Kind() != reflect.Pointer && t.Name() != "" && hasHook(reflect.PointerTo(t)) {
				return k
			}
			k.mode = modeElem
		case modeElem:
			switch t.Kind() {
			case reflect.Pointer:
				return k
			case reflect.Interface:
				return decodeKey{t, modeKind, nil}
			}
			k = decodeKey{t, modeKind, nil}
		case modeTop:
			if hasHook(t) {
				return k
			}
			k = decodeKey{t.Elem(), modeElem, k.errType}
		case modeRO:
			k.errType = nil
			if t.Kind() == reflect.Pointer {
				return k
			}
			k.mode = modeKind
		default:
			if t.Kind() == reflect.Pointer {
				k = decodeKey{t, modeElem, t}
				continue
			}
			k.errType = nil
			return k
		}
	}
}

// hasHook reports whether the pointer type pt has UnmarshalJSON or
// UnmarshalText (or, on Go 1.27, UnmarshalJSONFrom).
func hasHook(pt reflect.Type) bool {
	return pt.NumMethod() > 0 && (pt.Implements(unmarshalerType) || pt.Implements(textUnmarshalerType) || hasUnmarshalFrom(pt))
}

func cachedDecoder(k decodeKey) *typeDecoder {
	k = canonical(k)
	if td, ok := decoderCache.Load(k); ok {
		return td.(*typeDecoder)
	}
	b := &builder{built: map[decodeKey]*typeDecoder{}}
	td := b.get(k)
	b.publish()
	return td
}

// A builder builds the decoders of one type and of every type it reaches
// that is not cached yet. Recursive types refer to the decoder being built,
// whose fn is set before any of them is published.
type builder struct {
	built map[decodeKey]*typeDecoder
	order []*typeDecoder
}

func (b *builder) get(k decodeKey) *typeDecoder {
	k = canonical(k)
	if td, ok := decoderCache.Load(k); ok {
		return td.(*typeDecoder)
	}
	if td, ok := b.built[k]; ok {
		return td
	}
	td := &typeDecoder{}
	b.built[k] = td
	b.order = append(b.order, td)
	b.build(td, k)
	return td
}

// dep returns the decoder for k and records that td calls it.
func (b *builder) dep(td *typeDecoder, k decodeKey) *typeDecoder {
	d := b.get(k)
	td.deps = append(td.deps, d)
	return d
}

// publish works out hooks over the graph just built, replaces forwarding
// decoders' fn by their target's (one indirect call per value, not three),
// and caches the graph.
func (b *builder) publish() {
	// hooks: a fixed point over the graph (it may have cycles); cached
	// decoders already have theirs.
	for _, td := range b.order {
		td.hooks = td.selfHooks
	}
	for changed := true; changed; {
		changed = false
		for _, td := range b.order {
			if td.hooks {
				continue
			}
			for _, d := range td.deps {
				if d.hooks {
					td.hooks, changed = true, true
					break
				}
			}
		}
	}
	for _, td := range b.order {
		t := td
		for n := 0; t.forward != nil && n < 8; n++ {
			t = t.forward
		}
		if t != td && t.forward == nil {
			td.fn = t.fn
		}
	}
	for k, td := range b.built {
		td.deps = nil
		td.forward = nil
		decoderCache.LoadOrStore(k, td)
	}
}

// forwardTo makes td do what d does.
func (td *typeDecoder) forwardTo(d *typeDecoder) {
	td.fn = d.call
	td.forward = d
}

func (b *builder) build(td *typeDecoder, k decodeKey) {
	t := k.t
	switch k.mode {
	case modeLoc:
		et := k.errType
		if et == nil {
			et = t
		}
		if t.Kind() != reflect.Pointer && t.Name() != "" {
			pt := reflect.PointerTo(t)
			if pt.NumMethod() > 0 && b.hook(td, pt, t, et) {
				return
			}
		}
		td.forwardTo(b.dep(td, decodeKey{t, modeElem, et}))
	case modeElem:
		switch t.Kind() {
		case reflect.Pointer:
			b.buildPointer(td, t, k.errType)
		case reflect.Interface:
			td.fn = interfaceDecoder(t)
		default:
			td.forwardTo(b.dep(td, decodeKey{t, modeKind, nil}))
		}
	case modeTop:
		if t.NumMethod() > 0 && b.hook(td, t, t.Elem(), k.errType) {
			return
		}
		td.forwardTo(b.dep(td, decodeKey{t.Elem(), modeElem, k.errType}))
	case modeRO:
		if t.Kind() == reflect.Pointer {
			elem := b.dep(td, decodeKey{t.Elem(), modeKind, nil})
			td.fn = roPointerDecoder(t, elem)
			return
		}
		td.forwardTo(b.dep(td, decodeKey{t, modeKind, nil}))
	case modeKind:
		b.buildKind(td, t)
	}
}

// call lets a *typeDecoder stand where a decodeFn is wanted while the
// decoder may still be under construction.
func (td *typeDecoder) call(ds *decodeState, tok []byte, p unsafe.Pointer) error {
	return td.fn(ds, tok, p)
}

// hook sets td to call an Unmarshaler or TextUnmarshaler method of pointer
// type pt on the value at p (of type elem), if pt has one. errType is what
// type errors name.
func (b *builder) hook(td *typeDecoder, pt, elem, errType reflect.Type) bool {
	if b.fromHook(td, pt, elem, errType) { // UnmarshalJSONFrom first (jsonto_go127.go)
		return true
	}
	if pt.Implements(unmarshalerType) {
		switch elem {
		case rawMessageType:
			td.fn = decodeRawMessage
			if fastPaths {
				td.pass = &passInfo{at: rawAt, raw: true}
			}
		case timeType:
			td.fn = unmarshalerDecoder(elem)
			if fastPaths {
				td.pass = &passInfo{at: timeAt}
			}
		default:
			td.selfHooks = true
			td.fn = unmarshalerDecoder(elem)
			if fastPaths {
				td.pass = &passInfo{at: hookAt(elem, false), hook: true}
			}
		}
		return true
	}
	if pt.Implements(textUnmarshalerType) {
		td.selfHooks = true
		// null is decoded by the kind of elem, as if there were no method.
		null := b.dep(td, decodeKey{elem, modeElem, errType})
		td.fn = textUnmarshalerDecoder(elem, errType, null)
		if fastPaths {
			td.pass = &passInfo{at: hookAt(elem, true), hook: true}
		}
		return true
	}
	return false
}

// buildPointer: a settable pointer of type t. null sets it to nil; anything
// else allocates the element when nil, then looks at t's methods, then
// decodes into the element.
func (b *builder) buildPointer(td *typeDecoder, t, errType reflect.Type) {
	elem := t.Elem()
	var next *typeDecoder
	if t.NumMethod() > 0 {
		h := &typeDecoder{}
		if b.hook(h, t, elem, errType) {
			// h is no decoder of the builder's graph (b.order), whose
			// hooks publish works out: its own are set here, or a struct
			// holding a *T whose methods are *T's would not be validated
			// first, and T's method would run on input with a syntax
			// error further on, where encoding/json calls none.
			h.hooks = h.selfHooks
			next = h
			td.deps = append(td.deps, h)
		}
	}
	if next == nil {
		next = b.dep(td, decodeKey{elem, modeElem, errType})
	}
	if fastPaths && (!next.selfHooks || next.pass != nil) { // (a *time.Time's next is its hook)
		td.pass = &passInfo{elem: next, at: pointerAt(elem, next), nils: true}
	}
	td.fn = func(ds *decodeState, tok []byte, p unsafe.Pointer) error {
		pp := (*unsafe.Pointer)(p)
		if tok[0] == 'n' {
			*pp = nil
			return nil
		}
		if *pp == nil {
			*pp = reflect.New(elem).UnsafePointer()
		}
		return next.fn(ds, tok, *pp)
	}
}

type flatness uint8

const (
	notFlat        flatness = iota
	flatNoPointers          // bools and numbers only
	flatStrings             // strings too
)

// flatnessOf returns how flat t is.
func flatnessOf(t reflect.Type) flatness {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return flatNoPointers
	case reflect.String:
		return flatStrings
	case reflect.Array:
		if t.Len() == 0 {
			return flatNoPointers
		}
		return flatnessOf(t.Elem())
	case reflect.Struct:
		f := flatNoPointers
		for i := 0; i < t.NumField(); i++ {
			switch flatnessOf(t.Field(i).Type) {
			case notFlat:
				return notFlat
			case flatStrings:
				f = flatStrings
			}
		}
		return f
	}
	return notFlat
}

func (b *builder) buildKind(td *typeDecoder, t reflect.Type) {
	td.flat = flatnessOf(t)
	switch t.Kind() {
	case reflect.Bool:
		td.fn = boolDecoder(t)
		td.direct = directBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		td.fn = integerDecoder(t)
		if (t.Kind() == reflect.Int || t.Kind() == reflect.Int64) && t.Size() == 8 {
			td.direct = directInt64
		} else if fastPaths {
			td.pass = &passInfo{at: narrowAt(t)}
		}
	case reflect.Float32, reflect.Float64:
		td.fn = floatDecoder(t)
		if t.Kind() == reflect.Float64 {
			td.direct = directFloat64
		} else if fastPaths {
			td.pass = &passInfo{at: narrowAt(t)}
		}
	case reflect.String:
		if t == numberType {
			td.fn = decodeNumber
			td.direct = directNumber
		} else {
			td.fn = stringDecoder(t)
			td.direct = directString
		}
	case reflect.Struct:
		b.buildStruct(td, t)
	case reflect.Map:
		b.buildMap(td, t)
	case reflect.Slice:
		b.buildSlice(td, t)
	case reflect.Array:
		b.buildArray(td, t)
	case reflect.Interface:
		td.fn = interfaceDecoder(t)
		td.direct = directPointerOf(t)
	case reflect.Pointer:
		td.forwardTo(b.dep(td, decodeKey{t, modeElem, t}))
	default:
		td.fn = mismatchDecoder(t)
	}
}

// mismatchDecoder is for kinds JSON cannot fill (complex, chan, func,
// unsafe.Pointer): every value but null is a type error.
func mismatchDecoder(t reflect.Type) decodeFn {
	return func(ds *decodeState, tok []byte, p unsafe.Pointer) error {
		return ds.mismatch(tok, t)
	}
}
