package json

import (
	"math"
	"unsafe"

	"github.com/jsonpipe/json/internal/unquote"
	"github.com/jsonpipe/json/internal/utf8dfa"
)

// intern is the part of a decodeState that makes strings once and hands
// them out again: JSON repeats keys, enumerations and codes, and each
// string made (or boxed for an any) is an allocation.
// It lives as long as the pooled decodeState (see putState), across calls;
// its slots hold only values already handed out, which are immutable.
//
// Strings go into a table of stringCacheSize slots by stringHash (its top
// bits: stringSlot), when their length is internable: from minCachedString
// bytes (shorter ones are cheap, or the runtime's own) to maxCachedString
// (repeated text such as a retweet's user or a description is often longer
// than a key, but a pooled state should not keep much alive: 2 MiB at
// most, 1,024 slots each keeping a string of up to 1 KiB or the 2 KiB
// block a short one was made in). A typed value's plain ASCII string of
// up to maxLongBlockString bytes does not: valueString copies it at once
// into a block (and a non-ASCII one, while the table keeps missing).
// (Numbers decoded into an any are not kept: boxFloat boxes them in blocks,
// which costs less than a look in a table.)
type intern struct {
	strings [stringCacheSize]cachedString
	// block is where short strings are made (see newString), and
	// longBlock, longer ones that the table does not keep (valueCopy):
	// their bytes up to len are in strings handed out and never change
	// again.
	block, longBlock []byte
	// typedRun counts the typed non-ASCII values in a row that the table
	// did not hold (valueString), anyRun the strings of more than
	// maxBlockString bytes decoded into an any (anyStringValue); each then
	// lets the next ones of its kind skip the table.
	typedRun, anyRun missRun
	// uScript: the last string with escapes enough had its \u escapes
	// one after another (unescapeAt, uScriptEscapes).
	uScript bool
}

// A missRun counts one kind of string's misses of the string table in a
// row. After missesToSkip of them, the next skipTable skip the table: a
// miss pays the look and the slot's write for nothing, and values that
// never repeat (names, text) miss every time; values that do repeat come
// back to the table once the run is over.
type missRun struct{ misses, skip int }

// skipping reports whether this string skips the table, counting it.
func (r *missRun) skipping() bool {
	if r.skip > 0 {
		r.skip--
		return true
	}
	return false
}

// looked counts a look in the table that found the string (hit) or not.
func (r *missRun) looked(hit bool) {
	if hit {
		r.misses = 0
	} else if r.misses++; r.misses == missesToSkip {
		r.misses, r.skip = 0, skipTable
	}
}

// Typed non-ASCII values (valueString), and long strings decoded into an
// any (anyStringValue), stop looking in the table for skipTable values
// after missesToSkip misses in a row (missRun).
const (
	missesToSkip = 4
	skipTable    = 64
)

const (
	stringCacheBits = 10
	stringCacheSize = 1 << stringCacheBits
	minCachedString = 2
	maxCachedString = 1024
)

// internable reports whether a string of n bytes goes through the table.
func internable(n int) bool { return minCachedString <= n && n <= maxCachedString }

// cachedString is a slot of the string table: a string, and the same
// string as an any once decoding into an any has wanted it (boxing a
// string allocates; the box is immutable, so one serves every value).
type cachedString struct {
	s   string
	box any
	// h is s's stringHash: a lookup compares it before the bytes, so that
	// strings that never repeat (dates, ids, URLs), which meet other
	// strings of their length in their slot, seldom cost a memequal.
	h uint32
}

// Short strings are made side by side in blocks of stringBlockSize bytes,
// one allocation for many strings: a row of records has a few short
// strings that never repeat (dates, ids, codes), and making each alone
// costs an allocation that takes longer than copying its bytes. The cost
// is that a string kept alive keeps its block alive: at most
// stringBlockSize bytes for a string of up to maxBlockString bytes, as a
// substring keeps its string. A block is only ever appended to, so the
// bytes behind a string handed out never change.
const (
	stringBlockSize = 2048
	maxBlockString  = 128
)

