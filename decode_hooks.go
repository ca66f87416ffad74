package json

import (
	"encoding"
	"fmt"
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

// hookCall is a method the pass deferred: UnmarshalJSON of the value of
// type elem at p with raw, its bytes in the input, or (text) UnmarshalText
// with the content of raw, a string token.
type hookCall struct {
	p    unsafe.Pointer
	elem reflect.Type
	raw  []byte
	text bool
}

// hookAt returns passInfo.at for a value of type elem whose UnmarshalJSON
// (or, text, UnmarshalText) decodes it: it notes the call for runHooks.
// UnmarshalJSON takes any value, null too (as encoding/json gives it to a
// value that is no pointer); UnmarshalText strings only (null is decoded
// by the value's kind, anything else is a type error: the token path's).
func hookAt(elem reflect.Type, text bool) func(ds *decodeState, data []byte, i int, p unsafe.Pointer, depth int) int {
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
		ds.hookCalls = append(ds.hookCalls, hookCall{p: p, elem: elem, raw: data[i:end], text: text})
		return end
	}
}

// movedHooks moves the notes from the mark'th on whose value lay in the
// size bytes at from to the same place in the bytes at to.
func (ds *decodeState) movedHooks(mark int, from, to unsafe.Pointer, size uintptr) {
	if len(ds.hookCalls) == mark {
		return
	}
	for k := mark; k < len(ds.hookCalls); k++ {
		c := &ds.hookCalls[k]
		if off := uintptr(c.p) - uintptr(from); off < size {
			c.p = unsafe.Add(to, off)
		}
	}
}

// runHooks calls the methods the pass deferred, in order, and reports
// whether every one returned nil; it stops at the first that did not.
func (ds *decodeState) runHooks() bool {
	defer ds.dropHooks()
	for k := range ds.hookCalls {
		c := &ds.hookCalls[k]
		var err error
		if c.text {
			ds.scratch = unquote.Append(ds.scratch[:0], c.raw)
			err = reflect.NewAt(c.elem, c.p).Interface().(encoding.TextUnmarshaler).UnmarshalText(ds.scratch)
		} else {
			err = reflect.NewAt(c.elem, c.p).Interface().(Unmarshaler).UnmarshalJSON(c.raw)
		}
		if err != nil {
			return false
		}
	}
	return true
}

// dropHooks forgets the deferred methods (and the values they point to).
func (ds *decodeState) dropHooks() {
	clear(ds.hookCalls)
	ds.hookCalls = ds.hookCalls[:0]
}
