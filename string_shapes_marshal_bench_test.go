package json

import (
	"bytes"
	stdjson "encoding/json"
	"fmt"
	"testing"
)

// BenchmarkStringShapesMarshal encodes BenchmarkStringShapes' strings (as
// values: what the documents decode to) with Marshal, and checks the bytes
// against encoding/json's once. (Marshal is newer than 113b0cc, so this
// lives apart from the decoding shapes.)
func BenchmarkStringShapesMarshal(b *testing.B) {
	for _, kind := range []string{"plain", "esc10", "url", "utf8"} {
		for _, n := range stringShapeLengths {
			var v []string
			if err := stdjson.Unmarshal(stringShapeDoc(kind, n), &v); err != nil {
				b.Fatal(err)
			}
			want, err := stdjson.Marshal(v)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("kind=%s/n=%d/op=marshal", kind, n), func(b *testing.B) {
				got, err := Marshal(v)
				if err != nil || !bytes.Equal(got, want) {
					b.Fatalf("Marshal differs from encoding/json (err %v)", err)
				}
				b.SetBytes(int64(len(want)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := Marshal(v); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
