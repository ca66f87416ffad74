package json

import (
	"encoding/binary"
	"reflect"
	"slices"
	"time"
	"unsafe"

	"github.com/jsonpipe/json/internal/number"
)

// The typed one pass. Unmarshal into a zero struct (the argument's type
// the one of the call before, ds.lastWord) whose members are all scalars
// that scalarNext decodes, any, time.Time, structs of such members, or
// slices, arrays, maps with string keys or pointers of such values, or
// into a nil slice of such structs, reads its value straight from the
// bytes, as the one pass into an any does (decode_any_bytes.go); Decode
// does the same on its window (streamPass). A member's key is found by the guess of the field
// after the last one (expectKey's two words), the table of the members'
// first bytes (fieldAt) or lookup's tables; its value by the token path's
// own pieces (scanInt64, scanFloat64, flagAt, readString, scalarNext) at
// the index, an any's by the pass into an any (anyAt); an unknown
// member's value is skipped by the validator. None of the token layer's
// work per token (its state, the stack of open containers, the checks
// that the window holds the next token) is done: a small record's
// per-call cost was mostly that work.
//
// It takes only input it decodes whole, as the token path would: anything
// else (a syntax error, a value of another kind, a number that does not
// fit, a Number given as a string, a value nested deeper than
// maxOnePassDepth, a member that came before whose value the token path
// would decode into) makes it give up, the target is zero (or nil) again,
// and the token path decodes the input from the start, with its errors
// and offsets. The struct types it takes are those on which it gives up
// only for such input (passable): a member that has methods (but
// time.Time), or is an interface with methods, would make it give up on
// most input.

// passable reports whether the struct decoder's values are ones the typed
// one pass takes: every field, at any depth, one that scalarNext decodes,
// an any, a time.Time, a struct of such fields, or a slice, an array, a
// map with string keys or a pointer of such values, none of them behind
// an embedded pointer, ",string" or read-only, and no other type with
// methods. Worked out once per decoder, when first asked.
func (sd *structDecoder) passable() bool {
	switch sd.pass.Load() {
	case passYes:
		return true
	case passNo:
		return false
	}
	ok := fastPaths && sd.passableIn(nil)
	if ok {
		sd.pass.Store(passYes)
	} else {
		sd.pass.Store(passNo)
	}
	return ok
}

// Values of structDecoder.pass: not yet worked out, or passable's answer.
const (
	passUnknown = iota
	passYes
	passNo
)

// passableIn is passable for sd reached through the structs in open,
// whose fields are being looked at: one that reaches itself again (a
// recursive type: a tweet's retweet, a comment's replies) is what it is
// found to be the first time, so that the answer is whether anything it
// reaches is not taken; a struct 32 deep is not taken. (The pass's depth
// is bounded by maxOnePassDepth, as the pass into an any's.)
func (sd *structDecoder) passableIn(open []*structDecoder) bool {
	switch sd.pass.Load() {
	case passYes:
		return true
	case passNo:
		return false
	}
	if slices.Contains(open, sd) {
		return true
	}
	if len(open) >= 32 {
		return false
	}
	open = append(open, sd)
	for i := range sd.fields {
		f := &sd.fields[i]
		switch {
		case f.readOnly || f.quoted && f.quotedFast == fastNone && f.quotedNarrow == nil:
			return false
		case f.quoted:
		case f.direct != directNone:
		case f.dec.passableIn(open):
		default:
			return false
		}
	}
	return true
}

// passableIn reports whether the pass takes td's values, in a struct,
// slice, map or pointer reached through the structs in open: scalars that
// scalarNext decodes, any, time.Time, RawMessage, passable structs, and
// slices, maps with string keys and pointers of such values.
func (td *typeDecoder) passableIn(open []*structDecoder) bool {
	switch {
	case td.pass != nil && td.pass.hook:
		return true
	case td.selfHooks:
		return false
	case td.direct != directNone:
		return true
	case td.sd != nil:
		return td.sd.passableIn(open)
	case td.slice != nil:
		// Not a []byte (of any byte type): it is base64 in a string, on
		// which the pass would give up.
		return td.slice.small > 0 && td.slice.t.Elem().Kind() != reflect.Uint8 && td.slice.elem.passableIn(open)
	case td.pass != nil:
		if td.pass.values && td.pass.elem.hooks {
			return false
		}
		return td.pass.elem == nil || td.pass.elem.passableIn(open)
	}
	return false
}

// structPass decodes data, an object whose value is all of data but
// whitespace, into the zero struct at p by sd (passable), by the typed one
// pass, and reports whether it did. When not, the struct is zero again and
// ds.d (Unmarshal's ds.bd, or ds.sub over a value Decode captured), whose
// window is data, reads it from the start.
func (ds *decodeState) structPass(sd *structDecoder, data []byte, p unsafe.Pointer) bool {
	i := skipWhitespace(data, 0)
	if i < len(data) && data[i] == '{' {
		if end := ds.structAt(sd, data, i, p, 1); end != giveUp && skipWhitespace(data, end) == len(data) {
			return true
		}
	}
	reflect.NewAt(sd.t, p).Elem().SetZero()
	ds.dropHooks()
	ds.d.resetBytes(data) // scalarNext may have moved it, or failed its scanner
	return false
}

