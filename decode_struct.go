package json

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	"github.com/jsonpipe/json/internal/number"
)

// fieldDecoder decodes one JSON-visible field of a struct.
type fieldDecoder struct {
	keyMatch        // name (the JSON name, matched exactly first) and its spellings
	folded   string // name folded for the case-insensitive match

	// The field is at p+offset, after following embed (embedded pointers,
	// allocated when nil) from the struct.
	embed  []embedStep
	offset uintptr

	index  int // in structDecoder.fields
	fast   fastKind
	direct direct // for scalarNext after expectKey, from fast; none when embedded
	// intBits is, for a field narrowAt reads (below) of an integer kind,
	// its size in bits, and intSigned whether it is signed: structAt
	// reads it in line, not by a call to narrowAt's function; 0 for any
	// other field. (Here, in padding: fieldDecoder stays 240 bytes, which
	// structAt indexes with one multiply; at 264, a shift and an add
	// took a register, and its loop 4% more instructions.)
	intBits   uint8
	intSigned bool
	// narrow: for a number kind scalarNext does not read (an int32, a
	// uint64, a float32: narrowAt's), not embedded, read at the window
	// by narrowNext; nil otherwise.
	narrow func(ds *decodeState, data []byte, i int, p unsafe.Pointer, depth int) int
	dec    *typeDecoder
	quoted bool // ",string"
	// quotedFast is, for a ",string" field that is not embedded, the fast
	// kind of its type when that is a 64-bit integer, a float64 or a bool:
	// the typed one pass reads those inside their strings (structAt).
	quotedFast fastKind
	// quotedNarrow is, for such a field of a narrowKind type (an int32, a
	// uint64, a float32...), how quotedAt stores a string's body into it
	// (narrowQuoted); nil otherwise.
	quotedNarrow func(body []byte, fp unsafe.Pointer) bool
	// readOnly: a tagged, unexported embedded struct, decoded by its
	// modeRO decoder.
	readOnly bool
	typ      reflect.Type // the field's type

	owner   reflect.Type // the struct type, for UnmarshalTypeError.Struct
	errPath []string     // for a promoted field: embedded struct names then name
}

// fastKind marks a field whose decoder is the plain one for its kind, which
// the struct decoder runs inline for a value of that kind.
type fastKind uint8

const (
	fastNone fastKind = iota
	fastString
	fastBool
	fastInt64
	fastFloat64
	// fastNumber: a Number, which only scalarNext takes inline; given as
	// a token, its decoder (decodeNumber) does the work.
	fastNumber
)

// fastKindOf returns the inline fast path for a field of type t, if any: a
// bool, string, Number, 64-bit integer or float64 with no methods that
// decoding would call. Without the fast paths, none: the field's decoder
// does it.
func fastKindOf(t reflect.Type) fastKind {
	if !fastPaths {
		return fastNone
	}
	if canonical(decodeKey{t, modeLoc, nil}).mode != modeKind {
		return fastNone
	}
	switch t.Kind() {
	case reflect.String:
		if t == numberType {
			return fastNumber
		}
		return fastString
	case reflect.Bool:
		return fastBool
	case reflect.Int, reflect.Int64:
		if t.Size() == 8 {
			return fastInt64
		}
	case reflect.Float64:
		return fastFloat64
	}
	return fastNone
}

// narrowKind reports whether narrowNext reads a field of type t: a number
// kind that fastKindOf does not take (narrowAt's), with no methods that
// decoding would call. Without the fast paths, none.
func narrowKind(t reflect.Type) bool {
	if !fastPaths || canonical(decodeKey{t, modeLoc, nil}).mode != modeKind {
		return false
	}
	switch t.Kind() {
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32:
		return fastKindOf(t) == fastNone
	}
	return false
}

// embedStep follows an embedded pointer field at offset.
type embedStep struct {
	offset   uintptr
	elem     reflect.Type
	exported bool // an unexported embedded pointer cannot be allocated
}

type structDecoder struct {
	t      reflect.Type
	fields []fieldDecoder
	// Open-addressing tables of field index+1 (0 is empty), hashed with
	// nameHash: by exact name, and by folded name (the first field in index
	// order wins a folded name, as in encoding/json).
	exact, folded []uint16
	mask          uint32
	// foldUnique: no two fields fold to the same name, so the field a key
	// folds to is also the one it matches exactly, if any: one lookup.
	foldUnique bool
	// slot spreads the types' slots in decodeState.seen (seenSlot), and
	// is where the type's trust in them is kept (seenTable.trust).
	slot uint8
	// words holds the fields whose names a plain key (plainKey) can be,
	// by the two words of their key tokens (findWords): an open-addressing
	// table, hashed with wordHash, whose slot is the hash's top bits
	// (wordShift is 64 less their number).
	words     []wordField
	wordShift uint8
	// starts finds a member's field before its key is read: from the
	// hash of the member's first bytes (keyStart), the one field whose
	// `"name":` can begin with them, as index+1 (0 for none: no field's
	// does, or two fields' do), which the compare of the member with that
	// field's keyMatch, as expectKey's, then confirms or not (fieldAt).
	// startMask keeps the bytes every such field's `"name":` has, at most
	// 8; startMul and startShift are the hash's multiplier and shift,
	// picked when the table is built for the fewest fields left out.
	starts     []uint16
	startMask  uint64
	startMul   uint64
	startShift uint8

	// order is this type's decoder with its fields in the order in which
	// its objects' members come, where that is not the struct's (sorted
	// keys, as a jsonb column or sort_keys=True writes them): the same
	// fields, in another order (buildOrder). keyMissed switches an object
	// to it when a remembered key is matched, and the rest of the object
	// is guessed right by decode's loop, not a key at a time by keyMissed.
	// nil until built, from a decodeState's remembered keys once they have
	// been trusted long enough (orderFor); orderTries counts the builds
	// tried. In an order decoder, orderPos holds the place of each field
	// of the struct's decoder (by its index there); it builds no order.
	order      atomic.Pointer[structDecoder]
	orderTries atomic.Int32
	orderPos   []int

	// pass is passUnknown, or whether the typed one pass takes the
	// struct's values (passable, decode_struct_bytes.go).
	pass atomic.Uint32
}

