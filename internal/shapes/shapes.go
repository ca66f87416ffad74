// Package shapes generates the shape sweep: JSON along named dimensions
// (string lengths and kinds, number kinds and the Go types they go into,
// record widths, optional, absent, unknown and case-folded members,
// nesting, slices, maps, embedded structs, dense booleans and nulls), each
// case with the Go type a user would write for it, and each in four forms:
//
//	Doc     one document of about DocSize bytes: a JSON array of records
//	Docs    many distinct small documents, MinDoc to MaxDoc bytes each
//	        (arrays of consecutive records), totalling about DocSize
//	NDJSON  the records one per line, about DocSize bytes, for one Decoder
//	Pretty  Doc pretty-printed, as encoding/json's Indent with two spaces
//	        writes it (and jq, and JSON.stringify(v, null, 2)): a newline
//	        and the indentation before every member and element, a space
//	        after every colon
//
// A case writes record i from its own generator seeded by (the case's
// seed, i), so every form is deterministic, a smaller build is a prefix of a
// larger one, and values do not repeat between records (random strings of
// 8 bytes or more, floats, ids), except where the shape itself repeats them:
// small ints, booleans, a short string's few spellings.
//
// The decode targets are *[]T for a document (NewSlice) and *T for an
// NDJSON line (NewRecord), T being the case's record type, declared in this
// package. The comparisons with encoding/json and the other libraries, and
// the benchmarks, live in the compare module (compare/shapes).
package shapes

import (
	"bytes"
	"encoding/json"
	"hash/fnv"
	"math/rand/v2"
	"reflect"
	"sync"
)

// Sizes of the forms.
const (
	DocSize = 1 << 20 // Doc, and the totals of Docs and NDJSON, in the benchmarks
	MinDoc  = 200     // a small document is at least this long...
	MaxDoc  = 2048    // ...and at most this, unless one record is longer
)

// Seed is mixed into every case's seed: change it and every input changes.
const Seed = 36 // the issue that asked for the sweep

// A Case is one named point of one dimension.
type Case struct {
	// Name is benchstat-friendly: lower case, digits and '-', no '/' or
	// '=', e.g. "str-len40-esc10", "num-price-float64", "rec-fields12".
	Name string
	Dim  string // "str", "num" or "rec"
	// About says in a few words what the records hold.
	About string
	// Type is the record's Go type, T.
	Type reflect.Type
	// NewSlice returns a fresh *[]T (a document's target), NewRecord a
	// fresh *T (an NDJSON line's).
	NewSlice, NewRecord func() any

	seed uint64
	gen  func(e *enc, r *rand.Rand)
}

// newCase makes the case name, whose records, of type T, gen writes.
func newCase[T any](dim, name, about string, gen func(e *enc, r *rand.Rand)) *Case {
	h := fnv.New64a()
	h.Write([]byte(name))
	return &Case{
		Name: name, Dim: dim, About: about,
		Type:      reflect.TypeFor[T](),
		NewSlice:  func() any { return new([]T) },
		NewRecord: func() any { return new(T) },
		seed:      h.Sum64() ^ Seed,
		gen:       gen,
	}
}

var (
	casesOnce sync.Once
	cases     []*Case
)

// Cases returns every case: strings, then numbers, then records.
func Cases() []*Case {
	casesOnce.Do(func() {
		cases = append(cases, stringCases()...)
		cases = append(cases, numberCases()...)
		cases = append(cases, recordCases()...)
	})
	return cases
}

// Lookup returns the case called name, or nil.
func Lookup(name string) *Case {
	for _, c := range Cases() {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// AppendRecord appends the JSON text of record i to dst.
func (c *Case) AppendRecord(dst []byte, i int) []byte {
	e := enc{b: dst, first: true}
	c.gen(&e, rand.New(rand.NewPCG(c.seed, uint64(i))))
	return e.b
}

// Forms is one case's input, in each form.
type Forms struct {
	Doc    []byte   // a JSON array of records
	Docs   [][]byte // small JSON arrays of consecutive records
	NDJSON []byte   // one record a line, each line ending in '\n'
	Pretty []byte   // Doc indented, two spaces a level
}

// Build returns the case's forms, each of about size bytes (at least one
// record): Doc and NDJSON hold the first records up to size bytes (Pretty
// the same records, so it is longer: 1.0 to 1.9 times Doc), Docs
// the first records again, grouped into documents whose lengths are
// spread from MinDoc to MaxDoc (the last one taking records past size if
// it needs them to reach its length).
func (c *Case) Build(size int) Forms {
	var recs []byte
	var ends []int // ends[i] is where record i ends in recs
	rec := func(i int) []byte {
		for len(ends) <= i {
			recs = c.AppendRecord(recs, len(ends))
			ends = append(ends, len(recs))
		}
		start := 0
		if i > 0 {
			start = ends[i-1]
		}
		return recs[start:ends[i]]
	}

	var f Forms
	f.Doc = append(make([]byte, 0, size+size/16), '[')
	f.NDJSON = make([]byte, 0, size+size/16)
	for i := 0; len(f.NDJSON) < size; i++ {
		if i > 0 {
			f.Doc = append(f.Doc, ',')
		}
		f.Doc = append(f.Doc, rec(i)...)
		f.NDJSON = append(append(f.NDJSON, rec(i)...), '\n')
	}
	f.Doc = append(f.Doc, ']')
	var pretty bytes.Buffer
	pretty.Grow(2 * len(f.Doc))
	if err := json.Indent(&pretty, f.Doc, "", "  "); err != nil {
		panic("shapes: " + c.Name + " wrote JSON that Indent rejects: " + err.Error())
	}
	f.Pretty = pretty.Bytes()

	// Each small document aims at a length drawn from MinDoc to MaxDoc,
	// takes records while it is shorter, and stops before MaxDoc.
	sizes := rand.New(rand.NewPCG(c.seed, ^uint64(0)))
	for i, total := 0, 0; total < size; {
		target := MinDoc + sizes.IntN(MaxDoc-MinDoc+1)
		d := []byte{'['}
		for len(d) < target && (len(d) == 1 || len(d)+1+len(rec(i))+1 <= MaxDoc) {
			if len(d) > 1 {
				d = append(d, ',')
			}
			d = append(d, rec(i)...)
			i++
		}
		d = append(d, ']')
		f.Docs = append(f.Docs, d)
		total += len(d)
	}
	return f
}

// Lines splits NDJSON into its lines, without their '\n'.
func Lines(ndjson []byte) [][]byte {
	var lines [][]byte
	for len(ndjson) > 0 {
		i := 0
		for ndjson[i] != '\n' {
			i++
		}
		lines = append(lines, ndjson[:i])
		ndjson = ndjson[i+1:]
	}
	return lines
}
