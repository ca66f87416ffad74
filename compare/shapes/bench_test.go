package shapes

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jsonpipe/json/internal/corpus"
	"github.com/jsonpipe/json/internal/order"
	"github.com/jsonpipe/json/internal/shapes"
)

// BenchmarkShapes times every op on every form of every case, each library
// in turn at the innermost level so that they run side by side:
// BenchmarkShapes/case=C/form=F/op=O/impl=I (see the package doc). A
// case's input is built once, when its benchmarks start.
func BenchmarkShapes(b *testing.B) {
	for _, c := range shapes.Cases() {
		b.Run("case="+c.Name, func(b *testing.B) {
			in := newInput(c, shapes.DocSize)
			for _, form := range forms {
				b.Run("form="+form, func(b *testing.B) {
					for _, o := range ops {
						if o.has(form) {
							b.Run("op="+o.name, func(b *testing.B) { benchOp(b, in, form, o) })
						}
					}
				})
			}
		})
	}
}

func benchOp(b *testing.B, in *input, form string, o op) {
	size := in.size(form)
	var want []byte // encoding/json's output, for the encoding ops
	if o.name == "marshal" || o.name == "encode" {
		var buf bytes.Buffer
		var std impl
		for _, im := range allImpls() {
			if im.name == "encoding_json" {
				std = im
			}
		}
		if err := o.run(std, in, form, nil, &buf); err != nil {
			b.Fatal(err)
		}
		want, size = buf.Bytes(), buf.Len()
	}
	keep := func(any) {}
	for _, im := range order.Of(allImpls(), b.Name()) {
		if !im.timed || unread(im.name, o.name) {
			continue
		}
		b.Run("impl="+im.name, func(b *testing.B) {
			// A library that decodes this case otherwise does other work
			// (jsonv2 leaves rec-keycase's fields zero): no figure.
			for _, d := range deviations {
				if d.impl == im.name && d.cases.MatchString(in.c.Name) && d.ops.MatchString(o.name+"/"+form) {
					b.Skipf("a known deviation: %s", d.why)
				}
			}
			// One untimed call: each library's per-type set-up, and for
			// jsonpipe's encodings a check of the bytes.
			var out bytes.Buffer
			if err := o.run(im, in, form, keep, &out); err != nil {
				b.Fatal(err)
			}
			if want != nil && im.name == "jsonpipe" && !bytes.Equal(out.Bytes(), want) {
				b.Fatalf("jsonpipe's %s differs from encoding/json's: %s", o.name, corpus.FirstDifference(out.Bytes(), want))
			}
			// Then untimed for SHAPES_WARMUP (see warmup).
			for start := time.Now(); time.Since(start) < warmup; {
				if err := o.run(im, in, form, keep, io.Discard); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				if err := o.run(im, in, form, keep, io.Discard); err != nil {
					b.Fatal(err)
				}
			}
			if form == "docs" || form == "ndjson" && strings.HasPrefix(o.name, "unmarshal") {
				// A call's time: per small document, per line Unmarshalled.
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(in.docs(form))), "ns/doc")
			}
		})
	}
}

// warmup is how long each benchmark runs its operation untimed before
// timing it: SHAPES_WARMUP (a time.Duration), 25ms if unset. What the sweep
// measures is the steady state of a program that decodes or encodes again
// and again; a case's first calls also grow the heap, fill the pools and
// touch fresh memory, and with the sweep's short -benchtime and a 1 MB
// input they weigh on the figure, more for some libraries than for others
// (see compare/marshal's warmLoop). str-len400-ascii's form=doc marshal,
// medians of 4 interleaved rounds (AMD EPYC): timed for 50ms from the
// first call, jsonpipe took 6.6 times as long a call as timed for 1s, and
// goccy 1.8 times; after 25ms untimed, 1.3 and 0.9 times.
var warmup = func() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("SHAPES_WARMUP")); err == nil {
		return d
	}
	return 25 * time.Millisecond
}()

// unread says which library's figures no ratio of the sweep reads, left
// out to keep a round short (benchmarks/run.sh records ten): sonic's Valid
// in either config, which does not check strings (TestValidRejects: the
// ratio for valid is against goccy alone), and sonic's default config on
// marshal and encode, which writes other bytes than encoding/json (the
// ratio is against ConfigStd). TestShapesAgree still checks them all.
func unread(impl, op string) bool {
	switch op {
	case "valid":
		return impl == "sonic" || impl == "sonic_std"
	case "marshal", "encode":
		return impl == "sonic"
	}
	return false
}