// wordField is a field in structDecoder.words: the words of its key token
// `"name"`, its bytes past the closing quote zero (w0 is never 0: its first
// byte is the quote), and its index in fields.
type wordField struct {
	w0, w1 uint64
	index  int
}

func (b *builder) buildStruct(td *typeDecoder, t reflect.Type) {
	sfs := typeFields(t)
	sd := &structDecoder{t: t, fields: make([]fieldDecoder, 0, len(sfs)),
		slot: uint8(structSlots.Add(hashMul1) >> 26)}
	td.deps = make([]*typeDecoder, 0, len(sfs))
	for _, sf := range sfs {
		f := fieldDecoder{keyMatch: keyMatch{name: sf.name}, quoted: sf.quoted, owner: t, index: len(sd.fields)}
		f.folded = string(appendFolded(nil, []byte(sf.name)))
		// Walk the index path: offsets add up until an embedded pointer.
		st := t
		var off uintptr
		ro := false
		for i, x := range sf.index {
			if st.Kind() == reflect.Pointer {
				st = st.Elem()
			}
			fld := st.Field(x)
			off += fld.Offset
			if i < len(sf.index)-1 {
				f.errPath = append(f.errPath, fld.Name)
				if fld.Type.Kind() == reflect.Pointer {
					f.embed = append(f.embed, embedStep{offset: off, elem: fld.Type.Elem(), exported: fld.IsExported()})
					off = 0
				}
			} else {
				f.typ = fld.Type
				ro = !fld.IsExported() // a tagged, unexported embedded struct
			}
			st = fld.Type
		}
		f.offset = off
		f.readOnly = ro
		if f.errPath != nil {
			f.errPath = append(f.errPath, sf.name)
		}
		if ro {
			f.dec = b.dep(td, decodeKey{f.typ, modeRO, nil})
		} else {
			f.dec = b.dep(td, decodeKey{f.typ, modeLoc, nil})
			if f.quoted {
				if k := fastKindOf(f.typ); f.embed == nil && (k == fastInt64 || k == fastFloat64 || k == fastBool) {
					f.quotedFast = k
				} else if f.embed == nil && narrowKind(f.typ) {
					f.quotedNarrow = narrowQuoted(f.typ)
				}
			} else {
				f.fast = fastKindOf(f.typ)
				if f.embed == nil && f.fast == fastNone && narrowKind(f.typ) {
					f.narrow = narrowAt(f.typ)
					switch f.typ.Kind() {
					case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int, reflect.Int64:
						f.intBits, f.intSigned = uint8(f.typ.Bits()), true
					case reflect.Float32:
					default:
						f.intBits = uint8(f.typ.Bits())
					}
				}
				if f.embed == nil { // scalarNext writes at the struct's p+offset
					switch f.fast {
					case fastInt64:
						f.direct = directInt64
					case fastFloat64:
						f.direct = directFloat64
					case fastString:
						f.direct = directString
					case fastBool:
						f.direct = directBool
					case fastNumber:
						f.direct = directNumber
					default:
						f.direct = directPointerOf(f.typ)
					}
				}
			}
		}
		sd.fields = append(sd.fields, f)
	}
	size := 4
	for size < 2*len(sd.fields) {
		size *= 2
	}
	sd.mask = uint32(size - 1)
	sd.exact = make([]uint16, size)
	sd.folded = make([]uint16, size)
	sd.foldUnique = true
	for i := range sd.fields {
		f := &sd.fields[i]
		sd.insert(sd.exact, f.name, i)
		if sd.find(sd.folded, []byte(f.folded), true) != nil {
			sd.foldUnique = false
		}
		if sd.find(sd.folded, []byte(f.folded), true) == nil {
			h := foldHash([]byte(f.folded)) & sd.mask
			for sd.folded[h] != 0 {
				h = (h + 1) & sd.mask
			}
			sd.folded[h] = uint16(i + 1)
		}
	}
	for i := range sd.fields {
		sd.fields[i].prepareKey(sd.foldUnique)
	}
	sd.buildWords()
	sd.buildStarts()
	td.fn = sd.decode
	td.sd = sd
}

