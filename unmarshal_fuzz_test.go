package json

import (
	"bytes"
	stdjson "encoding/json"
	"testing"
)

// Differential fuzzing against encoding/json. Seeds: diffInputs, plus the
// files under testdata/fuzz/<FuzzName>/.

// FuzzUnmarshalDiff: Unmarshal into every differential target, zero and
// prefilled, gives encoding/json's values and errors.
func FuzzUnmarshalDiff(f *testing.F) {
	for _, in := range diffInputs {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		diffUnmarshal(t, in, false)
		diffUnmarshal(t, in, true)
	})
}

// FuzzDecodeDiff: a stream of values decoded with Decoder.Decode, the input
// delivered in small chunks chosen by shape, into a target chosen by target,
// gives encoding/json's values and errors.
func FuzzDecodeDiff(f *testing.F) {
	for i, in := range diffInputs {
		f.Add([]byte(in), uint8(i), uint64(i))
	}
	f.Add([]byte(`1 2 {"a":1} [3] "x"`), uint8(0), uint64(3))
	f.Add([]byte(`falsetruenul#`), uint8(1), uint64(9))
	targets := diffTargets()
	f.Fuzz(func(t *testing.T, in []byte, target uint8, shape uint64) {
		tg := targets[int(target)%len(targets)].name
		opts := []string{"", "n", "u", "p", "np"}[shape%5]
		for _, mk := range readerShapesFor(shape / 5) {
			diffDecode(t, in, tg, opts, mk)
		}
	})
}

// FuzzTokenDecodeDiff mixes Token, More and Decode (into any) as steps
// chooses, and compares every result and error with encoding/json's.
func FuzzTokenDecodeDiff(f *testing.F) {
	for i, in := range diffInputs {
		f.Add([]byte(in), uint64(i)*0x9E3779B97F4A7C15)
	}
	f.Add([]byte(`[{"a": 1}, {"a": 2} {"a": 3}]`), uint64(0b0110))
	f.Add([]byte(`{"x": [1, 2], "y": {"z": null}}`), uint64(0b1011))
	f.Fuzz(func(t *testing.T, in []byte, steps uint64) {
		if !sameTokenStream(diffTokenStream(stdTokens(string(in), false)), diffTokenStream(ourTokens(bytes.NewReader(in), string(in), false))) {
			return // a documented Token difference (see the README), tested elsewhere
		}
		sd := stdjson.NewDecoder(bytes.NewReader(in))
		od := NewDecoder(bytes.NewReader(in))
		for i := 0; i < 64; i++ {
			var want, got any
			var werr, gerr error
			step := "Token"
			if steps>>i&1 == 1 {
				step = "Decode"
				werr = sd.Decode(&want)
				gerr = od.Decode(&got)
			} else {
				want, werr = sd.Token()
				got, gerr = od.Token()
			}
			if v2StreamDifference(gerr, werr) {
				return
			}
			if !sameError(gerr, werr) || !sameValue(got, want, gerr, werr) {
				t.Fatalf("%q step %d (%s): got %#v %s, want %#v %s", in, i, step, got, describeError(gerr), want, describeError(werr))
			}
			if stopsStream(gerr, werr) {
				return
			}
		}
	})
}
