package json

import (
	"io"
	"reflect"
	"sync"
	"unsafe"
)

// Unmarshal parses the JSON-encoded data and stores the result in the value
// pointed to by v. If v is nil or not a pointer, Unmarshal returns an
// *InvalidUnmarshalError.
//
// Unmarshal is a drop-in for encoding/json.Unmarshal: the same rules (struct
// tags and case-insensitive field matching with exact matches preferred,
// embedded structs, maps merged, slices reused, Unmarshaler and
// encoding.TextUnmarshaler, RawMessage and Number, null handling, U+FFFD for
// invalid UTF-8 and lone surrogates) and the same errors, with the same
// Offset, Struct and Field values: a *SyntaxError when data is not valid JSON
// (then nothing is assigned), otherwise the first *UnmarshalTypeError met
// while decoding carries on past values that do not fit.
//
// Unmarshal reads data through the token layer without copying it; into an
// *any (or a nil map[string]any or []any) it first tries one recursive pass
// straight over data, which gives up on any input it cannot decode whole
// (the token layer then reads it again, so errors are the same). Per Go
// type a decoder is built once and cached; struct keys are matched on their
// raw bytes, numbers are parsed from the token bytes, and a string value
// costs at most one allocation.
//
// UnmarshalJSON and UnmarshalText methods are called as encoding/json calls
// them: none when data is not valid JSON, each once for each value, in the
// input's order. Where a record is read in one pass, they are called after
// all of data has been read; when one fails, data is decoded again to
// return encoding/json's error, and the methods before it, and it, are
// then called a second time.
func Unmarshal(data []byte, v any) error {
	ds := getState()
	err := ds.unmarshal(data, v)
	putState(ds)
	return err
}

// unmarshal is Unmarshal on ds, which the caller gives back.
func (ds *decodeState) unmarshal(data []byte, v any) error {
	ds.bd.resetBytes(data)
	if ds.d != &ds.bd { // (see endCall)
		ds.d = &ds.bd
	}
	ds.base = 0
	ds.useNumber, ds.disallowUnknown = false, false
	err := ds.unmarshalBytes(data, v)
	ds.bd.dropInput()
	return err
}

// Decode reads the next JSON-encoded value from its input and stores it in
// the value pointed to by v, with the rules and errors of Unmarshal. As with
// encoding/json, a syntax or read error leaves v as it was, a type error
// leaves the stream usable (the value has been read whole), and Decode may
// be mixed with Token and More. At the end of the input it returns io.EOF.
func (d *Decoder) Decode(v any) error {
	if d.err != nil {
		return d.err
	}
	base, err := d.prepareForDecode()
	if err != nil {
		return err
	}
	d.resumeAfterTopValue()
	if br := &d.s.br; br.offset == len(br.data) && d.depth == 0 {
		d.holdInput() // (out of line: most calls have input in the window)
	}
	c, ok := d.skipSpace()
	if !ok && d.cleanEnd() {
		// encoding/json's Decode reports a stream that ends before a value
		// as io.EOF, even inside an array or object.
		return io.EOF
	}
	at := d.InputOffset() // where c is
	if c == ',' || c == ':' {
		// Past the separator prepareForDecode checked; a misplaced one is
		// left for NextToken to report.
		if ctx := d.decodeContext(); ctx == ctxArrayComma || ctx == ctxObjectColon {
			var i int
			if c, i = d.peek(); c == 0 && d.cleanEnd() {
				return io.EOF
			}
			at = d.InputOffset() + int64(i)
		}
	}
	if c == ']' || c == '}' {
		// encoding/json's Decode reads a value here: the closing delimiter
		// is an error, and its inner scanner's byte count the Offset.
		return d.setErr(&SyntaxError{msg: invalidChar(c, "looking for beginning of value"),
			Offset: d.tokScanned + at - base + 1})
	}
	ds := d.ds
	if ds == nil {
		ds = getState()
	}
	d.ds = nil
	ds.d = d
	ds.useNumber, ds.disallowUnknown = d.useNumber, d.disallowUnknownFields
	err = ds.decodeStream(v, base)
	if err == nil && d.keepState() {
		ds.endCall()
		d.ds = ds
	} else {
		putState(ds)
	}
	if err == nil {
		d.recycleWindow()
	}
	if se, ok := err.(*SyntaxError); ok && d.tokScanned != base {
		// After Token, encoding/json's Decode counts only the bytes its
		// own scanner has seen (what Token returned as values, and what
		// Decode read), not delimiters and separators.
		se.Offset += d.tokScanned - base
	}
	d.tokScanned += d.InputOffset() - base
	return err
}