func (sd *structDecoder) decode(ds *decodeState, tok []byte, p unsafe.Pointer) error {
	next := 0 // fields usually come in order: try the one after the last match first (below 0: none, keyMissed)
	if tok[0] != '{' {
		if &tok[0] != &resumeToken[0] {
			return ds.mismatch(tok, sd.t)
		}
		// The rest of an object, its ',' read (resume): the loop starts
		// at a key, as at an object's first.
		next = ds.resumeAt
	}
	d := ds.d
	unknown := unknownCount{at: -1}
	for first := true; ; first = false {
		var f *fieldDecoder
		hit := false
		if uint(next) < uint(len(sd.fields)) {
			var atKey bool
			if hit, atKey = expectKey(d, first, &sd.fields[next].keyMatch); atKey {
				first = true // the ',' is read: memberKey starts at the key
			}
		}
		if hit {
			f = &sd.fields[next]
			next++
			if f.direct != directNone {
				if ds.scalarNext(f.direct, false, &atObjectComma, unsafe.Add(p, f.offset)) {
					continue
				}
			} else if f.narrow != nil && ds.narrowNext(f.narrow, unsafe.Add(p, f.offset)) {
				continue
			}
		} else {
			if next == len(sd.fields) && !first {
				if d.closeObject() {
					return nil
				}
			} else if next > len(sd.fields) && !first {
				// No guesses for the rest of this object: a loop of its
				// own reads the members it can.
				if end, err := sd.membersUnguessed(ds, p); end || err != nil {
					return err
				}
			}
			var end bool
			var err error
			var o *structDecoder
			if f, o, end, err = sd.keyMissed(ds, first, &next, &unknown); err != nil {
				return err
			} else if end {
				return nil
			}
			if o != nil {
				// The members come in the order o was built for: the rest
				// of the object is decoded by o, which guesses in that
				// order (next is the place after f's there).
				return o.resume(ds, p, f, next)
			}
			if f == nil {
				if ds.skipNext(&atObjectComma) {
					continue
				}
			} else if f.direct != directNone && d.state == &atObjectValue &&
				ds.scalarNext(f.direct, false, &atObjectComma, unsafe.Add(p, f.offset)) {
				// A key out of order (a member before it absent, or
				// unknown), found by lookup: its value as after a hit.
				// memberKey read the ':' (else the state says one comes).
				continue
			} else if f.narrow != nil && d.state == &atObjectValue && ds.narrowNext(f.narrow, unsafe.Add(p, f.offset)) {
				continue
			}
		}
		vtok, err := d.NextToken()
		if err != nil {
			return err
		}
		if f == nil {
			if err := ds.skip(vtok); err != nil {
				return err
			}
			continue
		}
		fp := p
		if f.embed != nil {
			if fp = ds.followEmbedded(f, fp); fp == nil {
				if err := ds.skip(vtok); err != nil {
					return err
				}
				continue
			}
		}
		fp = unsafe.Add(fp, f.offset)
		// Inline fast paths for plain scalar fields given a value of their
		// kind; anything else (null, a mismatch) goes to the decoder.
		switch f.fast {
		case fastString:
			if vtok[0] == '"' {
				*(*string)(fp) = ds.valueString(vtok)
				continue
			}
		case fastBool:
			if vtok[0] == 't' {
				*(*bool)(fp) = true
				continue
			}
			if vtok[0] == 'f' {
				*(*bool)(fp) = false
				continue
			}
		case fastInt64:
			if c := vtok[0]; c == '-' || c-'0' <= 9 {
				if n, err := number.ParseInt(vtok); err == nil {
					*(*int64)(fp) = n
					continue
				}
			}
		case fastFloat64:
			if c := vtok[0]; c == '-' || c-'0' <= 9 {
				if x, err := parseFloat64(vtok); err == nil {
					*(*float64)(fp) = x
					continue
				}
			}
		}
		// (fieldValue, written out: a call more for every member that
		// is a struct, a slice or a map cost rec-depth3 1.4% more
		// instructions.)
		ds.stack = append(ds.stack, f)
		if f.quoted {
			err = ds.decodeQuoted(f, vtok, fp)
		} else if sd := f.dec.sd; sd != nil {
			err = sd.decode(ds, vtok, fp)
		} else {
			err = f.dec.fn(ds, vtok, fp)
		}
		if err != nil {
			return ds.fatal(err)
		}
		ds.stack = ds.stack[:len(ds.stack)-1]
	}
}

// fieldValue decodes vtok, a member's value, by f's decoder into fp, the
// field's place, as decode's loop does after its fast paths.
func (ds *decodeState) fieldValue(f *fieldDecoder, vtok []byte, fp unsafe.Pointer) error {
	ds.stack = append(ds.stack, f)
	var err error
	if f.quoted {
		err = ds.decodeQuoted(f, vtok, fp)
	} else {
		err = f.dec.fn(ds, vtok, fp)
	}
	if err != nil {
		return ds.fatal(err)
	}
	ds.stack = ds.stack[:len(ds.stack)-1]
	return nil
}

// resumeToken, given to a struct decoder for the token, makes it decode
// the rest of an object, its first members read, from the place
// ds.resumeAt (resume). So decode's loop keeps one decoder throughout
// (switching decoders in the loop cost rec-keyshuffle 1.4% more package
// instructions, records in the struct's order 0.2-0.3%), and no object
// pays a call more (a loop of its own, entered from decode, cost
// rec-fields3 1.2%): the check for resumeToken is in the branch where a
// value that is not an object goes.
var resumeToken = []byte{0}

// resume decodes the value of f, one of sd's fields whose key was read,
// then the rest of the object from next (decode, by resumeToken): for a
// decoder that takes an object over from another (keyMissed's order
// decoder).
func (sd *structDecoder) resume(ds *decodeState, p unsafe.Pointer, f *fieldDecoder, next int) error {
	d := ds.d
	if f.direct == directNone || d.state != &atObjectValue ||
		!ds.scalarNext(f.direct, false, &atObjectComma, unsafe.Add(p, f.offset)) {
		if err := ds.memberToken(f, p); err != nil {
			return err
		}
	}
	if more, err := d.objectMore(); !more {
		return err
	}
	ds.resumeAt = next
	return sd.decode(ds, resumeToken, p)
}

// memberToken decodes the value of f, one of the fields of the struct at
// p, its key read, as a token: where scalarNext did not take it.
func (ds *decodeState) memberToken(f *fieldDecoder, p unsafe.Pointer) error {
	vtok, err := ds.d.NextToken()
	if err != nil {
		return err
	}
	if f.embed != nil {
		if p = ds.followEmbedded(f, p); p == nil {
			return ds.skip(vtok)
		}
	}
	return ds.fieldValue(f, vtok, unsafe.Add(p, f.offset))
}

