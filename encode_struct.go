package json

import (
	"encoding/binary"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	"github.com/jsonpipe/json/internal/digits"
	"github.com/jsonpipe/json/internal/strbody"
)

// The struct encoder: the fields typeFields finds (fields.go, shared with
// the decoder), each with its name written out once, its place as an offset
// from the struct, and its encoder.

type encField struct {
	// name is `,"name":`, with '<', '>' and '&' escaped in the table for
	// HTML escaping; the comma of the first field written is overwritten
	// by '{'. A name of up to 32 bytes (short) is also held padded with
	// zeros to 32, and copied in one 32-byte move into the spare capacity,
	// not through memmove.
	name  string
	pad   [32]byte
	short bool

	// rare: derefs or omit is set, and the loop takes the long way.
	rare   bool
	direct encDirect
	// slow: the field's name is not written with one copy of its pad: it
	// is rare, its name is not short, or the fast paths are off. The loop
	// then calls start; the others cost it one test.
	slow bool
	// nullable: the field is a pointer, interface, map or slice that is
	// written as null when its first word is nil (nilIsNull), without a
	// call to its encoder.
	nullable bool

	// The field is at offset from the struct, or, when it is promoted
	// through embedded pointers, at offset from the struct that the last of
	// them points to; derefs are the offsets of those pointers, each from
	// the struct the previous one points to. A nil one hides the field.
	offset uintptr
	// hides, for a field promoted through embedded pointers, is how many
	// of the fields after it are promoted through the same ones: a nil
	// pointer that hides this field hides them too, and the loop skips
	// them without a look.
	hides  int
	fn     encodeFn
	st     *structEncoder // a struct field's encoder, called directly
	list   *listInfo      // a slice of scalars' (typeEncoder.list)
	derefs []uintptr
	// omit, when the field has omitempty or omitzero, reports whether the
	// value at p is left out.
	omit func(p unsafe.Pointer) bool
}

// structEncoder holds the field table for each value of encodeState.html:
// the names without and with HTML escaping. Both are one table unless a
// name has '<', '>' or '&'.
type structEncoder struct {
	fields [2][]encField
	// prefix is how many of the first fields are plain: plainRun writes
	// them, and the loop the rest. id names the encoder in
	// encodeState.plainMiss.
	prefix int
	id     uint32
}

// structEncoders counts the struct encoders made, for their ids.
var structEncoders atomic.Uint32

// plainRetry: where plainRun stops at a struct's first field, that
// struct's next plainRetry values in the Marshal call (or the Encoder's
// stream) go straight to encode's loop before plainRun is tried again. A
// field whose values plainRun leaves (a long text, a name in another
// script while the lazy check is off) most often leaves them all, and the
// try costs the struct about 100 instructions.
const plainRetry = 15

func newStructEncoder(t reflect.Type, addr bool) *typeEncoder {
	se := &structEncoder{}
	sfs := typeFields(t)
	plain := make([]encField, 0, len(sfs))
	lazy := true
	var html []encField // made at the first name that differs with HTML escaping
	for i, sf := range sfs {
		f := encField{}
		ft := t
		fieldAddr := addr
		for _, i := range sf.index {
			if ft.Kind() == reflect.Pointer {
				f.derefs = append(f.derefs, f.offset)
				f.offset = 0
				ft = ft.Elem()
				fieldAddr = true
			}
			field := ft.Field(i)
			f.offset += field.Offset
			ft = field.Type
		}
		te := encoderFor(ft, fieldAddr, sf.quoted)
		f.fn, f.direct, f.st, f.list = te.fn, te.direct, te.st, te.list
		lazy = lazy && te.partLazy(ft)
		f.nullable = fastPaths && nilIsNull(ft, fieldAddr)
		if !f.nullable {
			f.list = nil // the loop's list path leaves a nil slice's null to nullable
		}
		if sf.omitEmpty || sf.omitZero {
			f.omit = omitFunc(ft, sf.omitEmpty, sf.omitZero)
			lazy = lazy && !(sf.omitZero && userIsZero(ft))
		}
		f.rare = f.omit != nil || f.derefs != nil
		f.setName(sf.name)
		plain = append(plain, f)
		if h := htmlEscapeName(sf.name); h != sf.name {
			if html == nil {
				html = append(make([]encField, 0, len(sfs)), plain[:i]...)
			}
			f.setName(h)
		}
		if html != nil {
			html = append(html, f)
		}
	}
	if html == nil {
		html = plain // no name has '<', '>' or '&': one table
	}
	for _, fs := range [2][]encField{plain, html} {
		for i := len(fs) - 2; i >= 0; i-- {
			if fs[i].derefs != nil && slices.Equal(fs[i].derefs, fs[i+1].derefs) {
				fs[i].hides = fs[i+1].hides + 1
			}
		}
	}
	se.fields = [2][]encField{plain, html}
	for se.prefix < len(plain) && plain[se.prefix].plain() && html[se.prefix].plain() {
		se.prefix++
	}
	se.id = structEncoders.Add(1)
	te := addrEncoder(t, se.encode)
	te.st = se
	te.lazy = lazy
	return te
}