// decodeState is what Unmarshal and Decode decode with: the per-type
// decoders' only argument. It is pooled (getState, putState), and made of
// parts named for how long what they hold lives:
//
//   - call: one Unmarshal or Decode call's settings and progress, cleared
//     when the call ends;
//   - buffers: scratch buffers reused by every call, trimmed when one grew large;
//   - intern (intern.go), anyState (decode_any.go): tables and guesses kept
//     across calls, which only ever hold values already handed out;
//   - snap (snapshot.go): what undoes a speculative decode, within a call;
//   - the two Decoders and the last type's decoder, reused across calls.
type decodeState struct {
	call
	buffers
	intern
	anyState
	snap snapshots

	lastType    reflect.Type // the last argument type, and its decoder
	lastDecoder *typeDecoder
	// lastWord is lastType's type word (an interface's first word) when
	// Unmarshal and Decode may decode into it at once (keepType), else nil;
	// lastSize is the size of what it points to.
	lastWord unsafe.Pointer
	lastSize uintptr
	// lastPass is lastDecoder's struct decoder when the typed one pass
	// takes its values (passable), or that of its elements, lastSlice,
	// when it is a slice decoder whose elements are such structs; else
	// nil: set with lastWord.
	lastPass  *structDecoder
	lastSlice *sliceInfo
	// lastHooks: lastType's decoder may run user code, which the pass
	// defers and only it may run at once (lastPass): never speculated.
	lastHooks bool

	bd  Decoder // the decoder for Unmarshal's bytes
	sub Decoder // re-reads a value captured by Decode

	// skipper passes over values nobody decodes (skipNext). Its bit stack
	// is written before it is read, so it is never cleared.
	skipper validator

	// seen holds keys that struct decoders read where the field they
	// expected was not, and looked up, each where the next object of its
	// type likely has it again (seenSlot): a producer writes members in
	// its own order, leaves some out, or adds ones a program's struct
	// lacks, and matching such a key as the expected field's is matched
	// saves reading it and looking it up. Made at the first such key: a
	// state that never meets one holds no table.
	seen *seenTable
	// resumeAt is the place a struct decoder given resumeToken goes on
	// from.
	resumeAt int
}

// call is the part of a decodeState that one Unmarshal or Decode call sets
// up; putState clears it.
type call struct {
	d    *Decoder // the token source
	base int64    // absolute offset where this value's input starts

	useNumber       bool
	disallowUnknown bool

	saved error // the first non-fatal error, with its context

	// stack holds the struct fields being decoded, innermost last: the
	// error context (UnmarshalTypeError's Struct and Field). Its array is
	// kept across calls.
	stack      []*fieldDecoder
	ctxApplied bool // a fatal error already got its context

	// hooksFailed: a method the pass deferred failed (streamPass): the
	// token path decodes the value, not the pass again.
	hooksFailed bool
}

// buffers is the part of a decodeState that holds scratch buffers every call
// reuses and no value keeps: putState drops those that one call grew large.
type buffers struct {
	scratch []byte // unescaped keys and strings
	// hookCalls holds the methods the typed one pass defers (hookAt),
	// in the input's order; empty between calls.
	hookCalls []hookCall
	fold      []byte // folded keys

	// scratchSlices holds, per slice decoder, free scratch buffers that
	// new slices are gathered in before their one allocation.
	scratchSlices []scratchStack

	// mapKeys is where the keys of new maps with string keys and other
	// values gather, every open level's in turn (mapGathered); it
	// holds no key between calls.
	mapKeys []string
	// mapIntKeys is mapKeys for maps with integer keys, parsed
	// (mapAt, mapGathered).
	mapIntKeys []uint64

	// mapMembers is where a new map[string]V of a scalar V gathers its
	// members before it is made at their number (mapStringScalar): a
	// *[]keyed[V], for the last V read into such a map.
	mapMembers any
}

var statePool = sync.Pool{New: func() any {
	ds := new(decodeState)
	ds.bd.maxDepth = defaultMaxDepth
	ds.sub.maxDepth = defaultMaxDepth
	return ds
}}

func getState() *decodeState { return statePool.Get().(*decodeState) }

