package json

import (
	"encoding/binary"
	"math/bits"
	"reflect"
	"unsafe"
)

// The fast paths: typed decoding reads the common shapes of JSON (a key it
// expects, a number or string whole in the window, a ',' or '}' right after a
// value) straight from the window instead of through NextToken's chain of
// states. They are an optimisation only: each either does exactly what
// NextToken calls would have done, or backs off and leaves the input to them.
//
// Preconditions. Each fast path runs between two NextToken calls on the
// decoder being decoded from, with no error pending (it checks d.err and
// d.s.err and backs off when either is set), at a position it names in its
// doc comment (after a value; after '{'; where a value is due).
//
// What they may consume. Only bytes already in the window, data[offset:]
// (see byteReader): whitespace, at most one ',' or ':' where the grammar
// puts one, and at most one whole token (for memberKey, a key and its ':').
// They never read more input, never move bytes and never pin: a token that
// runs to the end of the window, or anything unusual, is left to NextToken.
// Two of them, memberKey and valueToken, are NextToken with a shortcut: where
// the shortcut does not apply they call NextToken themselves, which may read
// input and report an error; the others return and let the caller do so.
//
// Which fields they may touch, and how:
//   - d.s.br.offset: only forward, over bytes they consumed as above;
//   - d.state and d.after: only to what NextToken would have set after the
//     same bytes (so a later NextToken reads on as if it had read them);
//   - d.depth and the nesting stack, through push and pop, for a '{', '['
//     or '}' they consume;
//   - d.s.strTok and d.s.str: only where they consume a string token
//     (memberKey, readString), to what the scanner's Next would have recorded
//     (scanString returns the facts).
//
// Nothing else: they never set an error. Where the input is wrong, a fast
// path backs off, having consumed only whitespace and separators that
// NextToken would also have accepted, and NextToken reports the error with
// the same message and offset it always does.
//
// The jsonpipe_nofast build tag turns every one of them off (fastPaths,
// fast_on.go): each then returns at once what it returns when its shortcut
// does not apply, having consumed nothing, and the token path does all the
// work.

// memberKey reads the next member key of the object being decoded, for a
// decoder that knows where it is: first just after the object's '{', else
// just after a member's value. It returns the key token, or '}' (the object
// is closed), as NextToken would; the ':' after a key may already be
// consumed, but the next NextToken returns the value either way.
//
// The fast path, for a ',' (unless first), whitespace, a key whole in the
// window and its ':', takes one call instead of NextToken's chain of states.
// Anything else goes back to the state machine at a position it knows, so
// its errors and their offsets are unchanged.
func (d *Decoder) memberKey(first bool) ([]byte, error) {
	if !fastPaths {
		return d.NextToken()
	}
	data, i := d.s.br.data, d.s.br.offset
	if !first {
		if i >= len(data) || data[i] != ',' || d.s.err != nil || d.err != nil {
			return d.memberKeyAfterSpace() // '}', an error, or the window's end
		}
		i++
		d.state = &atObjectKey
	}
	i = skipWhitespace(data, i)
	d.s.br.offset = i
	if i < len(data) && data[i] == '"' && d.s.err == nil {
		w := data[i:]
		if n, facts := d.s.scanString(w, 1); n > 0 {
			d.s.strTok, d.s.str = w[:n], facts
			d.keyRead(data, i+n)
			return w[:n], nil
		}
		// Cut by the window's end, or a syntax error the scanner has
		// recorded at this position: Next finishes or reports it.
	}
	return d.NextToken()
}

