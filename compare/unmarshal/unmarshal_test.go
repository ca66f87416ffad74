// Package unmarshal compares jsonpipe's Unmarshal and Decoder.Decode with the
// Go JSON libraries a user could pick instead: encoding/json, goccy/go-json,
// bytedance/sonic, json-iterator/go, segmentio/encoding and, on Go 1.27
// (where encoding/json/v2 is part of the default build), encoding/json/v2. It lives in the nested compare module
// so that the library's own go.mod stays free of them.
//
//	cd compare
//	GOTOOLCHAIN=go1.27.4 go test -run='^$' -bench=. -benchmem -count=10 ./unmarshal | tee unmarshal.txt
//	go tool benchstat -col /impl unmarshal.txt
//
// TestPeersAgree checks, before anything is timed, that every library decodes
// every corpus file into the same values as encoding/json.
package unmarshal

import (
	"bytes"
	stdjson "encoding/json"
	"io"
	"reflect"
	"testing"

	"github.com/bytedance/sonic"
	goccy "github.com/goccy/go-json"
	jsoniter "github.com/json-iterator/go"
	jsonpipe "github.com/jsonpipe/json"
	"github.com/jsonpipe/json/internal/corpus"
	"github.com/jsonpipe/json/internal/order"
	segjson "github.com/segmentio/encoding/json"
)

type impl struct {
	name      string
	unmarshal func([]byte, any) error
	decode    func(io.Reader, any) error // from a stream
}

var jsoniterStd = jsoniter.ConfigCompatibleWithStandardLibrary

var baseImpls = []impl{
	{"jsonpipe", jsonpipe.Unmarshal, func(r io.Reader, v any) error { return jsonpipe.NewDecoder(r).Decode(v) }},
	{"encoding_json", stdjson.Unmarshal, func(r io.Reader, v any) error { return stdjson.NewDecoder(r).Decode(v) }},
	{"goccy", goccy.Unmarshal, func(r io.Reader, v any) error { return goccy.NewDecoder(r).Decode(v) }},
	// sonic's default config makes strings that share the input's memory and
	// does not check UTF-8; ConfigStd copies and checks, as encoding/json.
	{"sonic", sonic.Unmarshal, func(r io.Reader, v any) error { return sonic.ConfigDefault.NewDecoder(r).Decode(v) }},
	{"sonic_std", sonic.ConfigStd.Unmarshal, func(r io.Reader, v any) error { return sonic.ConfigStd.NewDecoder(r).Decode(v) }},
	{"jsoniter", jsoniterStd.Unmarshal, func(r io.Reader, v any) error { return jsoniterStd.NewDecoder(r).Decode(v) }},
	{"segmentio", segjson.Unmarshal, func(r io.Reader, v any) error { return segjson.NewDecoder(r).Decode(v) }},
}

func newTarget(file, kind string) any {
	if kind == "any" {
		return new(any)
	}
	return corpus.TypedTarget(file)
}

// cases yields every (file, kind) with a target.
func cases(tb testing.TB, fn func(f corpus.File, kind string)) {
	for _, f := range corpus.All(tb) {
		for _, kind := range []string{"any", "typed"} {
			if newTarget(f.Name, kind) != nil {
				fn(f, kind)
			}
		}
	}
}

func TestPeersAgree(t *testing.T) {
	cases(t, func(f corpus.File, kind string) {
		want := newTarget(f.Name, kind)
		if err := stdjson.Unmarshal(f.Data, want); err != nil {
			t.Fatal(err)
		}
		for _, im := range allImpls() {
			got := newTarget(f.Name, kind)
			if err := im.unmarshal(f.Data, got); err != nil {
				t.Errorf("%s %s/%s: %v", im.name, f.Name, kind, err)
				continue
			}
			if !reflect.DeepEqual(want, got) {
				t.Errorf("%s %s/%s: values differ from encoding/json's", im.name, f.Name, kind)
			}
		}
	})
}

func BenchmarkUnmarshal(b *testing.B) {
	cases(b, func(f corpus.File, kind string) {
		for _, im := range order.Of(allImpls(), b.Name()+"/"+f.Name+"/"+kind) {
			b.Run(im.name+"/"+f.Name+"/"+kind, func(b *testing.B) {
				b.SetBytes(int64(len(f.Data)))
				b.ReportAllocs()
				for b.Loop() {
					if err := im.unmarshal(f.Data, newTarget(f.Name, kind)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	})
	// The floor: each file's any value built in code, fresh maps and
	// slices with shared leaves, which no decoder beats.
	corpus.BenchmarkAnyFloor(b)
}

func BenchmarkDecoderDecode(b *testing.B) {
	cases(b, func(f corpus.File, kind string) {
		for _, im := range order.Of(allImpls(), b.Name()+"/"+f.Name+"/"+kind) {
			b.Run(im.name+"/"+f.Name+"/"+kind, func(b *testing.B) {
				b.SetBytes(int64(len(f.Data)))
				b.ReportAllocs()
				r := bytes.NewReader(f.Data)
				for b.Loop() {
					r.Reset(f.Data)
					if err := im.decode(r, newTarget(f.Name, kind)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	})
}
