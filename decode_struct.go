package json

import (
	"fmt"
	"reflect"
	"unicode/utf8"
	"unsafe"
)

// fieldDecoder decodes one JSON-visible field of a struct.
type fieldDecoder struct {
	name   string // JSON name, matched exactly first
	folded string // name folded for the case-insensitive match
	ascii  bool   // folded is all ASCII

	// The field is at p+offset, after following embed (embedded pointers,
	// allocated when nil) from the struct.
	embed  []embedStep
	offset uintptr

	dec    *typeDecoder
	quoted bool         // ",string"
	typ    reflect.Type // the field's type

	owner   reflect.Type // the struct type, for UnmarshalTypeError.Struct
	errPath []string     // embedded struct names then name, for Field
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
	// Large structs look names up in maps; small ones scan.
	exact  map[string]int
	folded map[string]int
}

const structScanMax = 12

func (b *builder) buildStruct(td *typeDecoder, t reflect.Type) {
	sd := &structDecoder{t: t}
	for _, sf := range typeFields(t) {
		f := fieldDecoder{name: sf.name, quoted: sf.quoted, owner: t}
		f.folded = string(appendFolded(nil, []byte(sf.name)))
		f.ascii = true
		for i := 0; i < len(f.folded); i++ {
			if f.folded[i] >= utf8.RuneSelf {
				f.ascii = false
			}
		}
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
		f.errPath = append(f.errPath, sf.name)
		if ro {
			f.dec = b.dep(td, decodeKey{f.typ, modeRO, nil})
		} else {
			f.dec = b.dep(td, decodeKey{f.typ, modeLoc, nil})
		}
		sd.fields = append(sd.fields, f)
	}
	if len(sd.fields) > structScanMax {
		sd.exact = make(map[string]int, len(sd.fields))
		sd.folded = make(map[string]int, len(sd.fields))
		for i := range sd.fields {
			f := &sd.fields[i]
			sd.exact[f.name] = i
			if _, ok := sd.folded[f.folded]; !ok {
				sd.folded[f.folded] = i
			}
		}
	}
	td.fn = sd.decode
}

func (sd *structDecoder) decode(ds *decodeState, tok []byte, p unsafe.Pointer) error {
	if tok[0] != '{' {
		return ds.mismatch(tok, sd.t)
	}
	d := ds.d
	next := 0 // fields usually come in order: try the one after the last match first
	for {
		tok, err := d.NextToken()
		if err != nil {
			return err
		}
		if tok[0] == '}' {
			return nil
		}
		f := sd.lookup(ds, tok, &next)
		if f == nil && ds.disallowUnknown {
			ds.unknownField(ds.unquote(tok))
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
		ds.stack = append(ds.stack, f)
		if f.quoted {
			err = ds.decodeQuoted(f, vtok, fp)
		} else {
			err = f.dec.fn(ds, vtok, fp)
		}
		if err != nil {
			return ds.fatal(err)
		}
		ds.stack = ds.stack[:len(ds.stack)-1]
	}
}

// followEmbedded walks f's embedded pointers from the struct at p,
// allocating nil ones. It returns nil, with the error saved, when a nil
// pointer to an unexported struct type is in the way.
func (ds *decodeState) followEmbedded(f *fieldDecoder, p unsafe.Pointer) unsafe.Pointer {
	for _, e := range f.embed {
		pp := (*unsafe.Pointer)(unsafe.Add(p, e.offset))
		if *pp == nil {
			if !e.exported {
				ds.saveError(fmt.Errorf("json: cannot set embedded pointer to unexported struct: %v", e.elem))
				return nil
			}
			*pp = reflect.New(e.elem).UnsafePointer()
		}
		p = *pp
	}
	return p
}

// lookup finds the field for the key token tok: an exact match of the
// unescaped key, else the first field whose name folds to the same bytes.
func (sd *structDecoder) lookup(ds *decodeState, tok []byte, next *int) *fieldDecoder {
	key := ds.unquote(tok)
	fields := sd.fields
	if sd.exact == nil {
		if i := *next; i < len(fields) && fields[i].name == string(key) {
			*next = i + 1
			return &fields[i]
		}
		for i := range fields {
			if fields[i].name == string(key) {
				*next = i + 1
				return &fields[i]
			}
		}
	} else if i, ok := sd.exact[string(key)]; ok {
		return &fields[i]
	}
	if isASCII(key) {
		// An ASCII key: fold while comparing.
		if sd.exact == nil {
			for i := range fields {
				if fields[i].ascii && foldASCIIEqual(key, fields[i].folded) {
					return &fields[i]
				}
			}
			return nil
		}
	}
	ds.fold = appendFolded(ds.fold[:0], key)
	if sd.exact == nil {
		for i := range fields {
			if fields[i].folded == string(ds.fold) {
				return &fields[i]
			}
		}
		return nil
	}
	if i, ok := sd.folded[string(ds.fold)]; ok {
		return &fields[i]
	}
	return nil
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
