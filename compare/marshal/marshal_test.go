// Package marshal compares jsonpipe's encoding side (Marshal, MarshalIndent,
// Encoder.Encode, Compact, Indent, Valid) with the Go JSON libraries a user
// could pick instead: encoding/json, goccy/go-json, bytedance/sonic
// (ConfigStd, the configuration that escapes HTML and sorts map keys as
// encoding/json does; its default config does neither), segmentio/encoding,
// json-iterator/go (ConfigCompatibleWithStandardLibrary) and, on Go 1.27
// (where it is part of the default build), encoding/json/v2. It lives in the
// nested compare module so that the library's own go.mod stays free of them.
//
//	cd compare
//	GOTOOLCHAIN=go1.27.4 go test -run='^$' -bench=. -benchmem -count=10 ./marshal | tee marshal.txt
//	go tool benchstat -col /impl marshal.txt
//
// Benchmark names are Benchmark<API>/<kind>/<impl>/<file> (kind "typed": the
// file decoded into its hand-written types, corpus.TypedTarget; "any": into
// an any) and Benchmark<API>/<impl>/<file> for Compact, Indent and Valid,
// which work on the file's bytes. The values are decoded once, by
// encoding/json, before anything is timed.
//
// b.SetBytes is encoding/json's output size for the operation, the same for
// every implementation, so that MB/s ratios are time ratios even where an
// implementation writes other bytes (jsonv2 and sonic's key order, say); for
// Compact, Indent and Valid it is the input's size. Each benchmark runs its
// operation untimed for MARSHAL_WARMUP (50ms) first: see warmLoop.
//
// TestMarshalPeersAgree says, before anything is timed, which libraries
// write encoding/json's bytes for each file and kind, and fails if jsonpipe
// does not. On Go 1.27 encoding_json is the v2-backed encoding/json, whose
// output differs from the classic one jsonpipe matches only where the
// corpus has nothing to show it (invalid UTF-8, MarshalJSON methods, float
// keys: stdjson_marshal_contract_test.go in the root module); on every
// corpus file, as any and typed, in every mode here, both write the same
// bytes (checked on Go 1.26 and 1.27.4), so jsonpipe is held to them on
// both toolchains.
package marshal

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bytedance/sonic"
	goccy "github.com/goccy/go-json"
	jsoniter "github.com/json-iterator/go"
	jsonpipe "github.com/jsonpipe/json"
	"github.com/jsonpipe/json/internal/corpus"
	"github.com/jsonpipe/json/internal/order"
	segjson "github.com/segmentio/encoding/json"
)

// impl is one library's encoding entry points; a nil function is one the
// library does not have.
type impl struct {
	name          string
	marshal       func(any) ([]byte, error)
	marshalIndent func(any, string, string) ([]byte, error)
	// newEncoder returns the Encode of one encoder writing to w, made once
	// and reused, as a server reuses it.
	newEncoder func(w io.Writer) func(any) error
	compact    func(dst *bytes.Buffer, src []byte) error
	indent     func(dst *bytes.Buffer, src []byte, prefix, indent string) error
	valid      func([]byte) bool
}

var jsoniterStd = jsoniter.ConfigCompatibleWithStandardLibrary

var baseImpls = []impl{
	{"jsonpipe", jsonpipe.Marshal, jsonpipe.MarshalIndent,
		func(w io.Writer) func(any) error { return jsonpipe.NewEncoder(w).Encode },
		jsonpipe.Compact, jsonpipe.Indent, jsonpipe.Valid},
	{"encoding_json", stdjson.Marshal, stdjson.MarshalIndent,
		func(w io.Writer) func(any) error { return stdjson.NewEncoder(w).Encode },
		stdjson.Compact, stdjson.Indent, stdjson.Valid},
	{"goccy", goccy.Marshal, goccy.MarshalIndent,
		func(w io.Writer) func(any) error { return goccy.NewEncoder(w).Encode },
		goccy.Compact, goccy.Indent, goccy.Valid},
	// sonic's ConfigStd: HTML escaping and sorted map keys, as encoding/json.
	{"sonic_std", sonic.ConfigStd.Marshal, sonic.ConfigStd.MarshalIndent,
		func(w io.Writer) func(any) error { return sonic.ConfigStd.NewEncoder(w).Encode },
		nil, nil, sonic.ConfigStd.Valid},
	{"segmentio", segjson.Marshal, segjson.MarshalIndent,
		func(w io.Writer) func(any) error { return segjson.NewEncoder(w).Encode },
		segjson.Compact, segjson.Indent, segjson.Valid},
	{"jsoniter", jsoniterStd.Marshal, jsoniterStd.MarshalIndent,
		func(w io.Writer) func(any) error { return jsoniterStd.NewEncoder(w).Encode },
		nil, nil, jsoniterStd.Valid},
}

