package json

import (
	"encoding/base64"
	"reflect"
	"unsafe"
)

var bytesType = reflect.TypeFor[[]byte]()

// buildSlice: a JSON array fills a slice from index 0, reusing its backing
// array (existing elements are decoded into, as encoding/json does), growing
// it when full, and truncating it to the array's length; an empty array
// gives an empty non-nil slice; null gives nil; a string fills a byte slice
// from base64.
func (b *builder) buildSlice(td *typeDecoder, t reflect.Type) {
	et := t.Elem()
	elem := b.dep(td, decodeKey{et, modeLoc, nil})
	size := et.Size()
	isBytes := et.Kind() == reflect.Uint8
	td.fn = func(ds *decodeState, tok []byte, p unsafe.Pointer) error {
		switch tok[0] {
		case '[':
		case 'n':
			reflect.NewAt(t, p).Elem().SetZero()
			return nil
		case '"':
			if isBytes {
				ds.decodeBase64(tok, t, p)
				return nil
			}
			return ds.mismatch(tok, t)
		default:
			return ds.mismatch(tok, t)
		}
		v := reflect.NewAt(t, p).Elem()
		n, c := v.Len(), v.Cap()
		base := v.UnsafePointer()
		d := ds.d
		i := 0
		for ; ; i++ {
			tok, err := d.NextToken()
			if err != nil {
				return err
			}
			if tok[0] == ']' {
				break
			}
			if i >= c {
				// Grow, keeping the i elements decoded so far.
				if i > n {
					v.SetLen(i)
				}
				v.Grow(1)
				n, c = i, v.Cap()
				base = v.UnsafePointer()
			}
			if err := elem.fn(ds, tok, unsafe.Add(base, uintptr(i)*size)); err != nil {
				return err
			}
		}
		if i == 0 {
			v.Set(reflect.MakeSlice(t, 0, 0))
			return nil
		}
		v.SetLen(i)
		return nil
	}
}

// decodeBase64 fills the byte slice at p from the base64 string token tok;
// a malformed string saves base64's error and leaves the slice alone.
func (ds *decodeState) decodeBase64(tok []byte, t reflect.Type, p unsafe.Pointer) {
	s := ds.unquote(tok)
	b := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
	n, err := base64.StdEncoding.Decode(b, s)
	if err != nil {
		ds.saveError(err)
		return
	}
	if t == bytesType {
		*(*[]byte)(p) = b[:n]
		return
	}
	reflect.NewAt(t, p).Elem().SetBytes(b[:n])
}

// buildArray: a JSON array fills a Go array from index 0; extra elements are
// dropped and missing ones zeroed. Anything but an array or null is a type
// error (a string does not fill a byte array).
func (b *builder) buildArray(td *typeDecoder, t reflect.Type) {
	et := t.Elem()
	elem := b.dep(td, decodeKey{et, modeLoc, nil})
	size := et.Size()
	n := t.Len()
	td.fn = func(ds *decodeState, tok []byte, p unsafe.Pointer) error {
		if tok[0] != '[' {
			return ds.mismatch(tok, t)
		}
		d := ds.d
		i := 0
		for ; ; i++ {
			tok, err := d.NextToken()
			if err != nil {
				return err
			}
			if tok[0] == ']' {
				break
			}
			if i < n {
				err = elem.fn(ds, tok, unsafe.Add(p, uintptr(i)*size))
			} else {
				err = ds.skip(tok)
			}
			if err != nil {
				return err
			}
		}
		if i < n {
			v := reflect.NewAt(t, p).Elem()
			for ; i < n; i++ {
				v.Index(i).SetZero()
			}
		}
		return nil
	}
}
