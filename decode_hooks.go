package json

import (
	"encoding"
	"fmt"
	"reflect"
	"unsafe"
)

// unmarshalerDecoder calls UnmarshalJSON of *elem on the value at p with the
// value's exact input bytes (null included). Its error is returned as is.
func unmarshalerDecoder(elem reflect.Type) decodeFn {
	return func(ds *decodeState, tok []byte, p unsafe.Pointer) error {
		raw, err := ds.rawValue(tok)
		if err != nil {
			return err
		}
		u := reflect.NewAt(elem, p).Interface().(Unmarshaler)
		return u.UnmarshalJSON(raw)
	}
}

// decodeRawMessage is RawMessage's UnmarshalJSON without the interface call:
// a copy of the value's input, reusing the existing backing array.
func decodeRawMessage(ds *decodeState, tok []byte, p unsafe.Pointer) error {
	raw, err := ds.rawValue(tok)
	if err != nil {
		return err
	}
	m := (*RawMessage)(p)
	*m = append((*m)[0:0], raw...)
	return nil
}

// textUnmarshalerDecoder calls UnmarshalText of *elem with the unquoted
// string; null is decoded by null (elem's kind); other values are type
// errors that name errType.
func textUnmarshalerDecoder(elem, errType reflect.Type, null *typeDecoder) decodeFn {
	return func(ds *decodeState, tok []byte, p unsafe.Pointer) error {
		switch tok[0] {
		case '"':
			u := reflect.NewAt(elem, p).Interface().(encoding.TextUnmarshaler)
			return u.UnmarshalText(ds.unquote(tok))
		case 'n':
			return null.fn(ds, tok, p)
		}
		return ds.mismatch(tok, errType)
	}
}

// roPointerDecoder is for a tagged, unexported embedded pointer field: it
// cannot be set, so null leaves it alone and a nil one cannot be allocated.
func roPointerDecoder(t reflect.Type, elem *typeDecoder) decodeFn {
	return func(ds *decodeState, tok []byte, p unsafe.Pointer) error {
		pp := (*unsafe.Pointer)(p)
		if *pp == nil {
			if tok[0] == 'n' {
				return nil
			}
			ds.saveError(fmt.Errorf("json: cannot set embedded pointer to unexported struct: %v", t.Elem()))
			return ds.skip(tok)
		}
		return elem.fn(ds, tok, *pp)
	}
}
