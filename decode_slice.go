package json

import (
	"encoding/base64"
	"io"
	"reflect"
	"sync/atomic"
	"unsafe"
)

var bytesType = reflect.TypeFor[[]byte]()

// buildSlice: a JSON array fills a slice from index 0, reusing its backing
// array (existing elements are decoded into, as encoding/json does), growing
// it when full, and truncating it to the array's length; an empty array
// gives an empty non-nil slice; null gives nil; a string fills a byte slice
// from base64.
func (b *builder) buildSlice(td *typeDecoder, t reflect.Type) {
	et := t.Elem()
	elem := b.dep(td, decodeKey{et, modeLoc, nil})
	size := et.Size()
	isBytes := et.Kind() == reflect.Uint8
	// A slice with no capacity (the usual case: a new value) is first
	// filled in a scratch buffer of up to small elements, then allocated
	// once at its length; past that it grows as append does. (Without the
	// fast paths, every slice grows as append does: fillSlice.)
	small := 0
	if size > 0 {
		small = max(4, min(64, 2048/int(size)))
	}
	id := nextScratchID()
	td.slice = &sliceInfo{t: t, elem: elem, size: size, id: id, small: small}
	td.fn = func(ds *decodeState, tok []byte, p unsafe.Pointer) error {
		switch tok[0] {
		case '[':
		case 'n':
			*(*[]byte)(p) = nil // a slice header of any element type
			return nil
		case '"':
			if isBytes {
				ds.decodeBase64(tok, t, p)
				return nil
			}
			return ds.mismatch(tok, t)
		default:
			return ds.mismatch(tok, t)
		}
		if !fastPaths || cap(*(*[]byte)(p)) != 0 || small == 0 {
			return ds.fillSlice(t, elem, size, p)
		}
		d := ds.d
		if d.peekWindow() == ']' {
			// Empty: no scratch buffer to take and give back.
			if _, err := d.NextToken(); err != nil {
				return err
			}
			*(*[]byte)(p) = emptySlice
			return nil
		}
		start := d.pos() // for fillLong's length estimate
		var sc *sliceScratch
		i := 0
		if elem.direct == directString {
			// Short arrays of strings (tags, aliases, names) gather on the
			// stack, without the scratch buffer's round trip.
			if sc, i = ds.stackStrings(p, id, t, small); sc == nil {
				return nil
			}
		} else {
			sc = ds.takeScratch(id, t, small)
		}
		// The array is the whole input's one value (Unmarshal's, or a
		// value Decode captured): it runs to the input's end.
		toEnd := d.depth == 1 && (d == &ds.bd || d == &ds.sub)
		for ; ; i++ {
			if elem.direct != directNone && i < small && ds.scalarNext(elem.direct, i > 0, &atArrayComma, unsafe.Add(sc.base, uintptr(i)*size)) {
				continue
			}
			var tok []byte
			if elem.sd != nil && i < small {
				tok = d.openObject(i == 0)
			}
			if tok == nil {
				var err error
				if tok, err = d.NextToken(); err != nil {
					ds.dropScratch(id, sc, i)
					return err
				}
			}
			if tok[0] == ']' {
				sc.moveTo(p, i)
				ds.dropScratch(id, sc, i)
				return nil
			}
			if i == small {
				// Too long for the scratch buffer: fillLong goes on.
				return ds.fillLong(t, elem, size, p, sc, id, small, start, toEnd, tok)
			}
			var err error
			if sd := elem.sd; sd != nil {
				err = sd.decode(ds, tok, unsafe.Add(sc.base, uintptr(i)*size))
			} else {
				err = elem.fn(ds, tok, unsafe.Add(sc.base, uintptr(i)*size))
			}
			if err != nil {
				// As encoding/json, the elements so far stay in the slice.
				sc.moveTo(p, i+1)
				ds.dropScratch(id, sc, i+1)
				return err
			}
		}
	}
}

