package json

import (
	"reflect"
	"unsafe"
)

// anyState is the part of a decodeState that decoding into any keeps
// across calls: guesses about the next object's keys and size, learnt from
// the objects before it in the same place, and the arena that small arrays
// and gathered elements come from. Nothing in it outlives the pool with a
// value a caller holds: anyBuf is cleared after each use, and trim drops
// the block, whose used part holds the call's values.
type anyState struct {
	anyBuf []any // elements of the []any being built, every open level's
	// anyBlock is the block small []any are cut from (see makeAnySlice),
	// its rest from anyBlockAt, and anyBlockLen the length of the next
	// block: a call's first is short. Each block is used from an index,
	// not resliced: cutting from the front of a slice stores its pointer
	// again, a write barrier's work while the collector marks (with its
	// look-up of the old and the new pointer), once per value boxed.
	anyBlock    []any
	anyBlockAt  int
	anyBlockLen int
	// strBoxes is the block strings decoded into an any are boxed in (see
	// boxString), its rest from strBoxAt, kept from call to call.
	strBoxes []string
	strBoxAt int
	// strBoxLen is the length of the next block of boxes: a state's
	// first is short (a small document may box a few strings in all).
	strBoxLen int
	// floatBoxes, floatBoxAt and floatBoxLen are strBoxes, strBoxAt and
	// strBoxLen for the numbers decoded into an any as float64s (see
	// boxFloat).
	floatBoxes  []float64
	floatBoxAt  int
	floatBoxLen int
	// keyGuess holds the key last read at each context and member index
	// (guessSlot; see anyKey), which the next object there usually
	// repeats: expectKey matches it without scanning it.
	keyGuess [256]keyMatch
	// keyStarts holds keys read at each context by their first four
	// bytes (startSlot): where a key missed its place's guess (a member
	// left out, members in another order), the key it is, if the context
	// has had it before, is found there without being scanned.
	keyStarts [256]keyMatch
	// objectHints holds, for each context hashed as keyGuess, the member
	// count (up to maxObjectHint) of the last object there, and in its top
	// bit (hintVaries) whether that count differed from the one before.
	// Where the counts hold, the next map is made at that size and filled
	// as it is read; where they vary (a map keyed by ids or names), a map
	// made at a guess would grow and move its entries on the way, so its
	// members are gathered on members, every open level's in turn as
	// anyBuf does elements, and the map is made at its object's end at its
	// size (popMap).
	objectHints [256]uint8
	members     []anyEntry
}

// maxObjectHint bounds the size a map for an any is made at before its
// members are read, so that one large object cannot make every small one
// after it in the same place allocate as much; hintVaries is the bit of
// an objectHints entry that says the sizes there vary.
const (
	maxObjectHint = 64
	hintVaries    = 0x80
)

// objectStart returns the map to fill for a new object at hint (an entry
// of objectHints): one made at the hint's size, or nil when the sizes
// vary there and the members are to be gathered from base.
func (ds *decodeState) objectStart(hint uint8) (m map[string]any, base int) {
	if hint&hintVaries != 0 {
		return nil, len(ds.members)
	}
	return make(map[string]any, hint), 0
}

// objectEnd returns the map of an object of n members that objectStart
// began (m, or the members gathered from base), and records n at hint.
func (ds *decodeState) objectEnd(hint *uint8, m map[string]any, base, n int) map[string]any {
	size := uint8(min(n, maxObjectHint))
	if m == nil {
		m = ds.popMap(base)
	}
	if size != *hint&^hintVaries {
		size |= hintVaries
	}
	*hint = size
	return m
}

// maxKeptAnyBuf is the most elements of anyBuf a pooled decodeState keeps
// (1 MiB). anyBuf holds every open array's elements at once, so it grows
// to the largest array decoded into any (plus its enclosing arrays' elements
// so far); regrown on every call, a 15k-element array cost 1 MB of garbage
// and 18% of canada.json's bytes per Unmarshal.
const maxKeptAnyBuf = 1 << 16

