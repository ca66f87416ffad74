package shapes

import (
	"bytes"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

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
	for _, im := range inOrder(allImpls(), b.Name()) {
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
			if form == "docs" {
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(in.f.Docs)), "ns/doc")
			}
		})
	}
}

// inOrder returns ims in the order this round runs them for the benchmark
// named name: as listed, or, when SHAPES_ROUND is set (benchmarks/run.sh
// sets it to the round's number), shuffled by a seed made of the round and
// the name, so that over a recording's rounds each library runs at every
// place, after every other. The heap a library runs in is the one its
// predecessor left, and where each call allocates a large result that
// decides the figure: form=doc marshal (a 1 MB result per call),
// str-len4000-ascii, medians of 6 interleaved rounds (AMD EPYC), in the
// listed order (jsonpipe first, goccy after encoding_json) goccy was 1.7
// times as fast as jsonpipe; in the reverse order (jsonpipe after
// encoding_json) jsonpipe was 2.2 times as fast as goccy. Two collections
// and the heap returned to the OS before each library, so that the pools
// of the one before were gone, left the split as it was: 1.6 times, either
// way.
func inOrder(ims []impl, name string) []impl {
	round, err := strconv.ParseUint(os.Getenv("SHAPES_ROUND"), 10, 64)
	if err != nil {
		return ims
	}
	h := fnv.New64a()
	io.WriteString(h, name)
	out := append([]impl(nil), ims...)
	rand.New(rand.NewPCG(round, h.Sum64())).Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
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

func TestInOrder(t *testing.T) {
	ims := allImpls()
	names := func(ims []impl) (s []string) {
		for _, im := range ims {
			s = append(s, im.name)
		}
		return s
	}
	listed := names(ims)
	t.Setenv("SHAPES_ROUND", "")
	if got := names(inOrder(ims, "a")); !slices.Equal(got, listed) {
		t.Fatalf("SHAPES_ROUND unset: %v, want the listed order %v", got, listed)
	}
	firsts := map[string]bool{}
	after := map[string]bool{} // who ran right after encoding_json
	for round := 1; round <= 10; round++ {
		t.Setenv("SHAPES_ROUND", strconv.Itoa(round))
		for _, name := range []string{"BenchmarkShapes/case=a/form=doc/op=marshal", "BenchmarkShapes/case=b/form=doc/op=marshal"} {
			got := names(inOrder(ims, name))
			if again := names(inOrder(ims, name)); !slices.Equal(got, again) {
				t.Fatalf("round %d, %s: %v, then %v", round, name, got, again)
			}
			sorted := slices.Sorted(slices.Values(got))
			if !slices.Equal(sorted, slices.Sorted(slices.Values(listed))) {
				t.Fatalf("round %d, %s: %v is not a permutation of %v", round, name, got, listed)
			}
			firsts[got[0]] = true
			if i := slices.Index(got, "encoding_json"); i+1 < len(got) {
				after[got[i+1]] = true
			}
		}
	}
	if len(firsts) < 3 || len(after) < 3 {
		t.Errorf("over 10 rounds of two benchmarks, first: %v, after encoding_json: %v; want each of at least 3 libraries", firsts, after)
	}
	if got := names(ims); !slices.Equal(got, listed) {
		t.Errorf("inOrder changed the list it was given: %v, was %v", got, listed)
	}
}