// The prefix and indent of every MarshalIndent and Indent here.
const indentPrefix, indentIndent = "", "  " // spaces: jsoniter refuses anything else

// A value is one corpus file decoded into one kind.
type value struct {
	file, kind string
	v          any
	// encoding/json's output sizes: Marshal, MarshalIndent.
	size, indentSize int
}

var (
	valuesOnce sync.Once
	valuesList []value
	valuesErr  error
)

// values decodes every corpus file into an any and, where it has one, into
// its typed target, once.
func values(tb testing.TB) []value {
	tb.Helper()
	files := corpus.All(tb) // skips, saying why, when there is no corpus
	valuesOnce.Do(func() {
		for _, f := range files {
			for _, kind := range []string{"typed", "any"} {
				var v any
				if kind == "typed" {
					if v = corpus.TypedTarget(f.Name); v == nil {
						continue
					}
				} else {
					v = new(any)
				}
				if err := stdjson.Unmarshal(f.Data, v); err != nil {
					valuesErr = fmt.Errorf("%s/%s: %v", f.Name, kind, err)
					return
				}
				if kind == "any" {
					v = *v.(*any)
				}
				out, err := stdjson.Marshal(v)
				if err != nil {
					valuesErr = err
					return
				}
				ind, err := stdjson.MarshalIndent(v, indentPrefix, indentIndent)
				if err != nil {
					valuesErr = err
					return
				}
				valuesList = append(valuesList, value{f.Name, kind, v, len(out), len(ind)})
			}
		}
	})
	if valuesErr != nil {
		tb.Fatal(valuesErr)
	}
	return valuesList
}

// TestMarshalPeersAgree encodes every file and kind with every library,
// Marshal, MarshalIndent and Encoder.Encode each, and compares the bytes
// with encoding/json's: a peer that differs is reported (its bytes are its
// own choice: jsonv2 does not sort or escape as encoding/json does, sonic_std
// and jsoniter write \u000c for \f, jsoniter's MarshalIndent indents
// otherwise), jsonpipe differing fails. Its -v output, a line
// "agree|differ <API> <impl> <file>/<kind>" per case, is what
// benchmarks/ratios.py reads to pick the peers that give the same bytes.
func TestMarshalPeersAgree(t *testing.T) {
	agree := map[string]int{}
	cases := 0
	for _, val := range values(t) {
		cases++
		want, _ := stdjson.Marshal(val.v)
		wantIndent, _ := stdjson.MarshalIndent(val.v, indentPrefix, indentIndent)
		var wantEnc bytes.Buffer
		if err := stdjson.NewEncoder(&wantEnc).Encode(val.v); err != nil {
			t.Fatal(err)
		}
		for _, im := range allImpls() {
			name := val.file + "/" + val.kind
			same := true
			check := func(api string, got []byte, err error, want []byte) {
				var why string
				if err != nil {
					why = fmt.Sprintf("error %v", err)
				} else if !bytes.Equal(got, want) {
					why = corpus.FirstDifference(got, want)
				}
				switch {
				case why == "":
					t.Logf("agree %s %s %s", api, im.name, name)
				case im.name == "jsonpipe":
					t.Errorf("differ %s %s %s: %s", api, im.name, name, why)
				default:
					same = false
					t.Logf("differ %s %s %s: %s", api, im.name, name, why)
				}
			}
			got, err := im.marshal(val.v)
			check("Marshal", got, err, want)
			got, err = im.marshalIndent(val.v, indentPrefix, indentIndent)
			check("MarshalIndent", got, err, wantIndent)
			var buf bytes.Buffer
			err = im.newEncoder(&buf)(val.v)
			check("EncoderEncode", buf.Bytes(), err, wantEnc.Bytes())
			if same {
				agree[im.name]++
			}
		}
	}
	var names []string
	for _, im := range allImpls() {
		names = append(names, fmt.Sprintf("%s %d/%d", im.name, agree[im.name], cases))
	}
	sort.Strings(names)
	t.Logf("write encoding/json's bytes (Marshal, MarshalIndent, Encode): %s", strings.Join(names, ", "))
}

