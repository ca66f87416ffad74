package json

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/jsonpipe/json/internal/corpus"
)

// Issue 18's allocation claims for the encoder: Marshal of a typed value
// whose types have no MarshalJSON or MarshalText costs one allocation (the
// result), and Encoder.Encode into a reused writer costs none, once the
// per-type encoders are built and the pools warm.

type allocSmall struct {
	ID    int64             `json:"id"`
	Name  string            `json:"name"`
	Tags  []string          `json:"tags,omitempty"`
	Score float64           `json:"score"`
	Ok    bool              `json:"ok"`
	Next  *allocSmall       `json:"next,omitempty"`
	Attrs map[string]string `json:"attrs"`
	Any   any               `json:"any"`
}

// allocRow has a field of each kind the encoders treat apart: integer map
// keys, ,string, []byte, arrays, pointers and interfaces.
type allocRow struct {
	ID     int64             `json:"id"`
	Name   string            `json:"name"`
	Score  float64           `json:"score,omitempty"`
	OK     bool              `json:"ok"`
	Tags   []string          `json:"tags"`
	Next   *allocRow         `json:"next,omitempty"`
	Attrs  map[string]string `json:"attrs"`
	Counts map[int]int32     `json:"counts"`
	Extra  any               `json:"extra"`
	Bytes  []byte            `json:"bytes"`
	Fixed  [2]uint16         `json:"fixed"`
	Quoted int               `json:"quoted,string"`
}

func allocValues(t *testing.T) map[string]any {
	small := &allocSmall{ID: 1, Name: "a <b> & \"c\"", Tags: []string{"x", "y"}, Score: 1.5e-7, Ok: true,
		Next: &allocSmall{ID: 2, Attrs: map[string]string{"k": "v"}}, Attrs: map[string]string{"b": "2", "a": "1"}, Any: "s"}
	row := &allocRow{
		ID: 7, Name: "<row>", Score: 1.5e-7, OK: true, Tags: []string{"a", "b"},
		Next:   &allocRow{ID: 8},
		Attrs:  map[string]string{"z": "1", "a": "2"},
		Counts: map[int]int32{10: 1, 9: 2, -1: 3},
		Extra:  map[string]any{"k": []any{1.0, "x", nil, true}},
		Bytes:  []byte("bytes"),
		Quoted: 42,
	}
	vs := map[string]any{
		"small": small, "small slice": []allocSmall{*small, *small},
		"row": row, "rows": &[]allocRow{*row, *row},
		"any":     map[string]any{"a": []any{"x", 2.5, map[string]any{"b": false}}},
		"strings": &[]string{"tab\t", "quote\"", "é", "\u2028"},
		// Maps of string keys to structs, in and out of the map's slots
		// (wordsMapEncoder), and a set.
		"struct maps": map[string]wmName{"fra": {"France", "République française"}, "deu": {"Deutschland", ""}},
		"big maps":    map[string]wmBig{"a": {Tags: [20]string{"x"}}, "b": {N: 1.5}},
		"set":         map[string]struct{}{"b": {}, "a": {}},
	}
	for _, f := range corpus.All(t) {
		if v := corpusValue(t, f, "typed"); v != nil {
			vs[f.Name] = v
		}
	}
	return vs
}

