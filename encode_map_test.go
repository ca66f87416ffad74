package json

import (
	stdjson "encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"
)

// keyOrder and sortOrder must order keys exactly as strings.Compare does,
// prefixes and all: zero bytes, keys that are prefixes of others, bytes
// above 0x7f, keys that share their packed bytes; with 8, 16 and 32 bits
// for the index.
func TestSortOrder(t *testing.T) {
	alphabet := []string{"", "\x00", "a", "b", "\x7f", "\x80", "\xff", "abcdefgh", "abcdefg"}
	r := rand.New(rand.NewPCG(1, 2))
	key := func() string {
		var sb strings.Builder
		for n := r.IntN(4); n > 0; n-- {
			sb.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		return sb.String()
	}
	for _, n := range []int{0, 1, 2, 3, 12, 13, 40, 255, 256, 257, 1000, 65536, 65537} {
		keys := make([]string, n)
		for i := range keys {
			keys[i] = key()
		}
		bits := orderBits(n)
		order := make([]uint64, n)
		for i, k := range keys {
			order[i] = keyOrder(k, i, bits)
		}
		sortOrder(order, bits, func(i int) string { return keys[i] })
		seen := make([]bool, n)
		for j, o := range order {
			i := int(o & (1<<bits - 1))
			if seen[i] {
				t.Fatalf("n=%d: index %d twice", n, i)
			}
			seen[i] = true
			if j > 0 {
				prev := keys[order[j-1]&(1<<bits-1)]
				if strings.Compare(prev, keys[i]) > 0 {
					t.Fatalf("n=%d: %q before %q", n, prev, keys[i])
				}
			}
		}
	}
}

// Maps whose keys share long prefixes, or are prefixes of each other, come
// out in encoding/json's order, for map[string]any and the other maps.
func TestMarshalMapKeyOrder(t *testing.T) {
	keys := []string{"", "a", "abcdefgh", "abcdefghi", "abcdefgh\x00", "abcdefg", "abcdefgi", "\xff\xfe", "é", "B", "abcdefgha"}
	m1 := map[string]any{}
	m2 := map[string]int{}
	m3 := map[int]bool{}
	for i, k := range keys {
		m1[k], m2[k] = i, i
	}
	for _, i := range []int{-10, -2, 0, 1, 10, 100, 9, 99, 1000, -100} {
		m3[i] = true
	}
	vals := []any{m1, m2, m3, map[string]any{"x": m2}}
	// every size on both sides of where sorting by insertion stops
	r := rand.New(rand.NewPCG(3, 4))
	for n := 0; n <= 30; n++ {
		m := map[string]any{}
		for len(m) < n {
			m[keys[r.IntN(len(keys))]+keys[r.IntN(len(keys))]+keys[r.IntN(len(keys))]] = len(m)
		}
		vals = append(vals, m)
	}
	for _, v := range vals {
		if d := diffMarshalForm(v, "map"); d != "" {
			t.Errorf("Marshal(%v): %s", v, d)
		}
	}
}

// keyOrder packs a key's first bytes as a loop over them would, for every
// length of key.
func TestKeyOrder(t *testing.T) {
	k := "\x01\x82\x03\xf4\x05\x86\x07\xf8\x09"
	for n := 0; n <= len(k); n++ {
		var want uint64
		for j := 0; j < n && j < 8; j++ {
			want |= uint64(k[j]) << (56 - 8*j)
		}
		for _, bits := range []uint{8, 16, 32} {
			w := want>>bits<<bits | 5
			if got := keyOrder(k[:n], 5, bits); got != w {
				t.Errorf("keyOrder(%q, 5, %d) = %#x, want %#x", k[:n], bits, got, w)
			}
		}
	}
}

// Types for TestStringMapsAgree: named keys and values of every layout the
// native string-keyed map encoder takes, and values whose methods decide.
type (
	smKey     string
	smInt     int
	smFloat   float32
	smBool    bool
	smByte    uint8
	smText    string // a string kind with MarshalText: a key is still written as it is
	smValJSON int    // MarshalJSON on the value: called for map values
	smPtrJSON int    // MarshalJSON on the pointer: not called, map values are not addressable
	smNode    struct {
		Name string
		Kids map[string]*smNode `json:",omitempty"`
	}
)

func (t smText) MarshalText() ([]byte, error)     { return []byte("text:" + string(t)), nil }
func (v smValJSON) MarshalJSON() ([]byte, error)  { return []byte(fmt.Sprintf(`{"v":%d}`, int(v))), nil }
func (v *smPtrJSON) MarshalJSON() ([]byte, error) { return []byte(`"pointer"`), nil }

// TestStringMapsAgree: maps with string-kind keys, written by ranging over
// them natively, give encoding/json's bytes and errors in every form and
// mode (in a struct, behind pointers and interfaces, HTML escaping on and
// off): values of every size, pointers (nil too), slices, maps, interfaces,
// named types, methods on values and on pointers, keys that need escapes,
// nil and empty maps, and a cycle through a map.
func TestStringMapsAgree(t *testing.T) {
	one, two := 1, 2
	cases := []any{
		map[string]int{"b": 2, "a": 1, "c": -3, "<&>": 4, "é\u2028": 5, "": 6},
		map[smKey]smInt{"z": 1, "y": 2},
		map[string]int8{"a": -8}, map[string]int16{"a": -16}, map[string]int32{"a": -32}, map[string]int64{"a": -64},
		map[string]uint{"a": 1}, map[string]uint8{"a": 8}, map[string]uint16{"a": 16}, map[string]uint32{"a": 32},
		map[string]uint64{"a": 1 << 63}, map[string]uintptr{"a": 7},
		map[string]float64{"a": 1.5, "b": 1e21, "c": -0.0}, map[string]float32{"a": 1.1}, map[string]smFloat{"x": 3.25},
		map[string]bool{"t": true, "f": false}, map[string]smBool{"t": true}, map[string]smByte{"b": 255},
		map[string]string{"k": "v\n<>", "k2": ""}, map[smText]string{"a": "b"},
		map[string]*int{"p": &one, "q": nil, "r": &two}, map[string]map[string]int{"m": {"x": 1}, "n": nil},
		map[string][]int{"s": {1, 2}, "n": nil, "e": {}}, map[string][]byte{"b": []byte("hi"), "n": nil},
		map[string]any{"a": 1, "b": "x", "c": nil, "d": []any{1}}, map[smKey]any{"k": map[string]any{"z": true}},
		map[string]smValJSON{"a": 1, "b": 2}, map[string]smPtrJSON{"a": 1}, map[string]*smPtrJSON{"a": new(smPtrJSON), "b": nil},
		map[string]float64{"nan": math.NaN()}, map[string]error{"e": nil},
		map[string]int(nil), map[string]string{}, map[smKey]smInt(nil),
	}
	big := map[string]int{}
	for i := range 300 {
		big[fmt.Sprintf("k%03d-%d", (i*37)%300, i)] = i
	}
	cases = append(cases, big)
	for _, c := range cases {
		if d := diffMarshalValue(c); d != "" {
			t.Errorf("%#v: %s", c, d)
		}
	}
	// A cycle through maps of pointers: encoding/json's error, not a hang.
	root := &smNode{Name: "root"}
	root.Kids = map[string]*smNode{"self": root}
	if _, err := Marshal(root); err == nil {
		t.Errorf("Marshal of a cycle through a map: no error")
	} else if _, serr := stdjson.Marshal(root); serr == nil || err.Error() != serr.Error() {
		t.Errorf("Marshal of a cycle through a map: %v; encoding/json: %v", err, serr)
	}
}

// Types for TestNilFieldsAgree: nil maps and slices whose methods write
// them, and key types that make a map unsupported.
type (
	nfMapJSON   map[string]int // MarshalJSON on the value: called on nil
	nfSliceJSON []int          // MarshalJSON on the pointer: called on an addressable nil
	nfMapText   map[string]int // MarshalText on the value
	nfByteText  byte           // a byte whose pointer has MarshalText: []nfByteText is an array
)

func (m nfMapJSON) MarshalJSON() ([]byte, error)    { return []byte(fmt.Sprintf(`{"n":%d}`, len(m))), nil }
func (s *nfSliceJSON) MarshalJSON() ([]byte, error) { return []byte(`"slice"`), nil }
func (m nfMapText) MarshalText() ([]byte, error)    { return []byte("text"), nil }
func (b *nfByteText) MarshalText() ([]byte, error)  { return []byte("b"), nil }

type nilFields struct {
	P   *int
	PS  *smNode
	PP  **int
	I   any
	IS  fmt.Stringer
	E   error
	M   map[string]int
	MI  map[int]string
	MT  map[smText]int
	S   []int
	B   []byte
	BT  []nfByteText
	SC  []chan int
	MJ  nfMapJSON
	SJ  nfSliceJSON
	MX  nfMapText
	PMJ *nfMapJSON
	Q   *int  `json:",string"`
	O   []int `json:",omitempty"`
}

// TestNilFieldsAgree: a struct's nil pointer, interface, map and slice
// fields, written as null in the struct loop without their encoders, give
// encoding/json's bytes and errors, nil and not, in every form and mode
// (in a slice or behind a pointer, where fields are addressable, and in an
// interface, where they are not): the methods that write a nil value are
// still called, and an unsupported map type is still an error.
//
// (MarshalJSONTo on Go 1.27 is jsonto_go127_test.go's.)
func TestNilFieldsAgree(t *testing.T) {
	one := 1
	pone := &one
	full := nilFields{P: &one, PS: &smNode{Name: "n"}, PP: &pone, I: 2, IS: time.Second, E: errors.New("e"),
		M: map[string]int{"a": 1}, MI: map[int]string{1: "x"}, MT: map[smText]int{"k": 1}, S: []int{1}, B: []byte("b"),
		BT: []nfByteText{1}, SJ: nfSliceJSON{}, MJ: nfMapJSON{"a": 1}, MX: nfMapText{}, Q: &one, O: []int{2}}
	for _, v := range []any{
		nilFields{}, &nilFields{}, []nilFields{{}}, full, &full, struct{ A, B *int }{},
	} {
		if d := diffMarshalValue(v); d != "" {
			t.Errorf("%+v: %s", v, d)
		}
	}
	// A map type encoding/json does not support is an error even when nil
	// (Go 1.27's v2-backed encoding/json writes null; jsonpipe keeps the
	// classic error).
	if stdClassic {
		for _, v := range []any{struct{ M map[[2]int]int }{}, struct{ M map[[2]int]int }{M: map[[2]int]int{}}} {
			if d := diffMarshalValue(v); d != "" {
				t.Errorf("%+v: %s", v, d)
			}
		}
	}
	type noMA struct {
		P  *int
		I  any
		M  map[string]int
		S  []int
		MJ nfMapJSON
		SJ nfSliceJSON
		MX nfMapText
		BT []nfByteText
	}
	for _, v := range []any{noMA{}, &noMA{}, []noMA{{}, {}}, map[string]noMA{"k": {}}} {
		if d := diffMarshalValue(v); d != "" {
			t.Errorf("%+v: %s", v, d)
		}
	}
}

// TestMapScratchAfterFailure: what a pooled encodeState keeps of the
// entries and keys maps sort is zero once a call ends, whether its maps
// ended or failed. keep clears only the lengths (what failed maps left):
// clearing the whole room cost every later call as much as the largest
// map the state had written (BenchmarkMarshalAfterLargeMap on AMD EPYC:
// 38 µs for a struct of two ints after one map of 100k members, 51 ns
// with this change), so each map must clear its own entries when it ends.
func TestMapScratchAfterFailure(t *testing.T) {
	zero := func(t *testing.T, es *encodeState) {
		t.Helper()
		for i, e := range es.anyEntries[:cap(es.anyEntries)] {
			if e != (anyEntry{}) {
				t.Fatalf("entry %d kept: %+v", i, e)
			}
		}
		for i, k := range es.keys[:cap(es.keys)] {
			if k != "" {
				t.Fatalf("key %d kept: %q", i, k)
			}
		}
	}
	type withKeys map[int]any
	big := map[string]any{"strings": map[string]string{}, "ints": withKeys{}}
	for i := range 100 {
		big[strconv.Itoa(i)] = i
		big["strings"].(map[string]string)[strconv.Itoa(i)] = "x"
		big["ints"].(withKeys)[i] = map[string]any{"a": i, "b": 2, "c": 3}
	}
	es := &encodeState{}
	b, err := es.encodeAny(nil, big)
	if err != nil {
		t.Fatal(err)
	}
	// Without the fast paths a map[string]any is written as the other maps.
	if len(es.anyEntries) != 0 || len(es.keys) != 0 || fastPaths && cap(es.anyEntries) == 0 || cap(es.keys) == 0 {
		t.Fatalf("after the maps: %d entries and %d keys, room for %d and %d", len(es.anyEntries), len(es.keys), cap(es.anyEntries), cap(es.keys))
	}
	zero(t, es)
	es.keep(b)
	zero(t, es)

	// Maps that fail leave their entries and keys: keep clears them.
	failing := map[string]any{"a": 1, "b": withKeys{1: 2, 3: make(chan int)}, "c": 3}
	es = &encodeState{}
	b, err = es.encodeAny(nil, failing)
	if _, ok := err.(*UnsupportedTypeError); !ok {
		t.Fatalf("got %v, want an UnsupportedTypeError", err)
	}
	if fastPaths && len(es.anyEntries) == 0 || len(es.keys) == 0 {
		t.Fatalf("the failed maps left %d entries and %d keys: the test no longer covers keep", len(es.anyEntries), len(es.keys))
	}
	es.keep(b)
	zero(t, es)
}

// BenchmarkMarshalAfterLargeMap: a small value marshaled after one large
// map (of the same type, for the map; a struct, after a map[string]any),
// on the same pooled state as a service's calls: the large map's room is
// no cost of the calls after it.
func BenchmarkMarshalAfterLargeMap(b *testing.B) {
	type small struct{ A, B int }
	for _, n := range []int{0, 100000} {
		b.Run("struct-after-any/"+strconv.Itoa(n), func(b *testing.B) {
			m := map[string]any{}
			for i := range n {
				m[strconv.Itoa(i)] = i
			}
			if _, err := Marshal(m); err != nil {
				b.Fatal(err)
			}
			v := small{1, 2}
			for b.Loop() {
				if _, err := Marshal(v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("intmap/"+strconv.Itoa(n), func(b *testing.B) {
			m := map[int]string{}
			for i := range n {
				m[i] = "x"
			}
			if _, err := Marshal(m); err != nil {
				b.Fatal(err)
			}
			v := map[int]string{1: "a", 2: "b", 3: "c"}
			for b.Loop() {
				if _, err := Marshal(v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