// sliceInfo is what slicePass needs of a slice decoder: the slice type,
// its elements' decoder and size, and its scratch buffers' id and first
// length (buildSlice).
type sliceInfo struct {
	t     reflect.Type
	elem  *typeDecoder
	size  uintptr
	id    int
	small int
}

// slicePass decodes data, an array of objects or nulls that is all of data
// but whitespace, into the nil slice at p by sl, whose elements are
// structs that sd, passable, decodes, by the typed one pass, and reports
// whether it did. The elements gather in sl's scratch buffer, then move to
// a slice of their number, as buildSlice's do; an array longer than the
// buffer goes on in a slice of about its final length, estimated from the
// bytes the buffer's elements took (as fillLong's, for an array that runs
// to the input's end), estimated again if short, then doubled, and copied
// to its length if more than a quarter empty (sliceAt). When not, the
// slice is still nil and ds.d reads data from the start, as structPass's.
// (Of any length: valid input it
// gives up on, which the token path then reads again whole, is input
// whose decoding fails (a value of another kind, a number that does not
// fit), or a Number given as a string, or values nested more than
// maxOnePassDepth deep. In form=doc, 1 MB documents, the pass ran
// rec-fields3 in 25% fewer instructions than the token path, rec-lists
// 18%, str-len16-ascii 9%.)
func (ds *decodeState) slicePass(sl *sliceInfo, data []byte, p unsafe.Pointer) bool {
	i := skipWhitespace(data, 0)
	if i < len(data) && data[i] == '[' {
		if end := ds.sliceAt(sl, data, i, p, 1); end != giveUp {
			if skipWhitespace(data, end) == len(data) {
				return true
			}
			reflect.NewAt(sl.t, p).Elem().SetZero()
		}
	}
	ds.dropHooks()
	ds.d.resetBytes(data)
	return false
}

// sliceAt decodes the array at data[i] (its '[') into the nil slice at p
// by sl, whose elements the pass takes (passableIn), as slicePass says,
// and returns the index after its ']'; or giveUp, leaving the slice nil.
// depth counts the arrays and objects open, this one's too.
func (ds *decodeState) sliceAt(sl *sliceInfo, data []byte, i int, p unsafe.Pointer, depth int) int {
	if (*sliceHeader)(p).cap != 0 {
		// A member that came before (a key twice): its elements are
		// decoded into, as the token path does.
		return giveUp
	}
	start := i
	if i = skipWhitespace(data, i+1); i < len(data) && data[i] == ']' {
		*(*[]byte)(p) = emptySlice
		return i + 1
	}
	if depth >= maxOnePassDepth {
		return giveUp
	}
	elem := sl.elem
	hooks := len(ds.hookCalls) // the hooks deferred on this slice's elements are those from here
	sc := ds.takeScratch(sl.id, sl.t, sl.small)
	base, room := sc.base, sl.small
	long := false // past the scratch buffer: the elements go on in sc.slot
	n := 0        // elements decoded, the one being decoded too
	ok := false
	// Unmarshal's array runs to the input's end (as does a value Decode
	// captured, ds.sub's): its length is estimated
	// from the bytes its elements took, as fillLong's (toEnd), from where
	// and at which element the last estimate was made, mark and markN;
	// short once it fell short. Decode's grows as lengthEstimate grows
	// one that may end before the input: by the rest of the window at
	// the same bytes per element (it ends there, or the pass gives up),
	// at most doubled while small. One inside grows as append does.
	toEnd := depth == 1 && (ds.d == &ds.bd || ds.d == &ds.sub)
	mark, markN, short := start, 0, false
	for i < len(data) {
		if n == room {
			want := 2 * n
			if depth == 1 && !toEnd {
				want = estimateLen(n, i-start, len(data)-i, sl.size, false)
			}
			if toEnd {
				est := markN + estimateLen(n-markN, i-mark, len(data)-i, sl.size, true)
				switch {
				case !long:
				case !short:
					est, short = max(est, n+n/8), true
				default:
					est = max(est, 2*n)
				}
				want, mark, markN = est, i, n
			}
			ds.passGrow(sc, long, n, want)
			long = true
			h := (*sliceHeader)(sc.slotPtr)
			if len(ds.hookCalls) > hooks {
				ds.movedHooks(hooks, base, h.data, uintptr(n)*sl.size)
			}
			base, room = h.data, h.cap
		}
		el := unsafe.Add(base, uintptr(n)*sl.size)
		n++
		if data[i] == '{' && elem.sd != nil {
			i = ds.structAt(elem.sd, data, i, el, depth+1)
		} else if k := elem.direct; k != directNone && k != directAny {
			i = ds.scalarAt(k, data, i, el)
		} else {
			i = ds.valueAt(elem, data, i, el, depth)
		}
		if i == giveUp {
			break
		}
		if i < len(data) && data[i] > ' ' {
		} else if i = skipWhitespace(data, i); i >= len(data) {
			break
		}
		if data[i] == ',' {
			i = skipWhitespace(data, i+1)
			continue
		}
		ok = data[i] == ']'
		break
	}
	switch {
	case !ok:
		*(*[]byte)(sc.slotPtr) = nil
		ds.dropScratch(sl.id, sc, min(n, sl.small))
		return giveUp
	case !long:
		sc.moveTo(p, n)
		if len(ds.hookCalls) > hooks {
			ds.movedHooks(hooks, base, (*sliceHeader)(p).data, uintptr(n)*sl.size)
		}
		ds.dropScratch(sl.id, sc, n)
		return i + 1
	}
	ds.dropScratch(sl.id, sc, sl.small)
	setLen(sc.slotPtr, n)
	if n < room-room/4 {
		// More than a quarter empty: copied to its length.
		exact := reflect.MakeSlice(sl.t, n, n)
		reflect.Copy(exact, sc.slot)
		sc.slot.Set(exact)
		if len(ds.hookCalls) > hooks {
			ds.movedHooks(hooks, base, (*sliceHeader)(sc.slotPtr).data, uintptr(n)*sl.size)
		}
	}
	// Move the header, as moveTo does.
	*(*[]byte)(p) = *(*[]byte)(sc.slotPtr)
	*(*[]byte)(sc.slotPtr) = nil
	return i + 1
}