// membersUnguessed reads, for decode, the members after a value in an
// object where decode has stopped guessing for the rest of it (its order
// changes from object to object, keyMissed): each, after the ',' and any
// whitespace, a member that starts with a field's `"name":` (fieldAt), or
// else a plain key (plainKeyLen) right before its ':' that findWords
// finds, and its value; and the '}' (closeObject), when
// it returns end. It stops where anything else comes (a key not plain, a
// key no field has by its words, space before the ':', the window's end,
// an error), having consumed nothing of that member: the rest of decode's
// loop reads it. (Through decode's loop and keyMissed, each member of
// rec-keyshuffle's records cost some 95 instructions more.)
func (sd *structDecoder) membersUnguessed(ds *decodeState, p unsafe.Pointer) (end bool, err error) {
	d := ds.d
	for fastPaths && d.s.err == nil && d.err == nil {
		data, i := d.s.br.data, d.s.br.offset
		if i >= len(data) || data[i] != ',' {
			return d.closeObject(), nil
		}
		i = skipWhitespace(data, i+1)
		if i+16 > len(data) {
			break
		}
		w := data[i : i+16]
		w0, w1 := binary.LittleEndian.Uint64(w), binary.LittleEndian.Uint64(w[8:])
		f := sd.fieldAt(w0, w1)
		if f != nil {
			d.s.br.offset = i + f.keyLen
		} else {
			// A key in no field's starts (a long name, a name two fields'
			// share the start of, space before the ':'): read, then looked up.
			if data[i] != '"' {
				break
			}
			n, k0, k1 := plainKeyLen(w0, w1)
			if n == 0 || i+n >= len(data) || data[i+n] != ':' {
				break
			}
			if f = sd.findWords(k0, k1); f == nil {
				break
			}
			d.s.br.offset = i + n + 1
		}
		d.state = &atObjectValue
		if f.direct == directNone || !ds.scalarNext(f.direct, false, &atObjectComma, unsafe.Add(p, f.offset)) {
			if err := ds.memberToken(f, p); err != nil {
				return false, err
			}
		}
	}
	return false, nil
}

// unknownCount counts the members no field has, read since next (in
// structDecoder.decode) became at: since the field before next, but for a
// field read twice. keyMissed resets it on a miss, so that a field
// matched in place, the common case, does not touch it.
type unknownCount struct{ at, n int }

// keyMissed reads the key of a member that is not the field expected
// there (fields[*next], when there is one; a *next below 0 is the place
// ^*next, where decode tried no field): the key an earlier object
// of this type had in the same place (decodeState.seen), matched as a
// field's is (neither scanned nor looked up), or else the key read,
// looked up and remembered there (plainKey: most keys are found by their
// first bytes, or else read by two loads and looked up by the same two
// words). It
// returns the field, or nil for a member no field has (its value not
// read), and end when the object closed instead; and, when a remembered
// key matched and sd has an order decoder (orderFor), that decoder, for
// the rest of the object, with the field its own and *next the place
// after it there. (Not p, to call it here: a parameter more cost
// rec-keyshuffle 3% more instructions in keyMissed and in decode. A
// function of its own: in decode, this made the loop a fifth larger, and
// even decoding that never came here measured 4-6% slower: the hidden
// set's cities, one a document, on AMD EPYC.)
func (sd *structDecoder) keyMissed(ds *decodeState, first bool, next *int, u *unknownCount) (f *fieldDecoder, o *structDecoder, end bool, err error) {
	d := ds.d
	st := ds.seen
	if *next > len(sd.fields) && st != nil && st.trust[sd.slot] < 0 {
		// No guesses for the rest of this object (below), and no slot
		// trusted: none of the following applies, and the key is read
		// and looked up at once (a member membersUnguessed did not take).
		goto read
	}
	if d.state == &atObjectFirst && d.closeObject() {
		return nil, nil, true, nil // {}: no key to read, look up or remember
	}
	if *next < 0 {
		*next = ^*next // no guess was tried (below)
	}
	if u.at != *next {
		u.at, u.n = *next, 0
	}
	// (Not trusted, and no field expected: no miss for trusted to count.)
	if st != nil && (*next < len(sd.fields) || st.trust[sd.slot] >= 0) && st.trusted(sd) {
		if g := &st.keys[seenSlot(sd, *next, u.n)]; g.sd == sd && (g.field != 0 || !ds.disallowUnknown) {
			m := &g.key
			if g.field != 0 {
				m = &sd.fields[g.field-1].keyMatch
			}
			hit, atKey := expectKey(d, first, m)
			st.score(sd, hit)
			if hit {
				if g.field == 0 {
					u.n++
					return nil, nil, false, nil
				}
				// (orderFor is called only where it may return one: a
				// call for every key that came here cost rec-embedded
				// 0.3% more instructions.)
				if sd.order.Load() != nil || sd.orderTries.Load() < maxOrderTries {
					if o := sd.orderFor(st); o != nil {
						i := o.orderPos[g.field-1]
						*next = i + 1
						return &o.fields[i], o, false, nil
					}
				}
				*next = g.field
				// Where the key remembered after this one is not the
				// next field's, as when the producer's order is not the
				// struct's (sorted keys, say), the next field is no
				// guess worth a try: the next key comes back here, to
				// that slot, straight away (*next below 0).
				if n := g.field; n < len(sd.fields) {
					if h := &st.keys[seenSlot(sd, n, 0)]; h.sd == sd && h.field != n+1 {
						*next = ^n
					}
				}
				return &sd.fields[g.field-1], nil, false, nil
			}
			first = first || atKey
		}
	}
read:
	at := *next
	f, tok, atKey := d.plainKey(first, sd)
	if f != nil || tok != nil {
		// Found by its start or its two words; only a key in another case
		// than its field's is looked up again (none is escaped or
		// non-ASCII: lookup would try nothing more).
		if f == nil {
			f = sd.findFolded(tok[1 : len(tok)-1])
		}
		if f != nil {
			*next = f.index + 1
		}
	} else {
		if !first && !atKey && d.closeObject() {
			return nil, nil, true, nil // (decode tries the '}' only at the last place, not past it)
		}
		if tok, err = d.memberKey(first || atKey); err != nil {
			return nil, nil, false, err
		}
		if tok[0] == '}' {
			return nil, nil, true, nil
		}
		f = sd.lookup(ds, tok, next)
	}
	remember := st == nil || st.trust[sd.slot] >= 0
	if f != nil {
		if remember {
			ds.rememberKey(sd, at, u.n, tok, f)
		} else if f.index < at {
			// A key before the one expected, in a type whose order
			// changes from object to object (its remembered keys not
			// trusted): the field after it is no better a guess, and a
			// guess that misses costs a compare and a branch no
			// predictor learns. The rest of this object goes without
			// one, each key read and looked up. (A member left out only
			// skips ahead, and keeps the guesses.) Past the last place,
			// not at it: decode tries no '}' before each key either,
			// which cost rec-keyshuffle a call and some 40 instructions
			// a member; the '}' is read here, after no key.
			*next = len(sd.fields) + 1
		}
		return f, nil, false, nil
	}
	if ds.disallowUnknown {
		ds.unknownField(AppendUnquoted(ds.scratch[:0], tok))
	} else if remember {
		ds.rememberKey(sd, at, u.n, tok, nil)
	}
	u.n++
	return nil, nil, false, nil
}

