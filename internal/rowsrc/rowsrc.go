// Package rowsrc holds what the database loaders (sqlite/, postgres/)
// share about their input: the shape options, stepping from one row
// object to the next through arrays and NDJSON, finding a key's column
// by its raw bytes, and the columns of a Go struct.
package rowsrc

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	json "github.com/jsonpipe/json"
)

// Conflict says what a loader does when a row collides with a stored one
// on a primary key (the loaders document each mode for their database).
type Conflict int

const (
	Fail Conflict = iota
	Ignore
	Replace
	Upsert
)

func (c Conflict) String() string {
	switch c {
	case Fail:
		return "fail"
	case Ignore:
		return "ignore"
	case Replace:
		return "replace"
	case Upsert:
		return "upsert"
	}
	return fmt.Sprintf("Conflict(%d)", int(c))
}

// Format is the shape of the JSON input (or of a query's output).
type Format int

const (
	Auto Format = iota
	Array
	Lines
)

func (f Format) String() string {
	switch f {
	case Auto:
		return "auto"
	case Array:
		return "array"
	case Lines:
		return "lines"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// TypeError reports a JSON value a loader cannot store, such as a row that
// is not an object or a value that does not fit its column.
type TypeError struct {
	Msg string
}

func (e *TypeError) Error() string { return e.Msg }

// AfterArrayError reports a value other than an object or array after the
// input's top-level array: text after the array, not a row.
type AfterArrayError struct {
	What string // "a boolean", "a string", ...
}

func (e *AfterArrayError) Error() string { return "text after the array (" + e.What + ")" }

// Rows steps through the input from one row object to the next: objects
// at the top level, or in top-level arrays, as Format allows.
type Rows struct {
	D          *json.Decoder
	Format     Format
	inArray    bool
	afterArray bool // a top-level array has closed
}

// Next consumes the '{' that opens the next row, stepping into and out of
// top-level arrays. It reports false at a clean end of input. On error,
// off is the input offset the error is at, or -1 for the decoder's own
// (a *json.SyntaxError carries its offset).
func (r *Rows) Next() (more bool, off int64, err error) {
	d := r.D
	for {
		k := d.PeekKind()
		switch {
		case k == '{':
			if !r.inArray && r.Format == Array {
				return false, -1, &TypeError{Msg: "input is an object, want an array of objects"}
			}
			if _, err := d.NextToken(); err != nil {
				return false, -1, err
			}
			return true, 0, nil
		case k == '[' && !r.inArray:
			if r.Format == Lines {
				return false, -1, &TypeError{Msg: "input is an array, want newline-delimited objects"}
			}
			d.NextToken()
			r.inArray = true
		case k == ']' && r.inArray:
			d.NextToken()
			r.inArray, r.afterArray = false, true
		case k == '[' || k == '"' || k == 't' || k == 'f' || k == 'n' || k == '0':
			at := d.InputOffset()
			if r.afterArray && k != '[' {
				return false, at, &AfterArrayError{What: kindName(k)}
			}
			if k == 't' || k == 'f' || k == 'n' || k == '0' {
				// Only the first byte is known: "name,age" is no null.
				// The decoder says whether the whole token is a value.
				if _, err := d.NextToken(); err != nil {
					return false, -1, err
				}
			}
			return false, at, &TypeError{Msg: "row is " + kindName(k) + ", want an object"}
		default:
			// The end of input, or something that is no value: the
			// decoder says which.
			_, err := d.NextToken()
			if err == io.EOF {
				return false, 0, nil
			}
			if err == nil {
				err = errors.New("json: no value where a row should start") // not reached: the decoder validates
			}
			return false, -1, err
		}
	}
}

// InArray reports whether the rows are inside a top-level array.
func (r *Rows) InArray() bool { return r.inArray }

// AfterArray reports whether a top-level array has closed: what follows
// is text after the array unless it is an object or another array.
func (r *Rows) AfterArray() bool { return r.afterArray }

func kindName(k byte) string {
	switch k {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// Key is one spelling of a column's name as it appears in the input: the
// raw token, quotes and escapes included, compared as bytes.
type Key struct {
	Raw string
	Col int
}

// Keys finds a key's column by a byte comparison with the keys seen so
// far, starting where the previous key was found, so that objects whose
// keys come in a steady order cost one comparison per key.
type Keys struct {
	List []Key
	hint int // index in List where the next key is looked for first
}

// Lookup returns the column of the key token tok, or -1.
func (k *Keys) Lookup(tok []byte) int {
	keys := k.List
	for j := k.hint; j < len(keys); j++ {
		if keys[j].Raw == string(tok) {
			k.hint = j + 1
			return keys[j].Col
		}
	}
	for j := 0; j < k.hint && j < len(keys); j++ {
		if keys[j].Raw == string(tok) {
			k.hint = j + 1
			return keys[j].Col
		}
	}
	return -1
}

// Found returns the index in List of the key the last Lookup that found
// one found.
func (k *Keys) Found() int { return k.hint - 1 }

// Add adds the spelling raw of column col's name.
func (k *Keys) Add(raw string, col int) { k.List = append(k.List, Key{Raw: raw, Col: col}) }

// Field is a column ColumnsOf finds in a struct type: its name, and the
// field's type with pointers taken off.
type Field struct {
	Name string
	Type reflect.Type
}

// Fields returns the columns of a table holding values of the struct type
// t (or pointer to it), named as encoding/json names them: the json tag's
// name, or the field name; "-" skips a field; embedded structs without a
// tag are flattened. A name already taken keeps its first field, the
// shallower one when embedding is involved; with fold, names equal under
// strings.ToLower are the same name.
func Fields(t reflect.Type, fold bool) ([]Field, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("%v is not a struct type", t)
	}
	var fields []Field
	seen := map[string]bool{}
	var walk func(t reflect.Type, depth int)
	walk = func(t reflect.Type, depth int) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag, hasTag := f.Tag.Lookup("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if f.Anonymous && name == "" && ft.Kind() == reflect.Struct && depth < 16 {
				walk(ft, depth+1)
				continue
			}
			if !f.IsExported() {
				continue
			}
			if name == "" || !hasTag {
				name = f.Name
			}
			id := name
			if fold {
				id = strings.ToLower(name)
			}
			if seen[id] {
				continue
			}
			seen[id] = true
			fields = append(fields, Field{Name: name, Type: ft})
		}
	}
	walk(t, 0)
	if len(fields) == 0 {
		return nil, fmt.Errorf("%v has no exported fields", t)
	}
	return fields, nil
}

// Flat is the path of nested objects a row reader is inside when it
// flattens them (Options.Flatten): each level's key, joined to the one
// above by "_", kept as a raw token so that the joined key is found among
// the keys by the same byte comparison as any other. Joining two raw
// tokens, `"a"` and `"b"`, as `"a_b"` keeps every escape valid, so the
// joined token unquotes to the joined name.
type Flat struct {
	buf  []byte // the levels' joined keys, end to end
	ends []int  // where each level's key ends in buf
	key  []byte // the key Key returned last
}

// Reset leaves every level, for a new row.
func (f *Flat) Reset() { f.buf, f.ends = f.buf[:0], f.ends[:0] }

// Depth is the number of nested objects the reader is inside.
func (f *Flat) Depth() int { return len(f.ends) }

// Key returns the raw key tok joined to the levels above it, in a buffer
// of f's (valid until the next Key); at the top level, a copy of tok.
func (f *Flat) Key(tok []byte) []byte {
	f.key = f.key[:0]
	if n := len(f.ends); n > 0 {
		prefix := f.buf[:f.ends[n-1]]
		if n > 1 {
			prefix = prefix[f.ends[n-2]:]
		}
		f.key = append(f.key, prefix[:len(prefix)-1]...)
		f.key = append(f.key, '_')
		f.key = append(f.key, tok[1:]...)
		return f.key
	}
	f.key = append(f.key, tok...)
	return f.key
}

// Push enters the object that is key's value, key as Key returned it.
func (f *Flat) Push(key []byte) {
	f.buf = append(f.buf, key...)
	f.ends = append(f.ends, len(f.buf))
}

// Pop leaves the innermost object.
func (f *Flat) Pop() {
	f.ends = f.ends[:len(f.ends)-1]
	if n := len(f.ends); n > 0 {
		f.buf = f.buf[:f.ends[n-1]]
	} else {
		f.buf = f.buf[:0]
	}
}