// trim readies the part for the pool, at the end of a call.
func (as *anyState) trim() {
	if cap(as.anyBuf) > maxKeptAnyBuf {
		as.anyBuf = nil
	}
	if cap(as.members) > maxKeptAnyBuf/2 {
		as.members = nil
	}
	// The small arrays' block holds this call's values, maps and arrays
	// among them: kept, it would keep them alive in the pool. The blocks
	// of boxes stay: the float64s' holds no pointer (as the block of
	// string bytes, which the state keeps too), and the string headers'
	// only strings of up to maxBlockString bytes, at most a block's worth
	// (see boxString). The next call boxes its values in their rest: one
	// allocation for many small documents or NDJSON lines, not one each.
	if as.anyBlock != nil { // (a pointer stored only where one is set)
		as.anyBlock = nil
	}
	as.anyBlockAt, as.anyBlockLen = 0, 0
	if as.strBoxes != nil && as.strBoxAt == len(as.strBoxes) {
		// Full: kept, it would keep all its strings alive until the next
		// string is boxed.
		as.strBoxes, as.strBoxAt = nil, 0
	}
}

// interfaceDecoder decodes into an interface of type t. When it holds a
// non-nil pointer, the value is decoded into what that points to (for null,
// only when that is itself a pointer); otherwise an empty interface gets a
// fresh bool, float64 (or Number), string, []any, map[string]any or nil, and
// a non-empty one takes only null.
func interfaceDecoder(t reflect.Type) decodeFn {
	if t.NumMethod() == 0 {
		return func(ds *decodeState, tok []byte, p unsafe.Pointer) error {
			if x := *(*any)(p); x != nil {
				if e := reflect.ValueOf(x); e.Kind() == reflect.Pointer && !e.IsNil() {
					if done, err := ds.intoHeldPointer(e, t, tok); done {
						return err
					}
				}
			}
			return ds.intoEmptyInterface(tok, p)
		}
	}
	return func(ds *decodeState, tok []byte, p unsafe.Pointer) error {
		iv := reflect.NewAt(t, p).Elem()
		if !iv.IsNil() {
			if e := iv.Elem(); e.Kind() == reflect.Pointer && !e.IsNil() {
				if done, err := ds.intoHeldPointer(e, t, tok); done {
					return err
				}
			}
		}
		return ds.intoInterface(tok, t, p)
	}
}

// intoHeldPointer decodes into the non-nil pointer e held by an interface of
// type t, as encoding/json's indirect does. done is false when the value
// should replace the interface's content instead.
func (ds *decodeState) intoHeldPointer(e reflect.Value, t reflect.Type, tok []byte) (done bool, err error) {
	et := e.Type()
	if tok[0] == 'n' && et.Elem().Kind() != reflect.Pointer {
		return false, nil
	}
	if et.Elem().Kind() == reflect.Interface {
		// An interface holding a pointer to itself: decode into it.
		if inner := e.Elem(); !inner.IsNil() && inner.Elem().Equal(e) {
			return true, ds.intoInterface(tok, et.Elem(), e.UnsafePointer())
		}
	}
	td := cachedDecoder(decodeKey{et, modeTop, t})
	return true, td.fn(ds, tok, e.UnsafePointer())
}

// intoInterface replaces the content of the interface of type t at p.
func (ds *decodeState) intoInterface(tok []byte, t reflect.Type, p unsafe.Pointer) error {
	if t.NumMethod() == 0 {
		return ds.intoEmptyInterface(tok, p)
	}
	switch c := tok[0]; {
	case c == 'n':
		reflect.NewAt(t, p).Elem().SetZero()
	case c == '-' || c-'0' <= 9:
		if !ds.useNumber {
			if _, err := parseFloat64(tok); err != nil {
				ds.typeError("number "+string(tok), float64Type, ds.offset()+1)
				return nil
			}
		}
		ds.typeError("number", t, ds.offset())
	default:
		return ds.mismatch(tok, t)
	}
	return nil
}

