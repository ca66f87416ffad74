package json

import (
	"bytes"
	"encoding"
	"reflect"
	"strconv"
	"unsafe"
)

type mapKeyKind uint8

const (
	keyInvalid mapKeyKind = iota
	keyString
	keyInt
	keyUint
	keyText // *K implements encoding.TextUnmarshaler (or Unmarshaler too)
)

var mapStringAnyType = reflect.TypeFor[map[string]any]()

// buildMap: a JSON object is merged into the map (allocated when nil). Each
// value is decoded into a fresh element, then stored under the converted
// key. Keys may be strings, integers (from their decimal text) or
// encoding.TextUnmarshaler.
func (b *builder) buildMap(td *typeDecoder, t reflect.Type) {
	kt, et := t.Key(), t.Elem()
	kind := keyInvalid
	switch {
	case reflect.PointerTo(kt).Implements(textUnmarshalerType):
		kind = keyText
		td.selfHooks = true
	case kt.Kind() == reflect.String:
		kind = keyString
	case kt.Kind() >= reflect.Int && kt.Kind() <= reflect.Int64:
		kind = keyInt
	case kt.Kind() >= reflect.Uint && kt.Kind() <= reflect.Uintptr:
		kind = keyUint
	}
	if kind == keyInvalid {
		td.fn = func(ds *decodeState, tok []byte, p unsafe.Pointer) error {
			switch tok[0] {
			case 'n':
				reflect.NewAt(t, p).Elem().SetZero()
				return nil
			case '{':
				// An unusable key type is reported when an object arrives.
				ds.typeError("object", t, ds.offset())
				return ds.skipRest()
			}
			return ds.mismatch(tok, t)
		}
		return
	}
	if fastPaths && kt == mapStringAnyType.Key() && et == mapStringAnyType.Elem() {
		td.fn = mapStringAnyDecoder(t)
		td.pass = &passInfo{at: mapAnyAt, nils: true}
		return
	}
	elem := b.dep(td, decodeKey{et, modeLoc, nil})
	if fastPaths && kind != keyText {
		td.pass = mapPass(t, elem, kind)
	}
	if fastPaths && kt == stringType {
		// A map from string to a predeclared scalar type is filled as
		// what it is, a Go map of that type: no reflect.Value per map and
		// no SetMapIndex per entry.
		switch et {
		case reflect.TypeFor[int]():
			td.fn = mapStringScalar[int](t, elem)
		case reflect.TypeFor[int64]():
			td.fn = mapStringScalar[int64](t, elem)
		case reflect.TypeFor[float64]():
			td.fn = mapStringScalar[float64](t, elem)
		case stringType:
			td.fn = mapStringScalar[string](t, elem)
		case reflect.TypeFor[bool]():
			td.fn = mapStringScalar[bool](t, elem)
		}
		if td.fn != nil {
			return
		}
	}
	keyBits := 0
	if kind == keyInt || kind == keyUint {
		keyBits = kt.Bits()
	}
	generic := func(ds *decodeState, tok []byte, p unsafe.Pointer) error {
		if open, err := mapOpen(ds, tok, t, p); !open {
			return err
		}
		m := reflect.NewAt(t, p).Elem()
		if m.IsNil() {
			m.Set(reflect.MakeMap(t))
		}
		ev := reflect.New(et).Elem()
		ep := ev.Addr().UnsafePointer()
		var kv reflect.Value // set for each member: the map copies it
		if kind != keyText {
			kv = reflect.New(kt).Elem()
		}
		d := ds.d
		first := true
		for {
			ktok, err := d.NextToken()
			if err != nil {
				return err
			}
			if ktok[0] == '}' {
				return nil
			}
			var key string
			var raw []byte
			var n uint64 // an integer key read plainly (intKeyAt)
			var keyStart int64
			plain := false
			switch kind {
			case keyText:
				raw = bytes.Clone(ktok)
			case keyString:
				key = ds.stringValue(ktok)
			default:
				n, key, keyStart, plain = ds.intKeyOf(ktok, kind, keyBits)
			}
			vtok, err := d.NextToken()
			if err != nil {
				return err
			}
			if !first {
				ev.SetZero()
			}
			first = false
			if err := elem.fn(ds, vtok, ep); err != nil {
				return err
			}
			switch kind {
			case keyString:
				kv.SetString(key)
				m.SetMapIndex(kv, ev)
			case keyInt, keyUint:
				if !plain {
					var ok bool
					if n, ok = ds.parseIntKey(key, kt, kind, keyStart); !ok {
						continue
					}
				}
				if kind == keyInt {
					kv.SetInt(int64(n))
				} else {
					kv.SetUint(n)
				}
				m.SetMapIndex(kv, ev)
			case keyText:
				k := reflect.New(kt)
				if err := unmarshalKey(k, raw); err != nil {
					return err
				}
				m.SetMapIndex(k.Elem(), ev)
			}
		}
	}
	td.fn = generic
	if fastPaths && kind != keyText {
		td.fn = mapGathered(t, elem, generic, kind)
	}
}

