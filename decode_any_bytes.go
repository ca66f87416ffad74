package json

import (
	"encoding/binary"
	"math/bits"
	"reflect"
	"slices"

	"github.com/jsonpipe/json/internal/unquote"
	"github.com/jsonpipe/json/internal/utf8dfa"
)

// Unmarshal into an *any (or a nil map[string]any or []any) has its whole
// input at hand, and builds nothing but maps, slices, strings, floats and
// booleans: it needs neither the
// token layer's refills nor its state machine, nor typed decoders. So it
// first tries one recursive pass straight over the bytes, with the same
// one-pass pieces the token path uses (scanString, scanFloat64, the string
// cache, the blocks of boxes and key guesses) and indexes kept in
// registers: 6-17% fewer instructions on the corpus than the token path.
//
// That pass takes only input it can decode whole, exactly as encoding/json
// would. Anything else makes it give up (a syntax error, a number that
// does not fit a float64, nesting deeper than maxOnePassDepth, a scalar at
// the very end of the input), and the token path then reads the input again from
// the start: every error, offset and rule is the token path's. Its
// partial value is dropped. Giving up costs at most one more pass, and
// only for input that fails or is odd.

// giveUp is the index anyAt and its helpers return instead of the one
// after their value.
const giveUp = -1

// maxOnePassDepth is how deep the one pass goes before it gives up, well
// below the decoder's depth limit (10000): JSON that deep is rare, and
// hostile input (a million '[') then costs the pass almost nothing before
// the token path reports it.
const maxOnePassDepth = 500

// onePass stores the value of data in v by the one pass, when v is a target
// that encoding/json replaces whole with a new value (anyTarget). It
// reports whether it did.
func (ds *decodeState) onePass(data []byte, v any) bool {
	first, ok := anyTarget(v)
	if !ok {
		return false
	}
	if i := skipWhitespace(data, 0); first != 0 && (i >= len(data) || data[i] != first) {
		return false // null, or a type error for the token path to report
	}
	x, ok := ds.unmarshalAny(data)
	if !ok {
		return false
	}
	storeAny(v, x)
	return true
}

// anyTarget reports whether v is a target that encoding/json replaces whole
// with a new value: an *any that does not hold a pointer (one held is
// decoded into), or a nil map[string]any or []any for an object or array
// (an existing map is merged into, an existing slice's elements are
// decoded into); and first, the byte its value must start with (0: any).
func anyTarget(v any) (first byte, ok bool) {
	if !fastPaths {
		return 0, false
	}
	switch pv := v.(type) {
	case *any:
		return 0, *pv == nil || reflect.TypeOf(*pv).Kind() != reflect.Pointer
	case *map[string]any:
		return '{', *pv == nil
	case *[]any:
		return '[', *pv == nil
	}
	return 0, false
}

// anyTargetType reports whether v's type is one anyTarget may take (for
// some value of it).
func anyTargetType(v any) bool {
	switch v.(type) {
	case *any, *map[string]any, *[]any:
		return true
	}
	return false
}

// storeAny stores x, the one pass's value, in v, an anyTarget.
func storeAny(v, x any) {
	switch pv := v.(type) {
	case *any:
		*pv = x
	case *map[string]any:
		*pv = x.(map[string]any)
	case *[]any:
		*pv = x.([]any)
	}
}

// streamOnePass is onePass for Decode: when the decoder is between
// top-level values and the next one, an object or an array, is whole in
// its window (read into first when it holds only whitespace, as a new
// decoder's empty one), the one pass reads it there and the decoder moves past it,
// as it would after reading its last token: only the window's offset
// moves (the scanner, in which the pass records facts and which it fails
// on an error, is put back as it was). A value cut by the window's end, or
// any other reason the pass gives up, leaves the decoder as it was, for
// the token path. Not with UseNumber (the pass makes float64s), nor under a
// SetMaxDepth limit the pass's own depth limit could pass.
func (ds *decodeState) streamOnePass(v any) bool {
	d := ds.d
	first, ok := anyTarget(v)
	if !ok {
		return false
	}
	data, i := d.passWindow()
	if i >= len(data) || data[i] != '{' && data[i] != '[' || first != 0 && data[i] != first {
		return false
	}
	saved := d.s // the pass records facts, and on errors fails the scanner
	x, end := ds.anyAt(data, i, 0, 0)
	d.s = saved
	if end == giveUp {
		return false
	}
	storeAny(v, x)
	d.passedTo(end)
	return true
}

