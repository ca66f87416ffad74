// Package shapes runs the shape sweep (internal/shapes: 81 cases along
// the string, number and record dimensions, each with its Go type, in
// four forms) through jsonpipe and the libraries a user could pick
// instead: encoding/json (the classic one on Go 1.26 and with
// GOEXPERIMENT=nojsonv2, the v2-backed one on Go 1.27), goccy/go-json,
// bytedance/sonic in its default config and in ConfigStd. encoding/json/v2
// (on Go 1.27, where it is in the default build), json-iterator and
// segmentio/encoding are checked too, but not timed; nor are sonic's Valid
// and its default config's marshal and encode, which no ratio reads (see
// unread).
//
// TestShapesAgree checks, before anything is timed, that every library
// decodes every case, in every form, typed and into an any, to
// encoding/json's values, that its Valid agrees, and which libraries
// Marshal each case's typed value to encoding/json's bytes (jsonpipe must).
//
// Benchmark names are BenchmarkShapes/case=C/form=F/op=O/impl=I, all
// key=value parts, so benchstat makes columns of any of them:
//
//	form=doc     one document of about 1 MB (a JSON array of records)
//	form=docs    distinct small documents of 200 B to 2 KB, one after the
//	             other, about 1 MB in all (also reported as ns/doc)
//	form=ndjson  one record a line, about 1 MB, read by one Decoder
//	             (written by one Encoder); and each line Unmarshalled on
//	             its own into a fresh *T or *any: the records as many
//	             distinct documents of one record each, as a service
//	             decodes its requests, where the cost of a call and of a
//	             document's last bytes weigh most (also reported as
//	             ns/doc, a line's)
//	form=pretty  form=doc pretty-printed (two spaces a level, as Indent
//	             writes it): only the decoding ops and valid, since
//	             Marshal writes compact JSON
//
//	op=unmarshal-typed, unmarshal-any   Unmarshal into *[]T (*T for a
//	                                    line), into *any
//	op=decode-typed, decode-any         Decoder.Decode, a Decoder per
//	                                    document (per stream for ndjson)
//	op=valid                            Valid
//	op=marshal                          Marshal of the typed value
//	op=encode                           Encoder.Encode of each line's value
//
// A library is not timed where it decodes a case otherwise (a known
// deviation of TestShapesAgree's). b.SetBytes is the input's size, or
// encoding/json's output size for marshal and encode, the same for every
// library, so MB/s ratios are time ratios. Each benchmark makes one untimed
// call first (the per-type set-up every library caches), then runs untimed
// for SHAPES_WARMUP (25ms; see warmup) before it is timed. With
// BENCH_ROUND set, as benchmarks/run.sh sets it, the libraries run in an
// order shuffled for each round and benchmark (see internal/order).
// The values never repeat from record to record, so jsonpipe's string
// cache, which a benchmark repeating one input warms, holds little of the
// next call's values even in form=doc: decoding a case's document into
// an any a second time allocated at most 1.7% fewer times than the first
// time from an empty pool (two runtime.GC calls), but 6 to 7.5% fewer
// for str-len400's strings, short enough to be cached and few enough
// (2,600) for some of the 1,024 slots to keep theirs (Go 1.26,
// runtime.MemStats.Mallocs).
// form=docs, where each document's values are new to every decoder, is the
// fresh-state figure: the compare module cannot reach the root's
// forgetPooled, which jsonpipe_fresh uses.
//
//	cd compare && go test ./shapes    # TestShapesAgree, on both toolchains
//	cd compare && GOTOOLCHAIN=go1.27.4 go test -run='^$' -bench=Shapes -benchmem -benchtime=100ms ./shapes > /tmp/shapes.txt
//	go tool benchstat -col /impl -filter '.unit:B/s' /tmp/shapes.txt
//
// benchmarks/run.sh shapes records the sweep, in interleaved rounds (and
// shapes-doc, shapes-docs or shapes-ndjson one form of it).
package shapes

import (
	"bytes"
	stdjson "encoding/json"
	"errors"
	"io"
	"reflect"

	"github.com/bytedance/sonic"
	goccy "github.com/goccy/go-json"
	jsoniter "github.com/json-iterator/go"
	jsonpipe "github.com/jsonpipe/json"
	"github.com/jsonpipe/json/internal/shapes"
	segjson "github.com/segmentio/encoding/json"
)