// maxOrderTries bounds the order decoders a struct decoder tries to build
// (orderFor): an order that is the struct's own, or one cut short by a
// member no field has, builds none, and is not tried forever.
const maxOrderTries = 4

// orderFor returns sd's order decoder (structDecoder.order), building it
// first from the keys st remembers for sd when they have been trusted
// long enough (st's trust in them at its top), or nil: for an order
// decoder, whose remembered keys are in its own order; for a type whose
// objects have come in its own order (no key was remembered); and where
// the order decoder's own remembered keys are not trusted in st (its
// guesses miss: objects in other orders than the one it was built for,
// or members left out at random, which built it from a chance run), until
// its trust comes back (seenTable.trusted).
func (sd *structDecoder) orderFor(st *seenTable) *structDecoder {
	if o := sd.order.Load(); o != nil {
		if !st.trusted(o) { // (tried again some objects later)
			return nil
		}
		return o
	}
	if st.trust[sd.slot] < maxTrust || sd.orderTries.Load() >= maxOrderTries {
		return nil
	}
	sd.orderTries.Add(1)
	o := sd.buildOrder(st)
	if o == nil || !sd.order.CompareAndSwap(nil, o) {
		return sd.order.Load() // none, or another goroutine's
	}
	return o
}

// buildOrder builds sd's order decoder from the keys st remembers for sd,
// from the first place on: the field remembered at the place, or, where
// none is, the field the place expects (matched there, so never
// remembered), and the place after that field next; up to a place where
// a member no field has is remembered, the object's end, or a field
// already placed. The fields not placed follow, in the struct's order.
// It returns nil where no field comes before the one its place expects:
// the struct's order, with members left out or not (as an embedded
// pointer present in half the objects), which the struct's decoder
// passes by a slot at each gap; an order decoder would put the members
// that come and go last, and make every object that has them miss (5%
// more instructions on rec-embedded). (A wrong order, from a
// slot another type took, costs only guesses that miss: every decoder of
// the type finds the same field for the same key.)
func (sd *structDecoder) buildOrder(st *seenTable) *structDecoder {
	n := len(sd.fields)
	order := make([]int, 0, n)
	placed := make([]bool, n)
	back := false // a field before the place's
	for p := 0; ; {
		f := p
		if g := &st.keys[seenSlot(sd, p, 0)]; g.sd == sd {
			if g.field == 0 {
				break
			}
			f = g.field - 1
		}
		if f == n || placed[f] {
			break
		}
		placed[f] = true
		order = append(order, f)
		back = back || f < p
		p = f + 1
	}
	if !back {
		return nil
	}
	for i, ok := range placed {
		if !ok {
			order = append(order, i)
		}
	}
	o := &structDecoder{t: sd.t, fields: make([]fieldDecoder, n), orderPos: make([]int, n),
		exact: make([]uint16, len(sd.exact)), folded: make([]uint16, len(sd.folded)),
		mask: sd.mask, foldUnique: sd.foldUnique, slot: uint8(structSlots.Add(hashMul1) >> 26),
		words: make([]wordField, len(sd.words)), wordShift: sd.wordShift,
		starts: make([]uint16, len(sd.starts)), startMask: sd.startMask, startMul: sd.startMul, startShift: sd.startShift}
	o.orderTries.Store(maxOrderTries) // (it builds none: orderFor)
	for i, f := range order {
		o.fields[i] = sd.fields[f]
		o.fields[i].index = i
		o.orderPos[f] = i
	}
	// The same tables, each entry the same field at its new index: the
	// same field found for every key, the first of two that fold alike
	// in the struct's order included.
	for h, x := range sd.exact {
		if x != 0 {
			o.exact[h] = uint16(o.orderPos[x-1] + 1)
		}
	}
	for h, x := range sd.folded {
		if x != 0 {
			o.folded[h] = uint16(o.orderPos[x-1] + 1)
		}
	}
	for h, w := range sd.words {
		if w.w0 != 0 {
			w.index = o.orderPos[w.index]
		}
		o.words[h] = w
	}
	for h, x := range sd.starts {
		if x != 0 {
			o.starts[h] = uint16(o.orderPos[x-1] + 1)
		}
	}
	return o
}