// intoEmptyInterface stores a fresh value in the empty interface at p. A
// number that does not fit a float64 leaves it unchanged.
func (ds *decodeState) intoEmptyInterface(tok []byte, p unsafe.Pointer) error {
	if c := tok[0]; c == '-' || c-'0' <= 9 {
		if ds.useNumber {
			*(*any)(p) = Number(ds.newString(tok))
			return nil
		}
		f, err := parseFloat64(tok)
		if err != nil {
			ds.typeError("number "+string(tok), float64Type, ds.offset()+1)
			return nil
		}
		*(*any)(p) = ds.anyFloat(f)
		return nil
	}
	v, err := ds.anyValue(tok, 0)
	if err != nil {
		return err
	}
	*(*any)(p) = v
	return nil
}

// anyValue returns the value that starts with tok as encoding/json builds it
// for an empty interface. A number that does not fit a float64 is nil, with
// the error saved.
func (ds *decodeState) anyValue(tok []byte, ctx uint32) (any, error) {
	switch c := tok[0]; c {
	case '{':
		return ds.anyObject(ctx, nil)
	case '[':
		return ds.anyArray(ctx)
	case '"':
		return ds.anyStringValue(tok), nil
	case 't':
		return true, nil
	case 'f':
		return false, nil
	case 'n':
		return nil, nil
	}
	if ds.useNumber {
		return Number(ds.newString(tok)), nil
	}
	f, err := parseFloat64(tok)
	if err != nil {
		ds.typeError("number "+string(tok), float64Type, ds.offset()+1)
		return nil, nil
	}
	return ds.anyFloat(f), nil
}

// anyObject stores the members of the object whose '{' was just read in m,
// merging them into it, and returns it; when m is nil, in a new map, made
// at the size of the last object in the same context (see anyKey), or,
// where those sizes vary, at the object's end at its size (objectHints).
func (ds *decodeState) anyObject(ctx uint32, m map[string]any) (map[string]any, error) {
	d := ds.d
	var hint *uint8
	base := 0
	switch {
	case m != nil: // members set in it as they are read
	case fastPaths:
		hint = &ds.objectHints[ctx>>24]
		m, base = ds.objectStart(*hint)
	default:
		m = make(map[string]any)
	}
	misses := 0 // keys that met another key's guess; -1 after a hit
	for n := 0; ; n++ {
		key, guess, err := ds.anyKey(ctx, n, misses)
		if err != nil {
			ds.dropGathered(m, base)
			return nil, err
		}
		if guess == noMember {
			if hint != nil {
				m = ds.objectEnd(hint, m, base, n)
			}
			return m, nil
		}
		vctx := keyContext(ctx, key)
		if guess == guessHit {
			misses = -1
		} else if guess == guessMissed && misses >= 0 {
			misses++
		}
		if misses >= 3 {
			vctx = keyContext(ctx, "") ^ varyingKeys // see anyObjectAt
		}
		var v any
		var tok []byte
		var ok bool
		if o := d.s.br.offset; d.s.br.data[o-1] == ':' { // the key's ':' is read too
			if v, ok = ds.anyScalarNext(&atObjectComma); !ok {
				tok, err = d.valueToken(ctxObjectValue)
			}
		} else {
			tok, err = d.NextToken()
		}
		if !ok && err == nil {
			v, err = ds.anyValue(tok, vctx)
		}
		if err != nil {
			ds.dropGathered(m, base)
			return nil, err
		}
		if m == nil {
			ds.members = append(ds.members, anyEntry{key, v})
		} else {
			m[key] = v
		}
	}
}

// popMap makes the map of the members gathered on ds.members from base,
// at their number, and takes them off, clearing them so that members keeps
// nothing alive. A key that came twice is set twice, in order: the last
// one wins, as in encoding/json.
func (ds *decodeState) popMap(base int) map[string]any {
	ms := ds.members[base:]
	m := make(map[string]any, len(ms))
	for _, e := range ms {
		m[e.k] = e.v
	}
	ds.dropMembers(base)
	return m
}

// dropMembers takes the members gathered from base off ds.members, for
// an object that ended or failed, clearing them.
func (ds *decodeState) dropMembers(base int) {
	clear(ds.members[base:])
	ds.members = ds.members[:base]
}