// stackStrings decodes the elements of an array of strings (its '[' read,
// not empty) into a buffer on the stack, for a new slice of t at p, whose
// elements are strings: when the array ends there (up to stackStringsLen
// elements, each a string scalarNext reads, then ']'), it stores the slice
// of them at p and returns nil. Otherwise it returns a scratch buffer (of
// small elements) holding the n elements read so far, for buildSlice's
// loop to go on from: a longer array, an element that is not a plain
// string (null, an escape scalarNext leaves to the token path, an error),
// or a window that ends first.
func (ds *decodeState) stackStrings(p unsafe.Pointer, id int, t reflect.Type, small int) (sc *sliceScratch, n int) {
	var buf [stackStringsLen]string
	d := ds.d
	for n < len(buf) {
		// A try that fails has consumed at most whitespace and a ','
		// (the fast paths' contract): put back, so that buildSlice's loop
		// tries this element again from the same place, reading the ','
		// itself, as it would have.
		o, st := d.s.br.offset, d.state
		if !ds.scalarNext(directString, n > 0, &atArrayComma, unsafe.Pointer(&buf[n])) {
			d.s.br.offset, d.state = o, st
			break
		}
		n++
	}
	if n > 0 && n < len(buf) && d.peekWindow() == ']' && d.closeArray() {
		s := make([]string, n)
		copy(s, buf[:n])
		*(*[]string)(p) = s // a slice of any string type: one layout
		return nil, 0
	}
	sc = ds.takeScratch(id, t, small)
	copy(unsafe.Slice((*string)(sc.base), n), buf[:n])
	return sc, n
}

// stackStringsLen is how many strings stackStrings gathers on the stack
// (256 bytes): most lists of tags or names are shorter.
const stackStringsLen = 16

// fillSlice decodes array elements into the slice of type t at p (one with
// capacity, or of zero-size elements), reusing its backing array and
// growing it as append does.
func (ds *decodeState) fillSlice(t reflect.Type, elem *typeDecoder, size uintptr, p unsafe.Pointer) error {
	v := reflect.NewAt(t, p).Elem()
	n, c := v.Len(), v.Cap()
	base := v.UnsafePointer()
	d := ds.d
	i := 0
	for ; ; i++ {
		if elem.direct != directNone && i < c && ds.scalarNext(elem.direct, i > 0, &atArrayComma, unsafe.Add(base, uintptr(i)*size)) {
			continue
		}
		var tok []byte
		if elem.sd != nil && i < c {
			tok = d.openObject(i == 0)
		}
		if tok == nil {
			var err error
			if tok, err = d.NextToken(); err != nil {
				return err
			}
		}
		if tok[0] == ']' {
			break
		}
		if i >= c {
			// Grow, keeping the i elements decoded so far.
			if i > n {
				v.SetLen(i)
			}
			v.Grow(1)
			n, c = i, v.Cap()
			base = v.UnsafePointer()
		}
		if err := elem.fn(ds, tok, unsafe.Add(base, uintptr(i)*size)); err != nil {
			// As encoding/json, which lengthens the slice before decoding
			// into it, the failed element is in the slice.
			v.SetLen(max(n, i+1))
			return err
		}
	}
	if i == 0 {
		*(*[]byte)(p) = emptySlice
		return nil
	}
	v.SetLen(i)
	return nil
}

// maxChunkBytes caps the chunks in which fillLong gathers the elements of
// an array whose length it cannot estimate.
const maxChunkBytes = 1 << 20

