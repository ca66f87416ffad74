package corpus

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"
)

// BenchmarkAnyFloor runs floor/<corpus>/any under b for every corpus file:
// AnyFloor's build, timed. BenchmarkUnmarshal calls it, here and in the
// compare module, so the floor sits beside the decoders in one run.
func BenchmarkAnyFloor(b *testing.B) {
	for _, f := range Files(b) {
		b.Run("floor/"+f.Name+"/any", func(b *testing.B) {
			build, err := AnyFloor(f.Data) // before b.Loop: not timed
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(f.Data)))
			b.ReportAllocs()
			for b.Loop() {
				floorSink = build()
			}
		})
	}
}

// floorSink keeps the floor's value reachable, as a decoder's target is.
var floorSink any

// AnyFloor returns a function that builds, in code and without reading any
// JSON, the value encoding/json's Unmarshal stores in an any for data: the
// floor of the benchmarks that decode into an any.
//
// Each call makes every map (at its final size, its members inserted in
// document order) and every slice afresh, as any decoder must, since the
// caller may change them. The leaves (strings, float64 and bool boxes, nil)
// and the keys are immutable and shared between calls, so the floor
// allocates nothing a decoder with perfect interning would not: no decoder
// that returns fresh maps and slices can be faster than it.
func AnyFloor(data []byte) (func() any, error) {
	var r recipe
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := r.read(dec); err != nil {
		return nil, err
	}
	return r.build, nil
}

// A recipe is one JSON value: a leaf, or an object's keys and member values,
// or an array's elements.
type recipe struct {
	kind byte // '{', '[' or 0 for a leaf
	leaf any
	keys []string
	vals []recipe
}

// read reads the next value of dec into r, keeping object members in the
// order the document has them (what a decoder inserts them in).
func (r *recipe) read(dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		r.leaf = tok // encoding/json's Token gives float64, string, bool or nil
		return nil
	}
	r.kind = byte(d)
	for dec.More() {
		if r.kind == '{' {
			k, err := dec.Token()
			if err != nil {
				return err
			}
			r.keys = append(r.keys, k.(string))
		}
		var v recipe
		if err := v.read(dec); err != nil {
			return err
		}
		r.vals = append(r.vals, v)
	}
	_, err = dec.Token() // the closing delimiter
	r.keys, r.vals = slices.Clip(r.keys), slices.Clip(r.vals)
	return err
}

func (r *recipe) build() any {
	switch r.kind {
	case '{':
		m := make(map[string]any, len(r.keys))
		for i, k := range r.keys {
			m[k] = r.vals[i].build()
		}
		return m
	case '[':
		s := make([]any, len(r.vals))
		for i := range r.vals {
			s[i] = r.vals[i].build()
		}
		return s
	}
	return r.leaf
}