// dropGathered is dropMembers for an object that failed, when its members
// were gathered (m is nil).
func (ds *decodeState) dropGathered(m map[string]any, base int) {
	if m == nil {
		ds.dropMembers(base)
	}
}

// What anyKey found: the object's end, or a key that was its guess, that
// met another key's guess, or that had none.
const (
	noMember = iota
	guessHit
	guessMissed
	noGuess
)

// anyKey reads the key of member n of the object being decoded into any:
// the key the last object in the same context (ctx: the keys and array
// levels above it, hashed) had there, when it is the same again (expectKey,
// which also takes the ':'), else the next key token, which becomes the
// guess when its bytes are its value. misses is anyObject's count of the
// keys in a row that met another key's guess: from 3 the object is taken
// to be keyed by data, whose keys never come again, and its keys are no
// longer made guesses; from stopGuessing they are no longer guessed
// either (anyMembersByData). guess says which (noMember at the object's
// end).
func (ds *decodeState) anyKey(ctx uint32, n, misses int) (key string, guess int, err error) {
	d := ds.d
	first := n == 0
	g := &ds.keyGuess[guessSlot(ctx, n)]
	guess = noGuess
	if fastPaths && g.name != "" && misses < stopGuessing {
		hit, atKey := expectKey(d, first, g)
		if hit {
			return g.name, guessHit, nil
		}
		first = first || atKey // the ',' is read: memberKey starts at the key
		guess = guessMissed
	}
	if !first && d.closeObject() {
		// No ',' where the member would start: the object's end, often
		// after indentation (which memberKey leaves to NextToken).
		return "", noMember, nil
	}
	tok, err := d.memberKey(first)
	if err != nil || tok[0] == '}' {
		return "", noMember, err
	}
	key = ds.stringValue(tok)
	if misses < 3 {
		ds.guessKey(g, key, tok)
	}
	return key, guess, nil
}

// guessKey makes key, just read from tok (it is the last string token),
// the guess in g, when its bytes are its value (no escape; prepareKey
// reads a first byte, so not "").
func (ds *decodeState) guessKey(g *keyMatch, key string, tok []byte) bool {
	if fastPaths && ds.d.s.str&strEscaped == 0 && key != "" {
		g.setToken(key, tok)
		return true
	}
	return false
}

// anyArray returns the []any for the array whose '[' was just read. Elements
// gather on ds.anyBuf, shared by every nesting level, so the result is
// allocated once at its final length.
func (ds *decodeState) anyArray(ctx uint32) (any, error) {
	d := ds.d
	if d.closeArray() {
		return emptyArray, nil // []
	}
	base := len(ds.anyBuf)
	for i := 0; ; i++ {
		// The ',' or ']' right after an element is read here, as NextToken
		// would read it, and a ',' after whitespace; anything else (a ']'
		// after whitespace, an error) is left to NextToken.
		scalar := true
		if i > 0 && !d.arrayComma() {
			if d.closeArray() {
				break
			}
			scalar = d.arrayCommaAfterSpace()
		}
		var tok []byte
		var err error
		if scalar {
			if v, ok := ds.anyScalarNext(&atArrayComma); ok {
				ds.anyBuf = append(ds.anyBuf, v)
				continue
			}
			at := ctxArrayValue
			if i == 0 {
				at = ctxArrayFirst
			}
			tok, err = d.valueToken(at)
		} else {
			tok, err = d.NextToken()
		}
		if err == nil {
			if tok[0] == ']' {
				break
			}
			var v any
			if v, err = ds.anyValue(tok, ctx*31+1); err == nil {
				ds.anyBuf = append(ds.anyBuf, v)
				continue
			}
		}
		ds.dropAnyBuf(base)
		return nil, err
	}
	return ds.popAnySlice(base), nil
}

// popAnySlice returns the elements gathered on anyBuf from base as a new
// []any, and takes them off it. The copy and the clearing are one loop:
// for the small arrays most are, copy and clear each cost a call
// (canada −2.9% instructions per op).
func (ds *decodeState) popAnySlice(base int) []any {
	elems := ds.anyBuf[base:]
	out := ds.makeAnySlice(len(elems))
	for k, e := range elems {
		out[k] = e
		elems[k] = nil
	}
	ds.anyBuf = ds.anyBuf[:base]
	return out
}

