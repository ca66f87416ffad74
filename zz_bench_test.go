package json

import (
	stdjson "encoding/json"
	"testing"

	"github.com/jsonpipe/json/internal/corpus"
)

func BenchmarkZMarshal(b *testing.B) {
	for _, f := range corpus.All(b) {
		var v any
		stdjson.Unmarshal(f.Data, &v)
		targets := map[string]any{"any": v}
		if tt := corpus.TypedTarget(f.Name); tt != nil {
			stdjson.Unmarshal(f.Data, tt)
			targets["typed"] = tt
		}
		for kind, x := range targets {
			out, _ := stdjson.Marshal(x)
			b.Run(kind+"/"+f.Name+"/std", func(b *testing.B) {
				b.SetBytes(int64(len(out)))
				for i := 0; i < b.N; i++ {
					stdjson.Marshal(x)
				}
			})
			b.Run(kind+"/"+f.Name+"/ours", func(b *testing.B) {
				b.SetBytes(int64(len(out)))
				for i := 0; i < b.N; i++ {
					Marshal(x)
				}
			})
		}
	}
}
