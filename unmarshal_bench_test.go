package json

import (
	"bytes"
	stdjson "encoding/json"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/corpus"
	"github.com/jsonpipe/json/internal/order"
)

// Benchmarks of Unmarshal and Decoder.Decode against encoding/json, side by
// side in one run (benchstat compares the impl= rows):
//
//	go test -run='^$' -bench='Unmarshal|DecoderDecode|Objects|ColdStart' -benchmem -count=10
//
// The comparison with other Go libraries lives in compare/unmarshal.

type unmarshalImpl struct {
	name      string
	unmarshal func([]byte, any) error
	decode    func(io.Reader, any) error
	// fresh: before each call, outside the timed part, empty the caches a
	// pooled state carries from one call to the next (see forgetPooled).
	fresh bool
}

var unmarshalImpls = []unmarshalImpl{
	{"jsonpipe", Unmarshal, func(r io.Reader, v any) error { return NewDecoder(r).Decode(v) }, false},
	// jsonpipe_fresh is jsonpipe decoding as if every call's input were new
	// to it: a benchmark repeats one input, so after the first call every
	// string and number in it is in the pooled state's caches (as in
	// encoding/json/v2, whose string cache lives in its pooled decoders).
	{"jsonpipe_fresh", Unmarshal, func(r io.Reader, v any) error { return NewDecoder(r).Decode(v) }, true},
	{"encoding_json", stdjson.Unmarshal, func(r io.Reader, v any) error { return stdjson.NewDecoder(r).Decode(v) }, false},
}

// forgetPooled empties the caches of the pooled decodeState that the next
// call will get (the pool hands a goroutine back what it last put there):
// the strings, the key guesses, the keys by their starts and the objects'
// sizes.
func forgetPooled() {
	ds := getState()
	clear(ds.strings[:])
	ds.typedRun, ds.anyRun = missRun{}, missRun{}
	clear(ds.keyGuess[:])
	clear(ds.keyStarts[:])
	clear(ds.objectHints[:])
	ds.seen = nil
	// Not caches, but a fresh state has no blocks yet.
	ds.block, ds.longBlock = nil, nil
	ds.strBoxes, ds.strBoxAt, ds.strBoxLen = nil, 0, 0
	ds.floatBoxes, ds.floatBoxAt, ds.floatBoxLen = nil, 0, 0
	putState(ds)
}

