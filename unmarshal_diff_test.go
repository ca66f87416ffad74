package json

import (
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"
)

// Differential testing of Unmarshal and Decode against encoding/json: for an
// input and a target type, both packages must produce equal values and
// equal errors (message, Offset, Struct, Field, type).

// The differential targets: every kind of decoder, with tags, embedding,
// methods and the shared types.

type diffEmbedded struct {
	E      int
	Shadow string
}

type DiffPtrEmbed struct {
	P  string `json:"p"`
	PX []int
}

type diffCustom struct{ Raw string }

func (c *diffCustom) UnmarshalJSON(b []byte) error {
	if string(b) == `"fail"` {
		return errors.New("diffCustom: fail")
	}
	c.Raw = string(b)
	return nil
}

type diffText struct{ S string }

func (t *diffText) UnmarshalText(b []byte) error {
	if string(b) == "bad" {
		return errors.New("diffText: bad")
	}
	t.S = "text:" + string(b)
	return nil
}

// diffKey is a string kind without methods: a map key like string.
type diffKey string

type diffTextKey string

func (k *diffTextKey) UnmarshalText(b []byte) error {
	*k = diffTextKey("k:" + string(b))
	return nil
}

type diffStruct struct {
	A  int     `json:"a"`
	B  string  `json:"b,omitempty"`
	C  float64 //
	D  *int
	E  []int
	F  map[string]int
	G  map[int]string
	H  any
	I  Number
	J  RawMessage
	K  [3]uint8
	L  []byte
	M  bool
	N  *diffStruct
	O  diffCustom
	Q  int    `json:",string"`
	QB bool   `json:"qb,string"`
	R  string `json:"-"`
	S  uint16
	T  int8
	U  float32
	diffEmbedded
	*DiffPtrEmbed
	V   map[diffTextKey]int
	W   diffText
	X   []any
	Y   *diffText
	Z   map[string]any
	Ünï string
	KK  int `json:"k"` // "K" matches K first, exactly
}

type diffSmall struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Tags  []string
	Score float64
	Next  *diffSmall `json:"next"`
	When  time.Time  `json:"when"`
}

// Flat targets: decoding into them, even prefilled, is a single
// speculative pass undone on a syntax error.
type diffFlat struct {
	A  int `json:"a"`
	B  string
	C  [2]float64
	D  bool
	E  struct{ X uint8 }
	ID int64 `json:"id"`
	Q  int   `json:",string"`
	N  Number
}

type diffFlatNoPointers struct {
	A  int `json:"a"`
	C  [3]float32
	D  bool
	ID int64 `json:"id"`
	S  uint16
}

// diffOrder has names whose keys usually come in order, spelt as the name
// or camelCase (the expectKey fast path), one a prefix of another.
type diffOrder struct {
	Hi      int
	There   int
	Comment string
	HiThere string `json:"hi_there"`
	XY      string `json:"x y"`
	Ü       int
	Long9   int `json:"long_nam9"` // one byte past a word
	F       float64
	G       []float64
	// `"name":` fits two words up to 13 bytes of name.
	LongName12345 int
	Thirteen      string `json:"thirteen_byte"`
	Fourteen      string `json:"fourteen_bytes"`
}

// diffNullable has the fields scalarNext reads whole, nulls included:
// pointers to a scalar (allocated, written through, or set to nil) and
// scalars (left as they are by null).
type diffNullable struct {
	PI *int64   `json:"pi"`
	PN *int     `json:"pn"`
	PF *float64 `json:"pf"`
	PS *string  `json:"ps"`
	I  int64    `json:"i"`
	F  float64  `json:"f"`
	S  string   `json:"s"`
	B  bool     `json:"b"`
	PB *bool    `json:"pb"`
	PU *uint8   `json:"pu"` // not read whole: the decoder's path
}

type diffCounts map[string]int64