// passWindow is where a pass over the window (streamOnePass, streamPass)
// starts: the window and the index of the next value's first byte, when
// the decoder is between top-level values, without an error, and not
// under a SetMaxDepth limit the passes' own (maxOnePassDepth) could pass;
// a window of nothing but whitespace (a new decoder's is empty) is read
// into first, once, as the token path would now. Otherwise, or at the end
// of the input, i is len(data).
func (d *Decoder) passWindow() (data []byte, i int) {
	if d.depth != 0 || d.maxDepth <= maxOnePassDepth || d.err != nil || d.s.err != nil {
		return nil, 0
	}
	br := &d.s.br
	if i = skipWhitespace(br.data, br.offset); i >= len(br.data) {
		if br.extend() == 0 {
			return nil, 0
		}
		i = skipWhitespace(br.data, br.offset)
	}
	return br.data, i
}

// passedTo moves the decoder past a top-level value a pass over its
// window read, to end, as it would be after the value's last token.
func (d *Decoder) passedTo(end int) {
	d.s.br.offset = end
	d.state, d.after = &atTop, &atTop
}

// unmarshalAny returns the value of data for an empty interface, and
// whether the one pass took it; when not, ds.d (Unmarshal's ds.bd) is
// reset to read data again from the start.
func (ds *decodeState) unmarshalAny(data []byte) (any, bool) {
	v, end := ds.anyAt(data, skipWhitespace(data, 0), 0, 0)
	if end != giveUp && skipWhitespace(data, end) == len(data) {
		return v, true
	}
	ds.d.resetBytes(data) // scanString and scanNumber may have failed it
	return nil, false
}

// anyAt returns the value that starts at data[i] (a byte that is not
// whitespace), with ctx and depth as anyValue's (depth: the arrays and
// objects around it), and the index after it, or giveUp.
func (ds *decodeState) anyAt(data []byte, i int, ctx uint32, depth int) (any, int) {
	if i >= len(data) {
		return nil, giveUp
	}
	switch c := data[i]; {
	case c == '{':
		return ds.anyObjectAt(data, i+1, ctx, depth+1)
	case c == '[':
		return ds.anyArrayAt(data, i+1, ctx, depth+1)
	case c == '"':
		// A string's first stop decides: its end (a plain string, whole),
		// or an escape (unescaped as it is scanned, anyEscapedAt); else
		// (the input's last bytes, a control byte) scanString.
		s := &ds.d.s
		j, high := stringStopWithin(data, i+1, shortRun)
		for j+8 <= len(data) {
			switch c := data[j]; {
			case c == '"':
				s.str = nonASCII(high)
				return ds.anyStringValue(data[i : j+1]), j + 1
			case c == '\\':
				return ds.anyEscapedAt(data, i, j, nonASCII(high))
			case c >= 0x20: // a long run
				var more uint64
				j, more = bodyStop(data, j)
				high |= more
				continue
			}
			break
		}
		if j+8 > len(data) {
			// The input's last bytes, as readString takes them.
			if k, more := stringTail(data, j); k < len(data) && data[k] == '"' {
				s.str = nonASCII(high | more)
				return ds.anyStringValue(data[i : k+1]), k + 1
			}
		}
		if n, facts := s.scanString(data[i:], 1); n > 0 {
			s.str = facts
			return ds.anyStringValue(data[i : i+n]), i + n
		}
	case (c == '-' || c-'0' <= 9) && ds.useNumber:
		if end := numberAt(data, i); end >= 0 {
			return Number(ds.newString(data[i:end])), end
		}
	case c == '-' || c-'0' <= 9:
		if f, end := scanFloat64(data, i); end != 0 {
			return ds.anyFloat(f), end
		}
		// More than 19 digits, an exponent, or hard to round: the
		// scanner finds its end, and the full parser reads it.
		if end, st := ds.d.s.scanNumber(data, i, 0); st == numDone {
			if f, err := parseFloat64(data[i:end]); err == nil {
				return ds.anyFloat(f), end
			}
		}
	case c == 'n' || c == 't' || c == 'f':
		if v, end := literalAt(data, i); end != 0 {
			return v, end
		}
	}
	return nil, giveUp
}