func BenchmarkMarshal(b *testing.B) {
	for _, val := range values(b) {
		for _, im := range order.Of(allImpls(), b.Name()+"/"+val.kind+"/"+val.file) {
			b.Run(val.kind+"/"+im.name+"/"+val.file, func(b *testing.B) {
				b.SetBytes(int64(val.size))
				b.ReportAllocs()
				warmLoop(b, func() error { _, err := im.marshal(val.v); return err })
			})
		}
		// The floor: what every Marshal pays after encoding, whoever wrote
		// it. The result is a fresh slice of the output's size, so each call
		// allocates it, copies the bytes into it (or clears it first) and
		// leaves it to the garbage collector, whose work grows with the
		// bytes allocated. Here that is bytes.Clone of encoding/json's
		// output, made before the loop: the same allocation and copy as the
		// end of jsonpipe's Marshal, with no encoding.
		b.Run(val.kind+"/floor/"+val.file, func(b *testing.B) {
			out, err := stdjson.Marshal(val.v)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(val.size))
			b.ReportAllocs()
			warmLoop(b, func() error { sinkBytes = bytes.Clone(out); return nil })
		})
	}
}

// sinkBytes keeps the floor's copies from being optimised away.
var sinkBytes []byte

func BenchmarkMarshalIndent(b *testing.B) {
	for _, val := range values(b) {
		for _, im := range order.Of(allImpls(), b.Name()+"/"+val.kind+"/"+val.file) {
			b.Run(val.kind+"/"+im.name+"/"+val.file, func(b *testing.B) {
				b.SetBytes(int64(val.indentSize))
				b.ReportAllocs()
				warmLoop(b, func() error { _, err := im.marshalIndent(val.v, indentPrefix, indentIndent); return err })
			})
		}
	}
}

// BenchmarkEncoderEncode: one encoder per benchmark, writing to
// io.Discard, Encode called again and again: the steady state of a server.
func BenchmarkEncoderEncode(b *testing.B) {
	for _, val := range values(b) {
		for _, im := range order.Of(allImpls(), b.Name()+"/"+val.kind+"/"+val.file) {
			b.Run(val.kind+"/"+im.name+"/"+val.file, func(b *testing.B) {
				encode := im.newEncoder(io.Discard)
				b.SetBytes(int64(val.size + 1))
				b.ReportAllocs()
				warmLoop(b, func() error { return encode(val.v) })
			})
		}
	}
}

func BenchmarkCompact(b *testing.B) {
	for _, f := range corpus.All(b) {
		for _, im := range order.Of(allImpls(), b.Name()+"/"+f.Name) {
			if im.compact == nil {
				continue
			}
			b.Run(im.name+"/"+f.Name, func(b *testing.B) {
				var dst bytes.Buffer
				b.SetBytes(int64(len(f.Data)))
				b.ReportAllocs()
				warmLoop(b, func() error { dst.Reset(); return im.compact(&dst, f.Data) })
			})
		}
	}
}

func BenchmarkIndent(b *testing.B) {
	for _, f := range corpus.All(b) {
		for _, im := range order.Of(allImpls(), b.Name()+"/"+f.Name) {
			if im.indent == nil {
				continue
			}
			b.Run(im.name+"/"+f.Name, func(b *testing.B) {
				var dst bytes.Buffer
				b.SetBytes(int64(len(f.Data)))
				b.ReportAllocs()
				warmLoop(b, func() error { dst.Reset(); return im.indent(&dst, f.Data, indentPrefix, indentIndent) })
			})
		}
	}
}

func BenchmarkValid(b *testing.B) {
	for _, f := range corpus.All(b) {
		for _, im := range order.Of(allImpls(), b.Name()+"/"+f.Name) {
			if im.valid == nil {
				continue
			}
			b.Run(im.name+"/"+f.Name, func(b *testing.B) {
				b.SetBytes(int64(len(f.Data)))
				b.ReportAllocs()
				warmLoop(b, func() error {
					if !im.valid(f.Data) {
						return errors.New("not valid")
					}
					return nil
				})
			})
		}
	}
}