func putState(ds *decodeState) {
	ds.endCall()
	statePool.Put(ds)
}

// endCall readies ds for its next call: it drops the call's settings and
// the scratch buffers the call grew large.
//
// It stores a pointer only where one is set: while the collector marks,
// each store of a pointer goes through a write barrier, and the
// collector then looks up the old and the new pointer (the runtime's
// wbBufFlush1, findObject). A state that stores its fields again on every
// call, as a struct literal did here, was most of what made Unmarshal of
// a small record with three slices cost a fifth more instructions than
// goccy's (7,460 to 6,200; callgrind, GOGC=100, Intel Xeon). TestEndCallClears checks that no field of
// call is left set but d at the state's own decoder.
func (ds *decodeState) endCall() {
	c := &ds.call
	if c.d != nil && c.d != &ds.bd { // (its own decoder holds nothing of the caller's)
		c.d = nil
	}
	if c.saved != nil {
		c.saved = nil
	}
	if len(c.stack) != 0 {
		c.stack = c.stack[:0]
	}
	c.base, c.useNumber, c.disallowUnknown, c.ctxApplied, c.hooksFailed = 0, false, false, false, false
	if cap(ds.mapKeys) > 1<<12 {
		ds.mapKeys = nil
	}
	if cap(ds.mapIntKeys) > 1<<12 {
		ds.mapIntKeys = nil
	}
	if cap(ds.scratch) > 64<<10 {
		ds.scratch = nil
	}
	ds.dropHooks()
	if cap(ds.hookCalls) > maxKeptHooks {
		ds.hookCalls = nil
	}
	ds.anyState.trim()
	ds.snap.trim()
}

// keepState reports whether Decode keeps its state for the next call
// (d.ds): when a value follows in the window already, as in a stream of
// many values, the next call starts at once, and the state's trip back to
// its pool and out again (8% of Decode's profile on NDJSON lines of 46
// bytes) is saved. Otherwise the state goes back: a Decoder that waits
// for input, or is dropped after its last value, holds none; Reset gives
// it back too. (One dropped with values left unread in its window takes
// its state with it, as it takes its window; the pool makes another.)
func (d *Decoder) keepState() bool {
	if !fastPaths {
		return false
	}
	br := &d.s.br
	return skipWhitespace(br.data, br.offset) < len(br.data)
}

// unmarshalBytes is Unmarshal on ds.bd, which reads data.
func (ds *decodeState) unmarshalBytes(data []byte, v any) error {
	// The type of the last call again, a pointer whose decoder runs no user
	// code and which is no target of the one pass, into a zero value (a
	// fresh one, as a service decodes each request): the speculative pass
	// at once, without reflect's checks, the type switch of onePass and
	// the snapshot's case analysis, all done for this type already.
	if e := (*eface)(unsafe.Pointer(&v)); e.typ == ds.lastWord && e.typ != nil && e.data != nil &&
		allZero(e.data, ds.lastSize) {
		if ds.lastPass != nil && ds.bytesPass(data, e.data) {
			return nil
		}
		if !ds.lastHooks {
			return ds.speculate(ds.lastDecoder, e.data, snapZero)
		}
		// (User code: validated first, below.)
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		// A syntax error still takes precedence, as in encoding/json.
		if err := ds.checkSyntax(data); err != nil {
			return err
		}
		return &InvalidUnmarshalError{Type: reflect.TypeOf(v)}
	}
	if ds.onePass(data, v) {
		return nil
	}
	td := ds.topDecoder(rv.Type())
	p := rv.UnsafePointer()
	snap := snapNone // without the fast paths: validate or capture first
	if fastPaths {
		ds.keepType(td, v, rv)
		snap = ds.snap.take(td, rv.Elem(), p)
	}
	if snap != snapNone {
		return ds.speculate(td, p, snap)
	}
	// Validate first, then decode.
	if err := ds.checkSyntax(data); err != nil {
		return err
	}
	ds.bd.resetBytes(data)
	if err := ds.value(td, p); err != nil {
		return err
	}
	return ds.saved
}