func skipAllocs(t *testing.T) {
	t.Helper()
	if raceBuild {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	if marshalForwards {
		t.Skip("Marshal still forwards to encoding/json; the allocation claims are our own encoder's")
	}
}

func TestMarshalAllocs(t *testing.T) {
	skipAllocs(t)
	// The claim is the steady state's. A collection empties the sync.Pool
	// the buffers come from, and large results (citm_catalog's indented
	// output) trigger one every few calls: then a call regrows its buffer,
	// and five runs can average 2. Collect before, not during.
	runtime.GC()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	for name, v := range allocValues(t) {
		t.Run(name, func(t *testing.T) {
			if _, err := Marshal(v); err != nil { // builds the encoders, warms the pools
				t.Fatal(err)
			}
			if n := testing.AllocsPerRun(5, func() { Marshal(v) }); n != 1 {
				t.Errorf("Marshal: %v allocations, want 1 (the result)", n)
			}
			MarshalIndent(v, "", "\t")
			var out []byte
			if n := testing.AllocsPerRun(5, func() { out, _ = MarshalIndent(v, "", "\t") }); n != 1 {
				t.Errorf("MarshalIndent: %v allocations, want 1 (the result)", n)
			}
			if cap(out) > len(out)+len(out)/8+64 {
				t.Errorf("MarshalIndent: a result of %d bytes holds %d", len(out), cap(out))
			}
		})
	}
}

func TestEncoderEncodeAllocs(t *testing.T) {
	skipAllocs(t)
	for name, v := range allocValues(t) {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			enc := NewEncoder(&buf)
			if err := enc.Encode(v); err != nil {
				t.Fatal(err)
			}
			if n := testing.AllocsPerRun(5, func() {
				buf.Reset()
				enc.Encode(v)
			}); n != 0 {
				t.Errorf("Encoder.Encode into a reused bytes.Buffer: %v allocations, want 0", n)
			}
			enc.SetIndent("", "\t")
			enc.Encode(v)
			if n := testing.AllocsPerRun(5, func() {
				buf.Reset()
				enc.Encode(v)
			}); n != 0 {
				t.Errorf("Encoder.Encode with SetIndent into a reused bytes.Buffer: %v allocations, want 0", n)
			}
			// One Encode per Encoder, as an HTTP handler writes its
			// response: at most the Encoder (none where it stays on the
			// stack), its state from the pool.
			if n := testing.AllocsPerRun(5, func() {
				buf.Reset()
				NewEncoder(&buf).Encode(v)
			}); n > 1 {
				t.Errorf("NewEncoder(w).Encode(v): %v allocations, want at most 1 (the Encoder)", n)
			}
			if n := testing.AllocsPerRun(5, func() {
				buf.Reset()
				enc := NewEncoder(&buf)
				enc.SetIndent("", "\t")
				enc.Encode(v)
			}); n > 1 {
				t.Errorf("NewEncoder(w) with SetIndent, then Encode(v): %v allocations, want at most 1 (the Encoder)", n)
			}
		})
	}
}

// Compact and Indent into a buffer that has the room write in place: no
// allocation, whatever the input's whitespace.
func TestCompactIndentAllocs(t *testing.T) {
	for _, f := range corpus.All(t) {
		var buf bytes.Buffer
		if err := Indent(&buf, f.Data, "", "  "); err != nil { // the larger output
			t.Fatal(err)
		}
		buf.Grow(2*buf.Len() + len(f.Data))
		if n := testing.AllocsPerRun(5, func() {
			buf.Reset()
			if err := Compact(&buf, f.Data); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("Compact(%s): %v allocations, want 0", f.Name, n)
		}
		if n := testing.AllocsPerRun(5, func() {
			buf.Reset()
			if err := Indent(&buf, f.Data, "", "  "); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("Indent(%s): %v allocations, want 0", f.Name, n)
		}
	}
}

// An interface holding a struct, array, slice, RawMessage or map value,
// or a pointer, is encoded where the interface holds it: Encode costs
// nothing and Marshal only its result. (Without the fast paths a value
// that needs an address is copied first.)
func TestEncodeValueInInterfaceAllocs(t *testing.T) {
	skipAllocs(t)
	small := allocSmall{ID: 1, Name: "n", Tags: []string{"x"}, Attrs: map[string]string{"a": "1"}}
	vs := map[string]any{
		"struct":     small,
		"array":      [3]int{1, 2, 3},
		"RawMessage": RawMessage(`{"a":[1,2]}`),
		"in []any":   []any{small, [2]string{"a", "b"}},
		// a slice is read through the interface's pointer to it, a
		// pointer's encoder given the pointer itself (not reflect's path)
		"slice":   []allocSmall{small, small},
		"pointer": &small,
		// maps held by an interface, through the native string-keyed map
		// encoder's value path: the map pointer itself, no word on the heap
		"map[string]int":        map[string]int{"b": 2, "a": 1},
		"maps in []any":         []any{map[string]float64{"x": 1}, map[string][]int{"y": {2}}},
		"map in map[string]any": map[string]any{"m": map[string]*int{"z": nil}},
	}
	if !fastChecks(t, "encoding a value where the interface holds it") {
		return
	}
	for name, v := range vs {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			enc := NewEncoder(&buf)
			if err := enc.Encode(v); err != nil {
				t.Fatal(err)
			}
			n := testing.AllocsPerRun(10, func() {
				buf.Reset()
				enc.Encode(v)
			})
			if n != 0 {
				t.Errorf("Encoder.Encode of a %s value: %v allocations, want 0", name, n)
			}
			if n := testing.AllocsPerRun(10, func() { Marshal(v) }); n != 1 {
				t.Errorf("Marshal of a %s value: %v allocations, want 1 (the result)", name, n)
			}
		})
	}
}