// passGrow makes room in sc.slot for want elements, when the n that
// sliceAt has fill the scratch buffer (not long: they are copied to
// sc.slot) or sc.slot (long: reflect's Grow copies them).
func (ds *decodeState) passGrow(sc *sliceScratch, long bool, n, want int) {
	if long {
		setLen(sc.slotPtr, n)
		sc.slot.Grow(want - n)
		return
	}
	sc.slot.Grow(want)
	setLen(sc.slotPtr, n)
	reflect.Copy(sc.slot, sc.buf) // n elements: as many as sc.slot holds
}

// streamPass is the typed one pass for Decode, as streamOnePass is the
// pass into an any: when the decoder is between top-level values and the
// next one, an object into the zero struct at p (sl nil), or an array into
// the nil slice at p, is whole in its window (read into first when it
// holds only whitespace, as a new decoder's empty one), the pass reads it
// there and the decoder moves past it, as after its last token: only the
// window's offset moves (the scanner, which the pass may change, and the
// decoder's state are put back as they were). A value cut by the window's
// end, or any other reason the pass gives up, leaves the decoder as it was
// and the target zero, for the token path. Not with DisallowUnknownFields
// (the pass passes over unknown members), nor under a SetMaxDepth limit
// the pass's own depth limit could pass.
func (ds *decodeState) streamPass(sd *structDecoder, sl *sliceInfo, p unsafe.Pointer) bool {
	d := ds.d
	if ds.disallowUnknown {
		return false
	}
	data, i := d.passWindow()
	saved, state := d.s, d.state
	end := giveUp
	switch {
	case i >= len(data):
	case sl == nil && data[i] == '{':
		if end = ds.structAt(sd, data, i, p, 1); end == giveUp {
			reflect.NewAt(sd.t, p).Elem().SetZero()
		}
	case sl != nil && data[i] == '[':
		end = ds.sliceAt(sl, data, i, p, 1)
	}
	d.s, d.state = saved, state
	if end == giveUp {
		ds.dropHooks()
		return false
	}
	if len(ds.hookCalls) > 0 && !ds.runHooks(data) {
		// A method failed: the token path, from the value's start, words
		// its error (the methods before it are called again).
		t := sd.t
		if sl != nil {
			t = sl.t
		}
		reflect.NewAt(t, p).Elem().SetZero()
		ds.hooksFailed = true
		return false
	}
	d.passedTo(end)
	return true
}