// fillLong goes on with a new slice whose first small elements fill the
// scratch buffer sc; tok is the token of the next one, and start the input
// offset just after the array's '['; toEnd says the array runs to the
// input's end.
//
// When the rest of the input is all in the window (Unmarshal, or a Decoder
// whose reader has ended), the bytes the elements so far took say about
// how many are left: for a JSON array of rows that is the input's one
// value (toEnd), the slice is allocated about once, at its final length,
// when the scratch buffer is full, and every later element is decoded in
// place. Elsewhere each growth is capped (lengthEstimate), so an array
// that ends long before the input does (one among many in a document)
// costs at most a few small over-allocations; a
// slice left more than a quarter empty is copied into one of its length,
// so no more than append's slack is ever kept.
//
// Otherwise (a stream), growing as append does (by a quarter past 256
// elements) would allocate about five times the final slice and copy each
// element about four times. Instead the elements gather in chunks, each
// as large as all the chunks before it up to maxChunkBytes, and the slice
// is allocated once, at its length, with each element copied into it
// once. The chunks hold about as much as the final slice, so memory peaks
// at about twice the slice, as append's does.
//
// On a syntax error the target is left alone, as on the scratch buffer's
// path.
func (ds *decodeState) fillLong(t reflect.Type, elem *typeDecoder, size uintptr, p unsafe.Pointer, sc *sliceScratch, id, small int, start int64, toEnd bool, tok []byte) error {
	d := ds.d
	// The slice grows in sc.slot, which is addressable, as Grow needs.
	cur := sc.slot
	n := 2 * small
	estimated := false // cur's length came from an estimate
	short := false     // the whole array's estimate fell short once
	// Where and at which element the last estimate was made.
	mark, markJ := start, 0
	if toEnd {
		// The whole array's length, estimated now, from the elements in
		// the scratch buffer.
		if est := d.lengthEstimate(start, small, size, true); est > 0 {
			n, estimated = est, true
			mark, markJ = d.pos(), small
		}
	}
	cur.Grow(n)
	cur.SetLen(n)
	j := reflect.Copy(cur, sc.buf) // elements in cur
	base := cur.UnsafePointer()
	var full []reflect.Value // the filled chunks, in order
	total := 0               // elements in full
	maxLen := max(1, maxChunkBytes/int(size))
	release := func() {
		sc.slot.SetZero()
		ds.dropScratch(id, sc, small)
	}
	// finish stores the slice of all elements gathered at p.
	finish := func() {
		switch {
		case len(full) == 0 && (!estimated || j >= cur.Len()-cur.Len()/4):
			// The slice is in sc.slot: move its header, as moveTo does.
			cur.SetLen(j)
			*(*[]byte)(p) = *(*[]byte)(sc.slotPtr)
		case len(full) == 0:
			// Over-estimated: keep only the elements.
			v := reflect.MakeSlice(t, j, j)
			reflect.Copy(v, cur)
			reflect.NewAt(t, p).Elem().Set(v)
		default:
			v := reflect.MakeSlice(t, total+j, total+j)
			off := 0
			for _, c := range full {
				off += reflect.Copy(v.Slice(off, off+c.Len()), c)
			}
			reflect.Copy(v.Slice(off, off+j), cur)
			reflect.NewAt(t, p).Elem().Set(v)
		}
		release()
	}
	for {
		if tok == nil {
			if elem.direct != directNone && j < cur.Len() && ds.scalarNext(elem.direct, true, &atArrayComma, unsafe.Add(base, uintptr(j)*size)) {
				j++
				continue
			}
			if elem.sd != nil && j < cur.Len() {
				tok = d.openObject(false)
			}
			if tok == nil {
				var err error
				if tok, err = d.NextToken(); err != nil {
					release()
					return err
				}
			}
		}
		if tok[0] == ']' {
			finish()
			return nil
		}
		if j == cur.Len() {
			if n := d.lengthEstimate(start, j, size, toEnd); n > 0 && len(full) == 0 {
				if toEnd {
					// The estimate fell short: the rows got denser.
					// Estimate again from the rows since the last
					// estimate (the density now: the first rows are
					// often a little longer than the rest), with at least
					// an eighth more the first time, so that a slice a
					// little short near its end is not doubled and then
					// copied again at its length by finish; after that at
					// least double, as append does, since estimating
					// again from rows that keep getting denser would grow
					// it by little each time.
					n = markJ + d.lengthEstimate(mark, j-markJ, size, true)
					if short {
						n = max(n, 2*j)
					} else {
						n = max(n, j+j/8)
					}
					short = true
					mark, markJ = d.pos(), j
				}
				// Exactly n, where Grow would round up as append does.
				v := reflect.MakeSlice(t, n, n)
				reflect.Copy(v, cur)
				cur.Set(v)
				estimated = true
			} else {
				// The first chunk stays in sc.slot until release. Chunks
				// double the elements gathered, up to maxChunkBytes each.
				full = append(full, cur)
				total += j
				n := min(total, maxLen)
				cur, j = reflect.MakeSlice(t, n, n), 0
			}
			base = cur.UnsafePointer()
		}
		var err error
		if sd := elem.sd; sd != nil {
			err = sd.decode(ds, tok, unsafe.Add(base, uintptr(j)*size))
		} else {
			err = elem.fn(ds, tok, unsafe.Add(base, uintptr(j)*size))
		}
		tok = nil
		j++
		if err != nil {
			// As encoding/json, the failed element is in the slice.
			finish()
			return err
		}
	}
}