// bytesPass is the typed one pass over data, all of one value, into the
// zero value at p of ds.lastType, whose decoder the pass takes (lastPass),
// with the methods it deferred run after it. When it gives up, or a
// method fails (the token path words its error), the target is zero
// again and ds.d, whose window is data, reads it from the start.
func (ds *decodeState) bytesPass(data []byte, p unsafe.Pointer) bool {
	if ds.lastSlice == nil && ds.structPass(ds.lastPass, data, p) ||
		ds.lastSlice != nil && ds.slicePass(ds.lastSlice, data, p) {
		if len(ds.hookCalls) == 0 || ds.runHooks(data) {
			return true
		}
		reflect.NewAt(ds.lastType.Elem(), p).Elem().SetZero()
		ds.d.resetBytes(data)
	}
	return false
}

// speculate decodes into p (what a ds.lastType points to) with td, as one
// speculative pass: decoding runs no user code and can write only into the
// target itself (it is zero, or of a type without pointers but strings),
// so on a syntax error the target can be put back as it was (snap says
// how), which is all that encoding/json's validate-first order lets
// anyone see.
func (ds *decodeState) speculate(td *typeDecoder, p unsafe.Pointer, snap int) error {
	err := ds.value(td, p)
	if err == nil {
		err = ds.bd.unmarshalEnd()
	} else if !isInputError(err) {
		// A fatal decoding error: a syntax error later in the input
		// would still win.
		if serr := ds.drain(); serr != nil {
			err = serr
		} else if serr := ds.bd.unmarshalEnd(); serr != nil {
			err = serr
		}
	}
	if err != nil {
		if isInputError(err) {
			ds.snap.restore(snap, reflect.NewAt(ds.lastType.Elem(), p).Elem(), p)
			return ds.bd.unmarshalError(err)
		}
		ds.snap.drop(snap)
		return err
	}
	ds.snap.drop(snap)
	return ds.saved
}

// checkSyntax returns the syntax error of data, which ds.bd reads, as
// encoding/json's Unmarshal reports it before it decodes anything, or nil.
// Valid gives the verdict, at about half the cost of the token path
// (callgrind); checkOne, which words the error, runs only when it says no,
// and its verdict is the same (FuzzValid).
func (ds *decodeState) checkSyntax(data []byte) error {
	if !fastPaths {
		return ds.bd.checkOne()
	}
	if Valid(data) {
		return nil
	}
	return ds.bd.checkOne()
}

// decodeStream is Decode; base is where this value's input starts.
func (ds *decodeState) decodeStream(v any, base int64) error {
	d := ds.d
	ds.base = base
	// The last call's type again into a zero value, as in unmarshalBytes:
	// a stream of records decoded each into a fresh one.
	if e := (*eface)(unsafe.Pointer(&v)); e.typ == ds.lastWord && e.typ != nil && e.data != nil &&
		allZero(e.data, ds.lastSize) {
		if sd := ds.lastPass; sd != nil && ds.streamPass(sd, ds.lastSlice, e.data) {
			return nil
		}
		if !ds.lastHooks {
			return ds.speculateStream(ds.lastDecoder, e.data, snapZero)
		}
		// (User code: the value captured first, below.)
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		if err := d.SkipValue(); err != nil {
			return err
		}
		return &InvalidUnmarshalError{Type: reflect.TypeOf(v)}
	}
	if ds.streamOnePass(v) {
		return nil
	}
	td := ds.topDecoder(rv.Type())
	p := rv.UnsafePointer()
	snap := snapNone // without the fast paths: validate or capture first
	if fastPaths {
		ds.keepType(td, v, rv)
		snap = ds.snap.take(td, rv.Elem(), p)
	}
	if snap != snapNone {
		return ds.speculateStream(td, p, snap)
	}
	// Capture the value whole, then decode it from the window.
	raw, err := ds.captureValue()
	if err != nil {
		return err
	}
	rawStart := d.InputOffset() - int64(len(raw))
	ds.sub.resetBytes(raw)
	ds.d = &ds.sub
	ds.base = base - rawStart
	// A type whose methods the typed one pass defers (lastHooks), into a
	// zero value: the pass over the value captured, as Unmarshal's. (It
	// is captured first, as a value the window does not hold whole: the
	// pass calls the methods only once it has read all of it.)
	if e := (*eface)(unsafe.Pointer(&v)); fastPaths && ds.lastPass != nil && !ds.hooksFailed && e.typ == ds.lastWord &&
		!ds.disallowUnknown && d.maxDepth > maxOnePassDepth && allZero(e.data, ds.lastSize) &&
		ds.bytesPass(raw, e.data) {
		ds.sub.dropInput()
		return ds.saved
	}
	err = ds.value(td, p)
	ds.sub.dropInput()
	if err != nil {
		return err
	}
	return ds.saved
}