// impl is one library's entry points.
type impl struct {
	name      string
	unmarshal func([]byte, any) error
	// newDecoder returns the Decode of one decoder reading r: each call
	// decodes the next value, io.EOF after the last.
	newDecoder func(r io.Reader) func(any) error
	valid      func([]byte) bool
	marshal    func(any) ([]byte, error)
	newEncoder func(w io.Writer) func(any) error
	// timed: in the benchmarks (the libraries issue 36 names); the
	// others are only checked.
	timed bool
}

var jsoniterStd = jsoniter.ConfigCompatibleWithStandardLibrary

var baseImpls = []impl{
	{"jsonpipe", jsonpipe.Unmarshal,
		func(r io.Reader) func(any) error { return jsonpipe.NewDecoder(r).Decode },
		jsonpipe.Valid, jsonpipe.Marshal,
		func(w io.Writer) func(any) error { return jsonpipe.NewEncoder(w).Encode }, true},
	{"encoding_json", stdjson.Unmarshal,
		func(r io.Reader) func(any) error { return stdjson.NewDecoder(r).Decode },
		stdjson.Valid, stdjson.Marshal,
		func(w io.Writer) func(any) error { return stdjson.NewEncoder(w).Encode }, true},
	{"goccy", goccy.Unmarshal,
		func(r io.Reader) func(any) error { return goccy.NewDecoder(r).Decode },
		goccy.Valid, goccy.Marshal,
		func(w io.Writer) func(any) error { return goccy.NewEncoder(w).Encode }, true},
	// sonic's default config: strings that share the input's memory, no
	// UTF-8 check, no HTML escaping, map keys unsorted.
	{"sonic", sonic.Unmarshal,
		func(r io.Reader) func(any) error { return sonic.ConfigDefault.NewDecoder(r).Decode },
		sonic.Valid, sonic.Marshal,
		func(w io.Writer) func(any) error { return sonic.ConfigDefault.NewEncoder(w).Encode }, true},
	// ConfigStd: copies, checks and escapes as encoding/json does.
	{"sonic_std", sonic.ConfigStd.Unmarshal,
		func(r io.Reader) func(any) error { return sonic.ConfigStd.NewDecoder(r).Decode },
		sonic.ConfigStd.Valid, sonic.ConfigStd.Marshal,
		func(w io.Writer) func(any) error { return sonic.ConfigStd.NewEncoder(w).Encode }, true},
	{"jsoniter", jsoniterStd.Unmarshal,
		func(r io.Reader) func(any) error { return jsoniterStd.NewDecoder(r).Decode },
		jsoniterStd.Valid, jsoniterStd.Marshal,
		func(w io.Writer) func(any) error { return jsoniterStd.NewEncoder(w).Encode }, false},
	{"segmentio", segjson.Unmarshal,
		func(r io.Reader) func(any) error { return segjson.NewDecoder(r).Decode },
		segjson.Valid, segjson.Marshal,
		func(w io.Writer) func(any) error { return segjson.NewEncoder(w).Encode }, false},
}

// An input is one case built at one size, with encoding/json's typed
// values of each form, for the encoding ops (made when first wanted).
type input struct {
	c     *shapes.Case
	f     shapes.Forms
	lines [][]byte
	vals  map[string][]any // form -> its values, typed, as encoding/json decodes them
}

func newInput(c *shapes.Case, size int) *input {
	f := c.Build(size)
	return &input{c: c, f: f, lines: shapes.Lines(f.NDJSON), vals: map[string][]any{}}
}

// docs returns the form's documents: the one, the small ones, or the
// lines.
func (in *input) docs(form string) [][]byte {
	switch form {
	case "doc":
		return [][]byte{in.f.Doc}
	case "pretty":
		return [][]byte{in.f.Pretty}
	case "ndjson":
		return in.lines
	}
	return in.f.Docs
}

// size is the form's input size in bytes.
func (in *input) size(form string) int {
	if form == "ndjson" {
		return len(in.f.NDJSON)
	}
	n := 0
	for _, d := range in.docs(form) {
		n += len(d)
	}
	return n
}

