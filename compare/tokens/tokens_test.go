// Package tokens compares jsonpipe's token layer with the fastest tokenizers
// and validators a Go user can pick. It lives in the nested compare module so
// that the library's own go.mod stays free of them.
//
//	cd compare && go test -run='^$' -bench=. -benchmem -count=10 ./tokens | tee tokens.txt
//	GOTOOLCHAIN=go1.27.4 go test -run='^$' -bench=. -benchmem -count=10 ./tokens | tee tokens-v2.txt   (with encoding/json/jsontext)
//	go tool benchstat -col /impl tokens-v2.txt
package tokens

import (
	"bytes"
	stdjson "encoding/json"
	"io"
	"testing"

	goccy "github.com/goccy/go-json"
	jsonpipe "github.com/jsonpipe/json"
	"github.com/jsonpipe/json/internal/corpus"
	segjson "github.com/segmentio/encoding/json"
)

// tokenizer counts the value tokens (everything but ':' and ',') of data.
type tokenizer struct {
	name  string
	count func(data []byte) (int, error)
}

var tokenizers = []tokenizer{
	{"jsonpipe", jsonpipeCount},
	{"segmentio", segmentioCount},
}

func jsonpipeCount(data []byte) (int, error) {
	d := jsonpipe.NewDecoder(bytes.NewReader(data))
	n := 0
	for {
		if _, err := d.NextToken(); err != nil {
			if err == io.EOF {
				return n, nil
			}
			return n, err
		}
		n++
	}
}

// segmentioCount uses segmentio's Tokenizer, which works on a []byte held
// whole in memory and yields ':' and ',' as tokens too.
func segmentioCount(data []byte) (int, error) {
	t := segjson.NewTokenizer(data)
	n := 0
	for t.Next() {
		if t.Delim != ':' && t.Delim != ',' {
			n++
		}
	}
	return n, t.Err
}

func stdCount(tb testing.TB, data []byte) int {
	d := stdjson.NewDecoder(bytes.NewReader(data))
	n := 0
	for {
		if _, err := d.Token(); err != nil {
			if err != io.EOF {
				tb.Fatal(err)
			}
			return n
		}
		n++
	}
}

func BenchmarkDecoderNextToken(b *testing.B) {
	files := corpus.All(b)
	for _, tk := range allTokenizers() {
		b.Run(tk.name, func(b *testing.B) {
			for _, f := range files {
				want := stdCount(b, f.Data)
				b.Run(f.Name, func(b *testing.B) {
					b.SetBytes(int64(len(f.Data)))
					b.ReportAllocs()
					for b.Loop() {
						n, err := tk.count(f.Data)
						if err != nil || n != want {
							b.Fatalf("%d tokens, %v; want %d", n, err, want)
						}
					}
				})
			}
		})
	}
}

func TestTokenCounts(t *testing.T) {
	for _, f := range corpus.All(t) {
		want := stdCount(t, f.Data)
		for _, tk := range allTokenizers() {
			if n, err := tk.count(f.Data); err != nil || n != want {
				t.Errorf("%s/%s: %d tokens, %v; want %d", tk.name, f.Name, n, err, want)
			}
		}
	}
}

var validators = []struct {
	name  string
	valid func([]byte) bool
}{
	{"jsonpipe", jsonpipe.Valid},
	{"encodingjson", stdjson.Valid},
	{"segmentio", segjson.Valid},
	{"goccy", goccy.Valid},
}

func BenchmarkValid(b *testing.B) {
	files := corpus.All(b)
	for _, v := range validators {
		b.Run(v.name, func(b *testing.B) {
			for _, f := range files {
				b.Run(f.Name, func(b *testing.B) {
					b.SetBytes(int64(len(f.Data)))
					b.ReportAllocs()
					for b.Loop() {
						if !v.valid(f.Data) {
							b.Fatal("invalid")
						}
					}
				})
			}
		})
	}
}