// structAt decodes the object at data[i] (its '{') into the struct at p by
// sd, and returns the index after its '}', or giveUp. depth counts the
// objects and arrays open, this one's too.
func (ds *decodeState) structAt(sd *structDecoder, data []byte, i int, p unsafe.Pointer, depth int) int {
	if i = skipWhitespace(data, i+1); i >= len(data) {
		return giveUp
	}
	if data[i] == '}' {
		return i + 1
	}
	next := 0 // the field guessed for the next key, as in decode's loop
	// missed counts the guesses that missed in a row: after two (keys in
	// another order than the fields', sorted or shuffled), none is made.
	missed := 0
	for {
		// A member starts at data[i], a byte that is not whitespace.
		var f *fieldDecoder
		// The member's first 16 bytes, zeros past the input's end (the
		// last member of a document ends within them: memberTail).
		var w0, w1 uint64
		if i+16 <= len(data) {
			w := data[i : i+16]
			w0, w1 = binary.LittleEndian.Uint64(w), binary.LittleEndian.Uint64(w[8:])
		} else {
			w0, w1 = memberTail(data, i)
		}
		if next < len(sd.fields) && missed < 2 {
			if g := &sd.fields[next]; g.keyLen != 0 {
				if w1&g.mask1|g.fold1 == g.key1 && w0&g.mask0|g.fold0 == g.key0 {
					f, i = g, i+g.keyLen
					next++
					missed = 0
				} else {
					missed++
				}
			}
		}
		if f == nil {
			// Another field's `"name":`, by the member's first bytes
			// (sorted or shuffled keys, a member absent).
			if g := sd.fieldAt(w0, w1); g != nil {
				f, i = g, i+g.keyLen
				next = g.index + 1
			}
		}
		if f == nil && next < len(sd.fields) {
			// The guess again, byte by byte (a name too long for the
			// words, or 16 bytes from the end, or space before the ':').
			g := &sd.fields[next]
			if end := i + len(g.name) + 1; end < len(data) && data[i] == '"' && data[end] == '"' {
				if key := data[i+1 : end]; string(key) == g.name || g.fold && asciiFoldEqual(key, g.name) {
					if i = skipWhitespace(data, end+1); i >= len(data) || data[i] != ':' {
						return giveUp
					}
					f, i = g, i+1
					next++
				}
			}
		}
		if f == nil {
			// Looked up as lookup does a key of ASCII without escapes; any
			// other key (escapes, bytes of 0x80 or more) by lookup itself,
			// from its token.
			if data[i] != '"' {
				return giveUp
			}
			j := i + 1
			for j < len(data) && plainKeyByte[data[j]] {
				j++
			}
			if j < len(data) && data[j] == '"' {
				body := data[i+1 : j]
				if f = sd.find(sd.exact, body, false); f == nil {
					f = sd.findFolded(body)
				}
				if f != nil {
					next = f.index + 1
				}
				j++
			} else {
				tok, _, ok := ds.readString(i, &atObjectColon)
				if !ok {
					return giveUp
				}
				f = sd.lookup(ds, tok, &next)
				j = i + len(tok)
			}
			if i = skipWhitespace(data, j); i >= len(data) || data[i] != ':' {
				return giveUp
			}
			i++
		}
		if i = skipWhitespace(data, i); i >= len(data) {
			return giveUp
		}
		switch {
		case f == nil:
			if i = ds.skipper.end(data, i, maxOnePassDepth-depth); i < 0 {
				return giveUp
			}
		case f.quoted:
			if i = quotedAt(f, data, i, unsafe.Add(p, f.offset)); i == giveUp {
				return giveUp
			}
		case f.direct != directNone:
			// As scalarAt, but without a call: one in the loop costs every
			// member's values kept in registers (rec-fields3, 4% more
			// instructions; through scalarAt for null, pointers and
			// Numbers only, rec-optional 7% more).
			fp, end := unsafe.Add(p, f.offset), 0
			switch f.direct {
			case directInt64:
				var n int64
				if n, end = scanInt64(data, i); end != 0 {
					*(*int64)(fp) = n
				}
			case directFloat64:
				var x float64
				if x, end = scanFloat64(data, i); end != 0 {
					*(*float64)(fp) = x
				}
			case directBool:
				var b bool
				if b, end = flagAt(data, i); end != 0 {
					*(*bool)(fp) = b
				}
			case directAny:
				var v any
				if v, end = ds.anyAt(data, i, 0, depth); end == giveUp {
					return giveUp
				}
				*(*any)(fp) = v
			case directString:
				if data[i] == '"' {
					tok, unescaped, ok := ds.readString(i, &atObjectComma)
					if !ok {
						return giveUp
					}
					if unescaped {
						*(*string)(fp) = ds.unquotedValue(ds.scratch)
					} else {
						*(*string)(fp) = ds.valueString(tok)
					}
					end = i + len(tok)
				}
			}
			if end != 0 {
				i = end
				break
			}
			d := ds.d
			d.s.br.offset = i
			if ds.scalarNext(f.direct, false, &atObjectComma, fp) {
				i = d.s.br.offset
			} else if i = numberSlow(f.direct, data, i, fp); i == giveUp {
				return giveUp
			}
		case f.intBits != 0 && data[i] != 'n':
			// An int32, a uint16...: as narrowAt's function reads it, in
			// line (num-small-int32, NDJSON lines Unmarshalled one by
			// one, took 16% more instructions through its call than
			// num-small-int). Out of range, or a '-' (-0 too, which
			// ParseUint rejects) into an unsigned one: the token path
			// words the error.
			n, end := scanInt64(data, i)
			u := uint64(n)
			if f.intSigned {
				u += 1 << (f.intBits - 1) // [-2^(b-1), 2^(b-1)) to [0, 2^b)
			} else if data[i] == '-' {
				return giveUp
			}
			if end == 0 || u>>f.intBits != 0 {
				return giveUp
			}
			if fp := unsafe.Add(p, f.offset); f.intBits == 32 {
				*(*uint32)(fp) = uint32(n)
			} else {
				storeBits(fp, int(f.intBits), uint64(n))
			}
			i = end
		case f.embed != nil:
			// Behind embedded pointers, allocated as the token path does,
			// null or not; a nil one to an unexported struct type is an
			// error that path saves.
			q, _ := f.walkEmbedded(p)
			if q == nil {
				return giveUp
			}
			if i = ds.valueAt(f.dec, data, i, unsafe.Add(q, f.offset), depth); i == giveUp {
				return giveUp
			}
		case data[i] == '{' && f.dec.sd != nil:
			if depth >= maxOnePassDepth {
				return giveUp
			}
			if i = ds.structAt(f.dec.sd, data, i, unsafe.Add(p, f.offset), depth+1); i == giveUp {
				return giveUp
			}
		case data[i] == '[' && f.dec.slice != nil:
			if i = ds.sliceAt(f.dec.slice, data, i, unsafe.Add(p, f.offset), depth+1); i == giveUp {
				return giveUp
			}
		case f.dec.pass != nil && (data[i] != 'n' || f.dec.pass.hook): // (UnmarshalJSON takes null)
			if i = f.dec.pass.at(ds, data, i, unsafe.Add(p, f.offset), depth); i == giveUp {
				return giveUp
			}
		default:
			// null: nullInto; anything else is a mismatch.
			if v, end := literalAt(data, i); end == 0 || v != nil {
				return giveUp
			} else {
				f.dec.nullInto(unsafe.Add(p, f.offset))
				i = end
			}
		}
		if i < len(data) && data[i] > ' ' {
		} else if i = skipWhitespace(data, i); i >= len(data) {
			return giveUp
		}
		switch data[i] {
		case ',':
			if i = skipWhitespace(data, i+1); i >= len(data) {
				return giveUp
			}
		case '}':
			return i + 1
		default:
			return giveUp
		}
	}
}