// lengthEstimate returns how many elements (of size bytes) to make room for
// in an array that began at input offset start and has n elements so far:
// about as many as the rest of the input holds at the same bytes per
// element, plus a little for rows that vary, and at least n+n/8+4. It
// returns 0 when the rest of the input is not all in the window (a
// stream), where there is nothing to estimate from.
//
// When the array runs to the input's end (toEnd: the one value of
// Unmarshal's input, a JSON array of rows), the estimate is taken whole,
// from the elements the scratch buffer held (fillLong asks at once): the
// slice is then allocated once, where growing
// step by step copied each element about once more and allocated about
// twice the final slice. Each element so far took at least two bytes (a
// value and its comma), so the estimate is at most about an element per
// two bytes left, as many as any input of that length could hold: input
// crafted to mislead it costs no more memory than input that simply has
// that many elements. Otherwise (an array that may end
// long before the input) it grows a slice under smallSliceBytes (where a
// copy costs little and most arrays end soon) about twofold at most, and
// a larger one fourfold.
func (d *Decoder) lengthEstimate(start int64, n int, size uintptr, toEnd bool) int {
	br := &d.s.br
	used := br.pos() - start
	if br.err != io.EOF || used <= 0 {
		return 0
	}
	return estimateLen(n, int(used), len(br.window()), size, toEnd)
}

// estimateLen is lengthEstimate's arithmetic, for n elements that took
// used bytes with left bytes after them: the one pass (sliceAt) asks it
// too, about the window.
func estimateLen(n, used, left int, size uintptr, toEnd bool) int {
	rest := float64(left) / float64(used) * float64(n)
	if toEnd {
		return n + int(rest+rest/16) + 4
	}
	limit := n // at most doubling while the slice is small
	if uintptr(n)*size >= smallSliceBytes {
		limit = 3 * n
	}
	est := n + int(min(rest, float64(limit))) + n/16 + 4
	return max(est, n+n/8+4)
}

// smallSliceBytes: below this, an estimate at most doubles a slice.
const smallSliceBytes = 64 << 10

// emptySlice is the header of an empty, non-nil slice, which encoding/json
// gives for [] (its data pointer is the zero-size allocation, valid for any
// element type).
var emptySlice = make([]byte, 0)

var scratchIDs atomic.Int32

func nextScratchID() int { return int(scratchIDs.Add(1)) - 1 }

// sliceScratch is where a new slice's elements gather before it is
// allocated: buf, zeroed between uses, and slot, an empty slice of the same
// type in which the result is allocated before its header moves to the
// target.
type sliceScratch struct {
	buf     reflect.Value  // addressable, of the slice type
	bufPtr  unsafe.Pointer // buf's header
	base    unsafe.Pointer
	slot    reflect.Value // addressable, of the slice type, nil between uses
	slotPtr unsafe.Pointer
	move    moveKind
	size    uintptr // of an element
	// key is where mapGathered, fillReflect and fillIntKeys set each
	// key for SetMapIndex: a value of the map's key type, a string one
	// empty between uses.
	key reflect.Value
}