// A string of maxBlockString+1 to maxLongBlockString bytes (a
// description, a URL, a paragraph) that the string table will not keep (a
// typed value's, or one decoded into an any while the table keeps
// missing) is made in a block of its own kind, longBlockSize bytes
// (valueCopy): at least 16 to a block, one allocation where each took
// one (and one into an any a second, its box), and the memory is
// there already for a non-ASCII one to be checked as it is copied
// (utf8dfa.CopyValid), one pass where utf8dfa.Valid and string() made two.
// A string kept alive keeps its block alive: at most longBlockSize bytes
// for one of at least maxBlockString+1 bytes. Strings the table keeps are
// not made there, so that the pooled state keeps no more alive than it did
// (see intern): its 1,024 slots, each a string of up to 1 KiB or a
// short one's 2 KiB block.
const (
	longBlockSize      = 16384
	maxLongBlockString = 1024
)

// newString returns string(b), made in the current block when b is
// short.
func (in *intern) newString(b []byte) string {
	n := len(b)
	if !fastPaths || n == 0 || n > maxBlockString {
		return string(b)
	}
	if cap(in.block)-len(in.block) < n {
		in.block = make([]byte, 0, stringBlockSize)
	}
	i := len(in.block)
	in.block = append(in.block, b...)
	return unsafe.String(&in.block[i], n)
}

// newValidString is newString for the body b of a string token without
// escapes, which it checks to be valid UTF-8: a short one (up to
// maxBlockString bytes, made in the block) as it copies it, one pass over
// b for both (utf8dfa.CopyValid), where validBody and then newString read
// it twice. ok is false, and no string is made, when b is not valid UTF-8.
// ascii says the scanner saw no byte >= 0x80 in b: then there is nothing
// to check.
func (in *intern) newValidString(b []byte, ascii bool) (_ string, ok bool) {
	n := len(b)
	if ascii || n == 0 {
		return in.newString(b), true
	}
	if n > maxBlockString {
		// A string of its own: checked, then copied by string(), whose
		// memory is not zeroed first as make's would be, which cost more
		// than the second read saved (utf8dfa's BenchmarkCopyValidLen).
		if !utf8dfa.Valid(b) {
			return "", false
		}
		return string(b), true
	}
	if cap(in.block)-len(in.block) < n {
		in.block = make([]byte, 0, stringBlockSize)
	}
	i := len(in.block)
	if !utf8dfa.CopyValid(in.block[i:i+n], b) {
		return "", false // (the bytes written past len are no string's)
	}
	in.block = in.block[:i+n]
	return unsafe.String(&in.block[i], n), true
}

// valueCopy is newValidString for a string body b of 2 to
// maxLongBlockString bytes that the string table will not keep (a typed
// value's, valueString; a long one for an any, anyStringValue): a longer
// one than newValidString makes in the block is made in the long block,
// checked as it is copied when ascii is false.
func (in *intern) valueCopy(b []byte, ascii bool) (_ string, ok bool) {
	n := len(b)
	if n <= maxBlockString {
		return in.newValidString(b, ascii)
	}
	if cap(in.longBlock)-len(in.longBlock) < n {
		in.longBlock = make([]byte, 0, longBlockSize)
	}
	i := len(in.longBlock)
	if d := in.longBlock[i : i+n]; ascii {
		copy(d, b)
	} else if !utf8dfa.CopyValid(d, b) {
		return "", false // (the bytes written past len are no string's)
	}
	in.longBlock = in.longBlock[:i+n]
	return unsafe.String(&in.longBlock[i], n), true
}

// slot returns the string table's slot for b (internable), and b's hash.
func (in *intern) slot(b []byte) (*cachedString, uint32) {
	h := stringHash(b)
	return &in.strings[stringSlot(h)], h
}

// stringSlot is the string table's slot for a string of hash h: its top
// bits (see stringHash).
func stringSlot(h uint32) uint32 { return h >> (32 - stringCacheBits) }

// holds reports whether the slot holds the string b, whose hash is h.
func (c *cachedString) holds(b []byte, h uint32) bool { return c.h == h && c.s == string(b) }