// valueAt decodes the value at data[i], not whitespace, into the zero
// value at p by td (passableIn), and returns the index after it, or
// giveUp; depth counts the arrays and objects open around it. A null
// leaves a zero value as it is, as the token path does.
func (ds *decodeState) valueAt(td *typeDecoder, data []byte, i int, p unsafe.Pointer, depth int) int {
	c := data[i]
	switch k := td.direct; {
	case k == directAny:
		v, end := ds.anyAt(data, i, 0, depth)
		if end != giveUp {
			*(*any)(p) = v
		}
		return end
	case k != directNone:
		return ds.scalarAt(k, data, i, p)
	case c == '{' && td.sd != nil:
		if depth >= maxOnePassDepth {
			return giveUp
		}
		return ds.structAt(td.sd, data, i, p, depth+1)
	case c == '[' && td.slice != nil:
		return ds.sliceAt(td.slice, data, i, p, depth+1)
	case td.pass != nil && (c != 'n' || td.pass.hook): // (UnmarshalJSON takes null)
		return td.pass.at(ds, data, i, p, depth)
	}
	if v, end := literalAt(data, i); end != 0 && v == nil {
		td.nullInto(p)
		return end
	}
	return giveUp
}

// nullInto does what null does to the value at p, by td (passableIn): a
// slice, map or pointer becomes nil (one that came before, a key twice or
// an array's element, may have set it), a RawMessage "null", anything
// else stays as it is.
func (td *typeDecoder) nullInto(p unsafe.Pointer) {
	switch {
	case td.slice != nil:
		*(*[]byte)(p) = nil // a slice header of any element type
	case td.pass != nil && td.pass.nils:
		*(*unsafe.Pointer)(p) = nil
	case td.pass != nil && td.pass.raw:
		m := (*RawMessage)(p)
		*m = append((*m)[:0], "null"...)
	}
}

// rawAt is passInfo.at for a RawMessage: the value's bytes, checked by the
// validator, copied as decodeRawMessage copies them (into the slice that
// a member that came before left, if any).
func rawAt(ds *decodeState, data []byte, i int, p unsafe.Pointer, depth int) int {
	end := ds.skipper.end(data, i, maxOnePassDepth-depth)
	if end < 0 {
		return giveUp
	}
	m := (*RawMessage)(p)
	*m = append((*m)[:0], data[i:end]...)
	return end
}

// passInfo is how the typed one pass reads the values of a pointer, map,
// array, time.Time or RawMessage decoder: at decodes the value at data[i]
// (not whitespace, nor null: nullInto) into the value at p, as valueAt;
// elem is the decoder of the values it points to or holds, for passableIn
// (nil: any's, map[string]any's, time.Time's, RawMessage's).
type passInfo struct {
	elem *typeDecoder
	at   func(ds *decodeState, data []byte, i int, p unsafe.Pointer, depth int) int
	// nils: the value is one word, a pointer or map, that null sets to nil.
	nils bool
	// raw: the value is a RawMessage, which null sets to "null".
	raw bool
	// hook: the value's UnmarshalJSON or UnmarshalText, which the pass
	// calls once it has read all of the input (hookAt), null given to at
	// too.
	hook bool
	// values: the values are decoded apart, then copied into the map: no
	// hook may be deferred on them (passableIn).
	values bool
}

// pointerAt returns passInfo.at for a pointer to t, decoded by elem: a new
// t, stored at p once its value is read.
func pointerAt(t reflect.Type, elem *typeDecoder) func(ds *decodeState, data []byte, i int, p unsafe.Pointer, depth int) int {
	return func(ds *decodeState, data []byte, i int, p unsafe.Pointer, depth int) int {
		if *(*unsafe.Pointer)(p) != nil {
			return giveUp // a member that came before: decoded into
		}
		q := reflect.New(t).UnsafePointer()
		end := ds.valueAt(elem, data, i, q, depth)
		if end != giveUp {
			*(*unsafe.Pointer)(p) = q
		}
		return end
	}
}

