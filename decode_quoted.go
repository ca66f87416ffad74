package json

import (
	"encoding"
	"encoding/base64"
	"fmt"
	"reflect"
	"strconv"
	"unsafe"

	"github.com/jsonpipe/json/internal/unquote"

	"github.com/jsonpipe/json/internal/number"
)

// The ",string" struct tag option: the value is a JSON string whose content
// is decoded as a JSON literal. It is rare, and its corner cases are many,
// so this path works on reflect.Values and follows encoding/json's
// literalStore step by step.

// decodeQuoted decodes the value starting with tok into the ",string" field f
// at p.
func (ds *decodeState) decodeQuoted(f *fieldDecoder, tok []byte, p unsafe.Pointer) error {
	switch c := tok[0]; {
	case c == '{' || c == '[':
		if err := ds.skipRest(); err != nil {
			return err
		}
	case c == 'n':
		return f.dec.fn(ds, tok, p)
	case c == '"':
		// A number or a bool written plainly, as the typed one pass
		// reads it (quotedAt), without the copy and the reflect.Values (a
		// 1 MB array that Decode reads by tokens: the pass takes only
		// what its window holds whole).
		if (f.quotedFast != fastNone || f.quotedNarrow != nil) && quotedAt(f, tok, 0, p) == len(tok) {
			return nil
		}
		item := append([]byte(nil), ds.unquote(tok)...)
		return ds.literalStoreQuoted(item, reflect.NewAt(f.typ, p).Elem())
	case c == 't' || c == 'f':
	default: // a number
		if !ds.useNumber {
			if _, err := number.ParseFloat(tok, 64); err != nil {
				// encoding/json converts it as for an interface, saves
				// the error and goes on as if it were null.
				ds.typeError("number "+string(tok), float64Type, ds.offset()+1)
				return f.dec.fn(ds, []byte("null"), p)
			}
		}
	}
	ds.saveError(fmt.Errorf("json: invalid use of ,string struct tag, trying to unmarshal unquoted value into %v", f.typ))
	return nil
}

func invalidStringTag(item []byte, t reflect.Type) error {
	return fmt.Errorf("json: invalid use of ,string struct tag, trying to unmarshal %q into %v", item, t)
}

