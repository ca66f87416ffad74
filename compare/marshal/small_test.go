package marshal

import (
	"bytes"
	stdjson "encoding/json"
	"testing"

	jsonpipe "github.com/jsonpipe/json"
	"github.com/jsonpipe/json/internal/corpus"
	"github.com/jsonpipe/json/internal/order"
)

// BenchmarkMarshalSmall is compare/unmarshal's BenchmarkUnmarshalSmall
// the other way: small values, each Marshalled to a new slice, as a
// service writes its responses, where the cost of a call (its state, the
// result's allocation and copy) and of a struct's loop over its fields
// weigh more than in a corpus file. Not part of benchmarks/run.sh's
// record:
//
//	cd compare
//	GOTOOLCHAIN=go1.27.4 go test -run='^$' -bench='^BenchmarkMarshalSmall$' -count=10 ./marshal | tee small.txt
//	go tool benchstat -col /impl small.txt
var smallValues = []struct {
	name string
	v    any
}{
	{"empty", &struct{}{}}, // the call alone
	{"record", &corpus.SmallRecord{ID: 12345, Name: "abcdefgh", Active: true}},
	{"records4", &[]corpus.SmallRecord{{ID: 12345, Name: "abcdefgh", Active: true}, {ID: 12346, Name: "abcdefgi"},
		{ID: 12347, Name: "abcdefgj", Active: true}, {ID: 12348, Name: "abcdefgk", Active: true}}},
	{"arrays", &corpus.SmallArrays{Emoji: "x", Aliases: []string{"grinning"}, Tags: []string{"smile", "happy"}, Pos: []float64{1.5, 2.25}}},
	{"any", map[string]any{"id": 12345.0, "name": "abcdefgh", "active": true, "tags": []any{"a", "b"}}},
}

// TestSmallMarshalAgree: jsonpipe writes encoding/json's bytes for every
// small value (the peers are only timed here; TestMarshalPeersAgree
// checks them on the corpus).
func TestSmallMarshalAgree(t *testing.T) {
	for _, c := range smallValues {
		want, err := stdjson.Marshal(c.v)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := jsonpipe.Marshal(c.v); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %s, %v; want %s", c.name, got, err, want)
		}
	}
}

func BenchmarkMarshalSmall(b *testing.B) {
	for _, c := range smallValues {
		b.Run("case="+c.name, func(b *testing.B) {
			for _, im := range order.Of(allImpls(), b.Name()) {
				b.Run("impl="+im.name, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						if _, err := im.marshal(c.v); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}