// keyMatch is an object key expectKey looks for: a struct field's name, or
// a key an earlier object had in the same place.
type keyMatch struct {
	name string
	// fold: no two of the struct's fields fold alike, so a key that equals
	// name but for the case of ASCII letters can only be this field's
	// (Name, name, NAME): the spellings lookup would fold to it anyway.
	fold bool
	// For a name of at most 13 bytes, the member start `"name":` as two
	// little-endian words with the masks of its keyLen bytes, and with
	// fold the bit 0x20 of each ASCII letter's byte in fold0 and fold1 (set
	// in key0 and key1 too): expectKey compares a key and its colon with
	// two loads, ORed with the fold bits. A byte ORed with 0x20 equals a
	// lower-case letter only when it is that letter in either case.
	key0, key1   uint64
	fold0, fold1 uint64
	mask0, mask1 uint64
	keyLen       int
}

// prepareKey sets what expectKey compares, folding ASCII letters when fold
// (no two of the struct's fields fold alike). name must have no byte that
// a JSON string escapes (a '"', '\\' or control byte), so that its bytes in
// a key are its value.
func (f *keyMatch) prepareKey(fold bool) {
	f.fold = fold
	if n := len(f.name) + 3; n <= 16 {
		// `"name":` without building it (prepareKey runs per key for any).
		var b, m [16]byte
		b[0] = '"'
		copy(b[1:], f.name)
		b[n-2], b[n-1] = '"', ':'
		if fold {
			for i := 1; i < n-2; i++ {
				if c := b[i] | 0x20; 'a' <= c && c <= 'z' {
					m[i] = 0x20
				}
			}
		}
		f.keyLen = n
		f.mask0 = 1<<(8*min(n, 8)) - 1 // all ones for 8: 1<<64 is 0
		f.mask1 = 1<<(8*max(n-8, 0)) - 1
		f.fold0 = binary.LittleEndian.Uint64(m[:8])
		f.fold1 = binary.LittleEndian.Uint64(m[8:])
		f.key0 = binary.LittleEndian.Uint64(b[:8]) | f.fold0
		f.key1 = binary.LittleEndian.Uint64(b[8:]) | f.fold1
	}
}

// setToken makes f the match of name, the value of the key token tok
// (which has no escape), as prepareKey(false) makes it. When tok is
// `"name"` byte for byte and 16 bytes can be read from its start (tok's
// capacity), the words of `"name":` are loaded from there, where
// prepareKey, building them a byte at a time, pays for a load that the
// CPU cannot forward from those bytes' stores (anyKey makes a guess of
// every key that missed its own). A body of invalid UTF-8 is not its
// value (name holds three bytes of U+FFFD for each bad byte, so it is
// longer): its match is built from name.
func (f *keyMatch) setToken(name string, tok []byte) {
	if len(name)+3 > 16 || len(tok) != len(name)+2 || cap(tok) < 16 {
		*f = keyMatch{name: name}
		f.prepareKey(false)
		return
	}
	f.setWords(name, tok)
}

// setWords makes f the match of name and the key token tok with its
// colon, loaded as two words from tok's start: len(tok) is at most 15,
// and 16 bytes can be read from its start (cap(tok) is at least 16).
func (f *keyMatch) setWords(name string, tok []byte) {
	w := tok[:16]
	c := uint(len(tok)) // where the ':' goes, after the closing quote
	n := c + 1
	lo, hi := binary.LittleEndian.Uint64(w), binary.LittleEndian.Uint64(w[8:])
	// The masks of n bytes and the key's c bytes with the ':' after them,
	// each shift below 64 (masked: no test for a shift past a word's
	// bits); a struct written field by field, not built and copied: this
	// runs for every key that missed its guess (anyKey, anyObjectAt).
	var m0, m1 uint64
	if n <= 8 {
		m0 = ^uint64(0) >> ((64 - 8*n) & 63)
		lo = lo&(m0>>8) | ':'<<(8*c&63)
		hi = 0
	} else {
		m0, m1 = ^uint64(0), ^uint64(0)>>((128-8*n)&63)
		hi = hi&(m1>>8) | ':'<<((8*c-64)&63)
	}
	f.name = name
	f.fold, f.fold0, f.fold1 = false, 0, 0
	f.key0, f.key1, f.mask0, f.mask1 = lo, hi, m0, m1
	f.keyLen = int(n)
}

// structSlots hands each struct decoder its first slot in decodeState.seen
// (structDecoder.slot), spread by the golden ratio.
var structSlots atomic.Uint32

// seenTable holds the keys struct decoders read where the field they
// expected was not (decodeState.seen).
type seenTable struct {
	keys [64]seenKey // by seenSlot
	// trust holds, for each struct type (at its first slot, sd.slot;
	// types that share one share it, which changes only the speed),
	// whether its slots are tried and written: from 0 up they are, and a
	// slot that holds the key read raises it (to maxTrust), one that
	// holds another lowers it. Where the members' order changes from
	// object to object, a slot's key is mostly not the one there and
	// trying it cost more than its hits saved (12 keys in a new order in
	// each record: 16-19% slower, AMD EPYC), and whether it holds the key
	// is a branch no guess predicts. Below 0, each miss of the field
	// expected lowers it further, to distrusted, where it starts again at
	// retrust: the order may have settled.
	trust [64]int8
}

// The bounds of seenTable.trust.
const (
	maxTrust   = 15
	distrusted = -100
	retrust    = 2
)

// trusted reports whether sd's slots are tried, counting a miss of the
// field expected where they are not.
func (st *seenTable) trusted(sd *structDecoder) bool {
	t := &st.trust[sd.slot]
	switch {
	case *t >= 0:
		return true
	case *t == distrusted:
		*t = retrust
	default:
		*t--
	}
	return false
}

// score counts the try of one of sd's slots: whether it held the key.
func (st *seenTable) score(sd *structDecoder, hit bool) {
	t := &st.trust[sd.slot]
	if hit {
		*t = min(*t+1, maxTrust)
	} else {
		*t--
	}
}