// literalStoreQuoted stores the literal item, the content of a ",string"
// value, into v.
func (ds *decodeState) literalStoreQuoted(item []byte, v reflect.Value) error {
	if len(item) == 0 {
		ds.saveError(invalidStringTag(item, v.Type()))
		return nil
	}
	isNull := item[0] == 'n'
	u, ut, pv := indirectValue(v, isNull)
	if u != nil {
		return u.UnmarshalJSON(item)
	}
	if ut != nil {
		if item[0] != '"' {
			ds.saveError(invalidStringTag(item, v.Type()))
			return nil
		}
		s, ok := unquote.AppendChecked(make([]byte, 0, len(item)), item)
		if !ok {
			return invalidStringTag(item, v.Type())
		}
		return ut.UnmarshalText(s)
	}
	v = pv
	off := ds.offset()
	switch c := item[0]; c {
	case 'n':
		if string(item) != "null" {
			ds.saveError(invalidStringTag(item, v.Type()))
			break
		}
		switch v.Kind() {
		case reflect.Interface, reflect.Pointer, reflect.Map, reflect.Slice:
			v.SetZero()
		}
	case 't', 'f':
		value := c == 't'
		if string(item) != "true" && string(item) != "false" {
			ds.saveError(invalidStringTag(item, v.Type()))
			break
		}
		switch v.Kind() {
		default:
			ds.saveError(invalidStringTag(item, v.Type()))
		case reflect.Bool:
			v.SetBool(value)
		case reflect.Interface:
			if v.NumMethod() == 0 {
				v.Set(reflect.ValueOf(value))
			} else {
				ds.typeError("bool", v.Type(), off)
			}
		}
	case '"':
		s, ok := unquote.AppendChecked(make([]byte, 0, len(item)), item)
		if !ok {
			return invalidStringTag(item, v.Type())
		}
		switch v.Kind() {
		default:
			ds.typeError("string", v.Type(), off)
		case reflect.Slice:
			if v.Type().Elem().Kind() != reflect.Uint8 {
				ds.typeError("string", v.Type(), off)
				break
			}
			b := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
			n, err := base64.StdEncoding.Decode(b, s)
			if err != nil {
				ds.saveError(err)
				break
			}
			v.SetBytes(b[:n])
		case reflect.String:
			t := string(s)
			if v.Type() == numberType && !isValidNumber(s) {
				return fmt.Errorf("json: invalid number literal, trying to unmarshal %q into Number", item)
			}
			v.SetString(t)
		case reflect.Interface:
			if v.NumMethod() == 0 {
				v.Set(reflect.ValueOf(string(s)))
			} else {
				ds.typeError("string", v.Type(), off)
			}
		}
	default: // a number, or anything
		if c != '-' && (c < '0' || c > '9') {
			return invalidStringTag(item, v.Type())
		}
		s := string(item)
		switch v.Kind() {
		default:
			if v.Kind() == reflect.String && v.Type() == numberType {
				v.SetString(s)
				break
			}
			return invalidStringTag(item, v.Type())
		case reflect.Interface:
			var n any
			if ds.useNumber {
				n = Number(s)
			} else {
				f, err := strconv.ParseFloat(s, 64)
				if err != nil {
					ds.typeError("number "+s, float64Type, off+1)
					break
				}
				n = f
			}
			if v.NumMethod() != 0 {
				ds.typeError("number", v.Type(), off)
				break
			}
			v.Set(reflect.ValueOf(n))
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil || v.OverflowInt(n) {
				ds.typeError("number "+s, v.Type(), off)
				break
			}
			v.SetInt(n)
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			n, err := strconv.ParseUint(s, 10, 64)
			if err != nil || v.OverflowUint(n) {
				ds.typeError("number "+s, v.Type(), off)
				break
			}
			v.SetUint(n)
		case reflect.Float32, reflect.Float64:
			n, err := strconv.ParseFloat(s, v.Type().Bits())
			if err != nil || v.OverflowFloat(n) {
				ds.typeError("number "+s, v.Type(), off)
				break
			}
			v.SetFloat(n)
		}
	}
	return nil
}

// indirectValue is encoding/json's indirect on reflect.Values: it walks down
// v, allocating nil pointers, until it reaches a non-pointer or a value with
// an UnmarshalJSON (or, unless decodingNull, UnmarshalText) method. With
// decodingNull it stops at the first settable pointer, so that it can be set
// to nil.
func indirectValue(v reflect.Value, decodingNull bool) (Unmarshaler, encoding.TextUnmarshaler, reflect.Value) {
	v0 := v
	haveAddr := false
	// A named, addressable value: start at its address, so that methods
	// with pointer receivers are found.
	if v.Kind() != reflect.Pointer && v.Type().Name() != "" && v.CanAddr() {
		haveAddr = true
		v = v.Addr()
	}
	for {
		// Follow a non-nil pointer held by an interface.
		if v.Kind() == reflect.Interface && !v.IsNil() {
			e := v.Elem()
			if e.Kind() == reflect.Pointer && !e.IsNil() && (!decodingNull || e.Elem().Kind() == reflect.Pointer) {
				haveAddr = false
				v = e
				continue
			}
		}
		if v.Kind() != reflect.Pointer {
			break
		}
		if decodingNull && v.CanSet() {
			break
		}
		// An interface that holds a pointer to itself.
		if v.Elem().Kind() == reflect.Interface && v.Elem().Elem().Equal(v) {
			v = v.Elem()
			break
		}
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		if v.Type().NumMethod() > 0 && v.CanInterface() {
			if u, ok := v.Interface().(Unmarshaler); ok {
				return u, nil, reflect.Value{}
			}
			if !decodingNull {
				if u, ok := v.Interface().(encoding.TextUnmarshaler); ok {
					return nil, u, reflect.Value{}
				}
			}
		}
		if haveAddr {
			v = v0 // keep the original flags after the Addr round trip
			haveAddr = false
		} else {
			v = v.Elem()
		}
	}
	return nil, nil, v
}