// plainKey is memberKey for a plain key of a field of sd's: one of at most
// 14 bytes of printable ASCII without escapes, whose 16 bytes from its
// opening quote are in the window. It reads what memberKey would (the ','
// unless first, whitespace, the key, and whitespace and the ':' when they
// are in the window; else the state says a ':' comes) and returns the
// field. A member that starts with a field's `"name":` is found by its
// first bytes (fieldAt), its key neither scanned nor measured, and no
// token returned: as expectKey's hit, the scanner's facts about the last
// string are left alone. Else the key is found by two loads, not by the
// scanner, and looked up by the same two words (findWords): its token,
// which 16 bytes can be read from (its capacity), is returned with the
// field or nil, with the scanner's facts recorded as for any string
// token. For any other key it returns neither, having consumed the ','
// and whitespace (atKey: memberKey(true) goes on from there), or nothing
// when no ',' came right after the value or after an error.
func (d *Decoder) plainKey(first bool, sd *structDecoder) (f *fieldDecoder, tok []byte, atKey bool) {
	if !fastPaths || d.s.err != nil || d.err != nil {
		return nil, nil, false
	}
	data, i := d.s.br.data, d.s.br.offset
	if !first {
		if i >= len(data) || data[i] != ',' {
			return nil, nil, false // memberKey reads any whitespace before it
		}
		i++
		d.state = &atObjectKey
	}
	i = skipWhitespace(data, i)
	d.s.br.offset = i
	if i+16 > len(data) || data[i] != '"' {
		return nil, nil, true
	}
	w := data[i : i+16]
	w0, w1 := binary.LittleEndian.Uint64(w), binary.LittleEndian.Uint64(w[8:])
	if f = sd.fieldAt(w0, w1); f != nil {
		d.s.br.offset = i + f.keyLen
		d.state = &atObjectValue
		return f, nil, true
	}
	n, w0, w1 := plainKeyLen(w0, w1)
	if n == 0 {
		return nil, nil, true
	}
	tok = w[:n]
	d.s.strTok, d.s.str = tok, 0
	d.keyRead(data, i+n)
	return sd.findWords(w0, w1), tok, true
}

// keyRead reads what follows a member key that ends at k in the window
// data: whitespace and the ':' when they are there (else the state says a
// ':' comes, and only the key is read).
func (d *Decoder) keyRead(data []byte, k int) {
	j := k
	for j < len(data) && whitespace[data[j]] {
		j++
	}
	if j < len(data) && data[j] == ':' {
		d.s.br.offset = j + 1
		d.state = &atObjectValue
	} else {
		d.s.br.offset = k
		d.state = &atObjectColon
	}
}

// plainKeyLen returns the length of the plain key token (see plainKey) that
// starts the 16 bytes w0, w1 (little-endian; w0's first byte is its opening
// quote), and its two words, the bytes past its closing quote zeroed; or 0
// when they do not start with one: when the first byte after the opening
// quote that is a '"', a '\\', a control byte or a byte of 0x80 or above is
// not a '"', or there is none.
func plainKeyLen(w0, w1 uint64) (n int, k0, k1 uint64) {
	s, w := stopBytes(w0|0xff)&^0x80, w0 // not the opening quote
	if s == 0 {
		if s, w = stopBytes(w1), w1; s == 0 {
			return 0, 0, 0
		}
		n = 8
	}
	s &= -s // the top bit of the first byte flagged, a true one
	if z := bits.TrailingZeros64(s); byte(w>>(z-7)) == '"' {
		w &= s | (s - 1)
		if n == 0 {
			return (z + 1) >> 3, w, 0
		}
		return 8 + (z+1)>>3, w0, w
	}
	return 0, 0, 0
}

// stopBytes flags with its top bit each byte of w that is a '"', a '\\',
// below 0x20 or 0x80 and above: stringStopWithin's test, and the top bits.
// Above the lowest, it may flag others too (a borrow out of a flagged
// byte), so the lowest flag is a true one; each caller reads the byte there.
func stopBytes(w uint64) uint64 {
	x, b := w^(lsb*0x02), w^(lsb*'\\')
	return (((x-lsb*0x21)|(b-lsb))&^w | w) & msb
}

// closeObject consumes whitespace and the '}' that closes the object being
// decoded, after a member's value, as NextToken would, and reports whether
// it did; else it consumes only whitespace. A struct decoder tries it once
// its fields have come in order, when the '}' is what usually follows.
func (d *Decoder) closeObject() bool {
	if !fastPaths {
		return false
	}
	if d.s.err != nil || d.err != nil {
		return false
	}
	data := d.s.br.data
	i := skipWhitespace(data, d.s.br.offset)
	d.s.br.offset = i
	if i >= len(data) || data[i] != '}' {
		return false
	}
	d.s.br.offset = i + 1
	d.pop()
	return true
}

// peekWindow consumes whitespace in the window and returns the byte after
// it, or 0 when the window ends first or after an error (it reads no
// input: a hint for a fast path, which NextToken then confirms).
func (d *Decoder) peekWindow() byte {
	if !fastPaths {
		return 0
	}
	if d.s.err != nil || d.err != nil {
		return 0
	}
	data := d.s.br.data
	i := skipWhitespace(data, d.s.br.offset)
	d.s.br.offset = i
	if i >= len(data) {
		return 0
	}
	return data[i]
}