// seenKey is a key read where the field expected was not, and looked up:
// the next object of sd's type usually has it in the same place (the
// producer's order of members, not the struct's; a member left out; a
// member the struct lacks).
type seenKey struct {
	sd *structDecoder
	// field is the index in sd.fields, plus one, of the field the key
	// is, matched as that field's key is (a key it matches is one lookup
	// finds the field for); or 0 for a key no field has, matched as key.
	field int
	// key is the match of the token, with its colon, of a key no field
	// has. It has no name: expectKey compares names only near the
	// window's end, where an empty name matches the key "" alone, which
	// no field has either (a field's name is never empty).
	key keyMatch
}

// seenSlot is the slot in seenTable.keys for the key that comes, in an
// object of sd's type, after the field before next and after unknown
// members that no field has.
func seenSlot(sd *structDecoder, next, unknown int) uint8 {
	return (sd.slot + uint8(next)*5 + uint8(unknown)) & 63
}

// rememberKey makes the key token tok, which lookup found f for (nil for
// none), the key matched at its slot: for a field, the field's own match,
// whose keys lookup finds it for; for none, the match of tok, since a
// lookup of the same bytes finds no field again. A key no field has that
// is too long for two words, or read too near the end of its buffer to
// load them, is not kept.
func (ds *decodeState) rememberKey(sd *structDecoder, next, unknown int, tok []byte, f *fieldDecoder) {
	if ds.seen == nil {
		ds.seen = new(seenTable)
	}
	g := &ds.seen.keys[seenSlot(sd, next, unknown)]
	switch {
	case f != nil:
		g.sd, g.field = sd, f.index+1
	case len(tok) > 15 || cap(tok) < 16:
		g.sd = nil
	default:
		g.sd, g.field = sd, 0
		g.key.setWords("", tok)
	}
}

// buildWords makes sd.words, of the fields whose names are plainName.
func (sd *structDecoder) buildWords() {
	n := 0
	for i := range sd.fields {
		if plainName(sd.fields[i].name) {
			n++
		}
	}
	lg := 2 // at most half full
	for 1<<lg < 2*n {
		lg++
	}
	sd.words = make([]wordField, 1<<lg)
	sd.wordShift = uint8(64 - lg)
	for i := range sd.fields {
		name := sd.fields[i].name
		if !plainName(name) {
			continue
		}
		var b [16]byte
		b[0] = '"'
		copy(b[1:], name)
		b[len(name)+1] = '"'
		w0, w1 := binary.LittleEndian.Uint64(b[:8]), binary.LittleEndian.Uint64(b[8:])
		h := wordHash(w0, w1) >> sd.wordShift
		for sd.words[h].w0 != 0 {
			h = (h + 1) & uint64(len(sd.words)-1)
		}
		sd.words[h] = wordField{w0: w0, w1: w1, index: i}
	}
}

