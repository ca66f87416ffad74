package shapes

import (
	"bytes"
	"io"
	"testing"

	"github.com/jsonpipe/json/internal/corpus"
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
	for _, im := range allImpls() {
		if !im.timed {
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
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				if err := o.run(im, in, form, keep, io.Discard); err != nil {
					b.Fatal(err)
				}
			}
			if form == "docs" {
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(in.f.Docs)), "ns/doc")
			}
		})
	}
}