// anyEscapedAt is anyAt for the string that starts at data[i] and has its
// first escape at data[j]: unescapeAt, then the value boxed.
func (ds *decodeState) anyEscapedAt(data []byte, i, j int, facts uint8) (any, int) {
	end, _ := ds.unescapeAt(data, i, j, facts)
	if end == giveUp {
		return nil, giveUp
	}
	return ds.anyUnquoted(ds.scratch), end
}

// unescapeAt checks and unescapes the string that starts at data[i] and
// has its first escape at data[j] (the bytes between are plain; facts says
// what they hold) in one pass, into ds.scratch, and returns the index
// after it and the facts about the whole string. A malformed string, or
// one cut by the input's end, gives up (end is giveUp), for the scanner to
// report or finish.
//
// The runs between escapes are short in text that has escapes (a line
// break, a quote, a letter of another script), so each run is read 8
// bytes at a time and each word stored into the value as it is searched,
// whatever follows the stop in it: the next escape or run overwrites
// that. A search for the stop and then a copy of the run cost a call
// each, per escape. A run that goes on past 32 bytes is searched and
// copied whole (bodyStop, then one copy), as plain strings are. The
// bytes are read once, and the value's memory written once.
//
// Where there is a kernel (unquote.HasKernel), it does all that first, in
// registers, from the string's start when the run before its first escape
// is short, and this loop goes on from where it stopped (see
// unquote.Unescape); the loop alone decodes every escape without one.
func (ds *decodeState) unescapeAt(data []byte, i, j int, facts uint8) (int, uint8) {
	buf := ds.scratch[:0]
	if fastPaths && unquote.HasKernel && j-i <= 8 {
		j = i + 1 // the kernel copies a short run before the escape too
	} else {
		buf = append(buf, data[i+1:j]...)
	}
	var high uint64 // the top bits of the runs' bytes
	// escapes, and those followed at once by another (see uScript)
	escapes, adjacent := 0, 0
escape:
	for {
		if fastPaths && unquote.HasKernel {
			// The kernel decodes the escapes and runs it can; this
			// loop the rest, from where it stopped.
			if cap(buf)-len(buf) < 64 {
				buf = slices.Grow(buf, 64)
			}
			n, next, more, full := unquote.Unescape(buf, data, j)
			buf, j, high = buf[:n], next, high|more
			if full {
				continue
			}
			if j < len(data) && data[j] != '\\' {
				if data[j] == '"' {
					break
				}
				if j+16 <= len(data) && !strSpecial[data[j]] {
					// It stopped after 32 bytes of a run: the rest
					// of the run is searched, then copied, at once.
					// (bodyStop may stop short of the input's last 8
					// bytes, which the loop below looks at one by one.)
					k, more := bodyStop(data, j)
					buf = append(buf, data[j:k]...)
					high |= more
					j = k
				}
				goto run
			}
		}
		// data[j] is a backslash. A \u escape's digits are checked as
		// they are decoded: one UTF-16 unit that is no surrogate here
		// (unquote.Hex4 inlines), the others by unquote.AppendU.
		if j+1 >= len(data) {
			break
		}
		escapes++
		if c := unquote.EscapeByte[data[j+1]]; c != 0 {
			buf = append(buf, c)
			j += 2
		} else if data[j+1] != 'u' {
			break
		} else {
			r := rune(-1)
			if j+6 <= len(data) {
				r = unquote.Hex4(binary.LittleEndian.Uint32(data[j+2 : j+6]))
			}
			if r >= 0 && (r < 0xd800 || r >= 0xe000) {
				buf = unquote.AppendRune3(buf, r)
				j += 6
				if fastPaths && ds.uScript {
					// Text in another script, written in \u escapes,
					// has them one after another: those here, without
					// a look for a run between them.
					for j+6 <= len(data) && data[j] == '\\' && data[j+1] == 'u' {
						r := unquote.Hex4(binary.LittleEndian.Uint32(data[j+2 : j+6]))
						if r < 0 || r >= 0xd800 && r < 0xe000 {
							break
						}
						buf = unquote.AppendRune3(buf, r)
						j += 6
						escapes++
						adjacent++
					}
				}
			} else {
				var n int
				if buf, n = unquote.AppendU(buf, data[j:]); n == 0 {
					break
				}
				j += n // 6, or 12 for a surrogate pair
			}
		}
	run:
		// The run that follows, up to the next '"', '\\' or control byte:
		// stringStopWithin's test, a word at a time, each word stored past
		// the value's end before the test.
		words := 0
		for j+8 <= len(data) {
			v := binary.LittleEndian.Uint64(data[j : j+8])
			n := len(buf)
			if cap(buf)-n < 8 {
				buf = slices.Grow(buf, 8)
			}
			binary.LittleEndian.PutUint64(buf[n:n+8], v)
			x, b := v^(lsb*0x02), v^(lsb*'\\')
			if m := ((x - lsb*0x21) | (b - lsb)) &^ v & msb; m != 0 {
				k := bits.TrailingZeros64(m) >> 3
				high |= v & (1<<(8*(k&7)) - 1)
				buf = buf[:n+k]
				j += k
				adjacent += 1 - min(k, 1) // without a branch
				// data[j] is the stop: the next escape, or the end
				// (not the last bytes' loop, which would look again).
				if data[j] == '\\' {
					continue escape
				}
				break escape
			}
			high |= v
			buf = buf[:n+8]
			j += 8
			if words++; words == 4 && j+8 <= len(data) && !strSpecial[data[j]] {
				// A long run: the rest of it searched, then copied.
				k, more := bodyStop(data, j)
				buf = append(buf, data[j:k]...)
				high |= more
				j = k
				break
			}
		}
		for ; j < len(data); j++ { // the last bytes, fewer than 8
			c := data[j]
			if c == '"' || c == '\\' || c < 0x20 {
				break
			}
			high |= uint64(c)
			buf = append(buf, c)
		}
		if j == len(data) || data[j] != '\\' {
			break
		}
	}
	if cap(buf) == cap(ds.scratch) {
		ds.scratch = ds.scratch[:len(buf)] // the same memory: no pointer written
	} else {
		ds.scratch = buf
	}
	if escapes >= uScriptEscapes {
		ds.uScript = adjacent*4 >= escapes*3
	}
	if j >= len(data) || data[j] != '"' {
		return giveUp, 0
	}
	facts |= nonASCII(high)
	end := j + 1
	// Escapes write whole runes, so the value is valid UTF-8 exactly when
	// the runs between them are: one check of the result. Bad bytes are
	// rare; the token's own unquoting replaces them.
	if facts&strNonASCII != 0 && !utf8dfa.Valid(buf) {
		buf = unquote.Append(buf[:0], data[i:end])
		ds.scratch = buf
	}
	return end, facts | strEscaped
}

