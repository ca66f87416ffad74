package json

import (
	"encoding"
	"fmt"
	"reflect"
	"runtime"
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
	if fastPaths && t.ConvertibleTo(mapStringAnyType) && kt == mapStringAnyType.Key() && t.Elem() == mapStringAnyType.Elem() {
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
	if fastPaths && kt.Kind() == reflect.String {
		if enc := newStringMapEncoder(t); enc != nil {
			return enc
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
		// keyText calls a key's MarshalText unless its kind is string
		lazy: (kt.Kind() == reflect.String || !kt.Implements(textMarshalerType)) && me.elem.partLazy(t.Elem()),
	}
}

// newStringMapEncoder is the encoder of a map whose keys are of a string
// kind (written as they are, as encoding/json writes them, MarshalText or
// not) and whose values have one of the layouts below, or nil. Such a map
// is ranged over natively, as a map[string]V of the same layout, where the
// reflect path pays a MapIter, a SetIterKey and a SetIterValue (two typed
// copies with their checks) for every entry: a third of the time of
// writing a map[string]int. The values are copied to scratch and written
// by the element type's own encoder, through pointers to the copies, as
// the reflect path writes its copies: map values are not addressable.
func newStringMapEncoder(t reflect.Type) *typeEncoder {
	switch t.Elem().Kind() {
	case reflect.Int, reflect.Int64, reflect.Uint, reflect.Uint64, reflect.Uintptr, reflect.Float64:
		return stringMapEncoder[uint64](t, false)
	case reflect.Int32, reflect.Uint32, reflect.Float32:
		return stringMapEncoder[uint32](t, false)
	case reflect.Int16, reflect.Uint16:
		return stringMapEncoder[uint16](t, false)
	case reflect.Int8, reflect.Uint8, reflect.Bool:
		return stringMapEncoder[uint8](t, false)
	case reflect.String:
		return stringMapEncoder[string](t, false)
	case reflect.Pointer, reflect.Map:
		return stringMapEncoder[unsafe.Pointer](t, false)
	case reflect.Slice:
		return stringMapEncoder[[]byte](t, false) // every slice header has this layout
	case reflect.Interface:
		if t.Elem().NumMethod() == 0 {
			return stringMapEncoder[any](t, false)
		}
	case reflect.Struct, reflect.Array:
		return wordsMapEncoder(t)
	}
	return nil
}

// wordsMapEncoder is newStringMapEncoder for values that are structs or
// arrays of up to 16 words, 128 bytes, the most a map holds in its own
// slots (a record of names, a pair of coordinates, a set's struct{}, a
// row of a dozen fields), ranged over as a map[string][n]uintptr: the map's
// layout depends only on its key's and its value's sizes and alignment,
// and a string key puts a value of any alignment up to a word's at the
// same place. Such a copy hides the value's pointers from the garbage
// collector, which is sound only because the map keeps the originals
// alive and unchanged while the copies are read: stringMapEncoder keeps
// the map alive to the end, and the value's encoder runs no user code
// (typeEncoder.lazy: no method that could change the map, no interface
// that could hold one), so nothing changes the map before its copies are
// written, as nothing in a correct program changes a map being encoded.
//
// A value of more than 128 bytes the map keeps out of its slots, a pointer
// to it in its place: such a map is ranged over as a map[string]unsafe.Pointer,
// no value copied, where this runtime is seen to lay maps out so
// (indirectMapValues).
func wordsMapEncoder(t reflect.Type) *typeEncoder {
	const word = unsafe.Sizeof(uintptr(0))
	et := t.Elem()
	if !encoderFor(et, false, false).partLazy(et) {
		return nil
	}
	if et.Size() > maxInlineMapValue {
		if !indirectMapValues() {
			return nil
		}
		return stringMapEncoder[unsafe.Pointer](t, true)
	}
	if et.Size()%word != 0 || uintptr(et.Align()) > word {
		return nil
	}
	switch et.Size() / word {
	case 0:
		return stringMapEncoder[struct{}](t, false)
	case 1:
		return stringMapEncoder[[1]uintptr](t, false)
	case 2:
		return stringMapEncoder[[2]uintptr](t, false)
	case 3:
		return stringMapEncoder[[3]uintptr](t, false)
	case 4:
		return stringMapEncoder[[4]uintptr](t, false)
	case 5:
		return stringMapEncoder[[5]uintptr](t, false)
	case 6:
		return stringMapEncoder[[6]uintptr](t, false)
	case 7:
		return stringMapEncoder[[7]uintptr](t, false)
	case 8:
		return stringMapEncoder[[8]uintptr](t, false)
	case 9:
		return stringMapEncoder[[9]uintptr](t, false)
	case 10:
		return stringMapEncoder[[10]uintptr](t, false)
	case 11:
		return stringMapEncoder[[11]uintptr](t, false)
	case 12:
		return stringMapEncoder[[12]uintptr](t, false)
	case 13:
		return stringMapEncoder[[13]uintptr](t, false)
	case 14:
		return stringMapEncoder[[14]uintptr](t, false)
	case 15:
		return stringMapEncoder[[15]uintptr](t, false)
	case 16:
		return stringMapEncoder[[16]uintptr](t, false)
	}
	return nil
}

// stringMapEncoder is newStringMapEncoder's encoder for values of V's
// layout (size, alignment and where the pointers are); with indirect, for
// values the map keeps out of its slots, V an unsafe.Pointer to each
// (wordsMapEncoder).
func stringMapEncoder[V any](t reflect.Type, indirect bool) *typeEncoder {
	elem := encoderFor(t.Elem(), false, false)
	var scratch sync.Pool // *[]V, so that writing a map allocates nothing once its type has been seen
	// enc writes the map whose pointer is mp (a map value is that one
	// word), so that a map held by an interface needs no word of its own
	// on the heap to point at.
	enc := func(es *encodeState, b []byte, mp unsafe.Pointer) ([]byte, error) {
		m := *(*map[string]V)(unsafe.Pointer(&mp))
		if m == nil {
			return append(b, "null"...), nil
		}
		if err := es.enterMap(mp, func() reflect.Value {
			p := new(unsafe.Pointer) // only for the cycle error, past maxEncodeDepthUnchecked
			*p = mp
			return reflect.NewAt(t, unsafe.Pointer(p)).Elem()
		}); err != nil {
			return b, err
		}
		sp, _ := scratch.Get().(*[]V)
		if sp == nil {
			sp = new([]V)
		}
		vals := (*sp)[:0]
		start := len(es.keys)
		for k, v := range m {
			es.keys = append(es.keys, k)
			vals = append(vals, v)
		}
		end := len(es.keys)
		ostart, low := es.sortKeys(start)
		b = append(b, '{')
		var err error
		for j := ostart; j < ostart+end-start; j++ {
			i := int(es.order[j] & low) // read afresh, as in mapEncoder.encode
			if j > ostart {
				b = append(b, ',')
			}
			b = appendString(b, es.keys[start+i], es.escapeHTML)
			b = append(b, ':')
			p := unsafe.Pointer(&vals[i])
			if indirect {
				p = *(*unsafe.Pointer)(p)
			}
			if b, err = elem.fn(es, b, p); err != nil {
				return b, err
			}
		}
		clear(es.keys[start:end])
		es.keys = es.keys[:start]
		es.order = es.order[:ostart]
		clear(vals) // keep no references to the caller's values
		*sp = vals[:0]
		scratch.Put(sp)
		runtime.KeepAlive(mp) // and its values with it (wordsMapEncoder)
		es.leave(cycleKey{p: mp})
		return append(b, '}'), nil
	}
	return &typeEncoder{
		fn: func(es *encodeState, b []byte, p unsafe.Pointer) ([]byte, error) {
			return enc(es, b, *(*unsafe.Pointer)(p))
		},
		value: func(es *encodeState, b []byte, v reflect.Value) ([]byte, error) {
			return enc(es, b, v.UnsafePointer())
		},
		lazy: elem.partLazy(t.Elem()), // keys of a string kind are written as they are
	}
}

// maxInlineMapValue is the size of the largest value a map keeps in its
// own slots (the runtime's abi.MapMaxElemBytes).
const maxInlineMapValue = 128

// indirectMapValues reports whether this runtime keeps a map's values of
// more than maxInlineMapValue bytes out of its slots, a pointer to each in
// its place, as every Go runtime so far has: a map of one such value,
// whose first word is zero, ranged over as a map[string]unsafe.Pointer,
// must give a pointer to that value (a value kept in the slot would give
// nil).
var indirectMapValues = sync.OnceValue(func() bool {
	type big [maxInlineMapValue/8 + 1]uint64
	var v big
	for i := 1; i < len(v); i++ {
		v[i] = uint64(i) * 0x9E3779B97F4A7C15
	}
	m := map[string]big{"k": v}
	for k, p := range *(*map[string]unsafe.Pointer)(unsafe.Pointer(&m)) {
		return k == "k" && p != nil && *(*big)(p) == v
	}
	return false
})

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
	if !sc.vals.IsValid() || sc.vals.Len() < n || sc.vals.Len() > max(64, 4*n) {
		// Room for n; and not much more: vals.Clear below clears it
		// whole, so that room a large map grew would cost every later map
		// of the type as much.
		sc.vals = reflect.MakeSlice(me.values, n, n)
	}
	vals, key := sc.vals, sc.key
	start, textStart := len(es.keys), len(es.keyBytes)
	var it reflect.MapIter
	it.Reset(m)
	for i := 0; it.Next(); i++ {
		key.SetIterKey(&it)
		ks, err := es.keyText(key)
		if err != nil {
			return b, fmt.Errorf("json: encoding error for type %q: %q", me.t.String(), err.Error())
		}
		vals.Index(i).SetIterValue(&it)
		es.keys = append(es.keys, ks)
	}
	end := len(es.keys)
	ostart, low := es.sortKeys(start)
	b = append(b, '{')
	data := vals.UnsafePointer()
	var err error
	for j := ostart; j < ostart+end-start; j++ {
		// es.keys and es.order are read afresh: the maps inside this one
		// append to them, and may move them.
		i := int(es.order[j] & low)
		if j > ostart {
			b = append(b, ',')
		}
		b = appendString(b, es.keys[start+i], es.escapeHTML)
		b = append(b, ':')
		if b, err = me.elem.fn(es, b, unsafe.Add(data, uintptr(i)*me.size)); err != nil {
			return b, err
		}
	}
	clear(es.keys[start:end])
	es.keys = es.keys[:start]
	es.order = es.order[:ostart]
	es.keyBytes = es.keyBytes[:textStart]
	vals.Clear() // keep no references to the caller's values
	key.SetZero()
	me.scratch.Put(sc)
	es.leave(cycleKey{p: mp})
	return append(b, '}'), nil
}

// sortKeys orders the keys es.keys[start:] of a map being written as
// encoding/json sorts them: es.order[ostart:] holds them in that order,
// the index of each from start in its low bits (& low).
func (es *encodeState) sortKeys(start int) (ostart int, low uint64) {
	keys := es.keys[start:]
	bits := orderBits(len(keys))
	ostart = len(es.order)
	es.order = slices.Grow(es.order, len(keys))[:ostart+len(keys)]
	order := es.order[ostart:]
	for i, k := range keys {
		order[i] = keyOrder(k, i, bits)
	}
	sortOrder(order, bits, func(i int) string { return keys[i] })
	return ostart, uint64(1)<<bits - 1
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
	if len(m) <= 2 {
		return es.encodeSmallMapStringAny(b, m, mp)
	}
	start := len(es.anyEntries)
	for k, v := range m {
		es.anyEntries = append(es.anyEntries, anyEntry{k, v})
	}
	end := len(es.anyEntries)
	entries := es.anyEntries[start:end]
	bits := orderBits(len(entries))
	ostart := len(es.order)
	es.order = slices.Grow(es.order, len(entries))[:ostart+len(entries)]
	order := es.order[ostart:]
	for i := range entries {
		order[i] = keyOrder(entries[i].k, i, bits)
	}
	sortOrder(order, bits, func(i int) string { return entries[i].k })
	b = append(b, '{')
	low := uint64(1)<<bits - 1
	var err error
	for j := ostart; j < ostart+len(entries); j++ {
		e := es.anyEntries[start+int(es.order[j]&low)] // read afresh, as in mapEncoder.encode
		if j > ostart {
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
	es.order = es.order[:ostart]
	es.leave(cycleKey{p: mp})
	return append(b, '}'), nil
}

// encodeSmallMapStringAny is encodeMapStringAny past enterMap for a map of
// at most two entries, the most common size in many documents (pairs such
// as {"areaId":…,"blockIds":[…]}): ordered in place, without the scratch
// space of the larger ones.
func (es *encodeState) encodeSmallMapStringAny(b []byte, m map[string]any, mp unsafe.Pointer) ([]byte, error) {
	var ks [2]string
	var vs [2]any
	n := 0
	for k, v := range m {
		if n == len(ks) {
			break
		}
		ks[n], vs[n] = k, v
		n++
	}
	if n == 2 && ks[1] < ks[0] {
		ks[0], ks[1] = ks[1], ks[0]
		vs[0], vs[1] = vs[1], vs[0]
	}
	b = append(b, '{')
	var err error
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, ks[i], es.escapeHTML)
		b = append(b, ':')
		if b, err = es.encodeAny(b, vs[i]); err != nil {
			return b, err
		}
	}
	es.leave(cycleKey{p: mp})
	return append(b, '}'), nil
}