// intKeyOf reads ktok, the key token of a map with integer keys that
// NextToken just returned (the offset is right after it): its value when
// intKeyAt takes it (plain), else its unquoted string and the offset of
// its opening quote, for parseIntKey to parse after the member's value, as
// encoding/json does.
func (ds *decodeState) intKeyOf(ktok []byte, kind mapKeyKind, keyBits int) (n uint64, key string, keyStart int64, plain bool) {
	if fastPaths {
		if n, end := intKeyAt(ktok, 0, kind == keyInt, keyBits); end == len(ktok) {
			return n, "", 0, true
		}
	}
	return 0, ds.stringValue(ktok), ds.offset() - int64(len(ktok)), false
}

// parseIntKey parses key, the unquoted key of a member of a map whose key
// type kt is of kind keyInt or keyUint, as encoding/json does (strconv,
// base 10, within kt's range), or saves its type error at the offset
// after keyStart (the key's opening quote) and reports false: the member
// is then left out, its value read and dropped.
func (ds *decodeState) parseIntKey(key string, kt reflect.Type, kind mapKeyKind, keyStart int64) (uint64, bool) {
	if kind == keyInt {
		x, err := strconv.ParseInt(key, 10, 64)
		if err == nil && !reflect.Zero(kt).OverflowInt(x) {
			return uint64(x), true
		}
	} else {
		x, err := strconv.ParseUint(key, 10, 64)
		if err == nil && !reflect.Zero(kt).OverflowUint(x) {
			return x, true
		}
	}
	ds.typeError("number "+key, kt, keyStart+1)
	return 0, false
}

var stringType = reflect.TypeFor[string]()

