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
		return
	}
	elem := b.dep(td, decodeKey{et, modeLoc, nil})
	td.fn = func(ds *decodeState, tok []byte, p unsafe.Pointer) error {
		switch tok[0] {
		case '{':
		case 'n':
			reflect.NewAt(t, p).Elem().SetZero()
			return nil
		default:
			return ds.mismatch(tok, t)
		}
		m := reflect.NewAt(t, p).Elem()
		if m.IsNil() {
			m.Set(reflect.MakeMap(t))
		}
		ev := reflect.New(et).Elem()
		ep := ev.Addr().UnsafePointer()
		var kv reflect.Value
		if kind == keyString {
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
			keyStart := ds.offset() - int64(len(ktok))
			var key string
			var raw []byte
			if kind == keyText {
				raw = bytes.Clone(ktok)
			} else {
				key = ds.stringValue(ktok)
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
			case keyInt:
				n, err := strconv.ParseInt(key, 10, 64)
				if err != nil || reflect.Zero(kt).OverflowInt(n) {
					ds.typeError("number "+key, kt, keyStart+1)
					continue
				}
				k := reflect.New(kt).Elem()
				k.SetInt(n)
				m.SetMapIndex(k, ev)
			case keyUint:
				n, err := strconv.ParseUint(key, 10, 64)
				if err != nil || reflect.Zero(kt).OverflowUint(n) {
					ds.typeError("number "+key, kt, keyStart+1)
					continue
				}
				k := reflect.New(kt).Elem()
				k.SetUint(n)
				m.SetMapIndex(k, ev)
			case keyText:
				k := reflect.New(kt)
				if err := unmarshalKey(k, raw); err != nil {
					return err
				}
				m.SetMapIndex(k.Elem(), ev)
			}
		}
	}
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
		switch tok[0] {
		case '{':
		case 'n':
			*(*map[string]any)(p) = nil
			return nil
		default:
			return ds.mismatch(tok, t)
		}
		m, err := ds.anyObject(0, *(*map[string]any)(p))
		if err == nil {
			*(*map[string]any)(p) = m
		}
		return err
	}
}
