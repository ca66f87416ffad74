package json

import (
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