// plainName reports whether name can be a plain key's (plainKey): at most
// 14 bytes, none of them a '"', a '\\', a control byte or 0x80 and above.
// A key whose value is any other name is not plain, so findWords need not
// know it.
func plainName(name string) bool {
	if len(name) > 14 {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// fieldAt returns the field whose member start `"name":` (keyMatch, as
// expectKey compares it: with its colon, and in either case where the
// field folds) the 16 bytes w0, w1 (little-endian) begin with, where that
// field is in starts; else nil. The key is neither scanned nor measured:
// its first bytes pick the one field it can be.
func (sd *structDecoder) fieldAt(w0, w1 uint64) *fieldDecoder {
	x := sd.starts[(keyStart(w0)&sd.startMask*sd.startMul)>>sd.startShift]
	if x == 0 {
		return nil
	}
	f := &sd.fields[x-1]
	if w0&f.mask0|f.fold0 != f.key0 || w1&f.mask1|f.fold1 != f.key1 {
		return nil
	}
	return f
}

// keyStart is the first word of a member, the bit 0x20 set in each byte,
// as its start is hashed (structDecoder.starts): the same for a key in
// either case of its ASCII letters.
func keyStart(w0 uint64) uint64 { return w0 | lsb*0x20 }

// buildStarts makes sd.starts, of the fields whose `"name":` keyMatch
// compares (keyLen not 0), by the bytes of it they all have; where two
// share those bytes, or their hashes' slot, neither is in it. Of a few
// multipliers and two sizes of table, the first that leaves no field out
// is kept, else the one that leaves out the fewest.
func (sd *structDecoder) buildStarts() {
	n, p := 0, 8
	for i := range sd.fields {
		if k := sd.fields[i].keyLen; k != 0 {
			n, p = n+1, min(p, k)
		}
	}
	sd.startMask = 1<<(8*p) - 1 // all ones for 8: 1<<64 is 0
	lg := 2
	for 1<<lg < 4*n {
		lg++
	}
	if n >= 1<<16-1 {
		n = 0 // (index+1 would not fit: none is in it)
	}
	best := -1
	mul := uint64(hashMul64)
	for try := 0; try < 32 && best != 0 && n > 0; try++ {
		size := lg + try&1
		t := make([]uint16, 1<<size)
		shift := uint8(64 - size)
		slot := func(f *fieldDecoder) uint64 { return (keyStart(f.key0) & sd.startMask * mul) >> shift }
		for i := range sd.fields {
			if f := &sd.fields[i]; f.keyLen != 0 {
				if h := slot(f); t[h] == 0 {
					t[h] = uint16(i + 1)
				} else {
					t[h] = 1<<16 - 1 // two fields: neither
				}
			}
		}
		for h, x := range t {
			if x == 1<<16-1 {
				t[h] = 0
			}
		}
		out := 0
		for i := range sd.fields {
			if f := &sd.fields[i]; f.keyLen != 0 && t[slot(f)] != uint16(i+1) {
				out++
			}
		}
		if best < 0 || out < best {
			best, sd.starts, sd.startMul, sd.startShift = out, t, mul, shift
		}
		mul = mul*hashMul64 + 2*hashMul1 // another odd multiplier
	}
	if sd.starts == nil {
		sd.starts, sd.startShift = make([]uint16, 4), 62
	}
}

// findWords returns the field whose name is, exactly, that of the plain key
// token whose words (plainKeyLen) are w0, w1; or nil.
func (sd *structDecoder) findWords(w0, w1 uint64) *fieldDecoder {
	mask := uint64(len(sd.words) - 1)
	for h := wordHash(w0, w1) >> sd.wordShift; ; h = (h + 1) & mask {
		e := &sd.words[h]
		if e.w0 == w0 && e.w1 == w1 {
			return &sd.fields[e.index]
		}
		if e.w0 == 0 {
			return nil
		}
	}
}

// asciiFoldEqual reports whether key equals name but for the case of ASCII
// letters.
func asciiFoldEqual(key []byte, name string) bool {
	if len(key) != len(name) {
		return false
	}
	for i, c := range key {
		if n := name[i]; c != n && (c|0x20 != n|0x20 || n|0x20 < 'a' || n|0x20 > 'z') {
			return false
		}
	}
	return true
}

// followEmbedded walks f's embedded pointers from the struct at p,
// allocating nil ones. It returns nil, with the error saved, when a nil
// pointer to an unexported struct type is in the way.
func (ds *decodeState) followEmbedded(f *fieldDecoder, p unsafe.Pointer) unsafe.Pointer {
	q, blocked := f.walkEmbedded(p)
	if q == nil {
		ds.saveError(fmt.Errorf("json: cannot set embedded pointer to unexported struct: %v", blocked.elem))
	}
	return q
}

// walkEmbedded walks f's embedded pointers from the struct at p, allocating
// nil ones, and returns the struct that holds f; or nil and the step in
// the way, a nil pointer to an unexported struct type.
func (f *fieldDecoder) walkEmbedded(p unsafe.Pointer) (unsafe.Pointer, *embedStep) {
	for i := range f.embed {
		e := &f.embed[i]
		pp := (*unsafe.Pointer)(unsafe.Add(p, e.offset))
		if *pp == nil {
			if !e.exported {
				return nil, e
			}
			*pp = reflect.New(e.elem).UnsafePointer()
		}
		p = *pp
	}
	return p, nil
}

func upperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

func (sd *structDecoder) insert(table []uint16, name string, i int) {
	h := nameHash([]byte(name)) & sd.mask
	for table[h] != 0 {
		h = (h + 1) & sd.mask
	}
	table[h] = uint16(i + 1)
}

// find looks name up in table (sd.exact, or sd.folded when folded).
func (sd *structDecoder) find(table []uint16, name []byte, folded bool) *fieldDecoder {
	h := nameHash(name) & sd.mask
	if folded {
		h = foldHash(name) & sd.mask
	}
	for {
		x := table[h]
		if x == 0 {
			return nil
		}
		f := &sd.fields[x-1]
		if folded && f.folded == string(name) || !folded && f.name == string(name) {
			return f
		}
		h = (h + 1) & sd.mask
	}
}

// lookup finds the field for the key token tok, when expectKey did not: an
// exact match of the unescaped key, else the first field whose name folds
// to the same bytes. A key without escapes is first matched on its raw
// bytes: field names are valid UTF-8, so a raw match is a match of the
// value. next becomes the index after the field found, expectKey's guess.
func (sd *structDecoder) lookup(ds *decodeState, tok []byte, next *int) *fieldDecoder {
	body := tok[1 : len(tok)-1]
	// Without the fast paths, the scanner's facts count for nothing: every
	// key is unquoted, then looked up.
	escaped := !fastPaths || ds.d.s.str&strEscaped != 0
	var f *fieldDecoder
	if !escaped {
		f = sd.find(sd.exact, body, false)
		if f == nil {
			f = sd.findFolded(body)
		}
	}
	// An ASCII key without escapes has had both matches: the slow way
	// (unquoting, Unicode folding) can find nothing more, and a key no
	// field has, as every member of a large document decoded into a small
	// struct, would pay for it.
	if f == nil && (escaped || ds.d.s.str&strNonASCII != 0) {
		f = sd.lookupSlow(ds, tok, escaped)
	}
	if f != nil {
		*next = f.index + 1
	}
	return f
}

// findFolded returns the field whose folded name the key body, ASCII
// without escapes, equals but for ASCII case: the key folds to that name.
// (Not in lookup's loop: its hash was taken for every key, even those
// found at once.)
func (sd *structDecoder) findFolded(body []byte) *fieldDecoder {
	for h := foldHash(body) & sd.mask; ; h = (h + 1) & sd.mask {
		x := sd.folded[h]
		if x == 0 {
			return nil
		}
		if g := &sd.fields[x-1]; foldASCIIEqual(body, g.folded) {
			return g
		}
	}
}

// lookupSlow: escapes or invalid UTF-8 in the key, or no exact match.
func (sd *structDecoder) lookupSlow(ds *decodeState, tok []byte, escaped bool) *fieldDecoder {
	key := tok[1 : len(tok)-1]
	if escaped || !ds.d.s.validBody(key) {
		ds.scratch = AppendUnquoted(ds.scratch[:0], tok)
		key = ds.scratch
		if f := sd.find(sd.exact, key, false); f != nil {
			return f
		}
	}
	if isASCII(key) {
		ds.fold = append(ds.fold[:0], key...)
		for i, c := range ds.fold {
			if 'a' <= c && c <= 'z' {
				ds.fold[i] = c - ('a' - 'A')
			}
		}
	} else {
		ds.fold = appendFolded(ds.fold[:0], key)
	}
	return sd.find(sd.folded, ds.fold, true)
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
