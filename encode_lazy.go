package json

import (
	"bytes"
	"reflect"

	"github.com/jsonpipe/json/internal/utf8dfa"
)

// The lazy check of Marshal's short strings in other scripts.
//
// A string of 4 to 24 bytes with a byte of 0x80 or more, a name or a word
// in another script, is most often valid UTF-8 without U+2028 or U+2029,
// which encoding/json writes as it is; checking each one for the rest (a
// character at a time, or the escape kernel's check of one block) was a
// fifth to a third of Marshal's time on such strings. Where writing the
// value runs no user code (its encoder's lazy flag, decided when the
// encoder is built), the struct loop writes them
// unchecked, but for their ASCII escapes, and Marshal checks its whole
// output once after (checkLazy: the vector UTF-8 check, then a search for
// U+2028 and U+2029). Should that fail, which invalid UTF-8 in a string or
// a RawMessage, or one of the two characters, makes it do, the value is
// encoded again, every string checked as before.
//
// The output of both encodings is the same whenever the check passes: an
// unchecked string is written byte for byte but for its ASCII escapes,
// which are ASCII, between ASCII quotes, so no byte next to it completes a
// character it cuts short, and a string that is not valid UTF-8 leaves
// output that is not. Encoding again is safe only where no user code runs
// (a MarshalJSON method would be called twice), hence typeEncoder.lazy.
//
// The first such strings of a call are checked one by one as before, and
// the lazy check starts only once they come close together (lazyString):
// a value with a few of them, or with few among much else, costs less so
// than with a pass over its whole output. Encoder.Encode does without the
// lazy check: the values of a stream are most often records with too few
// strings for it to pay.

// lazyEager and lazySpacing decide when a call's lazy check starts: once
// at least lazyEager short non-ASCII strings have been checked one by one,
// and they came at most lazySpacing bytes of output apart on average.
// Before that, the pass over the whole output would cost more than the
// strings' own checks save: a record a service writes holds a few (a
// record of four short fields, two of them in other scripts, written by
// Encode took 36% longer with the lazy check from the first string); and
// rows with one such string among longer ASCII ones (gemoji's emoji.json:
// an emoji of 4 to 20 bytes in a row of about 200) took 7% longer
// Marshalled with it from the fifth string on. Where they come closer
// than 32 bytes apart (words in other scripts, side by side), their
// checks cost more than the pass.
const (
	lazyEager   = 4
	lazySpacing = 32
)

// lazyString reports whether a short string with a byte of 0x80 or more,
// to be written at l in the output, is written without its check; if not,
// it counts it, and starts the lazy check for the next ones when they have
// come close enough together.
func (es *encodeState) lazyString(l int) bool {
	if es.lazy == 1 {
		return true
	}
	if es.lazy > 1 {
		es.lazyCount++
		if es.lazyCount >= lazyEager && l <= es.lazyCount*lazySpacing {
			es.lazy = 1
		}
	}
	return false
}

// lazyDecide: the value of es.lazy from startLazy until encodeAny has
// looked up the encoder of Marshal's value (decideLazy).
const lazyDecide = 3

// startLazy and endLazy go around the encodeAny of a whole value in
// Marshal and MarshalIndent, for the lazy check where v's type allows it
// (decideLazy); where endLazy reports strings written unchecked,
// checkLazy checks them. Both inline.
func (es *encodeState) startLazy() {
	es.lazy, es.unchecked, es.lazyCount = 0, false, 0
	if fastPaths {
		es.lazy = lazyDecide
	}
}

// endLazy ends what startLazy started and reports whether a string was
// written unchecked.
func (es *encodeState) endLazy() bool {
	es.lazy = 0
	return es.unchecked
}

// decideLazy, called by encodeAny with the encoder te of the dynamic type
// t it looked up, starts the lazy check (es.lazy 2) for Marshal's value
// where te's type runs no user code (typeEncoder.lazy) and has not failed
// the check before in this state. The decision rides on encodeAny's own
// lookup: values of many types, one after another, each look their type
// up once. encodeAny's values that it writes itself (strings, numbers,
// map[string]any, []any) turn it off, as does anything below Marshal's
// value: no type that runs no user code holds an interface.
func (es *encodeState) decideLazy(t reflect.Type, te *typeEncoder) {
	es.lazy = 0
	if te.lazy && t != es.lazyOff {
		es.lazy = 2
	}
}

// checkLazy returns out, where encodeAny wrote v from start on with short
// strings unchecked, when its output needs no more; else v encoded again,
// each string checked, and so from now on for this type in this state.
func (es *encodeState) checkLazy(out []byte, start int, v any) ([]byte, error) {
	if plainOutput(out[start:]) {
		return out, nil
	}
	// A string needs its escapes after all (or a RawMessage in the value
	// holds such bytes, which stay as they are).
	es.lazyOff = reflect.TypeOf(v)
	return es.encodeAny(out[:start], v)
}

// plainOutput reports whether p is valid UTF-8 without U+2028 or U+2029.
func plainOutput(p []byte) bool {
	if !utf8dfa.Valid(p) {
		return false
	}
	for {
		i := bytes.Index(p, []byte("\xe2\x80"))
		if i < 0 {
			return true
		}
		if i+2 < len(p) && p[i+2]&^1 == 0xA8 {
			return false
		}
		p = p[i+2:]
	}
}

// partLazy is te.lazy, for te the encoder of t, a part of a type being
// built (a field, an element): the builders set their own lazy from their
// parts'. A placeholder (a type that holds itself, or one another
// goroutine is building now) has no answer yet: t is walked (lazyType).
func (te *typeEncoder) partLazy(t reflect.Type) bool {
	if te.building {
		return lazyType(t)
	}
	return te.lazy
}

// userIsZero reports whether omitzero calls an IsZero method of t's or
// *t's (zeroFunc) that is user code: any but time.Time's.
func userIsZero(t reflect.Type) bool {
	return t != timeType && (t.Implements(isZeroerType) || reflect.PointerTo(t).Implements(isZeroerType))
}

// lazyType reports whether encoding a value of type t runs no user code:
// no MarshalJSON, MarshalText or MarshalJSONTo method (but those of
// RawMessage and time.Time, which jsonpipe's own encoders stand in for)
// on t or anything it holds, no interface (which could hold anything),
// no map key with a MarshalText method, no field with an IsZero method
// (for omitzero). It is conservative (a method of
// *t counts, addressable or not) and walks all of t: the builders decide
// typeEncoder.lazy without it, but for a part still being built
// (partLazy).
func lazyType(t reflect.Type) bool {
	return noUserCode(t, map[reflect.Type]bool{})
}

func noUserCode(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return true // a type that holds itself: its other parts decide
	}
	seen[t] = true
	if t == rawMessageType || t == timeType {
		return true
	}
	if hasMarshalTo(t, true) {
		return false
	}
	for _, m := range []reflect.Type{marshalerType, textMarshalerType} {
		if t.Implements(m) || reflect.PointerTo(t).Implements(m) {
			return false
		}
	}
	switch t.Kind() {
	case reflect.Interface:
		return false
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return noUserCode(t.Elem(), seen)
	case reflect.Map:
		return noUserCode(t.Key(), seen) && noUserCode(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			ft := t.Field(i).Type
			if !noUserCode(ft, seen) {
				return false
			}
			// omitzero's IsZero (whatever the tag says: this walk is
			// conservative).
			if userIsZero(ft) {
				return false
			}
		}
	}
	return true
}