// Strings from tokens. These are the decodeState's, since they read the
// scanner's facts about the token and unescape into its scratch buffer.
//
// Without the fast paths (fastPaths), none of this is consulted: every
// string value is unquote.Append's output, made with string(), and every
// value decoded into an any is boxed anew.

// unquote returns the value of the string token tok, which was the last
// token read: its body itself when the scanner saw no escape and it is valid
// UTF-8, else the unescaped value in ds.scratch.
func (ds *decodeState) unquote(tok []byte) []byte {
	body := tok[1 : len(tok)-1]
	if fastPaths && ds.d.s.str&strEscaped == 0 && ds.d.s.validBody(body) {
		return body
	}
	ds.scratch = ds.appendUnquoted(ds.scratch[:0], tok)
	return ds.scratch
}

// appendUnquoted appends the value of the string token tok, the last token
// read, to dst, without checking UTF-8 again when the scanner saw only
// ASCII.
func (ds *decodeState) appendUnquoted(dst, tok []byte) []byte {
	if !fastPaths {
		return unquote.Append(dst, tok)
	}
	return unquote.AppendKnown(dst, tok, ds.d.s.str&strNonASCII == 0)
}

// newUnquoted returns the value of the escaped string token tok, the last
// token read, as a new string: unescaped straight into its own memory
// (escapes only shrink, so the token's length is room enough), which it
// keeps unless that would leave more than a quarter of it unused.
func (ds *decodeState) newUnquoted(tok []byte) string {
	b := ds.appendUnquoted(make([]byte, 0, len(tok)-2), tok)
	if len(b) < cap(b)-cap(b)/4 {
		return string(b)
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// stringValue returns the string value of the string token tok, which was the
// last token read: at most one allocation, none when the same string was
// made recently (keys and values of 2 to maxCachedString bytes go through a
// small cache, as in encoding/json/v2, which caches keys). Typed values
// come through valueString, which leaves short plain ASCII ones out.
func (ds *decodeState) stringValue(tok []byte) string {
	if !fastPaths {
		ds.scratch = unquote.Append(ds.scratch[:0], tok)
		return string(ds.scratch)
	}
	body := tok[1 : len(tok)-1]
	if ds.d.s.str&strEscaped == 0 {
		ascii := ds.d.s.str&strNonASCII == 0
		if !internable(len(body)) {
			if ascii {
				return string(body) // empty, one byte (no allocation), or long
			}
			if s, ok := ds.newValidString(body, false); ok {
				return s // long
			}
		} else if s, _, ok := ds.tableString(body, ascii); ok {
			return s
		}
	}
	if !internable(len(body)) {
		return ds.newUnquoted(tok) // too long for the table
	}
	ds.scratch = ds.appendUnquoted(ds.scratch[:0], tok)
	return ds.makeString(ds.scratch)
}

// valueString is stringValue for a string that a typed value holds (a
// field, an element, a pointee, a typed map's key; not a struct's key,
// not an any), or for a key of an object keyed by data (anyMembersByData),
// which never comes again: an ASCII one of 2 to maxLongBlockString bytes,
// without escapes, is copied into the current block (a longer one into
// the long block: valueCopy) without a look in the string table. For it a
// hit saves no allocation, only a copy, which costs about what the
// lookup does (its compare reads the bytes too); a miss, most values in
// rows (dates, names, ids, text), paid the lookup and the slot's write on
// top. The price is memory, and time where a few values repeat in every
// row: each repeat is copied again.
//
// A non-ASCII one goes through the table while the table finds it: a hit
// there also proves it valid UTF-8, which is dearer to check than to look
// up (BenchmarkRepeatedValues: without the table, +45%). After
// missesToSkip misses in a row, the next skipTable are checked as they are
// copied into a block, without the look (valueCopy); then the table
// is tried again. Values that never repeat (names, text) so pay the look
// about once in seventeen (raw UTF-8 strings, BenchmarkStringShapes,
// typed, fresh state: -9% to -10% at 8, 40 and 64 bytes, Intel Xeon).
func (ds *decodeState) valueString(tok []byte) string {
	body := tok[1 : len(tok)-1]
	if !fastPaths || !blockString(len(body)) {
		return ds.stringValue(tok)
	}
	if ds.d.s.str&strEscaped != 0 {
		// stringValue's way, but unquotedValue: a long value into the
		// long block
		ds.scratch = ds.appendUnquoted(ds.scratch[:0], tok)
		return ds.unquotedValue(ds.scratch)
	}
	if ds.d.s.str&strNonASCII == 0 {
		if len(body) <= maxBlockString {
			return ds.newString(body)
		}
		s, _ := ds.valueCopy(body, true)
		return s
	}
	if ds.typedRun.skipping() {
		if s, ok := ds.valueCopy(body, false); ok {
			return s
		}
		return ds.stringValue(tok) // (bad UTF-8: U+FFFD)
	}
	s, hit, ok := ds.tableString(body, false)
	if !ok {
		return ds.stringValue(tok) // (bad UTF-8: U+FFFD)
	}
	ds.typedRun.looked(hit)
	return s
}

// unquotedValue is makeString for a typed value's string b, unescaped
// (and so valid UTF-8) into the scratch buffer: one of maxBlockString+1
// to maxLongBlockString bytes is copied into the long block without a
// look in the string table (valueCopy), as valueString copies one without
// escapes.
func (in *intern) unquotedValue(b []byte) string {
	if fastPaths && uint(len(b)-maxBlockString-1) < maxLongBlockString-maxBlockString {
		s, _ := in.valueCopy(b, true)
		return s
	}
	return in.makeString(b)
}

// tableString returns the string body, the body of a string token
// without escapes (internable), from the string table: hit when the
// table held it, which proves it valid UTF-8 (cached strings are
// unquoted values); else made (newValidString) and put in its slot. ok
// is false, and nothing is made or kept, when body is not valid UTF-8.
func (in *intern) tableString(body []byte, ascii bool) (s string, hit, ok bool) {
	slot, h := in.slot(body)
	if slot.holds(body, h) {
		return slot.s, true, true
	}
	if s, ok = in.newValidString(body, ascii); ok {
		slot.s, slot.box, slot.h = s, nil, h
	}
	return s, false, ok
}

// blockString reports whether a typed value's string of n bytes is made
// in a block without the string table (valueString): from 2 bytes (a
// shorter one costs no allocation) to maxLongBlockString.
func blockString(n int) bool { return uint(n-minCachedString) <= maxLongBlockString-minCachedString }

// makeString returns string(b), through the string table.
func (in *intern) makeString(b []byte) string {
	if !fastPaths || !internable(len(b)) {
		return string(b)
	}
	slot, h := in.slot(b)
	if slot.holds(b, h) {
		return slot.s
	}
	s := in.newString(b)
	slot.s, slot.box, slot.h = s, nil, h
	return s
}

// anyStringValue is stringValue for a value decoded into an any, boxed:
// a string of 2 to maxCachedString bytes is boxed once while it stays in
// the string cache, whose slot keeps the box beside it (boxing a string
// allocates). One lookup finds both. One of more than maxBlockString bytes
// skips the table while the table keeps missing (anyRun, a missRun): it
// is then made in the long block, one allocation (its box) where a miss
// made two.
func (ds *decodeState) anyStringValue(tok []byte) any {
	if !fastPaths {
		return ds.stringValue(tok)
	}
	b := tok[1 : len(tok)-1]
	if ds.d.s.str&strEscaped != 0 {
		if len(b) > maxCachedString {
			return ds.newUnquoted(tok) // (unquoting also replaces any bad UTF-8)
		}
		ds.scratch = ds.appendUnquoted(ds.scratch[:0], tok)
		return ds.anyUnquoted(ds.scratch)
	}
	if !internable(len(b)) {
		return ds.stringValue(tok)
	}
	ascii, long := ds.d.s.str&strNonASCII == 0, len(b) > maxBlockString
	if long && ds.anyRun.skipping() {
		// Made in the long block (valueCopy), and boxed on the heap, as
		// a string of its length always is (boxString).
		if s, ok := ds.valueCopy(b, ascii); ok {
			return s
		}
		return ds.stringValue(tok) // (bad UTF-8: U+FFFD)
	}
	slot, h := ds.slot(b)
	if slot.holds(b, h) {
		// For a body as it stands, a cached string equal to it proves it
		// valid UTF-8: cached strings are unquoted values.
		if long {
			ds.anyRun.looked(true)
		}
		return slot.boxed()
	}
	s, ok := ds.newValidString(b, ascii)
	if !ok {
		return ds.stringValue(tok) // U+FFFD for the bad bytes; rare, and not boxed to keep
	}
	if long {
		ds.anyRun.looked(false)
	}
	return ds.keepBoxed(slot, h, s)
}

// anyUnquoted is anyStringValue for a value already unquoted (valid UTF-8)
// into b, which it does not keep.
func (ds *decodeState) anyUnquoted(b []byte) any {
	if !fastPaths || !internable(len(b)) {
		return string(b)
	}
	slot, h := ds.slot(b)
	if slot.holds(b, h) {
		return slot.boxed()
	}
	return ds.keepBoxed(slot, h, ds.newString(b))
}

// boxed returns the slot's string as an any, boxed the first time.
func (c *cachedString) boxed() any {
	if c.box == nil {
		c.box = c.s
	}
	return c.box
}

// keepBoxed makes s, just made (newString), with hash h, the string of
// slot c and returns it boxed in the state's block of boxes (boxString).
// The slot keeps the string without a box: a box in the block, kept by
// the string table, would keep the block and the strings beside it alive
// for as long as the slot holds it. The string's next use boxes it once
// on the heap (boxed).
func (ds *decodeState) keepBoxed(c *cachedString, h uint32, s string) any {
	c.s, c.box, c.h = s, nil, h
	return ds.boxString(s)
}

// anyFloat returns f as an any: a static box for a whole number from 0 to
// 1023 (smallWholeFloats), else a box in the state's block (boxFloat).
// Numbers that repeat were once kept in a table of boxes across calls (as
// strings are); with boxes in blocks the table's look cost more than it
// saved, also where numbers repeat (citm_catalog).
func (ds *decodeState) anyFloat(f float64) any {
	if !fastPaths {
		return f
	}
	b := math.Float64bits(f)
	if i := int(f); uint(i) < uint(len(smallWholeFloats)) && float64(i) == f && b>>63 == 0 {
		return smallWholeFloats[i] // (not -0: its sign bit is set)
	}
	return ds.boxFloat(f)
}

// Numbers decoded into an any as float64s are boxed side by side in
// blocks of floatBoxBlockLen (512 bytes, without pointers, so the
// collector never scans them), as strings are (boxString): boxing a
// float64 allocates 8 bytes (runtime.convT64), about 6% of decoding
// objects of distinct numbers into any. A number kept alone after the rest
// of its value is dropped keeps its block alive, 512 bytes (the tiny
// allocator's boxes keep 16). The boxes are written once and never again.
// The block holds no pointer, so the state keeps it from call to call
// (trim leaves it), as it keeps its block of string bytes: small
// documents and NDJSON lines share a block where each call made one.
const floatBoxBlockLen = 64

// boxFloat returns f as an any, its value in the current block of boxes.
func (ds *decodeState) boxFloat(f float64) any {
	at := ds.floatBoxAt
	if at == len(ds.floatBoxes) {
		// A state's first block is a quarter of the others (a small
		// document may box a few numbers in all).
		ds.floatBoxes, at = make([]float64, max(ds.floatBoxLen, floatBoxBlockLen/4)), 0
		ds.floatBoxLen = floatBoxBlockLen
	}
	p := &ds.floatBoxes[at]
	*p = f
	ds.floatBoxAt = at + 1
	return *(*any)(unsafe.Pointer(&eface{typ: float64TypeWord, data: unsafe.Pointer(p)}))
}

// float64TypeWord is the type word of an any holding a float64.
var float64TypeWord = func() unsafe.Pointer {
	var x any = 0.5
	return (*eface)(unsafe.Pointer(&x)).typ
}()
