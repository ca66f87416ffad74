package json

import (
	stdjson "encoding/json"
	"strings"
	"testing"

	"github.com/jsonpipe/json/internal/corpus"
)

// Every corpus file (../shared/corpus and ../shared/corpus-wide), decoded by
// encoding/json into an any and into its typed target (corpus.TypedTarget:
// twitter, citm_catalog, canada and the four typed wide files), encodes to
// encoding/json's bytes with Marshal, MarshalIndent and Encoder.Encode.

// corpusValue is f decoded by encoding/json: the any itself, or a pointer
// to the typed target; nil where the kind has no target.
func corpusValue(tb testing.TB, f corpus.File, kind string) any {
	tb.Helper()
	if kind == "any" {
		var v any
		if err := stdjson.Unmarshal(f.Data, &v); err != nil {
			tb.Fatalf("%s: %v", f.Name, err)
		}
		return v
	}
	v := corpus.TypedTarget(f.Name)
	if v == nil {
		return nil
	}
	if err := stdjson.Unmarshal(f.Data, v); err != nil {
		tb.Fatalf("%s/typed: %v", f.Name, err)
	}
	return v
}

// corpusModes: the modes of marshalModes that the corpus runs (the stream
// mode only repeats the Encoder's); with -short (the race detector's CI
// run), two of them, which between them write through Marshal, the Encoder
// and indentation.
var corpusModes = []string{"Marshal", "MarshalIndent/tab", "MarshalIndent/prefix", "Encoder", "Encoder/noHTML", "Encoder/indent"}

var corpusModesShort = []string{"Marshal", "Encoder/indent"}

func TestMarshalCorpus(t *testing.T) {
	modes := corpusModes
	if testing.Short() {
		modes = corpusModesShort
	}
	for _, f := range corpus.All(t) {
		for _, kind := range []string{"any", "typed"} {
			v := corpusValue(t, f, kind)
			if v == nil {
				continue
			}
			for _, mode := range marshalModes {
				if !contains(modes, mode.name) {
					continue
				}
				t.Run(f.Name+"/"+kind+"/"+mode.name, func(t *testing.T) {
					want := mode.run(stdMarshal, v)
					got := mode.run(ourMarshal, v)
					if want.errs[0] != nil {
						t.Fatalf("encoding/json: %v", want.errs[0])
					}
					if why := marshalDiffers(got, want, v, mode.noHTML); why != "" {
						t.Errorf("%s: %s; error %s\n%s", f.Name, why, marshalErrsString(got.errs), corpus.FirstDifference(got.out, want.out))
					}
				})
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// firstLines cuts a long report to its first n lines, each to 300 bytes.
func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	for i, l := range lines {
		if len(l) > 300 {
			lines[i] = l[:300] + "…"
		}
	}
	return strings.Join(lines, "\n")
}
