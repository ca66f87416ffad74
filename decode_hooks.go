package json

import (
	"encoding"
	"fmt"
	"math"
	"reflect"
	"unsafe"

	"github.com/jsonpipe/json/internal/unquote"
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

// The typed one pass and user code. encoding/json checks the whole input
// before it calls a type's UnmarshalJSON or UnmarshalText, calls each once
// for each value, in the input's order, and stops at the first that fails.
// The pass may still give up on input it has read half of (a value of
// another kind, a number that does not fit), and the token path then
// decodes it all again: a method it had called would be called twice. So
// the pass calls none while it reads: hookAt notes each value's place and
// bytes, and once the pass has read all of the input (which is then
// valid JSON), runHooks calls them in order. Where a value's place moves
// before then (a slice's elements, gathered in a scratch buffer, move to
// their slice: sliceAt), movedHooks moves the notes with it; the values of
// a map, copied into it, take no hook (passableIn). A method that fails
// sends the input to the token path, which calls the methods again up to
// that one, for encoding/json's error, its context and what it leaves in
// the target.

// hookCall is a method the pass deferred: h's method of the value at p,
// given the bytes start to end of the input (for UnmarshalText, a string
// token, whose content it is given). 24 bytes: a 1 MB document of small
// records may defer tens of thousands.
type hookCall struct {
	p          unsafe.Pointer
	h          *hookInfo
	start, end uint32
}

// hookInfo is the method hookAt defers for values of one type: tab is the
// interface table of *elem as an Unmarshaler (or, text, a
// TextUnmarshaler), so that runHooks makes the interface value from the
// value's pointer without reflect.
type hookInfo struct {
	tab  unsafe.Pointer
	text bool
}

// iface is a non-empty interface's two words.
type iface struct{ tab, data unsafe.Pointer }

// hookAt returns passInfo.at for a value of type elem whose UnmarshalJSON
// (or, text, UnmarshalText) decodes it: it notes the call for runHooks.
// UnmarshalJSON takes any value, null too (as encoding/json gives it to a
// value that is no pointer); UnmarshalText strings only (null is decoded
// by the value's kind, anything else is a type error: the token path's).
// Past 4 GB of input, it gives up (the notes hold 32-bit offsets).
func hookAt(elem reflect.Type, text bool) func(ds *decodeState, data []byte, i int, p unsafe.Pointer, depth int) int {
	h := &hookInfo{text: text}
	if x := reflect.New(elem).Interface(); text {
		u := x.(encoding.TextUnmarshaler)
		h.tab = (*iface)(unsafe.Pointer(&u)).tab
	} else {
		u := x.(Unmarshaler)
		h.tab = (*iface)(unsafe.Pointer(&u)).tab
	}
	return func(ds *decodeState, data []byte, i int, p unsafe.Pointer, depth int) int {
		var end int
		if text {
			if data[i] != '"' {
				return giveUp
			}
			tok, _, ok := ds.readString(i, &atObjectComma)
			if !ok {
				return giveUp
			}
			end = i + len(tok)
		} else if end = ds.skipper.end(data, i, maxOnePassDepth-depth); end < 0 {
			return giveUp
		}
		if uint64(end) > math.MaxUint32 {
			return giveUp
		}
		ds.hookCalls = append(ds.hookCalls, hookCall{p: p, h: h, start: uint32(i), end: uint32(end)})
		return end
	}
}

// movedHooks moves the notes from the mark'th on whose value lay in the
// size bytes at from to the same place in the bytes at to. Out of line,
// and called only when there are such notes: inlined into sliceAt three
// times, it cost slices of strings and floats 2-4% (rec-lists, rec-floats).
//
//go:noinline
func (ds *decodeState) movedHooks(mark int, from, to unsafe.Pointer, size uintptr) {
	for k := mark; k < len(ds.hookCalls); k++ {
		c := &ds.hookCalls[k]
		if off := uintptr(c.p) - uintptr(from); off < size {
			c.p = unsafe.Add(to, off)
		}
	}
}

// runHooks calls the methods the pass deferred on data, in order, and
// reports whether every one returned nil; it stops at the first that did
// not.
func (ds *decodeState) runHooks(data []byte) bool {
	defer ds.dropHooks()
	for k := range ds.hookCalls {
		c := &ds.hookCalls[k]
		raw := data[c.start:c.end]
		var err error
		if c.h.text {
			var u encoding.TextUnmarshaler
			*(*iface)(unsafe.Pointer(&u)) = iface{c.h.tab, c.p}
			body := raw[1 : len(raw)-1]
			if !unquote.Simple(body) { // (its bytes are its value: handed over as they are)
				ds.scratch = unquote.Append(ds.scratch[:0], raw)
				body = ds.scratch
			}
			err = u.UnmarshalText(body)
		} else {
			var u Unmarshaler
			*(*iface)(unsafe.Pointer(&u)) = iface{c.h.tab, c.p}
			err = u.UnmarshalJSON(raw)
		}
		if err != nil {
			return false
		}
	}
	return true
}

// maxKeptHooks is the most notes a pooled state keeps room for (1.5 MB):
// with room for 4,096 only, the notes of a 1 MB document of records with
// three methods each (rec-methods, form=doc: 30,000 notes), regrown on
// every call, made it decode 22% slower, pretty-printed 20% (Intel Xeon,
// 6 rounds).
const maxKeptHooks = 1 << 16

// dropHooks forgets the deferred methods (and the values they point to).
func (ds *decodeState) dropHooks() {
	clear(ds.hookCalls)
	ds.hookCalls = ds.hookCalls[:0]
}