// openObject reads the '{' of the next array element when it opens an
// object, as NextToken would (it opens the object), for a slice decoder
// about to hand it to a struct decoder: after a ',' unless first (the
// state then says a value comes next) and whitespace. Else it returns nil,
// having consumed at most those, and NextToken reads the token.
func (d *Decoder) openObject(first bool) []byte {
	if !fastPaths {
		return nil
	}
	if d.s.err != nil || d.err != nil {
		return nil
	}
	data, i := d.s.br.data, d.s.br.offset
	if !first {
		if i >= len(data) || data[i] != ',' {
			return d.openObjectAfterSpace()
		}
		i++
		d.state = &atArrayValue
	}
	i = skipWhitespace(data, i)
	d.s.br.offset = i
	if i >= len(data) || data[i] != '{' || d.depth >= d.maxDepth {
		return nil
	}
	d.s.br.offset = i + 1
	d.push(true)
	d.state = &atObjectFirst
	d.after = &atObjectComma
	return data[i : i+1]
}

// valueToken is NextToken where a value must start (ctx says where) and
// the window is at its first byte, past any whitespace, as a one-pass value
// reader (anyScalarNext) that declined it leaves it: a '{' or '[' is opened
// here without the state's own read; anything else, and any error, is left
// to NextToken.
func (d *Decoder) valueToken(ctx syntaxContext) ([]byte, error) {
	if !fastPaths {
		return d.NextToken()
	}
	data, o := d.s.br.data, d.s.br.offset
	if o < len(data) && (data[o] == '{' || data[o] == '[') && d.s.err == nil && d.err == nil {
		d.s.br.offset = o + 1
		return d.value(data[o:o+1], ctx)
	}
	return d.NextToken()
}

// expectKey is the fast path for a member whose key is, byte for byte, f's
// name, or with f.fold the name with its ASCII letters in either case:
// then the key is matched without being scanned or looked up (a name has
// no byte that a JSON string must escape). It reads
// what memberKey would: the ',' unless first, whitespace, the key,
// whitespace and the ':', all in the window, and returns hit. On a miss it
// keeps the ',' and the whitespace it read, as memberKey would (the state
// then says a key comes next), and returns atKey, so that memberKey(true)
// goes on from there instead of reading them again; when no ',' came it
// consumes only whitespace (commaAfterSpace), and after an error nothing.
// The key is never a token anyone sees, so the scanner's facts about the
// last string (strTok, str) are left alone: they describe a token no
// longer current, which only the next string token replaces.
func expectKey(d *Decoder, first bool, f *keyMatch) (hit, atKey bool) {
	if !fastPaths {
		return false, false
	}
	data, i := d.s.br.data, d.s.br.offset
	if d.s.err != nil || d.err != nil {
		return false, false
	}
	if !first {
		if i >= len(data) || data[i] != ',' {
			return expectKeyAfterSpace(d, f)
		}
		i++
	}
	i = skipWhitespace(data, i)
	if f.keyLen != 0 && i+16 <= len(data) {
		// `"name":` in two loads; bytes past it are masked off.
		w := data[i : i+16] // one bounds check for both loads
		w0 := binary.LittleEndian.Uint64(w) & f.mask0
		w1 := binary.LittleEndian.Uint64(w[8:]) & f.mask1
		if w1|f.fold1 == f.key1 && w0|f.fold0 == f.key0 {
			d.s.br.offset = i + f.keyLen
			d.state = &atObjectValue
			return true, true
		}
		if data[i+f.keyLen-1] == ':' {
			return d.beforeKey(i, first) // not this key: a match would have space before its ':'
		}
	}
	end := i + len(f.name) + 1 // the closing quote
	if end >= len(data) || data[i] != '"' || data[end] != '"' {
		return d.beforeKey(i, first)
	}
	if key := data[i+1 : end]; string(key) != f.name && (!f.fold || !asciiFoldEqual(key, f.name)) {
		return d.beforeKey(i, first)
	}
	j := end + 1
	for j < len(data) && whitespace[data[j]] {
		j++
	}
	if j >= len(data) || data[j] != ':' {
		return d.beforeKey(i, first)
	}
	d.s.br.offset = j + 1
	d.state = &atObjectValue
	return true, true
}

// beforeKey is expectKey's miss: i, after the ',' (unless first) and the
// whitespace, is where the key starts.
func (d *Decoder) beforeKey(i int, first bool) (hit, atKey bool) {
	d.s.br.offset = i
	if !first {
		d.state = &atObjectKey // as memberKey does
	}
	return false, true
}