// unescapeAt decodes the \u escapes that follow another one in a loop
// of their own (as appendBody does) while uScript is set: after a string
// with uScriptEscapes escapes or more, three in four of them followed at
// once by another (a byte count in the run search, without a branch).
// Text in another script written in \u escapes has them so (words of four
// letters or more), and the loop's test is then as good as known; where
// escapes and other bytes come in no order (the sweep's uesc strings), a
// test for the next escape would be wrong half the time, and the run
// search, which has none, is cheaper.
const uScriptEscapes = 8

// anyObjectAt is anyObject for the object whose '{' ends at i.
func (ds *decodeState) anyObjectAt(data []byte, i int, ctx uint32, depth int) (any, int) {
	if depth > maxOnePassDepth {
		return nil, giveUp
	}
	hint := &ds.objectHints[ctx>>24]
	i = skipWhitespace(data, i)
	if i < len(data) && data[i] == '}' {
		return ds.objectEnd(hint, make(map[string]any), 0, 0), i + 1
	}
	m, base := ds.objectStart(*hint)
	misses := 0 // keys that met another key's guess; -1 after a hit
	for n := 0; ; n++ {
		var key string
		g := &ds.keyGuess[guessSlot(ctx, n)]
		if g.shortAt(data, i) {
			key, i, misses = g.name, i+g.keyLen, -1
		} else if j := g.memberAt(data, i); j != giveUp {
			key, i, misses = g.name, j, -1
		} else if st := ds.startAt(ctx, data, i); misses < 1 && st != nil && st.shortAt(data, i) {
			key, i, misses = st.name, i+st.keyLen, -1
		} else {
			record := misses < 3 // else the object is keyed by data (below): its keys never come again
			if g.name != "" && misses >= 0 {
				if misses++; misses == stopGuessing {
					var v any
					if v, i, n = ds.anyMembersByData(data, i, ctx, depth, hint, m, base, n); n < 0 {
						return v, i
					}
					// Member n's key is its place's guess again: the
					// guesses go on from there.
					misses, n = 0, n-1
					continue
				}
			}
			if i >= len(data) || data[i] != '"' {
				break
			}
			s := &ds.d.s
			k, facts := s.scanString(data[i:], 1)
			if k <= 0 {
				break
			}
			s.str = facts
			key = ds.stringValue(data[i : i+k])
			if record && ds.guessKey(g, key, data[i:i+k]) && misses <= 1 && g.keyLen != 0 {
				// (A key too long for shortAt is never found there.)
				if st := ds.startAt(ctx, data, i); st != nil {
					*st = *g
				}
			}
			if i = skipWhitespace(data, i+k); i >= len(data) || data[i] != ':' {
				break
			}
			i++
		}
		var v any
		var vctx uint32 // only an object's or an array's guesses need it
		if i = skipWhitespace(data, i); i < len(data) && data[i]|('['^'{') == '{' {
			vctx = keyContext(ctx, key)
			if misses >= 3 {
				// The last three keys or more met other keys' guesses, and
				// none has hit: this object is keyed by data (ids, codes,
				// names), so its values' contexts leave the key out, and
				// each value's guesses come from the last one's.
				vctx = keyContext(ctx, "") ^ varyingKeys
			}
		}
		v, i = ds.anyAt(data, i, vctx, depth)
		if i == giveUp {
			break
		}
		if m == nil {
			ds.members = append(ds.members, anyEntry{key, v})
		} else {
			m[key] = v
		}
		if i = skipWhitespace(data, i); i >= len(data) {
			break
		}
		if data[i] == '}' {
			return ds.objectEnd(hint, m, base, n+1), i + 1
		}
		if data[i] != ',' {
			break
		}
		i = skipWhitespace(data, i+1)
	}
	ds.dropGathered(m, base)
	return nil, giveUp
}