// speculateStream is speculate for Decode: one speculative pass into p
// (what a ds.lastType points to) with td, the target put back as it was
// (snap) on a syntax or read error.
func (ds *decodeState) speculateStream(td *typeDecoder, p unsafe.Pointer, snap int) error {
	depth := ds.d.Depth()
	err := ds.value(td, p)
	if err != nil && !isInputError(err) {
		if serr := ds.drainTo(depth); serr != nil {
			err = serr
		}
	}
	if err != nil && isInputError(err) {
		ds.snap.restore(snap, reflect.NewAt(ds.lastType.Elem(), p).Elem(), p)
		return err
	}
	ds.snap.drop(snap)
	if err != nil {
		return err
	}
	return ds.saved
}

// keepType makes td's type, of v (rv), the one unmarshalBytes and
// decodeStream decode into at once, without reflect, when it is no target
// of the one pass into any, and its decoder runs no user code or the typed
// one pass takes it (which defers the user code: lastHooks).
func (ds *decodeState) keepType(td *typeDecoder, v any, rv reflect.Value) {
	if anyTargetType(v) {
		return
	}
	var pass *structDecoder
	var slice *sliceInfo
	if td.sd != nil && td.sd.passable() {
		pass = td.sd
	} else if sl := td.slice; sl != nil && sl.small > 0 && sl.elem.sd != nil && sl.elem.sd.passable() {
		pass, slice = sl.elem.sd, sl
	}
	if td.hooks && pass == nil {
		return // user code, and no pass to defer it: validated first, each time
	}
	ds.lastWord, ds.lastSize = (*eface)(unsafe.Pointer(&v)).typ, rv.Type().Elem().Size()
	ds.lastPass, ds.lastSlice, ds.lastHooks = pass, slice, td.hooks
}

// topDecoder is the package's topDecoder with a one-entry cache: a pooled
// state usually serves the same goroutine, decoding the same type again.
func (ds *decodeState) topDecoder(pt reflect.Type) *typeDecoder {
	if fastPaths && pt == ds.lastType {
		return ds.lastDecoder
	}
	td := topDecoder(pt)
	ds.lastType, ds.lastDecoder, ds.lastWord = pt, td, nil
	return td
}

// value decodes the next value of the stream with td into p. A struct
// from Unmarshal's own decoder has its '{' read by openObject, as a slice's
// elements do, not by NextToken's state for a top-level value.
func (ds *decodeState) value(td *typeDecoder, p unsafe.Pointer) error {
	var tok []byte
	if td.sd != nil && ds.d == &ds.bd { // (value is only ever called at the top)
		tok = ds.bd.openObject(true)
	}
	if tok == nil {
		var err error
		if tok, err = ds.d.NextToken(); err != nil {
			return err
		}
	}
	var err error
	if sd := td.sd; sd != nil {
		err = sd.decode(ds, tok, p)
	} else {
		err = td.fn(ds, tok, p)
	}
	if err != nil {
		return ds.fatal(err)
	}
	return nil
}

// drain reads the rest of the current top-level value after a fatal error,
// returning the input's first error if any.
func (ds *decodeState) drain() error { return ds.drainTo(0) }

func (ds *decodeState) drainTo(depth int) error {
	for ds.d.Depth() > depth {
		if _, err := ds.d.NextToken(); err != nil {
			return err
		}
	}
	return nil
}

// skip skips the value that starts with tok.
func (ds *decodeState) skip(tok []byte) error {
	if tok[0] == '{' || tok[0] == '[' {
		return ds.skipRest()
	}
	return nil
}

// skipRest skips the rest of the array or object whose opening token was
// the last one read.
func (ds *decodeState) skipRest() error {
	return ds.drainTo(ds.d.Depth() - 1)
}

// rawValue returns the whole input of the value that starts with tok, which
// was the last token read: tok itself for a scalar. The result is valid until
// the next token is read.
func (ds *decodeState) rawValue(tok []byte) ([]byte, error) {
	if tok[0] != '{' && tok[0] != '[' {
		return tok, nil
	}
	br := &ds.d.s.br
	br.pinAt(br.offset - 1) // the '{' or '[' just read
	err := ds.skipRest()
	raw := br.unpin()
	if err != nil {
		return nil, err
	}
	return raw, nil
}