// scalarNext decodes the next value of the container being decoded into p,
// of kind k, when it is whole in the window and, for a number, one that
// scanFloat64 or scanInt64 takes: after a ',' when comma (an array element
// but the first), and whitespace. It consumes them and sets the state to
// next, the state after a value in the container. Otherwise it writes
// nothing and returns false, having consumed at most what valueAt does,
// and the token path decides, with its errors and offsets. Array
// decoders call it for each element, struct decoders after expectKey has
// consumed a ':'.
func (ds *decodeState) scalarNext(k direct, comma bool, next *state, p unsafe.Pointer) bool {
	if !fastPaths {
		return false
	}
	d := ds.d
	i := d.valueAt(comma)
	if i < 0 {
		return false
	}
	data := d.s.br.data
	var end int
	if data[i] == 'n' {
		// null: a pointer becomes nil; anything else is left as it was.
		if _, end = literalAt(data, i); end == 0 {
			return false
		}
		switch {
		case k >= directPtrInt64:
			*(*unsafe.Pointer)(p) = nil
		case k == directAny:
			if holdsPointer(p) {
				return false
			}
			*(*any)(p) = nil
		}
		d.s.br.offset = end
		d.state = next
		return true
	}
	switch k {
	case directFloat64:
		var x float64
		if x, end = scanFloat64(data, i); end == 0 {
			return false
		}
		*(*float64)(p) = x
	case directInt64:
		var n int64
		if n, end = scanInt64(data, i); end == 0 {
			return false
		}
		*(*int64)(p) = n
	case directBool:
		// true, false, or null, which leaves a bool as it was.
		if b, e := flagAt(data, i); e != 0 {
			*(*bool)(p), end = b, e
			break
		}
		var v any
		if v, end = literalAt(data, i); end == 0 {
			return false
		}
		if b, ok := v.(bool); ok {
			*(*bool)(p) = b
		}
	case directString:
		v, ok := ds.stringNext(i, next)
		if ok {
			*(*string)(p) = v
		}
		return ok
	case directNumber:
		// A number as written (a string holding one: the token path).
		if end = numberAt(data, i); end < 0 {
			return false
		}
		*(*Number)(p) = Number(ds.newString(data[i:end]))
	case directAny:
		if holdsPointer(p) {
			return false
		}
		v, ok := ds.anyScalarAt(data, i, next)
		if ok {
			*(*any)(p) = v
		}
		return ok
	default:
		return ds.pointerNext(k, data, i, next, p)
	}
	d.s.br.offset = end
	d.state = next
	return true
}

// numberAt returns the index after the number that starts at data[i]
// when it is valid and followed in data by a byte that may end a value,
// else -1 (the token path decides): numberEnd's grammar, with the integer
// part's digits eight a load (skipDigits; ids of 16 to 19 digits a byte
// at a time cost more than the token path). For a Number, kept as
// written.
func numberAt(data []byte, i int) int {
	j := i
	if data[j] == '-' {
		if j++; j >= len(data) {
			return -1
		}
	}
	switch c := data[j]; {
	case c == '0':
		j++
	case c-'1' < 9:
		j = skipDigits(data, j+1)
	default:
		return -1
	}
	if end := fractionEnd(data, j); end >= 0 && end < len(data) && endsValue[data[end]] {
		return end
	}
	return -1
}

// skipNext passes over a member's value that nothing decodes (a key the
// struct has no field for), when the state says the value comes next and
// the value is whole in the window and valid: the grammar checked by
// Valid's loop in one pass, where NextToken would yield each of its tokens
// in turn. The state then becomes next. Otherwise (an error, a value cut
// by the window's end, nesting past the decoder's limit) it consumes only
// whitespace and returns false, and NextToken reads the value.
func (ds *decodeState) skipNext(next *state) bool {
	d := ds.d
	if !fastPaths || d.state != &atObjectValue {
		return false
	}
	i := d.valueAt(false)
	if i < 0 {
		return false
	}
	data := d.s.br.data
	// A value nested k deep opens containers at depths d.depth to
	// d.depth+k-1, each of which must be under d.maxDepth.
	end := ds.skipper.end(data, i, min(d.maxDepth-d.depth, defaultMaxDepth))
	if end < 0 || end >= len(data) { // the window may end inside a number
		return false
	}
	d.s.br.offset = end
	d.state = next
	return true
}

