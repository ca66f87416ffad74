package json

import (
	stdjson "encoding/json"
	"math"
	"testing"
	"unsafe"
)

// TestAllZero: every size up to 40, each byte in turn set.
func TestAllZero(t *testing.T) {
	var b [40]byte
	for n := 0; n <= len(b); n++ {
		if !allZero(unsafe.Pointer(&b[0]), uintptr(n)) {
			t.Fatalf("allZero of %d zero bytes: false", n)
		}
		for i := 0; i < n; i++ {
			b[i] = 0x40
			if allZero(unsafe.Pointer(&b[0]), uintptr(n)) {
				t.Errorf("allZero of %d bytes with byte %d set: true", n, i)
			}
			b[i] = 0
		}
		b[n%len(b)] = 1 // a byte past the n: not looked at
		if n < len(b) && !allZero(unsafe.Pointer(&b[0]), uintptr(n)) {
			t.Errorf("allZero of %d bytes read past them", n)
		}
		b[n%len(b)] = 0
	}
}

// TestSnapshotZero: a syntax error after a speculative decode leaves the
// target as encoding/json leaves it (untouched), whether its bytes are all
// zero, only reflect's zero (an empty string whose pointer is not nil), or
// not zero (-0.0, whose sign the undo must keep).
func TestSnapshotZero(t *testing.T) {
	type target struct {
		S string
		F float64
		N int
	}
	for _, in := range []string{`{"S":"x","F":1.5,"N":2,`, `{"S":"x","F":1.5,"N":2} x`, `{"N":tru}`} {
		for _, start := range []target{{}, {S: "abc"[:0]}, {F: math.Copysign(0, -1)}, {S: "s", N: 3}} {
			got, want := start, start
			err := Unmarshal([]byte(in), &got)
			werr := stdjson.Unmarshal([]byte(in), &want)
			if !sameError(err, werr) || got != want || math.Signbit(got.F) != math.Signbit(want.F) {
				t.Errorf("%s into %+v: got %+v (%v), want %+v (%v)", in, start, got, err, want, werr)
			}
		}
	}
}
