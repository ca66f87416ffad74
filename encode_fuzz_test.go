package json

import (
	"bytes"
	"testing"
)

// FuzzMarshalDiff: the value a builder makes from the fuzz input encodes
// as encoding/json encodes it, in every position and mode (diffMarshalValue:
// bytes and errors), and makes the same round trip through Unmarshal
// (diffRoundTrip). builder picks the family (encBuilders); data steers its
// every choice (encFuzz), so strings with invalid UTF-8, floats from raw
// bits, integers at their limits, map keys of each kind, tags, embedding,
// Marshalers' outputs and the shared types all come from the input.
//
// The seeds reach every builder: each with no data (every choice zero),
// with each byte value in a run, and with the inputs encSeeds adds for
// string pieces and Marshaler modes.
func FuzzMarshalDiff(f *testing.F) {
	for i := range encBuilders {
		f.Add(uint8(i), []byte(nil))
		for _, c := range []byte{1, 2, 3, 5, 7, 0x80, 0x81, 0x8d, 0xc3, 0xff} {
			f.Add(uint8(i), bytes.Repeat([]byte{c}, 48))
		}
	}
	seeds := encSeeds()
	for i, seed := range seeds[len(seeds)-encMarshalerModes-1:] { // the pieces and the Marshaler modes
		for b := range encBuilders {
			if (i+b)%3 == 0 {
				f.Add(uint8(b), seed)
			}
		}
	}
	f.Fuzz(func(t *testing.T, builder uint8, data []byte) {
		b := encBuilders[int(builder)%len(encBuilders)]
		v := b.build(&encFuzz{data})
		if d := diffMarshalValue(v); d != "" {
			t.Fatalf("%s from %x:\n%s", b.name, data, d)
		}
		for _, form := range encForms[:2] {
			if d := diffRoundTrip(form.wrap(v)); d != "" {
				t.Fatalf("%s from %x, %s: round trip: %s", b.name, data, form.name, d)
			}
		}
	})
}