// warmLoop calls op untimed for warmup (at least once), then as the
// benchmark's loop: what these measure is the steady state of a program
// that encodes again and again, not its first calls' per-type work,
// buffer growth, pool filling and first touch of fresh memory
// (MarshalColdStart measures the first call). With a short -benchtime and a
// large file, those first calls weigh on the figure: at 100ms, typed
// citm_catalog measured 1.1ms a call against 0.61ms at 1s, and the peers
// differ in how much they pay.
func warmLoop(b *testing.B, op func() error) {
	for start := time.Now(); ; {
		if err := op(); err != nil {
			b.Fatal(err)
		}
		if time.Since(start) >= warmup {
			break
		}
	}
	for b.Loop() {
		if err := op(); err != nil {
			b.Fatal(err)
		}
	}
}

// warmup is how long warmLoop runs an operation before timing it:
// MARSHAL_WARMUP (a time.Duration), 50ms if unset.
var warmup = func() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("MARSHAL_WARMUP")); err == nil {
		return d
	}
	return 50 * time.Millisecond
}()

// coldSeq numbers the cold types' fields; see coldValues.
var coldSeq atomic.Int64

// coldValues returns n values of n struct types no library has met. Every
// library caches its per-type work by reflect.Type, and reflect.StructOf
// returns the same type for the same fields, so each type gets a field
// named after a sequence number that is never used again: each call, hence
// each benchmark iteration, makes types that are new to every cache. The
// fields cover the common kinds, a nested struct and a tagged name.
func coldValues(n int) []any {
	vs := make([]any, n)
	inner := []reflect.StructField{
		{Name: "X", Type: reflect.TypeFor[int]()},
		{Name: "Y", Type: reflect.TypeFor[string](), Tag: `json:"y,omitempty"`},
	}
	for i := range vs {
		seq := strconv.FormatInt(coldSeq.Add(1), 10)
		t := reflect.StructOf([]reflect.StructField{
			{Name: "A" + seq, Type: reflect.TypeFor[int](), Tag: `json:"a"`},
			{Name: "B", Type: reflect.TypeFor[string]()},
			{Name: "C", Type: reflect.TypeFor[[]float64]()},
			{Name: "D", Type: reflect.TypeFor[map[string]int]()},
			{Name: "E", Type: reflect.TypeFor[*bool]()},
			{Name: "F" + seq, Type: reflect.StructOf(append(inner, reflect.StructField{Name: "Z" + seq, Type: reflect.TypeFor[bool]()}))},
			{Name: "G", Type: reflect.TypeFor[any]()},
		})
		p := reflect.New(t)
		v := p.Elem()
		v.Field(0).SetInt(int64(i))
		v.Field(1).SetString("cold <start>")
		v.Field(2).Set(reflect.ValueOf([]float64{1.5, 2, 1e21}))
		v.Field(3).Set(reflect.ValueOf(map[string]int{"k": 1, "a": 2}))
		v.Field(5).Field(1).SetString("y")
		v.Field(6).Set(reflect.ValueOf("g"))
		vs[i] = p.Interface()
	}
	return vs
}

// BenchmarkMarshalColdStart: the first Marshal of each of 100 struct types
// new to every library (coldValues), the per-type set-up cost. The types
// are made outside the timed part, afresh for every iteration and every
// library.
func BenchmarkMarshalColdStart(b *testing.B) {
	const n = 100
	for _, im := range order.Of(allImpls(), b.Name()) {
		b.Run(im.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				vs := coldValues(n)
				b.StartTimer()
				for _, v := range vs {
					if _, err := im.marshal(v); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// TestColdValuesAreNew checks what BenchmarkMarshalColdStart relies on:
// two calls make distinct types, and every library encodes them as
// encoding/json does but for its own choices (reported, not failed).
func TestColdValuesAreNew(t *testing.T) {
	a, b := coldValues(2), coldValues(1)
	ta, tb := reflect.TypeOf(a[0]), reflect.TypeOf(a[1])
	if ta == tb || ta == reflect.TypeOf(b[0]) || tb == reflect.TypeOf(b[0]) {
		t.Fatal("coldValues made a type twice")
	}
	want, err := stdjson.Marshal(a[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, im := range allImpls() {
		got, err := im.marshal(a[0])
		switch {
		case err != nil:
			t.Errorf("%s: %v", im.name, err)
		case !bytes.Equal(got, want) && im.name == "jsonpipe":
			t.Errorf("jsonpipe: %s, want %s", got, want)
		case !bytes.Equal(got, want):
			t.Logf("%s writes %s, encoding/json %s", im.name, got, want)
		}
	}
}