// nilIsNull reports whether a nil value of type t, as a field (addr: an
// addressable one), is written as null: encoding/json writes null for
// every nil pointer and interface (a nil *T's methods are not called), and
// for a nil map or slice unless a MarshalJSON or MarshalText method of the
// type, or of its pointer when addressable, writes it (or, on Go 1.27, a
// MarshalJSONTo method of any of these kinds), or the map's key
// kind makes the type unsupported (an error even when nil). The first word
// of each of these is nil exactly when the value is: a pointer, an
// interface's type, a map's pointer, a slice's array (an empty slice that
// is not nil has one).
func nilIsNull(t reflect.Type, addr bool) bool {
	if hasMarshalTo(t, addr) { // Go 1.27's MarshalJSONTo: its encoder decides
		return false
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface:
		return true
	case reflect.Map, reflect.Slice:
		for _, m := range []reflect.Type{marshalerType, textMarshalerType} {
			if t.Implements(m) || addr && reflect.PointerTo(t).Implements(m) {
				return false
			}
		}
		if t.Kind() == reflect.Slice {
			return true
		}
		switch k := t.Key(); k.Kind() {
		case reflect.String,
			reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			return true
		default:
			return k.Implements(textMarshalerType)
		}
	}
	return false
}

// setName sets f's name, written out, to the member name of key, and slow
// from the name's length and rare, which must be set first.
func (f *encField) setName(key string) {
	f.name = `,"` + key + `":`
	f.pad = [32]byte{}
	if f.short = len(f.name) <= 32; f.short {
		copy(f.pad[:], f.name)
	}
	f.slow = !fastPaths || f.rare || !f.short
}

// plain reports whether plainRun writes f: it is not slow, and a string,
// an integer or a bool.
func (f *encField) plain() bool {
	switch f.direct {
	case encString, encInt64, encInt32, encUint64, encBool:
		return !f.slow
	}
	return false
}