// diffPass is a struct the typed one pass takes (passable): scalars,
// pointers to scalars, a Number, structs of them nested and embedded,
// slices of them (and of slices), any, maps with string keys, pointers,
// arrays, time.Time, RawMessage, itself (Next), and names that fit expectKey's
// words, pass them by a byte, or fold.
type diffPass struct {
	ID      int64  `json:"id"`
	Name    string `json:"name"`
	Active  bool
	Score   float64
	N       Number
	PI      *int64   `json:"pi"`
	PS      *string  `json:"ps"`
	PF      *float64 `json:"pf"`
	Count   int
	HiThere string `json:"hi_there"`
	Long    string `json:"fourteen_bytes"`
	Ü       int
	Inner   struct {
		X    int64
		Y    string `json:"y"`
		Deep struct{ Z bool }
	} `json:"inner"`
	diffPassEmbedded
	*DiffPassPtr
	*diffPassHidden
	Tags  []string       `json:"tags"`
	Pts   [][]float64    `json:"pts"`
	Parts []DiffPassPart `json:"parts"`
	Ns    []int
	Flags []bool
	Nums  []Number
	Any   any                      `json:"any"`
	M     map[string]int           `json:"m"`
	MS    map[diffKey]DiffPassPart `json:"ms"`
	MA    map[string]any           `json:"ma"`
	P     *DiffPassPart            `json:"p"`
	PP    []*DiffPassPart          `json:"pp"`
	Anys  []any                    `json:"anys"`
	When  time.Time                `json:"when"`
	WhenP *time.Time               `json:"whenp"`
	Pair  [2]float64               `json:"pair"`
	Next  *diffPass                `json:"next"`
	Raw   RawMessage               `json:"raw"`
	Raws  []RawMessage             `json:"raws"`
	RawP  *RawMessage              `json:"rawp"`
	RawM  map[string]RawMessage    `json:"rawm"`
}

type diffPassEmbedded struct {
	E1 string `json:"e1"`
	E2 int64
}

// DiffPassPtr is embedded by pointer, and embeds another.
type DiffPassPtr struct {
	PE  string `json:"pe"`
	PEs []int  `json:"pes"`
	*DiffPassPtr2
}

type DiffPassPtr2 struct {
	PE2 *int64 `json:"pe2"`
}

// diffPassHidden is embedded by a pointer to an unexported type, which
// encoding/json cannot set: a member of it is an error.
type diffPassHidden struct {
	Hid int `json:"hid"`
}

// diffNarrow has a field of every number kind that scalarAt does not read
// (narrowAt's): plain, named, behind a pointer, in a slice, an array and a
// map's values.
type diffNarrow struct {
	I8  int8               `json:"i8"`
	I16 int16              `json:"i16"`
	I32 int32              `json:"i32"`
	U   uint               `json:"u"`
	U8  uint8              `json:"u8"`
	U16 uint16             `json:"u16"`
	U32 uint32             `json:"u32"`
	U64 uint64             `json:"u64"`
	Up  uintptr            `json:"up"`
	F32 float32            `json:"f32"`
	K   diffLevel          `json:"k"`
	P   *int16             `json:"p"`
	S   []uint32           `json:"s"`
	A   [2]int8            `json:"a"`
	M   map[string]float32 `json:"m"`
	X   int64              `json:"x"`
}

// diffLevel is a named number kind without methods.
type diffLevel uint16

