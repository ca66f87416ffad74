package json

import (
	"encoding/base64"
	"reflect"
	"unsafe"
)

// Encoders of pointers, interfaces, slices and arrays.

func newPointerEncoder(t reflect.Type, quoted bool) *typeEncoder {
	elem := encoderFor(t.Elem(), true, quoted)
	core := func(es *encodeState, b []byte, ptr unsafe.Pointer) ([]byte, error) {
		if ptr == nil {
			return append(b, "null"...), nil
		}
		k := cycleKey{t: t, p: ptr}
		if err := es.enter(k, t); err != nil {
			return b, err
		}
		var err error
		if elem.st != nil {
			b, err = elem.st.encode(es, b, ptr)
		} else {
			b, err = elem.fn(es, b, ptr)
		}
		if err != nil {
			return b, err
		}
		es.leave(k)
		return b, nil
	}
	te := &typeEncoder{
		fn: func(es *encodeState, b []byte, p unsafe.Pointer) ([]byte, error) {
			return core(es, b, *(*unsafe.Pointer)(p))
		},
		value: func(es *encodeState, b []byte, v reflect.Value) ([]byte, error) {
			return core(es, b, v.UnsafePointer())
		},
		word: core,
	}
	if fastPaths && elem.direct != encCall && elem.direct < encPtr {
		te.direct = encPtr + elem.direct
	}
	te.lazy = elem.partLazy(t.Elem())
	return te
}

// interfaceEncoder writes what the interface holds, found without asking
// reflect when the interface has no methods.
func interfaceEncoder(t reflect.Type) *typeEncoder {
	value := func(es *encodeState, b []byte, v reflect.Value) ([]byte, error) {
		return es.encodeAny(b, v.Interface())
	}
	if t.NumMethod() == 0 {
		return &typeEncoder{
			fn: func(es *encodeState, b []byte, p unsafe.Pointer) ([]byte, error) {
				return es.encodeAny(b, *(*any)(p))
			},
			value: value,
		}
	}
	return &typeEncoder{
		fn: func(es *encodeState, b []byte, p unsafe.Pointer) ([]byte, error) {
			return es.encodeAny(b, reflect.NewAt(t, p).Elem().Interface())
		},
		value: value,
	}
}

func newSliceEncoder(t reflect.Type) *typeEncoder {
	et := t.Elem()
	if et.Kind() == reflect.Uint8 {
		pt := reflect.PointerTo(et)
		if !pt.Implements(marshalerType) && !pt.Implements(textMarshalerType) && !bytesAsArray(et) {
			return &typeEncoder{
				fn: func(es *encodeState, b []byte, p unsafe.Pointer) ([]byte, error) {
					return appendBase64(b, *(*[]byte)(p)), nil
				},
				value: func(es *encodeState, b []byte, v reflect.Value) ([]byte, error) {
					return appendBase64(b, v.Bytes()), nil
				},
				inPlace: true,
				lazy:    true,
			}
		}
	}
	elem := encoderFor(et, true, false)
	size := et.Size()
	core := func(es *encodeState, b []byte, data unsafe.Pointer, n int) ([]byte, error) {
		if n == 0 {
			if data == nil {
				return append(b, "null"...), nil
			}
			// Nothing inside: no cycle can pass through it.
			return append(b, '[', ']'), nil
		}
		k := cycleKey{p: data, n: n}
		if err := es.enter(k, t); err != nil {
			return b, err
		}
		b, err := es.appendElements(b, elem, data, n, size)
		if err != nil {
			return b, err
		}
		es.leave(k)
		return b, nil
	}
	var floats *floatList
	if fastPaths && elem.direct == encFloat64 {
		floats = &floatList{n: -1}
	}
	var list *listInfo
	if fastPaths && elem.direct != encCall {
		list = &listInfo{elem: elem, size: size}
	}
	return &typeEncoder{
		floats: floats,
		list:   list,
		fn: func(es *encodeState, b []byte, p unsafe.Pointer) ([]byte, error) {
			s := *(*[]byte)(p) // only its data pointer and length are read
			// nil or empty: written without core's call
			if fastPaths && len(s) == 0 {
				if s == nil {
					return append(b, "null"...), nil
				}
				return append(b, '[', ']'), nil
			}
			return core(es, b, unsafe.Pointer(unsafe.SliceData(s)), len(s))
		},
		value: func(es *encodeState, b []byte, v reflect.Value) ([]byte, error) {
			return core(es, b, v.UnsafePointer(), v.Len())
		},
		inPlace: true, // an interface holds a slice through a pointer to it
		lazy:    elem.partLazy(et),
	}
}

// appendBase64 writes a []byte as encoding/json does: standard base64 in a
// string, or null for a nil slice.
func appendBase64(b, s []byte) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = base64.StdEncoding.AppendEncode(b, s)
	return append(b, '"')
}