// htmlEscapeName escapes '<', '>' and '&' in a field name; a name from a tag
// holds no other character that needs escaping (isValidTag).
func htmlEscapeName(name string) string {
	if !strings.ContainsAny(name, "<>&") {
		return name
	}
	var b []byte
	for i := 0; i < len(name); i++ {
		switch c := name[i]; c {
		case '<', '>', '&':
			b = append(b, strbody.ASCIIEscape(c)...)
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// encode writes the fields in one loop: a string or integer field, most of
// what structs hold, costs the name's copy and one call; the other scalar
// kinds go through appendDirect, the rest through their encoder. The first
// se.prefix fields go first to plainRun, which writes them without a call
// while their values are the commonest; the loop starts at the first it
// leaves.
func (se *structEncoder) encode(es *encodeState, b []byte, p unsafe.Pointer) ([]byte, error) {
	mark := len(b)
	i := 0
	if se.prefix > 0 {
		if es.plainMiss == se.id && es.plainSkips < plainRetry {
			es.plainSkips++
		} else {
			// plainRun takes encode's arguments in the same registers.
			if b, i = se.plainRun(es, b, p); i == len(se.fields[0]) {
				return closeObject(b, mark), nil
			}
			if i == 0 {
				es.plainMiss, es.plainSkips = se.id, 0
			}
		}
	}
	fields := se.fields[es.html&1]
	hidden := 0 // a nil pointer already met hides the slow fields before this index
	for ; i < len(fields); i++ {
		f := &fields[i]
		fp := unsafe.Add(p, f.offset)
		if f.slow {
			if i < hidden {
				continue
			}
			var more bool
			if b, fp, more = f.start(b, p); !more {
				if fp == nil { // hidden by a nil embedded pointer
					hidden = i + 1 + f.hides
				}
				continue
			}
		} else if l := len(b); cap(b)-l >= 32 {
			*(*[32]byte)(b[l : l+32]) = f.pad
			b = b[:l+len(f.name)]
		} else {
			b = append(b, f.name...)
		}
		// vp is where the scalar is: the field, or what a pointer field
		// points to.
		vp, d := fp, f.direct
		if d >= encPtr {
			if vp = *(*unsafe.Pointer)(fp); vp == nil {
				b = append(b, "null"...)
				continue
			}
			d -= encPtr
		} else if d == encCall && f.nullable && *(*unsafe.Pointer)(fp) == nil {
			// A nil pointer, interface, map or slice: null, without its
			// encoder's call (see nilIsNull).
			b = append(b, "null"...)
			continue
		}
		switch d {
		case encString:
			// 1 to 24 bytes (a code, a name, a date) that need no escape,
			// here in the loop, as appendString writes them: its call
			// costs the loop its registers, reloaded from the stack after
			// every call.
			s := *(*string)(vp)
			if n, l := len(s), len(b); fastPaths && uint(n-1) <= 23 && cap(b)-l >= 34 {
				html := es.html != 0
				out := b[l : l+34]
				if n < 4 {
					// A code ("P", "AD", "EUR"), as appendString writes
					// it: its bytes are its first, middle and last.
					a, m, z, plain := shortBytes(s, html)
					if !plain[a] || !plain[m] || !plain[z] {
						if (a | m | z) < utf8.RuneSelf {
							b = appendASCIIShort(b, a, m, z, n, html)
							continue
						}
						// In another script: unchecked, as the longer
						// ones, where none of its ASCII bytes needs a look.
						if es.lazy == 0 || !(plain[a] || a >= utf8.RuneSelf) || !(plain[m] || m >= utf8.RuneSelf) ||
							!(plain[z] || z >= utf8.RuneSelf) || !es.lazyString(l) {
							b = appendString(b, s, html)
							continue
						}
						es.unchecked = true // checkLazy checks it (encode_lazy.go)
					}
					out[1], out[1+n>>1], out[n] = a, m, z
					out[0] = '"'
					out[n+1] = '"'
					b = b[:l+n+2]
					continue
				}
				if n < 8 {
					// The first 4 bytes and the last 4, which overlap, as
					// appendString checks them. (This branch before the
					// longer strings' code measured 8% faster on 4-byte
					// strings than after it, and 0 to 3% slower on 16.)
					lo := binary.LittleEndian.Uint32(unsafe.Slice(unsafe.StringData(s), 4))
					hi := binary.LittleEndian.Uint32(unsafe.Slice(unsafe.StringData(s[n-4:]), 4))
					w := uint64(lo) | uint64(hi)<<32
					if m := strbody.EscapeMask(w, html); m != 0 {
						if es.lazy != 0 && w&0x8080808080808080 != 0 && m&^w == 0 && es.lazyString(l) {
							es.unchecked = true // checkLazy checks it (encode_lazy.go)
						} else if w&0x8080808080808080 == 0 || !plainText(s, html) {
							b = appendEscapedShort(b, s, html)
							continue
						}
					}
					binary.LittleEndian.PutUint32(out[1:], lo)
					binary.LittleEndian.PutUint32(out[n-3:], hi)
					out[0] = '"'
					out[n+1] = '"'
					b = b[:l+n+2]
					continue
				}
				// Each word's mask kept apart: the lazy check
				// (encode_lazy.go) wants to know whether one flags an
				// ASCII byte, that is, a byte with an escape (a flag above
				// a byte of 0x80 or more never comes from that byte).
				w0 := binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s), 8))
				w := binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[n-8:]), 8))
				binary.LittleEndian.PutUint64(out[1:9], w0)
				w1, m0, m := w0, strbody.EscapeMask(w0, html), strbody.EscapeMask(w, html)
				m1 := m0
				if n > 16 {
					w1 = binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[8:]), 8))
					m1 = strbody.EscapeMask(w1, html)
					binary.LittleEndian.PutUint64(out[9:17], w1)
				}
				if m0|m1|m != 0 {
					if (w0|w1|w)&0x8080808080808080 == 0 {
						// as appendString goes on, without its words again
						b = appendEscaped(b, s, html)
						continue
					}
					if es.lazy == 0 || m0&^w0|m1&^w1|m&^w != 0 || !es.lazyString(l) {
						b = appendNonASCII(b, s, html)
						continue
					}
					es.unchecked = true // checkLazy checks it (encode_lazy.go)
				}
				binary.LittleEndian.PutUint64(out[n-7:n+1], w)
				out[0] = '"'
				out[n+1] = '"'
				b = b[:l+n+2]
				continue
			}
			b = appendString(b, s, es.html != 0)
			continue
		case encInt64:
			// 0 to 999 (a count, an age, a small id) here in the loop,
			// from appendInt10's table, for the same reason.
			x := *(*int64)(vp)
			var ok bool
			if b, ok = appendSmall(b, uint64(x)); ok {
				continue
			}
			b = appendInt10(b, x)
			continue
		case encInt32:
			x := int64(*(*int32)(vp))
			var ok bool
			if b, ok = appendSmall(b, uint64(x)); ok {
				continue
			}
			b = appendInt10(b, x)
			continue
		case encUint64:
			// As encInt64: an unsigned id costs no more than a signed one.
			x := *(*uint64)(vp)
			var ok bool
			if b, ok = appendSmall(b, x); ok {
				continue
			}
			if int64(x) >= 0 { // appendUint10's first case, without its call
				b = appendInt10(b, int64(x))
			} else {
				b = appendUint10(b, x)
			}
			continue
		case encBool:
			b = appendFlag(b, *(*bool)(vp))
			continue
		case encFloat64:
			// Without appendDirect's call; NaN and the infinities go to
			// the field's encoder, for its error.
			if x := *(*float64)(vp); finite(x) {
				b = appendFloat(b, x, 64)
				continue
			}
		case encFloat32:
			if x := float64(*(*float32)(vp)); finite(x) {
				b = appendFloat(b, x, 32)
				continue
			}
		case encNumber:
			// A Number that is one, without appendDirect's call; the empty
			// one (0) and invalid ones (an error) go to its encoder.
			var ok bool
			if b, ok = appendNumberLit(b, *(*string)(vp)); ok {
				continue
			}
		case encCall:
			if l := f.list; l != nil {
				// A slice of scalars, not nil (f.list is set only with
				// nullable, above), without its encoder's call
				// (typeEncoder.list).
				s := *(*[]byte)(fp) // only its data pointer and length are read
				var err error
				if b, err = es.appendElements(b, l.elem, unsafe.Pointer(unsafe.SliceData(s)), len(s), l.size); err != nil {
					return b, err
				}
				continue
			}
		default:
			var ok bool
			if b, ok = es.appendDirect(b, f.direct, fp); ok {
				continue
			}
		}
		var err error
		if f.st != nil {
			b, err = f.st.encode(es, b, fp)
		} else {
			b, err = f.fn(es, b, fp)
		}
		if err != nil {
			return b, err
		}
	}
	return closeObject(b, mark), nil
}