// diffTargets returns constructors of fresh targets, by name.
func diffTargets() []struct {
	name string
	new  func() any
} {
	return []struct {
		name string
		new  func() any
	}{
		{"any", func() any { return new(any) }},
		{"map", func() any { return new(map[string]any) }},
		{"slice", func() any { return new([]any) }},
		{"ints", func() any { return new([]int) }},
		{"int", func() any { return new(int) }},
		{"uint8", func() any { return new(uint8) }},
		{"float32", func() any { return new(float32) }},
		{"string", func() any { return new(string) }},
		{"bytes", func() any { return new([]byte) }},
		{"array", func() any { return new([2]int) }},
		{"ptr", func() any { return new(*int) }},
		{"number", func() any { return new(Number) }},
		{"numbers", func() any { return new([]Number) }},
		{"raw", func() any { return new(RawMessage) }},
		{"intmap", func() any { return new(map[int]any) }},
		// maps from string to a scalar: decoded as Go maps of their type
		{"strintmap", func() any { return new(map[string]int) }},
		{"strstrmap", func() any { return new(map[string]string) }},
		{"strboolmap", func() any { return new(map[string]bool) }},
		{"strfloatmap", func() any { return new(map[string]float64) }},
		{"countsmap", func() any { return new(diffCounts) }},
		{"countsmaps", func() any { return new([]map[string]int64) }},
		{"uintmap", func() any { return new(map[uint8]string) }},
		// maps from an integer to anything else: gathered, then made at
		// their size (mapGathered), their keys parsed in place (intKeyAt)
		{"intvals", func() any { return new(map[int32]diffSmall) }},
		{"uintlists", func() any { return new(map[diffLevel][]int) }},
		{"textmap", func() any { return new(map[diffTextKey]any) }},
		{"custom", func() any { return new(diffCustom) }},
		{"text", func() any { return new(diffText) }},
		{"struct", func() any { return new(diffStruct) }},
		{"structs", func() any { return new([]diffStruct) }},
		{"small", func() any { return new(diffSmall) }},
		{"smallmap", func() any { return new(map[string]*diffSmall) }},
		// maps from a string to anything else: gathered, then made at their size
		{"smallvals", func() any { return new(map[string]diffSmall) }},
		{"flatvals", func() any { return new(map[diffKey]diffFlat) }},
		{"slicemap", func() any { return new(map[string][]int) }},
		{"custommap", func() any { return new(map[string]diffCustom) }},
		{"mapmap", func() any { return new(map[string]map[string]any) }},
		{"iface", func() any { return new(fmt.Stringer) }},
		{"flat", func() any { return new(diffFlat) }},
		{"flatnp", func() any { return new(diffFlatNoPointers) }},
		{"flats", func() any { return new([3]diffFlat) }},
		{"order", func() any { return new(diffOrder) }},
		{"floats", func() any { return new([]float64) }},
		{"strings", func() any { return new([]string) }},
		{"textstrings", func() any { return new([]diffTextKey) }}, // a string kind with UnmarshalText: no one-pass read
		{"keystrings", func() any { return new([]diffKey) }},      // a named string kind: the same layout as []string
		{"stringlists", func() any { return new([][]string) }},
		{"stringpair", func() any { return new([2]string) }},
		{"floatgrid", func() any { return new([][3]float64) }},
		{"orders", func() any { return new([]diffOrder) }},
		{"nullable", func() any { return new(diffNullable) }},
		{"nullables", func() any { return new([]diffNullable) }},
		{"pass", func() any { return new(diffPass) }},
		{"passes", func() any { return new([]diffPass) }},
		{"passflat", func() any { return new(struct{ A, B int64 }) }},
		{"quoted", func() any { return new(quotedPass) }}, // ",string" fields the pass reads in their strings
		{"quoteds", func() any { return new([]quotedPass) }},
		{"narrow", func() any { return new(diffNarrow) }}, // number kinds the pass reads by narrowAt
		{"narrows", func() any { return new([]diffNarrow) }},
		{"quotednarrow", func() any { return new(quotedNarrowPass) }}, // ",string" narrow kinds: narrowQuoted
		{"quotednarrows", func() any { return new([]quotedNarrowPass) }},
	}
}

// prefill makes a target non-zero (so decoding takes the validate-first
// path) in the same way for both packages.
const prefillJSON = `{"a":7,"E":[1,2,3,4],"F":{"x":1},"N":{"a":1},"Shadow":"s","p":"q","X":[1,"2"],"id":5,"Tags":["t","u","v"],"G":[9,9,9],"pi":1,"pn":2,"pf":3.5,"ps":"p","i":4,"f":5.5,"s":"s","b":true,"pb":true,"pu":6}`

func diffUnmarshal(t *testing.T, in []byte, prefill bool) {
	t.Helper()
	for _, tg := range diffTargets() {
		want, got := tg.new(), tg.new()
		if prefill {
			stdjson.Unmarshal([]byte(prefillJSON), want)
			stdjson.Unmarshal([]byte(prefillJSON), got)
		}
		werr := stdjson.Unmarshal(in, want)
		gerr := Unmarshal(in, got)
		if !sameError(gerr, werr) {
			t.Fatalf("Unmarshal(%q) into %s (prefill %v):\n got error %s\nwant error %s", in, tg.name, prefill, describeError(gerr), describeError(werr))
		}
		if !sameValue(got, want, gerr, werr) {
			t.Fatalf("Unmarshal(%q) into %s (prefill %v):\n got %#v\nwant %#v", in, tg.name, prefill, deref(got), deref(want))
		}
		if prefill {
			continue
		}
		// Again into a fresh target of the type just decoded into: the
		// call that takes the fast paths of a type seen (the typed one
		// pass, decode_struct_bytes.go).
		again := tg.new()
		aerr := Unmarshal(in, again)
		if !sameError(aerr, werr) {
			t.Fatalf("Unmarshal(%q) into %s, its type's second call:\n got error %s\nwant error %s", in, tg.name, describeError(aerr), describeError(werr))
		}
		if !sameValue(again, want, aerr, werr) {
			t.Fatalf("Unmarshal(%q) into %s, its type's second call:\n got %#v\nwant %#v", in, tg.name, deref(again), deref(want))
		}
	}
}