// arrayAt returns passInfo.at for t, an array type, whose elements elem
// decodes, as buildArray's decoder: the elements past its length are
// skipped by the validator, and those missing are zeroed (an array that
// came before, a key twice, may have set them).
func arrayAt(t reflect.Type, elem *typeDecoder) func(ds *decodeState, data []byte, i int, p unsafe.Pointer, depth int) int {
	n, size := t.Len(), t.Elem().Size()
	// rest zeroes the elements from j on.
	rest := func(j int, p unsafe.Pointer) {
		a := reflect.NewAt(t, p).Elem()
		for ; j < n; j++ {
			a.Index(j).SetZero()
		}
	}
	return func(ds *decodeState, data []byte, i int, p unsafe.Pointer, depth int) int {
		if data[i] != '[' || depth+1 >= maxOnePassDepth {
			return giveUp
		}
		j := 0 // elements read
		if i = skipWhitespace(data, i+1); i >= len(data) {
			return giveUp
		}
		if data[i] != ']' {
			for {
				if j < n {
					i = ds.valueAt(elem, data, i, unsafe.Add(p, uintptr(j)*size), depth+1)
				} else if i = ds.skipper.end(data, i, maxOnePassDepth-depth-1); i < 0 {
					i = giveUp
				}
				j++
				if i == giveUp {
					return giveUp
				}
				if i = skipWhitespace(data, i); i >= len(data) {
					return giveUp
				}
				if data[i] == ']' {
					break
				}
				if data[i] != ',' {
					return giveUp
				}
				if i = skipWhitespace(data, i+1); i >= len(data) {
					return giveUp
				}
			}
		}
		if j < n {
			rest(j, p)
		}
		return i + 1
	}
}

// timeAt is passInfo.at for a time.Time: its UnmarshalJSON, as the token
// path's decoder calls it, with the string's token.
func timeAt(ds *decodeState, data []byte, i int, p unsafe.Pointer, depth int) int {
	if data[i] != '"' {
		return giveUp
	}
	tok, _, ok := ds.readString(i, &atObjectComma)
	if !ok || (*time.Time)(p).UnmarshalJSON(tok) != nil {
		return giveUp
	}
	return i + len(tok)
}

// mapAnyAt is passInfo.at for a map[string]any (or a type of its kind):
// the pass into an any reads the object.
func mapAnyAt(ds *decodeState, data []byte, i int, p unsafe.Pointer, depth int) int {
	if data[i] != '{' || *(*unsafe.Pointer)(p) != nil { // (a map that came before: merged into)
		return giveUp
	}
	v, end := ds.anyAt(data, i, 0, depth)
	if end != giveUp {
		*(*map[string]any)(p) = v.(map[string]any)
	}
	return end
}

// mapInfo is what mapAt needs of a map type with string keys (but
// map[string]any's): its elements' decoder, size and scratch buffers (as
// sliceInfo's), and fill, which makes the map at p of the keys and the
// values the scratch buffer holds.
type mapInfo struct {
	t     reflect.Type
	elem  *typeDecoder
	st    reflect.Type // []elem, the scratch buffer's type
	size  uintptr
	id    int
	small int
	fill  func(sc *sliceScratch, keys []string, p unsafe.Pointer)
	// scalar is elem's kind when scalarAt reads its values (not any's).
	scalar direct
	// keyBits is, for a map with integer keys, their size in bits (0 for
	// string keys), and keySigned whether they are signed; fillInts
	// makes such a map from the keys gathered on ds.mapIntKeys.
	keyBits   int
	keySigned bool
	fillInts  func(sc *sliceScratch, keys []uint64, p unsafe.Pointer)
}

// mapPass returns the passInfo of t, a map type with string keys or
// integer ones (kind keyString, keyInt or keyUint, without methods),
// whose values elem decodes. A new map is made at the object's end, at
// its number of members, as mapGathered and mapStringScalar make
// one: the keys gather on ds.mapKeys (integers, parsed, on
// ds.mapIntKeys), the values in a scratch buffer of the element type; a
// map[string]V of a predeclared V is then filled as what it is, any
// other through reflect.
func mapPass(t reflect.Type, elem *typeDecoder, kind mapKeyKind) *passInfo {
	size := t.Elem().Size()
	mi := &mapInfo{t: t, elem: elem, st: reflect.SliceOf(t.Elem()), size: size, id: nextScratchID(), small: 4}
	if size > 0 {
		mi.small = max(4, min(64, 2048/int(size)))
	}
	if elem.direct != directAny {
		mi.scalar = elem.direct
	}
	if kind != keyString {
		mi.keyBits, mi.keySigned = t.Key().Bits(), kind == keyInt
		mi.fillInts = fillIntKeys(t, mi.keySigned)
	}
	mi.fill = fillReflect(t)
	if t.Key() == stringType {
		switch t.Elem() {
		case reflect.TypeFor[int]():
			mi.fill = fillMap[int]
		case reflect.TypeFor[int64]():
			mi.fill = fillMap[int64]
		case reflect.TypeFor[float64]():
			mi.fill = fillMap[float64]
		case stringType:
			mi.fill = fillMap[string]
		case reflect.TypeFor[bool]():
			mi.fill = fillMap[bool]
		}
	}
	return &passInfo{elem: elem, nils: true, values: true, at: func(ds *decodeState, data []byte, i int, p unsafe.Pointer, depth int) int {
		return ds.mapAt(mi, data, i, p, depth)
	}}
}

// fillMap is mapInfo.fill for a map[string]V (or a type of its kind).
func fillMap[V any](sc *sliceScratch, keys []string, p unsafe.Pointer) {
	vs := unsafe.Slice((*V)(sc.base), len(keys))
	m := make(map[string]V, len(keys))
	for j, k := range keys {
		m[k] = vs[j] // a key that came twice: the last one wins
	}
	*(*map[string]V)(p) = m
}