// values returns the form's typed values as encoding/json decodes them
// (a []T per document, a T per line), to be encoded.
func (in *input) values(form string) ([]any, error) {
	if v, ok := in.vals[form]; ok {
		return v, nil
	}
	var vs []any
	if form == "ndjson" {
		for _, l := range in.lines {
			p := in.c.NewRecord()
			if err := stdjson.Unmarshal(l, p); err != nil {
				return nil, err
			}
			vs = append(vs, reflect.ValueOf(p).Elem().Interface())
		}
	} else {
		for _, d := range in.docs(form) {
			p := in.c.NewSlice()
			if err := stdjson.Unmarshal(d, p); err != nil {
				return nil, err
			}
			vs = append(vs, reflect.ValueOf(p).Elem().Interface())
		}
	}
	in.vals[form] = vs
	return vs, nil
}

// An op is one operation on a form of an input by one library, the body
// both the test and the benchmarks run. A decoding op hands each value it
// decodes to keep; an encoding op writes its output to w (Marshal: each
// document's bytes, one after the other).
type op struct {
	name  string
	forms []string
	run   func(im impl, in *input, form string, keep func(any), w io.Writer) error
}

var forms = []string{"doc", "docs", "ndjson", "pretty"}

var ops = []op{
	{"unmarshal-typed", forms, unmarshalOp(true)},
	{"unmarshal-any", forms, unmarshalOp(false)},
	{"decode-typed", forms, decodeOp(true)},
	{"decode-any", forms, decodeOp(false)},
	{"valid", []string{"doc", "docs", "pretty"}, validOp},
	{"marshal", []string{"doc", "docs"}, marshalOp},
	{"encode", []string{"ndjson"}, encodeOp},
}

// target returns a fresh target: *[]T for a document, *T for a line, or
// *any.
func (in *input) target(typed bool, form string) any {
	switch {
	case !typed:
		return new(any)
	case form == "ndjson":
		return in.c.NewRecord()
	}
	return in.c.NewSlice()
}

func unmarshalOp(typed bool) func(impl, *input, string, func(any), io.Writer) error {
	return func(im impl, in *input, form string, keep func(any), _ io.Writer) error {
		for _, d := range in.docs(form) {
			v := in.target(typed, form)
			if err := im.unmarshal(d, v); err != nil {
				return err
			}
			keep(v)
		}
		return nil
	}
}

// decodeOp: a Decoder per document, or one for the whole NDJSON stream,
// decoding until io.EOF.
func decodeOp(typed bool) func(impl, *input, string, func(any), io.Writer) error {
	return func(im impl, in *input, form string, keep func(any), _ io.Writer) error {
		if form == "ndjson" {
			dec := im.newDecoder(bytes.NewReader(in.f.NDJSON))
			for {
				v := in.target(typed, form)
				if err := dec(v); errors.Is(err, io.EOF) {
					return nil
				} else if err != nil {
					return err
				}
				keep(v)
			}
		}
		for _, d := range in.docs(form) {
			v := in.target(typed, form)
			if err := im.newDecoder(bytes.NewReader(d))(v); err != nil {
				return err
			}
			keep(v)
		}
		return nil
	}
}

var errNotValid = errors.New("not valid")

func validOp(im impl, in *input, form string, _ func(any), _ io.Writer) error {
	for _, d := range in.docs(form) {
		if !im.valid(d) {
			return errNotValid
		}
	}
	return nil
}

func marshalOp(im impl, in *input, form string, _ func(any), w io.Writer) error {
	vs, err := in.values(form)
	if err != nil {
		return err
	}
	for _, v := range vs {
		out, err := im.marshal(v)
		if err != nil {
			return err
		}
		w.Write(out)
	}
	return nil
}

// encodeOp: one Encoder writes every line's value.
func encodeOp(im impl, in *input, form string, _ func(any), w io.Writer) error {
	vs, err := in.values(form)
	if err != nil {
		return err
	}
	enc := im.newEncoder(w)
	for _, v := range vs {
		if err := enc(v); err != nil {
			return err
		}
	}
	return nil
}

func (o op) has(form string) bool {
	for _, f := range o.forms {
		if f == form {
			return true
		}
	}
	return false
}