// mapGathered is the decoder of t, a map type whose key is of kind
// string or an integer kind (kind: without UnmarshalText) and whose
// element is decoded by elem: any element under an integer key; under a
// string key, any but a predeclared scalar (mapStringScalar's), that is a
// struct, a slice, a pointer, a map. A new map is made at the object's
// end, at its number of members: made empty and filled as they were read,
// a map of more than 8 members grew and moved them once or twice on the
// way (countries' translations: 25 members each). Until then the keys
// gather on ds.mapKeys (strings, each read by memberKey and made by
// valueString, as mapStringScalar's) or ds.mapIntKeys (integers, read by
// intKeyOf), and the values in a scratch slice of the element type (one
// per decoder and nesting level, zeroed between uses, doubled when full). A member whose integer key encoding/json refuses is
// left out, as there: its type error saved, its value decoded into the
// next free slot, which is zeroed again. A map that is already there goes
// to generic, which sets the members as they are read.
//
// On an error from a value (a method's, as UnmarshalJSON's: after a
// syntax error the speculative pass puts the target back), the members
// before it are in the map, as in encoding/json, which makes the map at
// the object's start and sets each member once its value is decoded.
func mapGathered(t reflect.Type, elem *typeDecoder, generic decodeFn, kind mapKeyKind) decodeFn {
	st := reflect.SliceOf(t.Elem())
	size := t.Elem().Size()
	small := 4
	if size > 0 {
		small = max(4, min(64, 2048/int(size)))
	}
	kt := t.Key()
	keyBits := 0
	var fillInts func(sc *sliceScratch, keys []uint64, p unsafe.Pointer)
	if kind != keyString {
		keyBits = kt.Bits()
		fillInts = fillIntKeys(t, kind == keyInt)
	}
	id := nextScratchID()
	return func(ds *decodeState, tok []byte, p unsafe.Pointer) error {
		if open, err := mapOpen(ds, tok, t, p); !open {
			return err
		}
		if *(*unsafe.Pointer)(p) != nil {
			return generic(ds, tok, p)
		}
		d := ds.d
		base, intBase := len(ds.mapKeys), len(ds.mapIntKeys)
		sc := ds.takeScratch(id, st, small)
		sc.buf.SetLen(sc.buf.Cap()) // one that grew before: all of it
		n := 0
		var err error
		for first := true; ; first = false {
			var ktok, vtok []byte
			var key string
			var intKey uint64
			var keyStart int64
			plain := false
			if kind == keyString {
				if ktok, err = d.memberKey(first); err != nil || ktok[0] == '}' {
					break
				}
				key = ds.valueString(ktok)
			} else {
				// By NextToken, which leaves the offset just after the
				// key, where its type error is placed from.
				if ktok, err = d.NextToken(); err != nil || ktok[0] == '}' {
					break
				}
				intKey, key, keyStart, plain = ds.intKeyOf(ktok, kind, keyBits)
			}
			if vtok, err = d.NextToken(); err != nil {
				break
			}
			if n == sc.buf.Len() {
				sc.grow()
			}
			if err = elem.fn(ds, vtok, unsafe.Add(sc.base, uintptr(n)*size)); err != nil {
				break
			}
			switch {
			case kind == keyString:
				ds.mapKeys = append(ds.mapKeys, key)
			case plain:
				ds.mapIntKeys = append(ds.mapIntKeys, intKey)
			default:
				// Parsed after the value, as encoding/json does: the
				// value's type error, if any, is the one saved first.
				var ok bool
				if intKey, ok = ds.parseIntKey(key, kt, kind, keyStart); !ok {
					sc.buf.Index(n).SetZero() // the slot is the next member's
					continue
				}
				ds.mapIntKeys = append(ds.mapIntKeys, intKey)
			}
			n++
		}
		if kind == keyString {
			m := reflect.MakeMapWithSize(t, n)
			if sc.key.Kind() == reflect.Invalid {
				sc.key = reflect.New(kt).Elem()
			}
			for i, k := range ds.mapKeys[base:] {
				sc.key.SetString(k) // a key that came twice: the last one wins
				m.SetMapIndex(sc.key, sc.buf.Index(i))
			}
			*(*unsafe.Pointer)(p) = m.UnsafePointer()
			sc.key.SetString("")
			clear(ds.mapKeys[base:]) // nothing kept alive
			ds.mapKeys = ds.mapKeys[:base]
		} else {
			fillInts(sc, ds.mapIntKeys[intBase:], p)
			ds.mapIntKeys = ds.mapIntKeys[:intBase]
		}
		// The failed value may have written into its slot too.
		ds.dropScratch(id, sc, min(n+1, sc.buf.Len()))
		return err
	}
}