// fillReflect returns mapInfo.fill for t, through reflect.
func fillReflect(t reflect.Type) func(sc *sliceScratch, keys []string, p unsafe.Pointer) {
	return func(sc *sliceScratch, keys []string, p unsafe.Pointer) {
		m := reflect.MakeMapWithSize(t, len(keys))
		if sc.key.Kind() == reflect.Invalid {
			sc.key = reflect.New(t.Key()).Elem()
		}
		for j, k := range keys {
			sc.key.SetString(k)
			m.SetMapIndex(sc.key, sc.buf.Index(j))
		}
		sc.key.SetString("")
		*(*unsafe.Pointer)(p) = m.UnsafePointer()
	}
}

// fillIntKeys returns mapInfo.fillInts for t, a map type with integer
// keys, signed or not, through reflect: one key value set for each member.
func fillIntKeys(t reflect.Type, signed bool) func(sc *sliceScratch, keys []uint64, p unsafe.Pointer) {
	return func(sc *sliceScratch, keys []uint64, p unsafe.Pointer) {
		m := reflect.MakeMapWithSize(t, len(keys))
		if sc.key.Kind() == reflect.Invalid {
			sc.key = reflect.New(t.Key()).Elem()
		}
		for j, k := range keys {
			if signed {
				sc.key.SetInt(int64(k))
			} else {
				sc.key.SetUint(k)
			}
			m.SetMapIndex(sc.key, sc.buf.Index(j)) // a key that came twice: the last one wins
		}
		*(*unsafe.Pointer)(p) = m.UnsafePointer()
	}
}

// intKeyAt reads the key at data[i], a string, of a map whose integer
// keys are of bits bits, signed or not, and returns its value and the
// index after the key, or giveUp: where the key is anything but a plain
// decimal integer (an optional '-' for a signed key, then 1 to 19
// digits, no escape) that the key type holds. encoding/json parses a key
// by strconv.ParseInt or ParseUint, which also take a '+' and an escaped
// digit: those, and every key it refuses, are the token path's, which
// words the error. Leading zeros ("007") are strconv's 7 here too.
func intKeyAt(data []byte, i int, signed bool, bits int) (uint64, int) {
	j := i + 1
	neg := signed && j < len(data) && data[j] == '-'
	if neg {
		j++
	}
	start := j
	var n uint64
	for j < len(data) && isDigit(data[j]) && j-start < 19 { // 10^19-1 < 2^64
		n = n*10 + uint64(data[j]-'0')
		j++
	}
	if j == start || j >= len(data) || data[j] != '"' {
		return 0, giveUp
	}
	switch {
	case !signed:
		if bits < 64 && n >= 1<<bits {
			return 0, giveUp
		}
	case neg:
		if n > 1<<(bits-1) {
			return 0, giveUp
		}
		n = -n
	case n >= 1<<(bits-1):
		return 0, giveUp
	}
	return n, j + 1
}

// mapAt decodes the object at data[i] into the nil map at p by mi, and
// returns the index after its '}', or giveUp, leaving the map nil. depth
// counts the arrays and objects open around it.
func (ds *decodeState) mapAt(mi *mapInfo, data []byte, i int, p unsafe.Pointer, depth int) int {
	if data[i] != '{' || depth+1 >= maxOnePassDepth || *(*unsafe.Pointer)(p) != nil { // (a map that came before: merged into)
		return giveUp
	}
	base, intBase := len(ds.mapKeys), len(ds.mapIntKeys)
	sc := ds.takeScratch(mi.id, mi.st, mi.small)
	sc.buf.SetLen(sc.buf.Cap()) // one that grew before: all of it
	n := 0
	end := giveUp
	if i = skipWhitespace(data, i+1); i < len(data) && data[i] == '}' {
		end = i + 1
	}
	for end == giveUp && i < len(data) && data[i] == '"' {
		var key string
		var intKey uint64
		if mi.keyBits != 0 {
			if intKey, i = intKeyAt(data, i, mi.keySigned, mi.keyBits); i == giveUp {
				break
			}
		} else if i = ds.scalarAt(directString, data, i, unsafe.Pointer(&key)); i == giveUp {
			break
		}
		if i = skipWhitespace(data, i); i >= len(data) || data[i] != ':' {
			break
		}
		if i = skipWhitespace(data, i+1); i >= len(data) {
			break
		}
		if n == sc.buf.Len() {
			sc.grow()
		}
		if v := unsafe.Add(sc.base, uintptr(n)*mi.size); mi.scalar != directNone {
			i = ds.scalarAt(mi.scalar, data, i, v)
		} else {
			i = ds.valueAt(mi.elem, data, i, v, depth+1)
		}
		if i == giveUp {
			n++ // its slot is zeroed too
			break
		}
		if mi.keyBits != 0 {
			ds.mapIntKeys = append(ds.mapIntKeys, intKey)
		} else {
			ds.mapKeys = append(ds.mapKeys, key)
		}
		n++
		if i = skipWhitespace(data, i); i >= len(data) {
			break
		}
		if data[i] == '}' {
			end = i + 1
			break
		}
		if data[i] != ',' {
			break
		}
		i = skipWhitespace(data, i+1)
	}
	if end != giveUp {
		if mi.keyBits != 0 {
			mi.fillInts(sc, ds.mapIntKeys[intBase:], p)
		} else {
			mi.fill(sc, ds.mapKeys[base:], p)
		}
	}
	clear(ds.mapKeys[base:]) // nothing kept alive
	ds.mapKeys = ds.mapKeys[:base]
	ds.mapIntKeys = ds.mapIntKeys[:intBase]
	ds.dropScratch(mi.id, sc, min(n, sc.buf.Len()))
	return end
}

