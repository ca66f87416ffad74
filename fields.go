package json

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
	"unicode"
)

// structField is one JSON-visible field of a struct type, found by the same
// rules as encoding/json's typeFields: exported fields, json tags (a name,
// "-", options), embedded structs (by value or pointer) promoted with Go's
// visibility rules, and a field hidden when two at the same depth share a
// name with no tag to break the tie.
type structField struct {
	name   string // JSON name
	tag    bool   // the name came from a tag
	index  []int  // reflect index path from the struct
	quoted bool   // ",string" on a bool, number or string field

	// For the encoder: the field's declared type and its omit options.
	typ       reflect.Type
	omitEmpty bool
	omitZero  bool
}

// typeFields returns the JSON fields of struct type t in index order.
func typeFields(t reflect.Type) []structField {
	type queued struct {
		typ   reflect.Type
		index []int
	}
	current := []queued{}
	next := []queued{{typ: t}}

	// Count of queued names for the current level and the next.
	var count, nextCount map[reflect.Type]int

	// Types already visited at an earlier level.
	visited := map[reflect.Type]bool{}

	var fields []structField
	for len(next) > 0 {
		current, next = next, current[:0]
		count, nextCount = nextCount, map[reflect.Type]int{}

		for _, f := range current {
			if visited[f.typ] {
				continue
			}
			visited[f.typ] = true

			for i := 0; i < f.typ.NumField(); i++ {
				sf := f.typ.Field(i)
				if sf.Anonymous {
					t := sf.Type
					if t.Kind() == reflect.Pointer {
						t = t.Elem()
					}
					if !sf.IsExported() && t.Kind() != reflect.Struct {
						// Embedded fields of unexported non-struct types are ignored.
						continue
					}
					// Embedded unexported struct types are explored: they
					// may have exported fields.
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts := parseTag(tag)
				if !isValidTag(name) {
					name = ""
				}
				index := make([]int, len(f.index)+1)
				copy(index, f.index)
				index[len(f.index)] = i

				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}

				// Only strings, floats, integers and booleans can be quoted.
				quoted := false
				if opts.Contains("string") {
					switch ft.Kind() {
					case reflect.Bool,
						reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
						reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
						reflect.Float32, reflect.Float64,
						reflect.String:
						quoted = true
					}
				}

				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					tagged := name != ""
					if name == "" {
						name = sf.Name
					}
					fields = append(fields, structField{
						name: name, tag: tagged, index: index, quoted: quoted,
						typ: sf.Type, omitEmpty: opts.Contains("omitempty"), omitZero: opts.Contains("omitzero"),
					})
					if count[f.typ] > 1 {
						// Several instances of this embedded type at this
						// level: add a second copy so that the tie-breaking
						// below sees the duplicate.
						fields = append(fields, fields[len(fields)-1])
					}
					continue
				}

				// An embedded struct to explore at the next level.
				nextCount[ft]++
				if nextCount[ft] == 1 {
					next = append(next, queued{typ: ft, index: index})
				}
			}
		}
	}

	// Sort by name, then depth, then tagged first, then index.
	slices.SortFunc(fields, func(a, b structField) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := cmp.Compare(len(a.index), len(b.index)); c != 0 {
			return c
		}
		if a.tag != b.tag {
			if a.tag {
				return -1
			}
			return +1
		}
		return slices.Compare(a.index, b.index)
	})

	// For each name keep the dominant field: the shallowest, tagged ones
	// first; two at the same depth with the same taggedness hide each other.
	out := fields[:0]
	for advance, i := 0, 0; i < len(fields); i += advance {
		fi := fields[i]
		for advance = 1; i+advance < len(fields); advance++ {
			if fields[i+advance].name != fi.name {
				break
			}
		}
		if advance == 1 {
			out = append(out, fi)
			continue
		}
		if fj := fields[i+1]; len(fi.index) == len(fj.index) && fi.tag == fj.tag {
			continue
		}
		out = append(out, fi)
	}
	fields = out
	slices.SortFunc(fields, func(a, b structField) int { return slices.Compare(a.index, b.index) })
	return fields
}

// isValidTag reports whether s may be used as a JSON name from a tag.
func isValidTag(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
			// Backslash and quote are reserved; other punctuation is allowed.
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// tagOptions is the part of a json struct tag after the name.
type tagOptions string

// parseTag splits a json struct tag into its name and its options.
func parseTag(tag string) (string, tagOptions) {
	name, opts, _ := strings.Cut(tag, ",")
	return name, tagOptions(opts)
}

// Contains reports whether the comma-separated options include name.
func (o tagOptions) Contains(name string) bool {
	s := string(o)
	for s != "" {
		var opt string
		opt, s, _ = strings.Cut(s, ",")
		if opt == name {
			return true
		}
	}
	return false
}