// mapStringScalar is the decoder of t, a map type whose key is string and
// whose element is V, a predeclared scalar type decoded by elem: the
// generic path's steps (each value into a zeroed element, then stored under
// its key; a type error leaves the zero value stored), on the map as a
// map[string]V. t may be a named type; its values have map[string]V's
// representation. Each key is read by memberKey and made as a typed
// value's string is (valueString: a key of a map of data, an id or a
// word, seldom comes again); each value is read in place by scalarNext
// where it takes it (a null leaves the zero value, as elem does), else as
// a token by elem. (Both as tokens, and the keys through the string
// table: rec-map's maps of 8 to 32 keys, 31% more package instructions.)
//
// A new map is made at the object's end, at its number of members,
// gathered until then in ds.mapMembers: made empty and filled as it was
// read, a map of more than 8 members grew and moved them once or twice on
// the way. A map that is already there gets the members as they are read.
func mapStringScalar[V any](t reflect.Type, elem *typeDecoder) decodeFn {
	return func(ds *decodeState, tok []byte, p unsafe.Pointer) error {
		if open, err := mapOpen(ds, tok, t, p); !open {
			return err
		}
		m := (*map[string]V)(p)
		var gathered *[]keyed[V]
		var ms []keyed[V]
		if *m == nil {
			var ok bool
			if gathered, ok = ds.mapMembers.(*[]keyed[V]); !ok {
				gathered = new([]keyed[V])
				ds.mapMembers = gathered
			}
			ms = (*gathered)[:0]
		}
		d := ds.d
		k := elem.direct
		var err error
		var v *V // a map that is there: each value is decoded here first
		for first := true; ; first = false {
			var ktok, vtok []byte
			if ktok, err = d.memberKey(first); err != nil || ktok[0] == '}' {
				break
			}
			key := ds.valueString(ktok)
			var vp unsafe.Pointer
			if gathered != nil { // decoded in its place among the members
				ms = append(ms, keyed[V]{k: key})
				vp = unsafe.Pointer(&ms[len(ms)-1].v)
			} else {
				if v == nil {
					v = new(V)
				} else {
					var zero V
					*v = zero
				}
				vp = unsafe.Pointer(v)
			}
			// The value read in place where it can be (a null leaves the
			// zero value, as elem.fn does); else as a token.
			if k == directNone || d.state != &atObjectValue || !ds.scalarNext(k, false, &atObjectComma, vp) {
				if vtok, err = d.NextToken(); err != nil {
					break // (the members gathered are dropped, below)
				}
				if err = elem.fn(ds, vtok, vp); err != nil {
					break
				}
			}
			if gathered == nil {
				(*m)[key] = *v
			}
		}
		if gathered != nil {
			if err == nil {
				*m = make(map[string]V, len(ms))
				for _, e := range ms {
					(*m)[e.k] = e.v // a key that came twice: the last one wins
				}
			}
			clear(ms) // the keys: nothing kept alive
			*gathered = ms[:0]
			if cap(ms) > maxKeptAnyBuf/2 {
				*gathered = nil
			}
		}
		return err
	}
}

// keyed is a member of a map[string]V being read (mapStringScalar).
type keyed[V any] struct {
	k string
	v V
}

// mapOpen is the start of every map decoder: it reports whether tok opens
// an object, to be decoded into the map of type t at p. A null sets the
// map to nil (a map value is one pointer) and anything else is t's type
// error; both end the value.
func mapOpen(ds *decodeState, tok []byte, t reflect.Type, p unsafe.Pointer) (bool, error) {
	switch tok[0] {
	case '{':
		return true, nil
	case 'n':
		*(*unsafe.Pointer)(p) = nil
		return false, nil
	}
	return false, ds.mismatch(tok, t)
}

// unmarshalKey fills the key at pointer k from the raw key token, as
// encoding/json does: UnmarshalJSON with the quoted token if *K has it, else
// UnmarshalText with the unquoted key.
func unmarshalKey(k reflect.Value, raw []byte) error {
	x := k.Interface()
	if u, ok := x.(Unmarshaler); ok {
		return u.UnmarshalJSON(raw)
	}
	return x.(encoding.TextUnmarshaler).UnmarshalText(AppendUnquoted(nil, raw))
}

// mapStringAnyDecoder is the map decoder for map[string]any (and named
// types of it), with interned keys.
func mapStringAnyDecoder(t reflect.Type) decodeFn {
	return func(ds *decodeState, tok []byte, p unsafe.Pointer) error {
		if open, err := mapOpen(ds, tok, t, p); !open {
			return err
		}
		m, err := ds.anyObject(0, *(*map[string]any)(p))
		if err == nil {
			*(*map[string]any)(p) = m
		}
		return err
	}
}