// narrowNext is scalarNext for a member's value of a number kind that
// narrowAt reads (an int32, a uint64, a float32), by at, where the value
// comes next and is a number the window holds whole: the state becomes
// atObjectComma. Anything else (null, another kind, a value at reads
// but gives up on) is left to NextToken and the field's decoder.
func (ds *decodeState) narrowNext(at func(ds *decodeState, data []byte, i int, p unsafe.Pointer, depth int) int, p unsafe.Pointer) bool {
	d := ds.d
	i := d.valueAt(false)
	if i < 0 {
		return false
	}
	data := d.s.br.data
	if c := data[i]; c != '-' && c-'0' > 9 {
		return false
	}
	end := at(ds, data, i, p, 0)
	if end == giveUp {
		return false
	}
	d.s.br.offset = end // (at reads a number followed by a byte that may end it)
	d.state = &atObjectComma
	return true
}

// captureValue is d.RawValue for Decode (ds.d): what the window holds
// whole of the value, each of its elements and members where the value is
// longer than the window, is passed over by skipWhole, the rest by
// NextToken, which words the errors and grows the window. (By tokens
// alone, capturing a 1 MB array of records with methods was a third of
// decoding it: rec-methods.)
func (ds *decodeState) captureValue() ([]byte, error) {
	d := ds.d
	c, i := d.peek()
	if !fastPaths || c == 0 {
		return d.RawValue()
	}
	br := &d.s.br
	br.pinAt(br.offset + i)
	err := d.skipValue(ds)
	raw := br.unpin()
	if err != nil {
		return nil, err
	}
	return raw, nil
}

// skipWhole passes over what comes next when the window holds it whole
// and valid, as skipNext passes over a member's value: a value where one
// is due; in an array, the ',' and the element after it; in an object, a
// member (its ',' first, but after '{'): key, ':' and value. The state is
// then d.after. Anything else (a closing bracket, a part the window's end
// cuts, invalid or nested past the limit) is left as it was, to NextToken.
func (ds *decodeState) skipWhole() bool {
	d := ds.d
	if d.s.err != nil || d.err != nil {
		return false
	}
	data := d.s.br.data
	i := skipWhitespace(data, d.s.br.offset)
	switch d.state {
	case &atTop, &atArrayFirst, &atArrayValue, &atObjectValue:
	case &atArrayComma:
		if i >= len(data) || data[i] != ',' {
			return false
		}
		i = skipWhitespace(data, i+1)
	case &atObjectComma, &atObjectFirst, &atObjectKey:
		if d.state == &atObjectComma {
			if i >= len(data) || data[i] != ',' {
				return false
			}
			i = skipWhitespace(data, i+1)
		}
		if i >= len(data) || data[i] != '"' {
			return false
		}
		if i = ds.skipper.end(data, i, 1); i < 0 {
			return false
		}
		if i = skipWhitespace(data, i); i >= len(data) || data[i] != ':' {
			return false
		}
		i = skipWhitespace(data, i+1)
	default:
		return false
	}
	if i >= len(data) {
		return false
	}
	if c := data[i]; d.state == &atTop && c != '{' && c != '[' && c != '"' {
		// A top-level number or literal: the scanner words what touches
		// its end ("after top-level value"), which the validator passes.
		return false
	}
	end := ds.skipper.end(data, i, min(d.maxDepth-d.depth, defaultMaxDepth))
	if end < 0 || end >= len(data) { // the window may end inside a number
		return false
	}
	d.s.br.offset = end
	d.state = d.after
	return true
}