// grow doubles sc's buffer, keeping its elements (mapGathered's
// members, which may be more than a scratch buffer's first size).
func (sc *sliceScratch) grow() {
	n := sc.buf.Len()
	b := reflect.MakeSlice(sc.buf.Type(), 2*n, 2*n)
	reflect.Copy(b, sc.buf)
	sc.buf.Set(b)
	sc.base = sc.buf.UnsafePointer()
}

// moveKind is how moveTo allocates a slice: through reflect (any element
// type), or, for the elements most small arrays in records hold (tags,
// ids, coordinates), with make and copy, without reflect's Grow, SetLen
// and Copy (a record with three such arrays decoded 29% faster).
type moveKind uint8

const (
	moveReflect moveKind = iota
	// moveStrings: elements of kind string, whose memory is a string's,
	// made as a []string.
	moveStrings
	// moveFlat: elements without pointers (numbers, bools, structs and
	// arrays of them), made as bytes, which the garbage collector does
	// not scan, as it does not scan them. The allocation is aligned for
	// any element: a Go type's size is a multiple of its alignment (at
	// most 8), and malloc aligns a block to the largest of 8, 4 and 2
	// that divides its size.
	moveFlat
)

func moveKindOf(et reflect.Type) moveKind {
	switch {
	case et.Kind() == reflect.String:
		return moveStrings
	case flatnessOf(et) == flatNoPointers:
		return moveFlat
	}
	return moveReflect
}

// moveTo allocates a slice of the first n elements of sc.buf and stores it
// at p: an empty non-nil slice when n is 0.
func (sc *sliceScratch) moveTo(p unsafe.Pointer, n int) {
	if n == 0 {
		*(*[]byte)(p) = emptySlice
		return
	}
	switch sc.move {
	case moveStrings:
		s := make([]string, n)
		copy(s, unsafe.Slice((*string)(sc.base), n))
		*(*[]string)(p) = s
		return
	case moveFlat:
		b := make([]byte, uintptr(n)*sc.size)
		copy(b, unsafe.Slice((*byte)(sc.base), len(b)))
		*(*[]byte)(p) = unsafe.Slice(unsafe.SliceData(b), n) // n elements of sc.size bytes
		return
	}
	sc.slot.Grow(n)
	setLen(sc.slotPtr, n)
	reflect.Copy(sc.slot, sc.buf) // n elements: as many as sc.slot holds
	// Move the header: slice headers have one layout whatever the element
	// type, and the store through *[]byte keeps the write barrier.
	*(*[]byte)(p) = *(*[]byte)(sc.slotPtr)
	*(*[]byte)(sc.slotPtr) = nil
}

// sliceHeader is the layout of a slice's header, whatever its element
// type: the scratch buffers' lengths are set through it, not through
// reflect's SetLen and its checks (which cost a new slice of one record
// about 2% of its instructions).
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// setLen sets the length of the slice whose header is at p; n must be at
// most its capacity.
func setLen(p unsafe.Pointer, n int) { (*sliceHeader)(p).len = n }

// maxKeptScratch bounds the bytes of a scratch buffer a pooled state
// keeps: one that a large map grew (grow) is dropped after use.
const maxKeptScratch = 64 << 10

// takeScratch returns a scratch buffer of n zero elements for slice decoder
// id (nested decodes of the same type each take their own).
func (ds *decodeState) takeScratch(id int, t reflect.Type, n int) *sliceScratch {
	if id < len(ds.scratchSlices) {
		if st := &ds.scratchSlices[id]; st.free > 0 {
			st.free--
			sc := st.bufs[st.free]
			setLen(sc.bufPtr, n)
			return sc
		}
	}
	sc := &sliceScratch{buf: reflect.New(t).Elem(), slot: reflect.New(t).Elem(), move: moveKindOf(t.Elem()), size: t.Elem().Size()}
	sc.buf.Set(reflect.MakeSlice(t, n, n))
	sc.base = sc.buf.UnsafePointer()
	sc.bufPtr = sc.buf.Addr().UnsafePointer()
	sc.slotPtr = sc.slot.Addr().UnsafePointer()
	return sc
}