// dropAnyBuf takes the elements gathered on anyBuf from base off it, for
// an array that failed, clearing them so that anyBuf keeps nothing alive.
func (ds *decodeState) dropAnyBuf(base int) {
	clear(ds.anyBuf[base:])
	ds.anyBuf = ds.anyBuf[:base]
}

// Small arrays decoded into any share blocks of anyBlockLen elements: one
// allocation for many arrays (canada.json has 56k arrays of two numbers).
// A small slice kept after the rest of the value is dropped keeps its block
// (512 bytes) alive. Larger blocks take a malloc header, and the collector's
// work grew more than the allocations saved (1 KiB blocks: canada +37%
// instructions with the GC on; 512 bytes: -8%).
const (
	anyBlockLen   = 32
	maxBlockedLen = 8
)

// makeAnySlice returns a zeroed []any of length and capacity n (an append
// to it always reallocates, so arrays sharing a block cannot see each
// other): for n up to maxBlockedLen, the next n elements of the current
// block.
func (ds *decodeState) makeAnySlice(n int) []any {
	if !fastPaths || n == 0 || n > maxBlockedLen {
		return make([]any, n) // (n == 0: not nil, as encoding/json's)
	}
	at := ds.anyBlockAt
	if len(ds.anyBlock)-at < n {
		// A call's first block is a quarter of the others (8 elements, as
		// many as one array takes at most): a small document has a few
		// small arrays in all, and a 512-byte block for them was more
		// than half of its bytes allocated (512 of 923).
		ds.anyBlock, at = make([]any, max(ds.anyBlockLen, anyBlockLen/4)), 0
		ds.anyBlockLen = anyBlockLen
	}
	ds.anyBlockAt = at + n
	return ds.anyBlock[at : at+n : at+n]
}

// Strings decoded into any are boxed side by side in blocks of
// strBoxBlockLen string headers (512 bytes, the most without a malloc
// header), one allocation for many: boxing a string allocates its header
// (runtime.convTstring, 13% of decoding distinct documents of 40-byte
// strings into any). The block's entries are written once and never
// again, so the boxes are as immutable as the runtime's own. A string
// kept alone after the rest of its value is dropped keeps its block alive:
// 512 bytes and the strings boxed beside it, which are the strings decoded
// next to it, in its call or the ones before and after it through the same
// pooled state, which keeps its block from call to call (a new block for
// each call cost an allocation per NDJSON line). So the pooled state keeps
// alive, beyond its string table, at most the 31 strings boxed in its
// block before (each of up to maxBlockString bytes, and the blocks their
// bytes are in), until the block is full. Only strings of up to
// maxBlockString bytes are boxed so, so that a short one never keeps a
// long one alive; and only new ones (keepBoxed): those the cache held are
// boxed on the heap, once.
const strBoxBlockLen = 32

// eface is an empty interface's two words; stringTypeWord is the type
// word of an any holding a string.
type eface struct{ typ, data unsafe.Pointer }

var stringTypeWord = func() unsafe.Pointer {
	var x any = ""
	return (*eface)(unsafe.Pointer(&x)).typ
}()

// boxString returns s as an any, its header in the current block of boxes.
func (ds *decodeState) boxString(s string) any {
	if !fastPaths || len(s) > maxBlockString {
		return s
	}
	at := ds.strBoxAt
	if at == len(ds.strBoxes) {
		n := max(ds.strBoxLen, strBoxBlockLen/4) // a state's first block is short
		ds.strBoxes, at = make([]string, n), 0
		ds.strBoxLen = strBoxBlockLen
	}
	p := &ds.strBoxes[at]
	*p = s
	ds.strBoxAt = at + 1
	return *(*any)(unsafe.Pointer(&eface{typ: stringTypeWord, data: unsafe.Pointer(p)}))
}

// emptyArray is the value of every [] decoded into any: an empty slice,
// boxed once (boxing a slice allocates). Its capacity is 0, so no append to
// it can write where another value would see it.
var emptyArray any = []any{}