// closeObject writes the braces of the object whose members start at mark
// (with a comma, which the brace overwrites) and end at the end of b.
func closeObject(b []byte, mark int) []byte {
	if len(b) == mark {
		return append(b, '{', '}')
	}
	b[mark] = '{'
	return append(b, '}')
}

// start is the loop's long way to a slow field of the struct at p: it
// writes the field's name and returns where the field is, or, for a field
// left out or hidden by a nil pointer, more false, having written nothing
// (fp is nil only for the field a nil pointer hides).
func (f *encField) start(b []byte, p unsafe.Pointer) (_ []byte, fp unsafe.Pointer, more bool) {
	fp = unsafe.Add(p, f.offset)
	if f.rare {
		var ok bool
		if fp, ok = f.locate(p); !ok {
			return b, fp, false
		}
	}
	if l := len(b); fastPaths && f.short && cap(b)-l >= 32 {
		*(*[32]byte)(b[l : l+32]) = f.pad
		b = b[:l+len(f.name)]
	} else {
		b = append(b, f.name...)
	}
	return b, fp, true
}

// locate is the long way to field f of the struct at p: through the
// embedded pointers it is promoted through, then past omitempty and
// omitzero. It returns false when a nil pointer hides the field (and a
// nil pointer) or the field is left out (and where it is).
func (f *encField) locate(p unsafe.Pointer) (unsafe.Pointer, bool) {
	for _, off := range f.derefs {
		p = *(*unsafe.Pointer)(unsafe.Add(p, off))
		if p == nil {
			return nil, false
		}
	}
	p = unsafe.Add(p, f.offset)
	if f.omit != nil && f.omit(p) {
		return p, false
	}
	return p, true
}