// startAt returns the slot in keyStarts for the member at data[i] in
// context ctx, or nil when fewer than 16 bytes are left (shortAt's need).
func (ds *decodeState) startAt(ctx uint32, data []byte, i int) *keyMatch {
	if i+16 > len(data) {
		return nil
	}
	return &ds.keyStarts[startSlot(ctx, binary.LittleEndian.Uint32(data[i:]))]
}

// anyArrayAt is anyArray for the array whose '[' ends at i.
func (ds *decodeState) anyArrayAt(data []byte, i int, ctx uint32, depth int) (any, int) {
	if depth > maxOnePassDepth {
		return nil, giveUp
	}
	if i = skipWhitespace(data, i); i < len(data) && data[i] == ']' {
		return emptyArray, i + 1
	}
	base := len(ds.anyBuf)
	for {
		var v any
		if v, i = ds.anyAt(data, i, ctx*31+1, depth); i == giveUp {
			break
		}
		ds.anyBuf = append(ds.anyBuf, v)
		if i = skipWhitespace(data, i); i >= len(data) {
			break
		}
		if data[i] == ',' {
			i = skipWhitespace(data, i+1)
			continue
		}
		if data[i] != ']' {
			break
		}
		return ds.popAnySlice(base), i + 1
	}
	ds.dropAnyBuf(base)
	return nil, giveUp
}