// pointerNext is scalarNext for a pointer to a float64, an int64 (or int),
// a string or a bool, at index i of the window, where the value is not null: it
// reads the value first, then stores it where the pointer points,
// allocating the pointee when the pointer is nil, as encoding/json does.
func (ds *decodeState) pointerNext(k direct, data []byte, i int, next *state, p unsafe.Pointer) bool {
	pp := (*unsafe.Pointer)(p)
	switch k {
	case directPtrFloat64:
		x, end := scanFloat64(data, i)
		if end == 0 {
			return false
		}
		if *pp == nil {
			*pp = unsafe.Pointer(new(float64))
		}
		*(*float64)(*pp) = x
		ds.d.s.br.offset = end
	case directPtrInt64, directPtrInt:
		n, end := scanInt64(data, i)
		if end == 0 {
			return false
		}
		if *pp == nil {
			if k == directPtrInt {
				*pp = unsafe.Pointer(new(int))
			} else {
				*pp = unsafe.Pointer(new(int64))
			}
		}
		*(*int64)(*pp) = n
		ds.d.s.br.offset = end
	case directPtrBool:
		b, end := flagAt(data, i)
		if end == 0 {
			var v any
			v, end = literalAt(data, i)
			var ok bool
			if b, ok = v.(bool); end == 0 || !ok { // not null: scalarNext took it
				return false
			}
		}
		if *pp == nil {
			*pp = unsafe.Pointer(new(bool))
		}
		*(*bool)(*pp) = b
		ds.d.s.br.offset = end
	default: // directPtrString
		v, ok := ds.stringNext(i, next)
		if !ok {
			return false
		}
		if *pp == nil {
			*pp = unsafe.Pointer(new(string))
		}
		*(*string)(*pp) = v
		return true // stringNext set the state
	}
	ds.d.state = next
	return true
}

// valueAt consumes a ',' when comma (an array element but the first; the
// state then says a value comes next) and whitespace, and returns the index
// in the window of the next byte, or -1 when the window or the input ends
// first (or after an error).
func (d *Decoder) valueAt(comma bool) int {
	data, i := d.s.br.data, d.s.br.offset
	if d.s.err != nil || d.err != nil {
		return -1
	}
	if comma {
		if i >= len(data) || data[i] != ',' {
			return -1
		}
		i++
		d.state = &atArrayValue
	}
	for i < len(data) && whitespace[data[i]] {
		i++
	}
	d.s.br.offset = i
	if i >= len(data) {
		return -1
	}
	return i
}

// stringNext is readString and then valueString, for a string decoded
// into a string: a string with an escape is checked and unescaped in one
// pass (unescapeAt), and its value made from the unescaped bytes, rather
// than scanned and then searched again for its escapes.
func (ds *decodeState) stringNext(i int, next *state) (string, bool) {
	tok, unescaped, ok := ds.readString(i, next)
	switch {
	case !ok:
		return "", false
	case unescaped:
		return ds.unquotedValue(ds.scratch), true
	}
	return ds.valueString(tok), true
}

// readString reads the string token at index i of the window, where
// valueAt left it, when it is whole in the window, consumes it, sets the
// state to next and returns it, and unescaped when its value is in
// ds.scratch (it had an escape, unescaped as it was scanned: one pass).
// Otherwise it returns false, and Next finishes the string or reports the
// error the scanner recorded at the same place.
func (ds *decodeState) readString(i int, next *state) (tok []byte, unescaped, ok bool) {
	d := ds.d
	data := d.s.br.data
	if data[i] != '"' {
		return nil, false, false
	}
	j, high := stringStopWithin(data, i+1, shortRun)
	// Only a run with no stop in its first 32 bytes goes on (then bodyStop
	// finds the stop, or the window's last bytes): a stop found in them is
	// known by where it is, without reading its byte and its table entry
	// first, two loads in a row on every short string's path.
	if j == i+1+32 && j+8 <= len(data) && !strSpecial[data[j]] {
		var more uint64 // a long run
		j, more = bodyStop(data, j)
		high |= more
	}
	var end int
	var facts uint8
	switch {
	case j < len(data) && data[j] == '"':
		end, facts = j+1, nonASCII(high)
	case j < len(data) && data[j] == '\\':
		if end, facts = ds.unescapeAt(data, i, j, nonASCII(high)); end == giveUp {
			return nil, false, false
		}
		unescaped = true
	default:
		if j+8 > len(data) {
			// The input's last bytes (a document's last string), which
			// stringStopWithin leaves: a byte at a time to its end, when it
			// is there.
			k, more := stringTail(data, j)
			if k < len(data) && data[k] == '"' {
				end, facts = k+1, nonASCII(high|more)
				break
			}
			if k < len(data) && data[k] == '\\' {
				// An escape in the last bytes (a short value at a
				// line's end): unescaped from there in the same pass,
				// not scanned and then unescaped again.
				if end, facts = ds.unescapeAt(data, i, k, nonASCII(high|more)); end == giveUp {
					return nil, false, false
				}
				unescaped = true
				break
			}
		}
		// A control byte, the window's end: the scanner, from there.
		n, more := d.s.scanString(data[i:], j-i)
		if n <= 0 {
			return nil, false, false
		}
		end, facts = i+n, more|nonASCII(high)
	}
	d.s.br.offset = end
	d.s.strTok, d.s.str = data[i:end], facts
	d.state = next
	return data[i:end], unescaped, true
}

