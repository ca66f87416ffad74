package json

import (
	"bytes"
	stdjson "encoding/json"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"
)

// Two shapes a Go type from real data often has and the typed one pass
// once left to the token path, each making its whole struct go by tokens:
// maps with integer keys (scores by year, names by a numeric id), and
// ",string" fields of the narrow kinds (a uint64 id written as a string,
// as APIs write ids past 2^53).
//
//	go test -run='^$' -bench='PassKinds' -count=10

type intKeysRecord struct {
	ID     int64             `json:"id"`
	ByYear map[int]float64   `json:"by_year"`
	Names  map[uint32]string `json:"names"`
	Tag    string            `json:"tag"`
}

type quotedNarrowRecord struct {
	ID     uint64  `json:"id,string"`
	Parent int32   `json:"parent,string"`
	Score  float32 `json:"score,string"`
	Rank   uint8   `json:"rank,string"`
	Name   string  `json:"name"`
}

// passKindsJSON returns n documents of each shape, every one compact and
// with values of its own: 2 to 12 years and 1 to 8 names a record; ids of
// 15 to 19 digits.
func passKindsJSON(n int) (intKeys, quoted [][]byte) {
	r := rand.New(rand.NewPCG(37, 8))
	for i := range n {
		byYear := map[string]any{}
		for range 2 + r.IntN(11) {
			byYear[strconv.Itoa(1950+r.IntN(75))] = float64(r.IntN(100000)) / 100
		}
		names := map[string]any{}
		for range 1 + r.IntN(8) {
			names[strconv.Itoa(int(r.Uint32N(1<<31)))] = randWord(r, 10)
		}
		doc, _ := stdjson.Marshal(map[string]any{"id": 1e6 + i, "by_year": byYear, "names": names, "tag": randWord(r, 6)})
		intKeys = append(intKeys, doc)
		doc, _ = stdjson.Marshal(map[string]any{
			"id":     strconv.FormatUint(r.Uint64()>>r.IntN(14), 10),
			"parent": strconv.Itoa(int(r.Int32())),
			"score":  strconv.FormatFloat(float64(r.IntN(100000))/1000, 'f', -1, 32),
			"rank":   strconv.Itoa(r.IntN(256)),
			"name":   randWord(r, 12),
		})
		quoted = append(quoted, doc)
	}
	return intKeys, quoted
}

// TestPassKinds checks the benchmark's inputs against encoding/json, and
// that the typed one pass takes both types.
func TestPassKinds(t *testing.T) {
	intKeys, quoted := passKindsJSON(50)
	check := func(docs [][]byte, newV func() any) {
		for _, doc := range docs {
			got, want := newV(), newV()
			if err := Unmarshal(doc, got); err != nil {
				t.Fatal(err)
			}
			if err := stdjson.Unmarshal(doc, want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) || reflect.ValueOf(got).Elem().IsZero() {
				t.Fatalf("Unmarshal(%s) = %+v, want %+v", doc, got, want)
			}
		}
	}
	check(intKeys, func() any { return new(intKeysRecord) })
	check(quoted, func() any { return new(quotedNarrowRecord) })
	if fastPaths {
		for _, typ := range []reflect.Type{reflect.TypeFor[*intKeysRecord](), reflect.TypeFor[*quotedNarrowRecord]()} {
			ds := getState()
			td := ds.topDecoder(typ)
			putState(ds)
			if td.sd == nil || !td.sd.passable() {
				t.Errorf("%v: not passable", typ)
			}
		}
	}
}

func BenchmarkPassKinds(b *testing.B) {
	intKeys, quoted := passKindsJSON(500)
	for _, c := range []struct {
		name string
		docs [][]byte
		one  func() any // a record
		all  func() any // a slice of them
	}{
		{"intkeys", intKeys, func() any { return new(intKeysRecord) }, func() any { return new([]intKeysRecord) }},
		{"quotednarrow", quoted, func() any { return new(quotedNarrowRecord) }, func() any { return new([]quotedNarrowRecord) }},
	} {
		all := append([]byte{'['}, bytes.Join(c.docs, []byte{','})...)
		all = append(all, ']')
		b.Run("case="+c.name+"/form=doc", func(b *testing.B) {
			b.SetBytes(int64(len(all)))
			for b.Loop() {
				if err := Unmarshal(all, c.all()); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("case="+c.name+"/form=docs", func(b *testing.B) {
			b.SetBytes(int64(len(all)))
			for b.Loop() {
				for _, doc := range c.docs {
					if err := Unmarshal(doc, c.one()); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		b.Run("case="+c.name+"/form=decode", func(b *testing.B) {
			b.SetBytes(int64(len(all)))
			for b.Loop() {
				if err := NewDecoder(bytes.NewReader(all)).Decode(c.all()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