// shortAt reports whether the member at data[i] starts with `"name":`,
// f's name spelt as it is, compared as two words: for names of at most 13
// bytes with 16 bytes of data left (expectKey's test, without alt).
func (f *keyMatch) shortAt(data []byte, i int) bool {
	if f.keyLen == 0 || i+16 > len(data) {
		return false
	}
	w := data[i : i+16]
	return binary.LittleEndian.Uint64(w[8:])&f.mask1 == f.key1 && binary.LittleEndian.Uint64(w)&f.mask0 == f.key0
}

// memberAt is the rest of the match when shortAt says no: it returns the
// index after the ':' of the member whose key starts at data[i], when the
// key is f's name byte for byte with whitespace before the ':', or a name
// too long for shortAt, else giveUp. (expectKey keeps its own copy of
// these tests: calling them from there cost typed decoding 2-3% more
// instructions.)
func (f *keyMatch) memberAt(data []byte, i int) int {
	if f.keyLen != 0 && i+16 <= len(data) && data[i+f.keyLen-1] == ':' {
		return giveUp // a match would have space before its ':'
	}
	end := i + len(f.name) + 1 // the closing quote
	if f.name == "" || end >= len(data) || data[i] != '"' || data[end] != '"' || string(data[i+1:end]) != f.name {
		return giveUp
	}
	if j := skipWhitespace(data, end+1); j < len(data) && data[j] == ':' {
		return j + 1
	}
	return giveUp
}

// stopGuessing is the number of keys in a row that met another key's
// guess after which the rest of an object is read with no guesses
// (anyMembersByData).
const stopGuessing = 4

// anyMembersByData is anyObjectAt's loop for the rest of an object keyed
// by data, from member n, whose key starts at data[i]: its keys met other
// keys' guesses stopGuessing times in a row, and are no longer made
// guesses nor tried against them in full (they never come again: ids,
// codes, names). Trying each against the key the last object had in its
// place, as anyObjectAt's loop does, made rec-map (maps of 8 to 32 keys
// that do not repeat) cost 14% more instructions than reading its keys;
// a test in that loop for this state cost records whose members come and
// go 1%, so it is a loop of its own, entered from the path where a key
// missed.
//
// It returns the object and the index after it (giveUp where the one
// pass gives up) with n = -1; or, where a key is its place's guess again
// (shortAt, inlined: the same document again, or the same codes in the
// same order), nothing yet, with that member's n and the index of its
// key, for anyObjectAt's loop to go on from. (Taking such a key here and
// going back only on the second in a row saved rec-keyshuffle, whose keys
// land in their guesses' places one time in twelve, 3% more instructions,
// but cost cssprops decoded again 23%: its values' guesses then come from
// one another, not each from its own key's.)
func (ds *decodeState) anyMembersByData(data []byte, i int, ctx uint32, depth int, hint *uint8, m map[string]any, base, n int) (any, int, int) {
	vctx := keyContext(ctx, "") ^ varyingKeys // as anyObjectAt's past three misses
	for ; ; n++ {
		if g := &ds.keyGuess[guessSlot(ctx, n)]; g.shortAt(data, i) {
			return nil, i, n
		}
		if i >= len(data) || data[i] != '"' {
			break
		}
		s := &ds.d.s
		k, facts := s.scanString(data[i:], 1)
		if k <= 0 {
			break
		}
		s.str = facts
		key := ds.valueString(data[i : i+k]) // not kept in the string table: it never comes again
		if i = skipWhitespace(data, i+k); i >= len(data) || data[i] != ':' {
			break
		}
		var v any
		if v, i = ds.anyAt(data, skipWhitespace(data, i+1), vctx, depth); i == giveUp {
			break
		}
		if m == nil {
			ds.members = append(ds.members, anyEntry{key, v})
		} else {
			m[key] = v
		}
		if i = skipWhitespace(data, i); i >= len(data) {
			break
		}
		if data[i] == '}' {
			return ds.objectEnd(hint, m, base, n+1), i + 1, -1
		}
		if data[i] != ',' {
			break
		}
		i = skipWhitespace(data, i+1)
	}
	ds.dropGathered(m, base)
	return nil, giveUp, -1
}
