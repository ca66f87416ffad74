package json

import (
	"encoding/base64"
	"reflect"
	"sync/atomic"
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
	empty := reflect.MakeSlice(t, 0, 0) // set without allocating
	// A slice with no capacity (the usual case: a new value) is first
	// filled in a scratch buffer of up to small elements, then allocated
	// once at its length; past that it grows as append does.
	small := 0
	if size > 0 {
		small = max(4, min(64, 2048/int(size)))
	}
	id := nextScratchID()
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
		if c == 0 && small > 0 {
			sc := ds.takeScratch(id, t, small)
			sbase := sc.UnsafePointer()
			for ; ; i++ {
				tok, err := d.NextToken()
				if err != nil {
					ds.dropScratch(id, sc, i)
					return err
				}
				if tok[0] == ']' {
					break
				}
				if i == small {
					// Too long for the scratch buffer: move to the slice.
					v.Grow(2 * small)
					v.SetLen(small)
					reflect.Copy(v, sc)
					ds.dropScratch(id, sc, small)
					n, c = small, v.Cap()
					base = v.UnsafePointer()
					if err := elem.fn(ds, tok, unsafe.Add(base, uintptr(i)*size)); err != nil {
						return err
					}
					i++
					goto direct
				}
				if err := elem.fn(ds, tok, unsafe.Add(sbase, uintptr(i)*size)); err != nil {
					ds.dropScratch(id, sc, i+1)
					return err
				}
			}
			if i == 0 {
				ds.dropScratch(id, sc, 0)
				v.Set(empty)
				return nil
			}
			v.Grow(i)
			v.SetLen(i)
			sc.SetLen(i)
			reflect.Copy(v, sc)
			ds.dropScratch(id, sc, i)
			return nil
		}
	direct:
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
			v.Set(empty)
			return nil
		}
		v.SetLen(i)
		return nil
	}
}

var scratchIDs atomic.Int32

func nextScratchID() int { return int(scratchIDs.Add(1)) - 1 }

// takeScratch returns a zeroed, addressable slice Value of type t with
// length n, from the free list of slice decoder id (nested decodes of the
// same type each take their own).
func (ds *decodeState) takeScratch(id int, t reflect.Type, n int) reflect.Value {
	if id < len(ds.scratchSlices) {
		if free := ds.scratchSlices[id]; len(free) > 0 {
			sc := free[len(free)-1]
			ds.scratchSlices[id] = free[:len(free)-1]
			sc.SetLen(n)
			return sc
		}
	}
	sc := reflect.New(t).Elem()
	sc.Set(reflect.MakeSlice(t, n, n))
	return sc
}

// dropScratch zeroes the first used elements of sc and puts it back.
func (ds *decodeState) dropScratch(id int, sc reflect.Value, used int) {
	sc.SetLen(used)
	sc.Clear()
	if id >= 1<<12 {
		return
	}
	for id >= len(ds.scratchSlices) {
		ds.scratchSlices = append(ds.scratchSlices, nil)
	}
	ds.scratchSlices[id] = append(ds.scratchSlices[id], sc)
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