// anyScalarNext is scalarNext for a value decoded into an interface: a
// number (a float64, or with UseNumber a Number), a string or a literal,
// read in one pass when it can be; otherwise the token path decides. In
// an object it may only be called once the key's ':' is consumed.
func (ds *decodeState) anyScalarNext(next *state) (any, bool) {
	if !fastPaths {
		return nil, false
	}
	d := ds.d
	// valueAt(false), written out here with skipWhitespace, which skips
	// indentation 8 bytes at a time (valueAt must stay small enough to
	// inline, so it walks whitespace a byte at a time).
	data, i := d.s.br.data, d.s.br.offset
	if d.s.err != nil || d.err != nil {
		return nil, false
	}
	i = skipWhitespace(data, i)
	d.s.br.offset = i
	if i >= len(data) {
		return nil, false
	}
	return ds.anyScalarAt(data, i, next)
}

// anyScalarAt is anyScalarNext for the value at data[i], the window at
// the decoder's offset, whitespace skipped.
func (ds *decodeState) anyScalarAt(data []byte, i int, next *state) (any, bool) {
	d := ds.d
	switch c := data[i]; {
	case c == '"':
		if tok, unescaped, ok := ds.readString(i, next); unescaped {
			return ds.anyUnquoted(ds.scratch), true
		} else if ok {
			return ds.anyStringValue(tok), true
		}
	case (c == '-' || c-'0' <= 9) && ds.useNumber:
		if end := numberAt(data, i); end >= 0 {
			d.s.br.offset = end
			d.state = next
			return Number(ds.newString(data[i:end])), true
		}
	case c == '-' || c-'0' <= 9:
		if x, end := scanFloat64(d.s.br.data, i); end != 0 {
			d.s.br.offset = end
			d.state = next
			return ds.anyFloat(x), true
		}
	case c == 'n' || c == 't' || c == 'f':
		if v, end := literalAt(data, i); end != 0 {
			d.s.br.offset = end
			d.state = next
			return v, true
		}
	}
	return nil, false
}

// holdsPointer reports whether the empty interface at p holds a pointer,
// which encoding/json decodes into rather than replaces.
func holdsPointer(p unsafe.Pointer) bool {
	x := *(*any)(p)
	return x != nil && reflect.TypeOf(x).Kind() == reflect.Pointer
}

// flagAt reads true or false at data[i:], followed by a byte that may end
// a value, without a branch on which: a flag is data, true or false at
// random, and literalAt's branch, mispredicted half the time, was most of
// a flag's decoding (rec-bools, 16 random flags a record, typed: 15-24%
// faster on AMD EPYC). It returns 0 for end on anything else. With fewer
// than 8 bytes left (the last member of a document) flagTail reads the
// flag, where it went to the token path. (Not for any: there the maps
// hide the branch's cost, and the decoding measured no faster.)
func flagAt(data []byte, i int) (v bool, end int) {
	if len(data)-i < 8 {
		return flagTail(data, i)
	}
	w := binary.LittleEndian.Uint64(data[i:])
	var t, te, f, fe int // conditional moves: the word, the byte after it
	if uint32(w) == boolTrue {
		t = 1
	}
	if endsValue[byte(w>>32)] {
		te = 1
	}
	if w&(1<<40-1) == boolFalse {
		f = 1
	}
	if endsValue[byte(w>>40)] {
		fe = 1
	}
	if t, f = t&te, f&fe; t|f == 0 {
		return false, 0
	}
	return t == 1, i + 5 - t
}

// flagTail is flagAt for the input's last bytes, fewer than 8, as
// literalAt reads them. It inlines: flagAt stays a function that calls
// none, without a frame of its own.
func flagTail(data []byte, i int) (bool, int) {
	w := data[i:]
	if len(w) > 4 && string(w[:4]) == "true" && endsValue[w[4]] {
		return true, i + 4
	}
	if len(w) > 5 && string(w[:5]) == "false" && endsValue[w[5]] {
		return false, i + 5
	}
	return false, 0
}