// omitFunc reports, for a field of type t, whether its value is left out:
// with omitempty, when it is false, 0, a nil pointer or interface, or an
// empty array, slice, map or string (encoding/json's isEmptyValue); with
// omitzero, when it is its type's zero value, or its IsZero method says so.
func omitFunc(t reflect.Type, omitEmpty, omitZero bool) func(p unsafe.Pointer) bool {
	var empty, zero func(p unsafe.Pointer) bool
	if omitEmpty {
		empty = emptyFunc(t)
	}
	if omitZero {
		zero = zeroFunc(t)
	}
	switch {
	case empty == nil:
		return zero
	case zero == nil:
		return empty
	}
	return func(p unsafe.Pointer) bool { return empty(p) || zero(p) }
}

func emptyFunc(t reflect.Type) func(p unsafe.Pointer) bool {
	switch t.Kind() {
	case reflect.Array:
		n := t.Len()
		return func(unsafe.Pointer) bool { return n == 0 }
	case reflect.Map:
		return func(p unsafe.Pointer) bool { return reflect.NewAt(t, p).Elem().Len() == 0 }
	case reflect.Slice:
		return func(p unsafe.Pointer) bool { return len(*(*[]byte)(p)) == 0 }
	case reflect.String:
		return func(p unsafe.Pointer) bool { return len(*(*string)(p)) == 0 }
	case reflect.Interface:
		return func(p unsafe.Pointer) bool { return reflect.NewAt(t, p).Elem().IsNil() }
	case reflect.Pointer:
		return func(p unsafe.Pointer) bool { return *(*unsafe.Pointer)(p) == nil }
	case reflect.Float32:
		return func(p unsafe.Pointer) bool { return *(*float32)(p) == 0 } // -0 too, as reflect's IsZero
	case reflect.Float64:
		return func(p unsafe.Pointer) bool { return *(*float64)(p) == 0 }
	case reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		switch t.Size() {
		case 1:
			return func(p unsafe.Pointer) bool { return *(*uint8)(p) == 0 }
		case 2:
			return func(p unsafe.Pointer) bool { return *(*uint16)(p) == 0 }
		case 4:
			return func(p unsafe.Pointer) bool { return *(*uint32)(p) == 0 }
		}
		return func(p unsafe.Pointer) bool { return *(*uint64)(p) == 0 }
	}
	return func(unsafe.Pointer) bool { return false }
}

