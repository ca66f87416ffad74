package unmarshal

import (
	stdjson "encoding/json"
	"reflect"
	"testing"

	"github.com/jsonpipe/json/internal/corpus"
	"github.com/jsonpipe/json/internal/order"
)

// The per-call cost: documents of one small record, or a few, each
// Unmarshalled into a fresh value, as a service decodes its requests.
// Where a corpus file's time is its values', these are mostly the cost of
// a call (its state, its checks, its result) and of a small slice. Not
// part of benchmarks/run.sh's record, which times the corpora:
//
//	cd compare
//	GOTOOLCHAIN=go1.27.4 go test -run='^$' -bench='^BenchmarkUnmarshalSmall$' -count=10 ./unmarshal | tee small.txt
//	go tool benchstat -col /impl small.txt

type (
	smallRecord = corpus.SmallRecord
	smallArrays = corpus.SmallArrays
)

var smallCases = []struct {
	name string
	doc  string
	new  func() any
}{
	{"empty", `{}`, func() any { return new(smallRecord) }}, // the call alone
	{"record", `{"id":12345,"name":"abcdefgh","active":true}`, func() any { return new(smallRecord) }},
	{"records1", `[{"id":12345,"name":"abcdefgh","active":true}]`, func() any { return new([]smallRecord) }},
	{"records4", `[{"id":12345,"name":"abcdefgh","active":true},{"id":12346,"name":"abcdefgi","active":false},` +
		`{"id":12347,"name":"abcdefgj","active":true},{"id":12348,"name":"abcdefgk","active":true}]`,
		func() any { return new([]smallRecord) }},
	{"arrays", `{"emoji":"x","aliases":["grinning"],"tags":["smile","happy"],"pos":[1.5,2.25]}`,
		func() any { return new(smallArrays) }},
	{"any", `{"id":12345,"name":"abcdefgh","active":true,"tags":["a","b"]}`, func() any { return new(any) }},
}

// TestSmallAgree: every library decodes the small documents into
// encoding/json's values.
func TestSmallAgree(t *testing.T) {
	for _, c := range smallCases {
		want := c.new()
		if err := stdjson.Unmarshal([]byte(c.doc), want); err != nil {
			t.Fatal(err)
		}
		for _, im := range allImpls() {
			got := c.new()
			if err := im.unmarshal([]byte(c.doc), got); err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s: %v, %v; want %v", im.name, c.name, got, err, want)
			}
		}
	}
}

func BenchmarkUnmarshalSmall(b *testing.B) {
	for _, c := range smallCases {
		data := []byte(c.doc)
		b.Run("case="+c.name, func(b *testing.B) {
			for _, im := range order.Of(allImpls(), b.Name()) {
				b.Run("impl="+im.name, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						if err := im.unmarshal(data, c.new()); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
	}
}
