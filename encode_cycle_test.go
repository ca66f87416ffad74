package json

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// Cycles and depth: a cyclic value is an *UnsupportedValueError with
// encoding/json's text, never a stack overflow; a value 100,000 levels
// deep that is no cycle is written, as the classic encoding/json writes it
// (the v2-backed one stops at 10,000 levels: contract difference 9). No
// time limits: a crash or a hang is the failure.

type cycNode struct {
	Name string
	Next *cycNode
}

type cycIface struct{ V any }

type cycSlice struct{ S []cycSlice }

type deepNode struct{ Next *deepNode }

func cyclicValues() []struct {
	name string
	v    func() any
	want string
} {
	return []struct {
		name string
		v    func() any
		want string
	}{
		{"pointer", func() any {
			p := &cycNode{Name: "a"}
			p.Next = &cycNode{Name: "b", Next: p}
			return p
		}, "json: unsupported value: encountered a cycle via *json.cycNode"},
		{"map", func() any {
			m := map[string]any{"x": 1}
			m["m"] = m
			return m
		}, "json: unsupported value: encountered a cycle via map[string]interface {}"},
		{"slice through an interface", func() any {
			s := []any{1, nil}
			s[1] = s
			return s
		}, "json: unsupported value: encountered a cycle via []interface {}"},
		{"interface field holding its struct's pointer", func() any {
			c := &cycIface{}
			c.V = c
			return c
		}, "json: unsupported value: encountered a cycle via *json.cycIface"},
		{"map in a slice in a map", func() any {
			m := map[string]any{}
			m["s"] = []any{map[string]any{"m": m}}
			return []any{m}
		}, "json: unsupported value: encountered a cycle via map[string]interface {}"},
		{"slice sharing its array", func() any {
			s := make([]cycSlice, 1)
			s[0].S = s
			return s
		}, "json: unsupported value: encountered a cycle via []json.cycSlice"},
	}
}

func TestMarshalCycles(t *testing.T) {
	for _, tc := range cyclicValues() {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Marshal(tc.v())
			var ve *UnsupportedValueError
			if err == nil || err.Error() != tc.want || !errors.As(err, &ve) {
				t.Errorf("Marshal: %d bytes, error %v (%T)\nwant *UnsupportedValueError %s", len(out), err, err, tc.want)
			}
			if _, err := MarshalIndent(tc.v(), "", "  "); err == nil || err.Error() != tc.want {
				t.Errorf("MarshalIndent: error %v, want %s", err, tc.want)
			}
			var buf bytes.Buffer
			if err := NewEncoder(&buf).Encode(tc.v()); err == nil || err.Error() != tc.want || buf.Len() != 0 {
				t.Errorf("Encoder.Encode: wrote %d bytes, error %v, want nothing and %s", buf.Len(), err, tc.want)
			}
			// And the same as encoding/json in every position and mode
			// (the text is the same on both toolchains; the differential
			// checks the error type and the Encoder's output too).
			if d := diffMarshalValue(tc.v()); d != "" {
				t.Error(firstLines(d, 6))
			}
		})
	}
}

// TestMarshalSharedNotCycle: a pointer or map reached twice, but not
// through itself, is written twice (encoding/json's TestSamePointerNoCycle).
func TestMarshalSharedNotCycle(t *testing.T) {
	leaf := &cycNode{Name: "leaf"}
	m := map[string]int{"k": 1}
	v := []any{leaf, leaf, m, m, []any{m, leaf}}
	out, err := Marshal(v)
	want := `[{"Name":"leaf","Next":null},{"Name":"leaf","Next":null},{"k":1},{"k":1},[{"k":1},{"Name":"leaf","Next":null}]]`
	if err != nil || string(out) != want {
		t.Errorf("got %s, %v\nwant %s", out, err, want)
	}
}

const deepLevels = 100_000

func deepValues() []struct {
	name string
	v    func() any
	want func() string
} {
	return []struct {
		name string
		v    func() any
		want func() string
	}{
		{"pointers to structs", func() any {
			var d *deepNode
			for range deepLevels {
				d = &deepNode{d}
			}
			return d
		}, func() string {
			return strings.Repeat(`{"Next":`, deepLevels) + "null" + strings.Repeat("}", deepLevels)
		}},
		{"[]any", func() any {
			var v any
			for range deepLevels {
				v = []any{v}
			}
			return v
		}, func() string { return strings.Repeat("[", deepLevels) + "null" + strings.Repeat("]", deepLevels) }},
		{"map[string]any", func() any {
			var v any
			for range deepLevels {
				v = map[string]any{"a": v}
			}
			return v
		}, func() string { return strings.Repeat(`{"a":`, deepLevels) + "null" + strings.Repeat("}", deepLevels) }},
	}
}

// TestMarshalDeep: values 100,000 levels deep, written whole by Marshal and
// Encoder.Encode (MarshalIndent's output would grow with the square of the
// depth), as the classic encoding/json writes them.
func TestMarshalDeep(t *testing.T) {
	skipWhileForwardingToV2(t)
	for _, tc := range deepValues() {
		t.Run(tc.name, func(t *testing.T) {
			v, want := tc.v(), tc.want()
			out, err := Marshal(v)
			if err != nil || string(out) != want {
				t.Errorf("Marshal: %d bytes, error %v; want %d bytes", len(out), err, len(want))
			}
			var buf bytes.Buffer
			if err := NewEncoder(&buf).Encode(v); err != nil || buf.String() != want+"\n" {
				t.Errorf("Encoder.Encode: %d bytes, error %v; want %d bytes", buf.Len(), err, len(want)+1)
			}
			if stdClassic {
				sout, serr := stdMarshal.marshal(v)
				if serr != nil || !bytes.Equal(sout, out) {
					t.Errorf("encoding/json: %d bytes, error %v; ours %d bytes", len(sout), serr, len(out))
				}
			}
		})
	}
}
