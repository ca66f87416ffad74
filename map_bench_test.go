package json

import (
	"bytes"
	stdjson "encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// Maps from names to small structs and to slices, as real records carry
// them (a country's names in each language, a user's roles per project):
// the shape mapGathered decodes. The sweep's rec-map is a
// map[string]int, which mapStringScalar takes.
//
//	go test -run='^$' -bench=MapValues -count=10

type mapValuesRecord struct {
	ID    int64 `json:"id"`
	Names map[string]struct {
		Official string `json:"official"`
		Common   string `json:"common"`
	} `json:"names"`
	Roles map[string][]string `json:"roles"`
}

// mapValuesJSON returns n records, each a compact document of its own:
// 3 to 30 names keyed by codes drawn from 40 (so that keys repeat from one
// record to the next, in another order and number), 0 to 6 roles.
func mapValuesJSON(n int) [][]byte {
	r := rand.New(rand.NewPCG(36, 7))
	word := func() string { return randWord(r, 10) }
	docs := make([][]byte, n)
	for i := range docs {
		rec := map[string]any{"id": 1e6 + i}
		names := map[string]any{}
		for range 3 + r.IntN(28) {
			names[fmt.Sprintf("l%02d", r.IntN(40))] = map[string]string{"official": word() + " " + word(), "common": word()}
		}
		roles := map[string]any{}
		for range r.IntN(7) {
			var rs []string
			for range 1 + r.IntN(3) {
				rs = append(rs, word())
			}
			roles[word()] = rs
		}
		rec["names"], rec["roles"] = names, roles
		docs[i], _ = stdjson.Marshal(rec)
	}
	return docs
}

// TestMapValues checks the benchmark's input against encoding/json.
func TestMapValues(t *testing.T) {
	docs := mapValuesJSON(50)
	for _, doc := range docs {
		var got, want mapValuesRecord
		if err := Unmarshal(doc, &got); err != nil {
			t.Fatal(err)
		}
		if err := stdjson.Unmarshal(doc, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) || len(got.Names) < 3 {
			t.Fatalf("Unmarshal(%s) = %+v, want %+v", doc, got, want)
		}
	}
}

func BenchmarkMapValues(b *testing.B) {
	docs := mapValuesJSON(500)
	all := append([]byte{'['}, bytes.Join(docs, []byte{','})...)
	all = append(all, ']')
	b.Run("form=doc", func(b *testing.B) {
		b.SetBytes(int64(len(all)))
		for b.Loop() {
			var v []mapValuesRecord
			if err := Unmarshal(all, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("form=docs", func(b *testing.B) {
		b.SetBytes(int64(len(all)))
		for b.Loop() {
			for _, doc := range docs {
				var v mapValuesRecord
				if err := Unmarshal(doc, &v); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