// zeroFunc is omitzero's test for a field of type t, chosen as encoding/json
// chooses it.
func zeroFunc(t reflect.Type) func(p unsafe.Pointer) bool {
	isZero := func(v reflect.Value) bool {
		z, _ := reflect.TypeAssert[interface{ IsZero() bool }](v)
		return z.IsZero()
	}
	switch {
	case t.Kind() == reflect.Interface && t.Implements(isZeroerType):
		return func(p unsafe.Pointer) bool {
			v := reflect.NewAt(t, p).Elem()
			// A nil interface, or one holding a nil pointer, has no method to call.
			return v.IsNil() || (v.Elem().Kind() == reflect.Pointer && v.Elem().IsNil()) ||
				isZero(v.Elem())
		}
	case t.Kind() == reflect.Pointer && t.Implements(isZeroerType):
		return func(p unsafe.Pointer) bool {
			v := reflect.NewAt(t, p).Elem()
			return v.IsNil() || isZero(v)
		}
	case t.Implements(isZeroerType):
		return func(p unsafe.Pointer) bool { return isZero(reflect.NewAt(t, p).Elem()) }
	case reflect.PointerTo(t).Implements(isZeroerType):
		return func(p unsafe.Pointer) bool { return isZero(reflect.NewAt(t, p)) }
	}
	return func(p unsafe.Pointer) bool { return reflect.NewAt(t, p).Elem().IsZero() }
}

// plainRun writes the first se.prefix fields of the struct at p, while
// each value is one of the commonest: a string of up to 24 bytes that
// needs no escape (in another script too, once the lazy check is on); an
// integer; a bool. It stops at the first that is not, having
// written nothing of it, and returns its index, or se.prefix.
//
// It calls nothing. encode's loop calls out for the other kinds and
// values, and keeps its values on the stack around those calls, reloading
// them for every field; here fewer go there. The cost is plainRun's call
// and, where it leaves the struct's first field, its try (see plainRetry).
// A loop that wrote every field this way and called out for the rest was
// tried: its registers spilled all the same, around the calls, and it was
// slower than this on every value it did not write itself.
func (se *structEncoder) plainRun(es *encodeState, b []byte, p unsafe.Pointer) ([]byte, int) {
	fields := se.fields[es.html&1][:se.prefix]
	html := es.html != 0
	for i := range fields {
		f := &fields[i]
		l := len(b)
		if cap(b)-l < plainRoom {
			return b, i
		}
		// The name, padded to 32 bytes, then the value at k; the bytes
		// written past the value are written over after it.
		out := (*[plainRoom]byte)(b[l : l+plainRoom])
		*(*[32]byte)(out[:32]) = f.pad
		k := len(f.name)
		vp := unsafe.Add(p, f.offset)
		n := 0 // the value's bytes
		switch d := f.direct; d {
		case encString:
			s := *(*string)(vp)
			n = len(s)
			// m flags the bytes that need a look, a those of them that
			// are ASCII: QuickMask(w) &^ w, each word's kept apart, as a
			// flag above a byte of 0x80 or more in one word may stand
			// above an escape in another.
			var m, a uint64
			switch {
			case uint(n-8) <= 16:
				// Whole words from the front, the last overlapping the
				// one before: each checked and written in turn.
				w := load64(s)
				q := strbody.QuickMask(w, html)
				m, a = q, q&^w
				put64(out, k+1, w)
				if n > 16 {
					w = load64(s[8:])
					q = strbody.QuickMask(w, html)
					m, a = m|q, a|q&^w
					put64(out, k+9, w)
				}
				w = load64(s[n-8:])
				q = strbody.QuickMask(w, html)
				m, a = m|q, a|q&^w
				put64(out, k+n-7, w)
			case uint(n-4) <= 3:
				// The first 4 bytes and the last 4, which overlap.
				w := uint64(load32(s)) | uint64(load32(s[n-4:]))<<32
				m = strbody.QuickMask(w, html)
				a = m &^ w
				put64(out, k+1, w)
				put64(out, k+n-3, w>>32)
			case uint(n-1) <= 2:
				// A code ("P", "AD", "EUR"): all its bytes in one word,
				// above bytes that need no escape (shortWord).
				w := shortWord(s)
				m = strbody.QuickMask(w, html)
				a = m &^ w
				put64(out, k+1, w)
			default:
				if n != 0 {
					return b, i // not one of these lengths
				}
			}
			// A string in another script without an ASCII escape is
			// written unchecked once the lazy check is on (es.lazy 1).
			if m != 0 {
				if a != 0 || es.lazy != 1 {
					return b, i
				}
				es.unchecked = true // checkLazy checks it (encode_lazy.go)
			}
			out[k&63] = '"'
			out[(k+n+1)&63] = '"'
			n += 2
		case encInt64, encInt32, encUint64:
			var u uint64
			switch d {
			case encInt64, encInt32:
				var x int64
				if d == encInt64 {
					x = *(*int64)(vp)
				} else {
					x = int64(*(*int32)(vp))
				}
				u = uint64(x)
				if x < 0 {
					out[k&63] = '-'
					u, n = -u, 1
				}
			default:
				u = *(*uint64)(vp)
			}
			// As appendInt10 writes them: up to six digits from its
			// table, up to eight in a word, up to sixteen in two, the
			// rest in three.
			switch {
			case u < 1e6:
				c := digits.Len(uint32(u))
				put64(out, k+n, tableDigits(uint32(u), c)|asciiZeros)
				n += c
			case u < 1e8:
				c := digits.Len(uint32(u))
				put64(out, k+n, smallDigits(uint32(u), c)|asciiZeros)
				n += c
			case u < 1e16:
				hi := uint32(u / 1e8)
				c := digits.Len(hi)
				put64(out, k+n, smallDigits(hi, c)|asciiZeros)
				put64(out, k+n+c, digits8(uint32(u-uint64(hi)*1e8))|asciiZeros)
				n += c + 8
			default: // 17 to 20 digits: an id
				top := uint32(u / 1e16)
				u -= uint64(top) * 1e16
				hi := uint32(u / 1e8)
				c := digits.Len(top)
				put64(out, k+n, tableDigits(top, c)|asciiZeros)
				put64(out, k+n+c, digits8(hi)|asciiZeros)
				put64(out, k+n+c+8, digits8(uint32(u-uint64(hi)*1e8))|asciiZeros)
				n += c + 16
			}
		case encBool:
			w, c := uint64(boolFalse), 5
			if *(*bool)(vp) {
				w, c = boolTrue, 4 // conditional moves, not a branch (appendFlag)
			}
			put64(out, k, w)
			n = c
		}
		b = b[:l+k+n]
	}
	return b, len(fields)
}