// scalarAt decodes the value at data[i], not whitespace, into the scalar
// at p of kind k (not directNone nor directAny), and returns the index after
// it, or giveUp. Integers, floats, booleans and strings are read here, with
// the index in a register; the rest (null, pointers, Numbers) by
// scalarNext, through the decoder's offset; a number either leaves to the
// token path, by numberSlow.
func (ds *decodeState) scalarAt(k direct, data []byte, i int, p unsafe.Pointer) int {
	end := 0
	switch k {
	case directInt64:
		var n int64
		if n, end = scanInt64(data, i); end != 0 {
			*(*int64)(p) = n
		}
	case directFloat64:
		var x float64
		if x, end = scanFloat64(data, i); end != 0 {
			*(*float64)(p) = x
		}
	case directBool:
		var b bool
		if b, end = flagAt(data, i); end != 0 {
			*(*bool)(p) = b
		}
	case directString:
		// As stringNext, its end known from the token.
		if data[i] == '"' {
			tok, unescaped, ok := ds.readString(i, &atObjectComma)
			if !ok {
				return giveUp
			}
			if unescaped {
				*(*string)(p) = ds.unquotedValue(ds.scratch)
			} else {
				*(*string)(p) = ds.valueString(tok)
			}
			end = i + len(tok)
		}
	}
	if end != 0 {
		return end
	}
	d := ds.d
	d.s.br.offset = i
	if ds.scalarNext(k, false, &atObjectComma, p) {
		return d.s.br.offset
	}
	return numberSlow(k, data, i, p)
}

// numberSlow is structAt's way with a number that scalarNext leaves to
// the token path (more than 19 digits, or a value Eisel-Lemire does not
// decide) for a float64 or 64-bit integer of kind k at p: its grammar by
// numberAt, its value as decode's loop parses a token's. It returns the
// index after the number, or giveUp (and for any other value, or kind).
func numberSlow(k direct, data []byte, i int, p unsafe.Pointer) int {
	if c := data[i]; c != '-' && c-'0' > 9 || k != directFloat64 && k != directInt64 {
		return giveUp
	}
	end := numberAt(data, i)
	if end < 0 {
		return giveUp
	}
	if k == directFloat64 {
		x, err := parseFloat64(data[i:end])
		if err != nil {
			return giveUp
		}
		*(*float64)(p) = x
	} else {
		n, err := number.ParseInt(data[i:end])
		if err != nil {
			return giveUp
		}
		*(*int64)(p) = n
	}
	return end
}

// plainKeyByte: the bytes structAt takes in a key, ASCII that needs no
// escape.
var plainKeyByte = func() (t [256]bool) {
	for c := ' '; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// quotedAt decodes the value at data[i] into the ",string" field f at fp
// (of f.quotedFast's kind, or one f.quotedNarrow stores), and returns the
// index after it, or giveUp: a string whose body, with no escape, is what
// encoding/json's literalStore stores as it is, an integer
// strconv.ParseInt (ParseUint) takes and the field holds, a number of
// JSON's grammar or true or false. Anything else, null among them, is the
// token path's (decodeQuoted), which words the errors.
func quotedAt(f *fieldDecoder, data []byte, i int, fp unsafe.Pointer) int {
	if data[i] != '"' {
		return giveUp
	}
	e, _ := stringStop(data, i+1)
	for e < len(data) && data[e] >= 0x20 && data[e] != '"' && data[e] != '\\' {
		e++ // the last bytes, fewer than a word, that stringStop leaves
	}
	if e >= len(data) || data[e] != '"' || e == i+1 {
		return giveUp
	}
	body := data[i+1 : e]
	switch f.quotedFast {
	case fastInt64:
		if c := body[0]; c != '-' && !isDigit(c) {
			return giveUp // encoding/json's error, not strconv's
		}
		n, err := number.ParseInt(body)
		if err != nil {
			return giveUp
		}
		*(*int64)(fp) = n
	case fastFloat64:
		if !isValidNumber(body) {
			return giveUp
		}
		x, err := number.ParseFloat(body, 64)
		if err != nil {
			return giveUp
		}
		*(*float64)(fp) = x
	case fastBool:
		switch string(body) {
		case "true":
			*(*bool)(fp) = true
		case "false":
			*(*bool)(fp) = false
		default:
			return giveUp
		}
	default:
		if f.quotedNarrow == nil || !f.quotedNarrow(body, fp) {
			return giveUp
		}
	}
	return e + 1
}

// memberTail is the two words structAt compares a member's start with
// when fewer than 16 bytes of the input are left from data[i]: those
// bytes, then zeros. A key's `"name":` ends with a quote and a colon,
// never zero bytes, so a name the input ends inside of matches nothing.
// The last member of a small document starts there: without this its
// key was looked up by its hash, or compared byte by byte, a cost every
// one of many distinct small documents paid (with flagTail and
// stringTail, the one record of compare/unmarshal's UnmarshalSmall
// took 8% fewer instructions, callgrind).
func memberTail(data []byte, i int) (w0, w1 uint64) {
	var t [16]byte
	copy(t[:], data[i:])
	return binary.LittleEndian.Uint64(t[:8]), binary.LittleEndian.Uint64(t[8:])
}