// dropScratch zeroes the first used elements of sc and puts it back.
// Elements without pointers, and strings, are cleared as such; others
// through reflect, which knows where their pointers are.
func (ds *decodeState) dropScratch(id int, sc *sliceScratch, used int) {
	h := (*sliceHeader)(sc.bufPtr)
	h.len = used
	switch sc.move {
	case moveFlat:
		clear(unsafe.Slice((*byte)(sc.base), uintptr(used)*sc.size))
	case moveStrings:
		clear(unsafe.Slice((*string)(sc.base), used))
	default:
		sc.buf.Clear()
	}
	if id >= 1<<10 || uintptr(h.cap)*sc.size > maxKeptScratch { // bounds what a pooled state keeps
		if id < len(ds.scratchSlices) {
			ds.scratchSlices[id].forget(sc)
		}
		return
	}
	for id >= len(ds.scratchSlices) {
		ds.scratchSlices = append(ds.scratchSlices, scratchStack{})
	}
	ds.scratchSlices[id].push(sc)
}

// scratchStack holds a slice decoder's free scratch buffers: bufs[:free].
// A buffer taken is left in bufs above free, and one given back is stored
// only where another was: most often the same one comes back, and no
// pointer is stored (while the collector marks, each store of one is a
// write barrier's: two in each slice decoded, to pop and to push, cost a
// small record with two []string fields about 3% of its instructions,
// callgrind, GOGC=100, Intel Xeon).
type scratchStack struct {
	bufs []*sliceScratch
	free int
}

// forget drops sc, not given back, from where it was taken.
func (st *scratchStack) forget(sc *sliceScratch) {
	for i := st.free; i < len(st.bufs); i++ {
		if st.bufs[i] == sc {
			st.bufs[i] = nil
		}
	}
}

func (st *scratchStack) push(sc *sliceScratch) {
	if st.free == len(st.bufs) {
		st.bufs = append(st.bufs, sc)
	} else if st.bufs[st.free] != sc {
		st.bufs[st.free] = sc
	}
	st.free++
}

// decodeBase64 fills the byte slice at p from the base64 string token tok;
// a malformed string saves base64's error and leaves the slice alone.
func (ds *decodeState) decodeBase64(tok []byte, t reflect.Type, p unsafe.Pointer) {
	s := ds.unquote(tok)
	b := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
	n, err := base64.StdEncoding.Decode(b, s)
	if err != nil {
		ds.saveError(err)
		return
	}
	if t == bytesType {
		*(*[]byte)(p) = b[:n]
		return
	}
	reflect.NewAt(t, p).Elem().SetBytes(b[:n])
}

// buildArray: a JSON array fills a Go array from index 0; extra elements are
// dropped and missing ones zeroed. Anything but an array or null is a type
// error (a string does not fill a byte array).
func (b *builder) buildArray(td *typeDecoder, t reflect.Type) {
	et := t.Elem()
	elem := b.dep(td, decodeKey{et, modeLoc, nil})
	size := et.Size()
	n := t.Len()
	if fastPaths {
		td.pass = &passInfo{elem: elem, at: arrayAt(t, elem)}
	}
	td.fn = func(ds *decodeState, tok []byte, p unsafe.Pointer) error {
		if tok[0] != '[' {
			return ds.mismatch(tok, t)
		}
		d := ds.d
		i := 0
		for ; ; i++ {
			if elem.direct != directNone && i < n && ds.scalarNext(elem.direct, i > 0, &atArrayComma, unsafe.Add(p, uintptr(i)*size)) {
				continue
			}
			tok, err := d.NextToken()
			if err != nil {
				return err
			}
			if tok[0] == ']' {
				break
			}
			if i < n {
				err = elem.fn(ds, tok, unsafe.Add(p, uintptr(i)*size))
			} else {
				err = ds.skip(tok)
			}
			if err != nil {
				return err
			}
		}
		if i < n {
			v := reflect.NewAt(t, p).Elem()
			for ; i < n; i++ {
				v.Index(i).SetZero()
			}
		}
		return nil
	}
}