func newArrayEncoder(t reflect.Type, addr bool) *typeEncoder {
	elem := encoderFor(t.Elem(), addr, false)
	n, size := t.Len(), t.Elem().Size()
	fn := func(es *encodeState, b []byte, p unsafe.Pointer) ([]byte, error) {
		return es.appendElements(b, elem, p, n, size)
	}
	te := addrEncoder(t, fn)
	if fastPaths && elem.direct == encFloat64 {
		te.floats = &floatList{n: n}
	}
	te.lazy = elem.partLazy(t.Elem())
	return te
}

// appendElements writes the n elements at data, size bytes apart, as a JSON
// array. Strings, integers (int64, int32, uint64) and floats (float64,
// float32), the common elements, go through loops of their own, one call an
// element.
func (es *encodeState) appendElements(b []byte, elem *typeEncoder, data unsafe.Pointer, n int, size uintptr) ([]byte, error) {
	if n == 0 {
		return append(b, '[', ']'), nil
	}
	mark := len(b) // each element is written after a comma, the first one's is '['
	i := 0
	switch elem.direct {
	case encString:
		html := es.escapeHTML
		for ; i < n; i++ {
			b = appendString(append(b, ','), *(*string)(unsafe.Add(data, uintptr(i)*size)), html)
		}
	case encInt64:
		for ; i < n; i++ {
			b = appendInt10(append(b, ','), *(*int64)(unsafe.Add(data, uintptr(i)*size)))
		}
	case encInt32:
		for ; i < n; i++ {
			b = appendInt10(append(b, ','), int64(*(*int32)(unsafe.Add(data, uintptr(i)*size))))
		}
	case encUint64:
		for ; i < n; i++ {
			x := *(*uint64)(unsafe.Add(data, uintptr(i)*size))
			if int64(x) >= 0 { // appendUint10's first case, without its call
				b = appendInt10(append(b, ','), int64(x))
			} else {
				b = appendUint10(append(b, ','), x)
			}
		}
	case encFloat64:
		for ; i < n; i++ {
			x := *(*float64)(unsafe.Add(data, uintptr(i)*size))
			if !finite(x) {
				break // the element's encoder words the error
			}
			b = appendFloat(append(b, ','), x, 64)
		}
	case encFloat32:
		for ; i < n; i++ {
			x := float64(*(*float32)(unsafe.Add(data, uintptr(i)*size)))
			if !finite(x) {
				break
			}
			b = appendFloat(append(b, ','), x, 32)
		}
	}
	var err error
	if elem.floats != nil {
		if b, err = es.appendFloatLists(b, elem, data, n, size); err != nil {
			return b, err
		}
		b[mark] = '['
		return append(b, ']'), nil
	}
	if se := elem.st; se != nil {
		for ; i < n; i++ {
			if b, err = se.encode(es, append(b, ','), unsafe.Add(data, uintptr(i)*size)); err != nil {
				return b, err
			}
		}
	}
	for ; i < n; i++ {
		b = append(b, ',')
		p := unsafe.Add(data, uintptr(i)*size)
		if elem.direct != encCall {
			var ok bool
			if b, ok = es.appendDirect(b, elem.direct, p); ok {
				continue
			}
		}
		if b, err = elem.fn(es, b, p); err != nil {
			return b, err
		}
	}
	b[mark] = '['
	return append(b, ']'), nil
}

// appendFloatLists writes the n elements at data, size bytes apart, each an
// array or slice of float64 (elem.floats), after a comma each: their floats
// are written here, without a call to the element's encoder and its own
// loop for each (the pairs of GeoJSON's coordinates are most of canada's
// bytes). A float NaN or infinite is left to the element's encoder, which
// returns the error.
func (es *encodeState) appendFloatLists(b []byte, elem *typeEncoder, data unsafe.Pointer, n int, size uintptr) ([]byte, error) {
	fl := elem.floats
	for i := range n {
		p := unsafe.Add(data, uintptr(i)*size)
		q, m := p, fl.n
		if m < 0 { // a slice: only its data pointer and length are read
			s := *(*[]byte)(p)
			if s == nil {
				b = append(b, ",null"...)
				continue
			}
			q, m = unsafe.Pointer(unsafe.SliceData(s)), len(s)
		}
		b = append(b, ',', '[')
		for j := range m {
			x := *(*float64)(unsafe.Add(q, uintptr(j)*8))
			if !finite(x) {
				return elem.fn(es, b, p)
			}
			b = append(appendFloat(b, x, 64), ',')
		}
		if m > 0 {
			b[len(b)-1] = ']'
		} else {
			b = append(b, ']')
		}
	}
	return b, nil
}

// encodeSliceAny is the slice encoder of []any, for the arrays that
// Unmarshal into any makes.
func (es *encodeState) encodeSliceAny(b []byte, s []any) ([]byte, error) {
	if s == nil {
		return append(b, "null"...), nil
	}
	k := cycleKey{p: unsafe.Pointer(unsafe.SliceData(s)), n: len(s)}
	if err := es.enter(k, sliceAnyType); err != nil {
		return b, err
	}
	b = append(b, '[')
	var err error
	for i, v := range s {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = es.encodeAny(b, v); err != nil {
			return b, err
		}
	}
	es.leave(k)
	return append(b, ']'), nil
}

var sliceAnyType = reflect.TypeFor[[]any]()
