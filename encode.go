package json

import (
	"encoding/binary"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// Marshal returns the JSON encoding of v: byte for byte what encoding/json's
// Marshal returns (Go 1.26, the classic implementation), with the same
// errors: *UnsupportedTypeError for channels, functions and complex numbers,
// *UnsupportedValueError for NaN, infinities and cycles, *MarshalerError when
// a MarshalJSON or MarshalText method fails or returns invalid JSON.
//
// Every rule of encoding/json's encoder applies: struct tags (a name, "-",
// omitempty, omitzero and string), embedded structs promoted by Go's
// visibility rules, map keys sorted, Marshaler and encoding.TextMarshaler
// called as encoding/json calls them (a method on the pointer only where
// the value is addressable), []byte as base64, nil slices and maps as null,
// floats as JavaScript prints them, and '<', '>' and '&' escaped in strings
// (see [Encoder.SetEscapeHTML] to keep them).
//
// Per Go type, an encoder is built once and cached; encoding a value then
// only follows it. A value without user methods costs one allocation: the
// result.
func Marshal(v any) ([]byte, error) {
	es := getEncodeState(true)
	es.startLazy()
	b, err := es.encodeAny(es.buf[:0], v)
	if es.endLazy() && err == nil {
		b, err = es.checkLazy(b, 0, v)
	}
	if err != nil {
		es.put(b)
		return nil, err
	}
	out := clone(b)
	es.put(b)
	return out, nil
}

// MarshalIndent is like [Marshal] but applies [Indent] to format the output.
// Each JSON element in the output begins on a new line beginning with prefix
// followed by one or more copies of indent according to the nesting.
func MarshalIndent(v any, prefix, indent string) ([]byte, error) {
	es := getEncodeState(true)
	es.startLazy()
	b, err := es.encodeAny(es.buf[:0], v)
	if es.endLazy() && err == nil {
		b, err = es.checkLazy(b, 0, v)
	}
	if err != nil {
		es.put(b)
		return nil, err
	}
	// Indented in pooled scratch space, then copied out at its size: the
	// indented length is not known in advance, and a guess either grows
	// the result or leaves it much larger than it needs to be.
	es.indentBuf, err = indentMarshalled(es.indentBuf[:0], b, prefix, indent)
	if err != nil {
		es.put(b)
		return nil, err
	}
	out := clone(es.indentBuf)
	es.put(b)
	return out, nil
}

// clone copies b, a result, into memory of its own: a make and a copy of
// the same length, which the compiler turns into one allocation that is
// not cleared first (runtime.makeslicecopy), where bytes.Clone's append
// goes through growslice. Under 16 bytes (a number, a word) the runtime's
// tiny allocator packs results together, and one of odd length puts the
// next at an odd offset, which cost more than the copy saved (a 5-byte
// result: a call 1.7 times as long as with the capacity a multiple of 8,
// BenchmarkMarshalSmall/int on AMD EPYC).
func clone(b []byte) []byte {
	if len(b) < 16 {
		out := make([]byte, len(b), (len(b)+7)&^7)
		copy(out, b)
		return out
	}
	out := make([]byte, len(b))
	copy(out, b)
	return out
}

// indentMarshalled indents src, which Marshal wrote, so valid JSON: as it
// is (appendIndentValid), or, without the fast paths, through Indent's
// checking pass.
func indentMarshalled(dst, src []byte, prefix, indent string) ([]byte, error) {
	if !fastPaths {
		return appendIndent(dst, src, prefix, indent)
	}
	return appendIndentValid(dst, src, prefix, indent), nil
}

// encodeState is what one Marshal or Encode call needs beside the output
// buffer: its options, the cycle check, and scratch space for sorting map
// keys. It is pooled; nothing in it outlives a call but its capacity.
type encodeState struct {
	// The lazy check of short non-ASCII strings (encode_lazy.go): lazy is
	// 0 where it is off, 1 where it is on, 2 where it may start
	// (lazyString), lazyDecide until encodeAny has looked up the type of
	// Marshal's value; lazyCount such strings having been checked one by
	// one so far; unchecked once one is written without its check;
	// lazyOff a type whose output failed the check in this state, whose
	// strings are checked one by one from then on.
	lazy      uint
	lazyCount int
	unchecked bool
	lazyOff   reflect.Type

	escapeHTML bool
	html       uint8 // escapeHTML as 0 or 1, an index

	// plainMiss is the id of the struct encoder whose plainRun last
	// stopped at its first field in this Marshal call, or in this
	// Encoder's stream (0: none), and plainSkips how many of its values
	// have gone straight to its loop since (structEncoder.encode).
	plainMiss  uint32
	plainSkips uint8

	// Cycles: as encoding/json does, pointers, maps and slices count the
	// depth, and only past maxEncodeDepthUnchecked are the ones on the
	// current path remembered, so a cycle is an error and not a stack
	// overflow.
	ptrLevel uint
	ptrSeen  map[cycleKey]struct{}

	buf []byte

	// check validates what MarshalJSON methods return (appendCompact).
	check validator

	// Sorting map entries: each map appends its entries past those of the
	// maps around it, sorts its own window and cuts it off when done.
	anyEntries []anyEntry // map[string]any
	keys       []string   // other maps: the keys' text, in the values' order
	order      []uint64   // the entries' indexes, sorted (see keyOrder)
	keyBytes   []byte     // the text of keys that are not strings
	quoteBuf   []byte     // a ",string" string's first escaping
	indentBuf  []byte     // MarshalIndent's output before its copy out; an indenting Encoder's

	// The encoder of the last dynamic type encodeAny looked up: a stream
	// of values of one type (Encoder.Encode of each record, Marshal in a
	// loop) asks the cache once.
	lastType reflect.Type
	lastEnc  *typeEncoder
}

const maxEncodeDepthUnchecked = 1000 // encoding/json's startDetectingCyclesAfter

// cycleKey names a pointer, map or slice on the current path, as
// encoding/json's keys do: for a pointer, its type and address (encoding/json
// keys it as the pointer in an interface); for a map, its address alone; for
// a slice, its data and length.
type cycleKey struct {
	t reflect.Type
	p unsafe.Pointer
	n int
}

type anyEntry struct {
	k string
	v any
}

// keyOrder packs the first bytes of key k, big-endian and zero-padded,
// above its index i, which takes the low bits bits. Sorted as integers,
// such words put keys in strings.Compare's order except among keys that
// share their packed bytes, which sortOrder puts right.
func keyOrder(k string, i int, bits uint) uint64 {
	if len(k) < 8 {
		return keyOrderShort(k, i, bits)
	}
	p := binary.BigEndian.Uint64(unsafe.Slice(unsafe.StringData(k), 8))
	return p>>bits<<bits | uint64(i)
}

// keyOrderShort is keyOrder for keys of fewer than 8 bytes: without a
// loop, from loads that overlap.
func keyOrderShort(k string, i int, bits uint) uint64 {
	var p uint64
	switch n := len(k); {
	case n >= 4:
		hi := uint64(binary.BigEndian.Uint32(unsafe.Slice(unsafe.StringData(k), 4)))
		lo := uint64(binary.BigEndian.Uint32(unsafe.Slice(unsafe.StringData(k[n-4:]), 4)))
		p = hi<<32 | lo<<(64-8*n)
	case n > 0:
		p = uint64(k[0])<<56 | uint64(k[n/2])<<(56-8*(n/2)) | uint64(k[n-1])<<(64-8*n)
	}
	return p>>bits<<bits | uint64(i)
}

// orderBits is how many low bits keyOrder gives the index among n keys.
func orderBits(n int) uint {
	switch {
	case n <= 1<<8:
		return 8
	case n <= 1<<16:
		return 16
	}
	return 32
}

// sortOrder sorts order, words of keyOrder with the same bits, into the
// order of their keys (key(i) is the key of index i): as integers, then
// each run of keys that share their packed bytes by the keys themselves.
// Most maps' keys differ in their first few bytes, so most of the work is
// an integer sort, with no call per comparison.
func sortOrder(order []uint64, bits uint, key func(i int) string) {
	low := uint64(1)<<bits - 1
	if !fastPaths {
		// By the keys alone, as encoding/json sorts them.
		slices.SortFunc(order, func(a, b uint64) int {
			return strings.Compare(key(int(a&low)), key(int(b&low)))
		})
		return
	}
	if len(order) <= 12 {
		// By insertion, as slices.Sort does so few, with keys that share
		// their packed bytes compared on the spot.
		for i := 1; i < len(order); i++ {
			x := order[i]
			j := i
			for ; j > 0; j-- {
				y := order[j-1]
				if x>>bits != y>>bits {
					if x > y {
						break
					}
				} else if key(int(x&low)) >= key(int(y&low)) {
					break
				}
				order[j] = y
			}
			order[j] = x
		}
		return
	}
	slices.Sort(order)
	for i := 0; i < len(order); {
		j := i + 1
		for j < len(order) && order[j]&^low == order[i]&^low {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(order[i:j], func(a, b uint64) int {
				return strings.Compare(key(int(a&low)), key(int(b&low)))
			})
		}
		i = j
	}
}

var encodeStatePool sync.Pool

// maxPooledBuffer is the largest output buffer kept for the next call.
// encoding/json keeps any; a pooled state that is not used again is freed by
// the collector within two cycles anyway, so this only stops a single huge
// value from pinning its buffer between calls that come often.
const maxPooledBuffer = 64 << 20

func getEncodeState(escapeHTML bool) *encodeState {
	es, _ := encodeStatePool.Get().(*encodeState)
	if es == nil {
		es = &encodeState{}
	}
	es.setEscapeHTML(escapeHTML)
	es.plainMiss = 0
	return es
}

func (es *encodeState) setEscapeHTML(on bool) {
	es.escapeHTML = on
	es.html = 0
	if on {
		es.html = 1
	}
}

// put returns es to the pool with b, the buffer the call grew, as its next
// buffer.
func (es *encodeState) put(b []byte) {
	es.keep(b)
	encodeStatePool.Put(es)
}

// keep readies es for its next call, with b, the buffer this call grew, as
// its buffer: it drops what the call left but its buffers and its last
// encoder.
func (es *encodeState) keep(b []byte) {
	if cap(b) <= maxPooledBuffer {
		es.buf = b[:0]
	} else {
		es.buf = nil
	}
	if cap(es.indentBuf) > maxPooledBuffer {
		es.indentBuf = nil
	}
	es.ptrLevel = 0
	if len(es.ptrSeen) > 0 {
		clear(es.ptrSeen)
	}
	// Each map clears its entries when it ends: past their lengths these
	// hold nothing. A failed map leaves its own (the caller's values, not
	// to be kept alive). Not the whole room: that cost every later call
	// as much as the largest map the pooled state ever wrote.
	clear(es.anyEntries)
	es.anyEntries = es.anyEntries[:0]
	clear(es.keys)
	es.keys = es.keys[:0]
	es.order = es.order[:0]
	es.keyBytes = es.keyBytes[:0]
}

// enter counts one more pointer or slice on the path and, deep enough,
// reports a cycle through the one named by k, a value of type t. The caller
// calls leave when it returns without error.
func (es *encodeState) enter(k cycleKey, t reflect.Type) error {
	es.ptrLevel++
	if es.ptrLevel <= maxEncodeDepthUnchecked {
		return nil // small enough to be inlined
	}
	return es.enterDeep(k, t)
}

// enterDeep is enter past maxEncodeDepthUnchecked.
func (es *encodeState) enterDeep(k cycleKey, t reflect.Type) error {
	var v reflect.Value
	if t.Kind() == reflect.Pointer {
		v = reflect.NewAt(t.Elem(), k.p)
	} else {
		v = reflect.SliceAt(t.Elem(), k.p, k.n).Convert(t)
	}
	return es.remember(k, v)
}

// enterMap is enter for the map m, whose address is p.
func (es *encodeState) enterMap(p unsafe.Pointer, m func() reflect.Value) error {
	es.ptrLevel++
	if es.ptrLevel <= maxEncodeDepthUnchecked {
		return nil
	}
	return es.remember(cycleKey{p: p}, m())
}

// remember is the deep part of enter: the cycle check proper.
func (es *encodeState) remember(k cycleKey, v reflect.Value) error {
	if _, ok := es.ptrSeen[k]; ok {
		return &UnsupportedValueError{Value: v, Str: "encountered a cycle via " + v.Type().String()}
	}
	if es.ptrSeen == nil {
		es.ptrSeen = make(map[cycleKey]struct{})
	}
	es.ptrSeen[k] = struct{}{}
	return nil
}

func (es *encodeState) leave(k cycleKey) {
	if es.ptrLevel > maxEncodeDepthUnchecked {
		delete(es.ptrSeen, k)
	}
	es.ptrLevel--
}
