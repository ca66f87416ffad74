package unmarshal

import (
	stdjson "encoding/json"
	"reflect"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/jsonpipe/json/internal/order"
)

// The first Unmarshal of a type, as BenchmarkMarshalColdStart has it for
// Marshal: every library builds its per-type decoder once and caches it,
// so a service that meets many types (or a program that runs once) pays
// that build. Not part of benchmarks/run.sh's record:
//
//	cd compare
//	GOTOOLCHAIN=go1.27.4 go test -run='^$' -bench='^BenchmarkUnmarshalColdStart$' -count=10 ./unmarshal | tee cold.txt
//	go tool benchstat -col /impl cold.txt

// coldSeq numbers the cold types' fields; see coldTypes.
var coldSeq atomic.Int64

// coldDoc is what each cold type decodes: the common kinds, a nested
// object and a member no field takes.
var coldDoc = []byte(`{"a":1,"B":"cold","C":[1.5,2,1e21],"D":{"k":1,"a":2},"E":true,` +
	`"F":{"X":3,"y":"in","Z":false},"G":[1,"x",null],"skip":{"n":[1,2]}}`)

// coldTypes returns n struct types no library has met: reflect.StructOf
// returns the same type for the same fields, so each type gets a field
// named after a sequence number never used again (as coldValues does), and
// every benchmark iteration's types are new to every cache.
func coldTypes(n int) []reflect.Type {
	ts := make([]reflect.Type, n)
	for i := range ts {
		seq := strconv.FormatInt(coldSeq.Add(1), 10)
		inner := reflect.StructOf([]reflect.StructField{
			{Name: "X", Type: reflect.TypeFor[int]()},
			{Name: "Y", Type: reflect.TypeFor[string](), Tag: `json:"y,omitempty"`},
			{Name: "Z" + seq, Type: reflect.TypeFor[bool](), Tag: `json:"Z"`},
		})
		ts[i] = reflect.StructOf([]reflect.StructField{
			{Name: "A" + seq, Type: reflect.TypeFor[int](), Tag: `json:"a"`},
			{Name: "B", Type: reflect.TypeFor[string]()},
			{Name: "C", Type: reflect.TypeFor[[]float64]()},
			{Name: "D", Type: reflect.TypeFor[map[string]int]()},
			{Name: "E", Type: reflect.TypeFor[*bool]()},
			{Name: "F" + seq, Type: inner, Tag: `json:"F"`},
			{Name: "G", Type: reflect.TypeFor[any]()},
		})
	}
	return ts
}

// TestColdTypesAgree: two calls make distinct types, and every library
// decodes coldDoc into them as encoding/json does.
func TestColdTypesAgree(t *testing.T) {
	a, b := coldTypes(1)[0], coldTypes(1)[0]
	if a == b {
		t.Fatal("coldTypes made the same type twice")
	}
	want := reflect.New(a)
	if err := stdjson.Unmarshal(coldDoc, want.Interface()); err != nil {
		t.Fatal(err)
	}
	for _, im := range allImpls() {
		got := reflect.New(a)
		if err := im.unmarshal(coldDoc, got.Interface()); err != nil || !reflect.DeepEqual(got.Interface(), want.Interface()) {
			t.Errorf("%s: %+v, %v; want %+v", im.name, got.Elem(), err, want.Elem())
		}
	}
}

// BenchmarkUnmarshalColdStart: the first Unmarshal of each of 100 struct
// types new to every library (coldTypes). The types are made outside the
// timed part, afresh for every iteration and every library.
func BenchmarkUnmarshalColdStart(b *testing.B) {
	const n = 100
	for _, im := range order.Of(allImpls(), b.Name()) {
		b.Run("impl="+im.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				ts := coldTypes(n)
				vs := make([]any, n)
				for i, t := range ts {
					vs[i] = reflect.New(t).Interface()
				}
				b.StartTimer()
				for _, v := range vs {
					if err := im.unmarshal(coldDoc, v); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