// reentrant's MarshalJSON encodes its inner value with the Encoder that
// is encoding it, into another buffer: each call must get its own state.
type reentrant struct {
	enc   *Encoder
	inner any
}

func (r reentrant) MarshalJSON() ([]byte, error) {
	if err := r.enc.Encode(r.inner); err != nil {
		return nil, err
	}
	return []byte(`"outer"`), nil
}

// TestEncoderReentrant: an Encoder keeps its state between calls, and a
// MarshalJSON method that calls Encode on the same Encoder mid-call gets a
// state of its own, so neither call's bytes are overwritten.
func TestEncoderReentrant(t *testing.T) {
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	v := []any{"a", reentrant{enc, map[string]int{"k": 1}}, "b", reentrant{enc, []string{"x", "y"}}}
	for range 3 {
		buf.Reset()
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		const want = "{\"k\":1}\n[\"x\",\"y\"]\n[\"a\",\"outer\",\"b\",\"outer\"]\n"
		if buf.String() != want {
			t.Fatalf("wrote %q, want %q", buf.String(), want)
		}
	}
}

// BenchmarkMarshalSmall: what one Marshal call (and Encode, on one Encoder
// and on an Encoder each) costs beside its bytes, on the small values a
// service writes one at a time (a number, a small record by value and
// through a pointer, a slice of one record and of 20), so that the work
// around the encoder (the pooled state, the lookup of the type's encoder,
// the copy of the result) shows.
func BenchmarkMarshalSmall(b *testing.B) {
	type row struct {
		Code  string `json:"code"`
		Name  string `json:"name"`
		City  string `json:"city"`
		Count int64  `json:"count"`
	}
	r := row{"FR", "Lyon", "Rhône", 42}
	rows := make([]row, 20)
	for i := range rows {
		rows[i] = row{"DE", "Köln", fmt.Sprint("city", i), int64(i * 7)}
	}
	for _, c := range []struct {
		name string
		v    any
	}{{"int", 12345}, {"struct", r}, {"pointer", &r}, {"slice-1", rows[:1]}, {"slice-20", rows}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Marshal(c.v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/encode", func(b *testing.B) {
			enc := NewEncoder(io.Discard)
			b.ReportAllocs()
			for b.Loop() {
				if err := enc.Encode(c.v); err != nil {
					b.Fatal(err)
				}
			}
		})
		// An Encoder for each value, as an HTTP handler makes one for
		// each response.
		b.Run(c.name+"/encoder-each", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := NewEncoder(io.Discard).Encode(c.v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// A service writes values of many types, one after another: each call's
	// type differs from the last one's, so no cache of one type serves it.
	mixed := []any{12345, r, []int{1, 2, 3}, "x"}
	b.Run("mixed", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if _, err := Marshal(mixed[i&3]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}