// TestForgetPooled checks that jsonpipe_fresh measures what it says: after
// forgetPooled, a call on an input seen before allocates its strings again,
// as on the first call.
func TestForgetPooled(t *testing.T) {
	if raceBuild {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	skipNoFast(t, "the caches of the pooled state")
	in := []byte(`[{"name":"alice","city":"Paris","n":1.5},{"name":"bob","city":"Lyon","n":2.5}]`)
	decode := func() {
		var v any
		if err := Unmarshal(in, &v); err != nil {
			t.Fatal(err)
		}
	}
	warm := testing.AllocsPerRun(20, decode)
	fresh := testing.AllocsPerRun(20, func() { forgetPooled(); decode() })
	// The string table spares the 4 strings' block and their boxes' block:
	// 2 allocations. (The numbers are boxed anew either way.)
	if fresh < warm+2 {
		t.Errorf("allocations per call: %v with caches kept, %v after forgetPooled; want at least 2 more", warm, fresh)
	}
}

// startCall runs before each timed call of impl, outside the timing.
func startCall(b *testing.B, impl unmarshalImpl) {
	if impl.fresh {
		b.StopTimer()
		forgetPooled()
		b.StartTimer()
	}
}

// newTarget returns a fresh target for a corpus file: *any, or the
// hand-written type (nil when the file has none).
func newTarget(file, kind string) any {
	if kind == "any" {
		return new(any)
	}
	return corpus.TypedTarget(file)
}

func BenchmarkUnmarshal(b *testing.B) {
	eachDecodeTarget(b, func(b *testing.B, impl unmarshalImpl, data []byte, target func() any) {
		for b.Loop() {
			startCall(b, impl)
			if err := impl.unmarshal(data, target()); err != nil {
				b.Fatal(err)
			}
		}
	})
	// floor/<corpus>/any: each file's any value built in code (fresh maps
	// and slices, shared leaves), what no decoder into an any can beat.
	corpus.BenchmarkAnyFloor(b)
}

func BenchmarkDecoderDecode(b *testing.B) {
	eachDecodeTarget(b, func(b *testing.B, impl unmarshalImpl, data []byte, target func() any) {
		r := bytes.NewReader(data)
		for b.Loop() {
			r.Reset(data)
			startCall(b, impl)
			if err := impl.decode(r, target()); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// eachDecodeTarget runs loop as the sub-benchmark <impl>/<corpus>/<kind>
// for every corpus file, target kind the file has and implementation, with
// SetBytes and ReportAllocs done: each file's implementations one after
// another, in the order internal/order gives for the round (as the compare
// module runs its libraries).
func eachDecodeTarget(b *testing.B, loop func(b *testing.B, impl unmarshalImpl, data []byte, target func() any)) {
	for _, f := range corpus.All(b) {
		for _, kind := range []string{"any", "typed"} {
			if newTarget(f.Name, kind) == nil {
				continue
			}
			for _, impl := range order.Of(unmarshalImpls, b.Name()+"/"+f.Name+"/"+kind) {
				b.Run(impl.name+"/"+f.Name+"/"+kind, func(b *testing.B) {
					b.SetBytes(int64(len(f.Data)))
					b.ReportAllocs()
					loop(b, impl, f.Data, func() any { return newTarget(f.Name, kind) })
				})
			}
		}
	}
}

// objectsInput is n objects {"hi":N,"there":N,"comment":"comment"} in an
// array (about 44 bytes each).
func objectsInput(n int) []byte {
	var buf bytes.Buffer
	buf.Grow(n * 45)
	buf.WriteByte('[')
	for i := 0; i < n; i++ {
		if i > 0 {
			buf.WriteByte(',')
		}
		fmt.Fprintf(&buf, `{"hi":%d,"there":%d,"comment":"comment"}`, i, n-i)
	}
	buf.WriteByte(']')
	return buf.Bytes()
}

type objectsRow struct {
	Hi, There int
	Comment   string
}

const objectsCount = 1_000_000

// BenchmarkObjects decodes a million small objects into a slice of structs,
// beside the floor: building the same slice in code (one string allocation
// per row, as decoding needs).
func BenchmarkObjects(b *testing.B) {
	data := objectsInput(objectsCount)
	for _, impl := range order.Of(unmarshalImpls, b.Name()) {
		b.Run(impl.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				var rows []objectsRow
				startCall(b, impl)
				if err := impl.unmarshal(data, &rows); err != nil {
					b.Fatal(err)
				}
				if len(rows) != objectsCount {
					b.Fatal(len(rows))
				}
			}
		})
	}
	b.Run("floor", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		comment := []byte("comment")
		for b.Loop() {
			if rows := objectsFloor(comment); len(rows) != objectsCount {
				b.Fatal(len(rows))
			}
		}
	})
}

// objectsFloor builds BenchmarkObjects' slice in code. It is a function of
// its own because b.Loop keeps the variables assigned in its body in memory,
// which would slow the floor down.
func objectsFloor(comment []byte) []objectsRow {
	var rows []objectsRow
	for i := 0; i < objectsCount; i++ {
		rows = append(rows, objectsRow{Hi: i, There: objectsCount - i, Comment: string(comment)})
	}
	return rows
}

// coldTypes returns n distinct struct types (each with a few fields of a
// unique name), made with reflect.StructOf, and an input that fills them.
func coldTypes(n int) ([]reflect.Type, []byte) {
	types := make([]reflect.Type, n)
	for i := range types {
		coldSeq++
		types[i] = reflect.StructOf([]reflect.StructField{
			{Name: "A" + strconv.Itoa(coldSeq), Type: reflect.TypeFor[int](), Tag: `json:"a"`},
			{Name: "B", Type: reflect.TypeFor[string]()},
			{Name: "C", Type: reflect.TypeFor[[]float64]()},
			{Name: "D", Type: reflect.TypeFor[map[string]int]()},
			{Name: "E", Type: reflect.TypeFor[*bool]()},
		})
	}
	return types, []byte(`{"a":1,"B":"x","C":[1.5,2],"D":{"k":3},"E":true}`)
}

var coldSeq int // makes every cold type new

// BenchmarkColdStart is the first decode of each of many distinct struct
// types: the per-type set-up cost. Each iteration makes fresh types, so both
// packages start with empty caches for them.
func BenchmarkColdStart(b *testing.B) {
	const n = 100
	for _, impl := range order.Of(unmarshalImpls, b.Name()) {
		b.Run(impl.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				types, data := coldTypes(n)
				if impl.fresh {
					forgetPooled()
				}
				b.StartTimer()
				for _, t := range types {
					if err := impl.unmarshal(data, reflect.New(t).Interface()); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkHostileNesting: deep nesting into any and into a recursive type
// stops at the depth limit, so the cost stays flat however deep the input.
func BenchmarkHostileNesting(b *testing.B) {
	type rec struct {
		A []rec `json:"a"`
	}
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		for shape, in := range map[string][]byte{
			"arrays":   []byte(strings.Repeat("[", n) + strings.Repeat("]", n)),
			"unclosed": []byte(strings.Repeat(`[{"":`, n/2)),
		} {
			b.Run(fmt.Sprintf("%s/%d", shape, n), func(b *testing.B) {
				b.SetBytes(int64(len(in)))
				for b.Loop() {
					var v any
					Unmarshal(in, &v)
					var r rec
					Unmarshal(in, &r)
				}
			})
		}
	}
}

// BenchmarkRepeatedValues: rows whose string fields take a few values over
// and over (a team, a league, a city: eight names each), as enumerations,
// countries and categories do in real rows, plain ASCII and non-ASCII. The
// shape sweep's values never repeat; this is the other end, where the
// string cache hits on every value (see valueString).
func BenchmarkRepeatedValues(b *testing.B) {
	type row struct {
		Team   string `json:"team"`
		League string `json:"league"`
		City   string `json:"city"`
	}
	names := map[string][]string{
		"ascii": {"Borussia Dortmund", "FC Bayern Munich", "Real Madrid", "Olympique Lyonnais",
			"Ajax Amsterdam", "Galatasaray", "Benfica", "Celtic"},
		"utf8": {"ボルシア・ドルトムント", "バイエルン・ミュンヘン", "Реал Мадрид", "Ολυμπιακός",
			"Ájax Åmsterdäm", "Galatasaray SK İstanbul", "Benfica Lisboa ção", "Céltic Glasgöw"},
	}
	for _, kind := range []string{"ascii", "utf8"} {
		var sb strings.Builder
		sb.WriteString("[")
		for i := range 2000 {
			if i > 0 {
				sb.WriteString(",")
			}
			n := names[kind]
			fmt.Fprintf(&sb, `{"team":%q,"league":%q,"city":%q}`, n[i%8], n[i/8%8], n[i*3%8])
		}
		sb.WriteString("]")
		data := []byte(sb.String())
		b.Run("kind="+kind, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				var v []row
				if err := Unmarshal(data, &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSmallRecords: many distinct small documents, each one record of
// short strings and numbers (what a service decodes), into a new value
// each time and into one value reused from call to call, as a loop that
// decodes into the same variable does; and the same records as a stream
// read by one Decoder. A reused target is not zero, so
// Unmarshal keeps a copy of it to put back after a syntax error (as
// encoding/json, which validates first, leaves it untouched).
func BenchmarkSmallRecords(b *testing.B) {
	type record struct {
		ID      int     `json:"id"`
		Name    string  `json:"name"`
		Email   string  `json:"email"`
		City    string  `json:"city"`
		Country string  `json:"country"`
		Score   float64 `json:"score"`
	}
	docs := make([][]byte, 64)
	for i := range docs {
		docs[i] = fmt.Appendf(nil, `{"id":%d,"name":"user%d","email":"u%d@example.com","city":"city%d","country":"c%d","score":%d.5}`,
			1000+i, i, i, i*7, i%20, i)
	}
	for _, impl := range unmarshalImpls {
		for _, target := range []string{"new", "reused"} {
			b.Run("target="+target+"/impl="+impl.name, func(b *testing.B) {
				var reused record
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					startCall(b, impl)
					v := &reused
					if target == "new" {
						v = new(record)
					}
					if err := impl.unmarshal(docs[i%len(docs)], v); err != nil || v.ID != 1000+i%len(docs) {
						b.Fatal(err, v.ID)
					}
					i++
				}
			})
		}
	}
	// Each record through a Decoder of its own, as a handler decodes a
	// request body (NewDecoder(r.Body).Decode(&v)): the decoder's own
	// set-up, per document.
	b.Run("decoder/target=new/impl=jsonpipe", func(b *testing.B) {
		b.ReportAllocs()
		r := bytes.NewReader(nil)
		i := 0
		for b.Loop() {
			r.Reset(docs[i%len(docs)])
			v := new(record)
			if err := NewDecoder(r).Decode(v); err != nil || v.ID != 1000+i%len(docs) {
				b.Fatal(err, v.ID)
			}
			i++
		}
	})
	// The same records as one NDJSON stream through one Decoder, each
	// Decode into a new value or into the same one (the usual loop).
	stream := bytes.Join(docs, []byte("\n"))
	for _, impl := range unmarshalImpls[:1] {
		for _, target := range []string{"new", "reused"} {
			b.Run("stream/target="+target+"/impl="+impl.name, func(b *testing.B) {
				var reused record
				b.SetBytes(int64(len(stream)))
				b.ReportAllocs()
				for b.Loop() {
					dec := NewDecoder(bytes.NewReader(stream))
					for i := range docs {
						v := &reused
						if target == "new" {
							v = new(record)
						}
						if err := dec.Decode(v); err != nil || v.ID != 1000+i {
							b.Fatal(err, v.ID)
						}
					}
				}
			})
		}
	}
}
