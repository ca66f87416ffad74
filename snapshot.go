package json

import (
	"encoding/binary"
	"reflect"
	"unsafe"
)

// snapshots is the part of a decodeState that lets a decode run as one
// speculative pass and be undone. encoding/json validates the whole input
// before it assigns anything, so after a syntax error the target must be as
// it was; where the target's type allows it (td.hooks false: no user code
// runs), jsonpipe decodes at once and, on a syntax error, puts the target
// back from what take recorded. Its buffers live as long as the pooled
// decodeState (putState trims them); what one call records is dropped or
// restored before the call returns.
type snapshots struct {
	bytes  []byte                         // a pointer-free target before decoding
	values map[reflect.Type]reflect.Value // targets with strings, by type
	held   reflect.Value                  // the one of values this call's take filled

	lastType reflect.Type  // the type take last looked up in values...
	last     reflect.Value // ...and its entry there
}

// How a speculative decode can undo its writes.
const (
	snapNone  = iota // no speculation: validate or capture first
	snapZero         // the target was zero: zero it again
	snapBytes        // pointer-free target: its bytes are in sn.bytes
	snapValue        // target with strings: a copy is in sn.values
)

// take decides whether decoding into v (at p, with td) may run as a
// single speculative pass and records what undoing it needs.
func (sn *snapshots) take(td *typeDecoder, v reflect.Value, p unsafe.Pointer) int {
	switch {
	case td.hooks:
		return snapNone
	case allZero(p, v.Type().Size()):
		// Its bytes, not reflect's IsZero: that goes field by field through
		// a struct with a slice or a map (8% of Unmarshal's profile on a
		// small record with three arrays), and takes -0.0 for zero, which
		// the undo would then write back as 0.
		return snapZero
	case td.flat == flatNoPointers:
		sn.bytes = append(sn.bytes[:0], unsafe.Slice((*byte)(p), v.Type().Size())...)
		return snapBytes
	case td.flat == flatStrings:
		t := v.Type()
		sv := sn.last
		if sn.lastType != t { // most callers decode one type again and again
			var ok bool
			if sv, ok = sn.values[t]; !ok {
				if sn.values == nil {
					sn.values = map[reflect.Type]reflect.Value{}
				}
				sv = reflect.New(t).Elem()
				sn.values[t] = sv
			}
			sn.lastType, sn.last = t, sv
		}
		sv.Set(v)
		sn.held = sv
		return snapValue
	}
	return snapNone
}

// restore undoes a speculative decode into v.
func (sn *snapshots) restore(snap int, v reflect.Value, p unsafe.Pointer) {
	switch snap {
	case snapZero:
		v.SetZero()
	case snapBytes:
		copy(unsafe.Slice((*byte)(p), len(sn.bytes)), sn.bytes)
	case snapValue:
		v.Set(sn.held)
		sn.held.SetZero()
		sn.held = reflect.Value{}
	}
}

// drop releases what take kept.
func (sn *snapshots) drop(snap int) {
	if snap == snapValue {
		// Only the copy take made: going over the whole map cost a small
		// record decoded into a reused struct 18% of its time (the map's
		// iterator, seeded at random on every call).
		sn.held.SetZero()
		sn.held = reflect.Value{}
	}
}

// trim lets the pool drop buffers that one large call grew.
func (sn *snapshots) trim() {
	if cap(sn.bytes) > 64<<10 {
		sn.bytes = nil
	}
	if len(sn.values) > 64 {
		sn.values = nil
		sn.lastType, sn.last = nil, reflect.Value{}
	}
	sn.held = reflect.Value{}
}

// allZero reports whether the n bytes at p are all zero: 32 bytes a
// turn, their words ORed, then the last words and bytes. Every Unmarshal
// into a fresh value of the type before tests its target so (the fast
// start of unmarshalBytes): a small record in one turn, where a word a
// turn took a branch and a bounds check for each.
func allZero(p unsafe.Pointer, n uintptr) bool {
	b := unsafe.Slice((*byte)(p), n)
	for len(b) >= 32 {
		if binary.LittleEndian.Uint64(b)|binary.LittleEndian.Uint64(b[8:])|
			binary.LittleEndian.Uint64(b[16:])|binary.LittleEndian.Uint64(b[24:]) != 0 {
			return false
		}
		b = b[32:]
	}
	var x uint64
	for ; len(b) >= 8; b = b[8:] {
		x |= binary.LittleEndian.Uint64(b)
	}
	for _, c := range b {
		x |= uint64(c)
	}
	return x == 0
}
