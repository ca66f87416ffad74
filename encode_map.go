package json

import (
	"encoding"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"unsafe"
)

// Encoders of maps: entries sorted by their keys' text, as encoding/json
// sorts them. Keys are strings, integers written in decimal, or the text of
// their MarshalText method.

func newMapEncoder(t reflect.Type) *typeEncoder {
	kt := t.Key()
	switch kt.Kind() {
	case reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
	default:
		if !kt.Implements(textMarshalerType) {
			return unsupportedEncoder(t)
		}
	}
	if t.ConvertibleTo(mapStringAnyType) && kt == mapStringAnyType.Key() && t.Elem() == mapStringAnyType.Elem() {
		// map[string]any, or a type of that shape without methods.
		return &typeEncoder{
			fn: func(es *encodeState, b []byte, p unsafe.Pointer) ([]byte, error) {
				return es.encodeMapStringAny(b, *(*map[string]any)(p))
			},
			value: func(es *encodeState, b []byte, v reflect.Value) ([]byte, error) {
				return es.encodeMapStringAny(b, v.Convert(mapStringAnyType).Interface().(map[string]any))
			},
		}
	}
	me := &mapEncoder{
		t:      t,
		key:    kt,
		elem:   encoderFor(t.Elem(), false, false),
		values: reflect.SliceOf(t.Elem()),
		size:   t.Elem().Size(),
	}
	return &typeEncoder{
		fn: func(es *encodeState, b []byte, p unsafe.Pointer) ([]byte, error) {
			return me.encode(es, b, reflect.NewAt(t, p).Elem())
		},
		value: me.encode,
	}
}

type mapEncoder struct {
	t, key reflect.Type
	elem   *typeEncoder
	values reflect.Type // []elem: where the values wait while the keys are sorted
	size   uintptr
	// scratch holds *mapScratch: a map being written borrows one, so that
	// writing a map allocates nothing once its type has been seen.
	scratch sync.Pool
}

type mapScratch struct {
	vals reflect.Value // a []elem with room for the map's values
	key  reflect.Value // a settable key
}

func (me *mapEncoder) encode(es *encodeState, b []byte, m reflect.Value) ([]byte, error) {
	if m.IsNil() {
		return append(b, "null"...), nil
	}
	mp := m.UnsafePointer()
	if err := es.enterMap(mp, func() reflect.Value { return m }); err != nil {
		return b, err
	}
	n := m.Len()
	sc, _ := me.scratch.Get().(*mapScratch)
	if sc == nil {
		sc = &mapScratch{key: reflect.New(me.key).Elem()}
	}
	if !sc.vals.IsValid() || sc.vals.Len() < n {
		sc.vals = reflect.MakeSlice(me.values, n, n)
	}
	vals, key := sc.vals, sc.key
	start, textStart := len(es.entries), len(es.keyBytes)
	var it reflect.MapIter
	it.Reset(m)
	for i := 0; it.Next(); i++ {
		key.SetIterKey(&it)
		ks, err := es.keyText(key)
		if err != nil {
			return b, fmt.Errorf("json: encoding error for type %q: %q", me.t.String(), err.Error())
		}
		vals.Index(i).SetIterValue(&it)
		es.entries = append(es.entries, keyEntry{keyPrefix(ks), ks, i})
	}
	end := len(es.entries)
	slices.SortFunc(es.entries[start:end], func(a, b keyEntry) int { return compareKeys(a.pre, b.pre, a.k, b.k) })
	b = append(b, '{')
	data := vals.UnsafePointer()
	var err error
	for j := start; j < end; j++ {
		e := es.entries[j]
		if j > start {
			b = append(b, ',')
		}
		b = appendString(b, e.k, es.escapeHTML)
		b = append(b, ':')
		if b, err = me.elem.fn(es, b, unsafe.Add(data, uintptr(e.i)*me.size)); err != nil {
			return b, err
		}
	}
	clear(es.entries[start:end])
	es.entries = es.entries[:start]
	es.keyBytes = es.keyBytes[:textStart]
	vals.Clear() // keep no references to the caller's values
	key.SetZero()
	me.scratch.Put(sc)
	es.leave(cycleKey{p: mp})
	return append(b, '}'), nil
}

// keyText is the text of a map key, as encoding/json's resolveKeyName finds
// it: a string kind as it is, then MarshalText, then an integer in decimal.
// Text made here is kept in es.keyBytes until the map is written.
func (es *encodeState) keyText(k reflect.Value) (string, error) {
	if k.Kind() == reflect.String {
		return k.String(), nil
	}
	start := len(es.keyBytes)
	if tm, ok := reflect.TypeAssert[encoding.TextMarshaler](k); ok {
		if k.Kind() == reflect.Pointer && k.IsNil() {
			return "", nil
		}
		text, err := tm.MarshalText()
		if err != nil {
			return "", err
		}
		es.keyBytes = append(es.keyBytes, text...)
	} else {
		switch k.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			es.keyBytes = appendInt10(es.keyBytes, k.Int())
		default:
			es.keyBytes = appendUint10(es.keyBytes, k.Uint())
		}
	}
	// A view, not a copy: these bytes are not written again until the map
	// is done, and if keyBytes moves, the old array stays as it is.
	text := es.keyBytes[start:]
	return unsafe.String(unsafe.SliceData(text), len(text)), nil
}

// encodeMapStringAny is the map encoder of map[string]any, for the objects
// that Unmarshal into any makes: no reflect, and its entries sorted in
// scratch space kept between calls.
func (es *encodeState) encodeMapStringAny(b []byte, m map[string]any) ([]byte, error) {
	if m == nil {
		return append(b, "null"...), nil
	}
	var mp unsafe.Pointer
	if es.ptrLevel >= maxEncodeDepthUnchecked { // enterMap will look it up
		mp = reflect.ValueOf(m).UnsafePointer()
	}
	if err := es.enterMap(mp, func() reflect.Value { return reflect.ValueOf(m) }); err != nil {
		return b, err
	}
	start := len(es.anyEntries)
	for k, v := range m {
		es.anyEntries = append(es.anyEntries, anyEntry{keyPrefix(k), k, v})
	}
	end := len(es.anyEntries)
	sortAnyEntries(es.anyEntries[start:end])
	b = append(b, '{')
	var err error
	for j := start; j < end; j++ {
		e := es.anyEntries[j]
		if j > start {
			b = append(b, ',')
		}
		b = appendString(b, e.k, es.escapeHTML)
		b = append(b, ':')
		if b, err = es.encodeAny(b, e.v); err != nil {
			return b, err
		}
	}
	clear(es.anyEntries[start:end])
	es.anyEntries = es.anyEntries[:start]
	es.leave(cycleKey{p: mp})
	return append(b, '}'), nil
}

// sortAnyEntries sorts a map's entries by key: the few of a typical object
// by insertion, comparing prefixes inline, more with slices.SortFunc.
func sortAnyEntries(e []anyEntry) {
	if len(e) > 12 {
		slices.SortFunc(e, func(a, b anyEntry) int { return compareKeys(a.pre, b.pre, a.k, b.k) })
		return
	}
	for i := 1; i < len(e); i++ {
		x := e[i]
		j := i
		for ; j > 0 && (x.pre < e[j-1].pre || x.pre == e[j-1].pre && x.k < e[j-1].k); j-- {
			e[j] = e[j-1]
		}
		e[j] = x
	}
}