// literalAt returns the value of the literal true, false or null at
// data[i:] and the index after it, when the byte after it is in data and
// may end a value (as the scanner's fast path checks); otherwise 0.
func literalAt(data []byte, i int) (any, int) {
	w := data[i:]
	if len(w) > 5 && string(w[:5]) == "false" && endsValue[w[5]] {
		return false, i + 5
	}
	if len(w) > 4 && endsValue[w[4]] {
		switch string(w[:4]) {
		case "null":
			return nil, i + 4
		case "true":
			return true, i + 4
		}
	}
	return nil, 0
}

// arrayComma consumes the ',' right after an array element, as NextToken
// would (the state then says a value comes next), and reports whether it
// did; else it consumes nothing (whitespace first, which
// arrayCommaAfterSpace reads; the window's end, an error, or anything
// else).
func (d *Decoder) arrayComma() bool {
	if !fastPaths {
		return false
	}
	data, o := d.s.br.data, d.s.br.offset
	if o < len(data) && data[o] == ',' && d.s.err == nil && d.err == nil {
		d.s.br.offset = o + 1
		d.state = &atArrayValue
		return true
	}
	return false
}

// The ',' after whitespace: expectKey, memberKey and openObject (with first
// false) go on here when no ',' comes right after the value, in a function
// of its own, so that their own code stays as it is for the ',' that does.
// Each reads the whitespace and the ',' (commaAfterSpace, through
// commaNext) and then does what the caller does after a ',' (expectKey and
// memberKey with first true, once the state says a key comes next); where
// no ',' comes, what the caller does then, the whitespace consumed.

func expectKeyAfterSpace(d *Decoder, f *keyMatch) (hit, atKey bool) {
	if !d.commaNext(&atObjectKey) {
		return false, false
	}
	hit, _ = expectKey(d, true, f)
	return hit, true
}

func (d *Decoder) memberKeyAfterSpace() ([]byte, error) {
	if d.s.err == nil && d.err == nil && d.commaNext(&atObjectKey) {
		return d.memberKey(true)
	}
	return d.NextToken()
}

func (d *Decoder) openObjectAfterSpace() []byte {
	if !d.commaNext(&atArrayValue) {
		return nil
	}
	return d.openObject(true)
}

// arrayCommaAfterSpace is arrayComma where whitespace comes before the
// ',': the less common layout, out of line, so that arrayComma stays
// small enough to inline. Where no ',' comes, it consumes the whitespace.
func (d *Decoder) arrayCommaAfterSpace() bool {
	return fastPaths && d.s.err == nil && d.err == nil && d.commaNext(&atArrayValue)
}

// commaNext consumes whitespace and the ',' after it, sets the state to
// next (what follows a ',' in the container) and reports true; or, where
// no ',' comes after the whitespace, consumes the whitespace alone and
// reports false.
func (d *Decoder) commaNext(next *state) bool {
	o := commaAfterSpace(d.s.br.data, d.s.br.offset)
	if o < 0 {
		d.s.br.offset = ^o
		return false
	}
	d.s.br.offset = o
	d.state = next
	return true
}

// commaAfterSpace is for a fast path that found no ',' right after a value
// ending at data[i]: it returns the index just after a ',' that comes after
// whitespace there, or else ^j (negative), where j is the index after the
// whitespace (i when there is none), which the caller consumes: the next
// read would skip it again.
//
// The grammar allows whitespace before a ',' ("1 , 2"; and files that
// start each member's line with its comma: `"a": 1` newline `, "b": 2`, as
// gemoji's emoji.json): without this, every member of such a file went
// to the token path. It inlines, so that a container that ends right
// after its last value costs a table load, not a call.
func commaAfterSpace(data []byte, i int) int {
	if i < len(data) && whitespace[data[i]] {
		return commaPastSpace(data, i+1)
	}
	return ^i
}

// commaPastSpace is commaAfterSpace past its first byte of whitespace:
// the rest of it, then the ',' or not (most often indentation before the
// '}' or ']' that closes the container).
func commaPastSpace(data []byte, i int) int {
	if i = skipWhitespace(data, i); i < len(data) && data[i] == ',' {
		return i + 1
	}
	return ^i
}

// closeArray consumes the ']' right after a '[' or an element, as NextToken
// would (it closes the array), and reports whether it did; else it consumes
// nothing.
func (d *Decoder) closeArray() bool {
	if !fastPaths {
		return false
	}
	data, o := d.s.br.data, d.s.br.offset
	if o < len(data) && data[o] == ']' && d.s.err == nil && d.err == nil {
		d.s.br.offset = o + 1
		d.pop()
		return true
	}
	return false
}