// plainRoom is the room plainRun wants past the output's end to write a
// field: its name, padded to 32 bytes, and its value, of at most 26 bytes,
// written in words that may reach 8 bytes past it. Every word starts below
// 64, and its offset is masked to 63, which costs less than a bounds
// check.
const plainRoom = 64 + 8

// put64 writes w at o[at&63:].
func put64(o *[plainRoom]byte, at int, w uint64) {
	binary.LittleEndian.PutUint64(o[at&63:at&63+8], w)
}

// load64 and load32 read the first 8 or 4 bytes of s, which has them.
func load64(s string) uint64 {
	return binary.LittleEndian.Uint64((*[8]byte)(unsafe.Pointer(unsafe.StringData(s)))[:])
}

func load32(s string) uint32 {
	return binary.LittleEndian.Uint32((*[4]byte)(unsafe.Pointer(unsafe.StringData(s)))[:])
}

// shortWord returns a word whose low bytes are the 1 to 3 bytes of s and
// then more of them, written over after s (see put64), and whose other
// bytes are 'a', which no escape mask flags: s's first, middle and last
// byte, all of its bytes (in 1 byte all three are the first, in 2 the
// middle is the last), in that order, which is s and, past its end, its
// last byte once or twice again (shortBytes). No byte past s is read, as
// a load of 4 could (s may end a page).
func shortWord(s string) uint64 {
	a, m, z, _ := shortBytes(s, false)
	return uint64(a) | uint64(m)<<8 | uint64(z)<<16 | lsb*'a'&^0xffffff
}