func deref(v any) any { return reflect.ValueOf(v).Elem().Interface() }

// diffDecode decodes a stream of values from in with both packages, the
// input delivered by mkReader, and compares every result.
func diffDecode(t *testing.T, in []byte, target string, opts string, mkReader func([]byte) io.Reader) {
	t.Helper()
	var newT func() any
	for _, tg := range diffTargets() {
		if tg.name == target {
			newT = tg.new
		}
	}
	sd := stdjson.NewDecoder(strings.NewReader(string(in)))
	od := NewDecoder(mkReader(in))
	if strings.Contains(opts, "n") {
		sd.UseNumber()
		od.UseNumber()
	}
	if strings.Contains(opts, "u") {
		sd.DisallowUnknownFields()
		od.DisallowUnknownFields()
	}
	for i := 0; i < 20; i++ {
		want, got := newT(), newT()
		if strings.Contains(opts, "p") {
			stdjson.Unmarshal([]byte(prefillJSON), want)
			stdjson.Unmarshal([]byte(prefillJSON), got)
		}
		werr := sd.Decode(want)
		gerr := od.Decode(got)
		if !sameError(gerr, werr) {
			t.Fatalf("Decode #%d of %q into %s (%s):\n got error %s\nwant error %s", i, in, target, opts, describeError(gerr), describeError(werr))
		}
		if !sameValue(got, want, gerr, werr) {
			t.Fatalf("Decode #%d of %q into %s (%s):\n got %#v\nwant %#v", i, in, target, opts, deref(got), deref(want))
		}
		if stopsStream(gerr, werr) {
			return
		}
	}
}

// TestNullableWriteThrough: a non-nil pointer field is decoded into, as
// encoding/json does (the value it points to changes, and stays shared),
// and null sets it to nil without touching what it pointed to.
func TestNullableWriteThrough(t *testing.T) {
	for _, decode := range []struct {
		name string
		fn   func([]byte, any) error
	}{{"jsonpipe", Unmarshal}, {"encoding/json", stdjson.Unmarshal}} {
		i, n, f, s, b := int64(1), 2, 3.5, "s", false
		v := diffNullable{PI: &i, PN: &n, PF: &f, PS: &s, PB: &b}
		if err := decode.fn([]byte(`{"pi":10,"pn":20,"pf":30.5,"ps":"t","pb":true}`), &v); err != nil {
			t.Fatal(err)
		}
		if i != 10 || n != 20 || f != 30.5 || s != "t" || !b || v.PI != &i || v.PN != &n || v.PF != &f || v.PS != &s || v.PB != &b {
			t.Errorf("%s: got %d %d %v %q %v, want the values written through the pointers", decode.name, i, n, f, s, b)
		}
		if err := decode.fn([]byte(`{"pi":null,"pn":null,"pf":null,"ps":null,"pb":null}`), &v); err != nil {
			t.Fatal(err)
		}
		if v != (diffNullable{}) || i != 10 || s != "t" || !b {
			t.Errorf("%s: after nulls %+v, %d %q", decode.name, v, i, s)
		}
	}
}

// TestUnmarshalDiffScalarMaps: the maps from string to a scalar, which are
// decoded as Go maps of their type, on what makes maps differ: type errors
// in values, nulls, repeated and escaped keys, a null map, merging into a
// map that has entries.
func TestUnmarshalDiffScalarMaps(t *testing.T) {
	for _, in := range []string{
		`{"a":1,"b":2,"a":3}`, `{"a":"x","b":true,"c":null,"d":1.5,"e":-0,"f":1e400}`,
		`{"\u00e9":1,"a\"b":2,"":3}`, `null`, `{}`, `[1]`, `"s"`, `{"a":[1,2],"b":{"c":1},"c":7}`,
		`{"a":9223372036854775808,"b":"\ud800"}`, `{"a":1,`, `{"a" 1}`, `{"a":tru}`,
	} {
		diffUnmarshal(t, []byte(in), false)
		diffUnmarshal(t, []byte(in), true)
	}
}
