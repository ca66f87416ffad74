package json

import (
	stdjson "encoding/json"
	"testing"
)

// TestAppendFlag: "true" and "false" after what b holds, with every spare
// capacity from none to past the 8 bytes the word needs (below them the
// branch's way), and as Marshal writes them in a struct, a slice, a map,
// an interface and with the string option, as encoding/json does.
func TestAppendFlag(t *testing.T) {
	for _, x := range []bool{true, false} {
		want := "ab" + map[bool]string{true: "true", false: "false"}[x]
		for spare := 0; spare <= 12; spare++ {
			b := make([]byte, 2, 2+spare)
			copy(b, "ab")
			if got := string(appendFlag(b, x)); got != want {
				t.Errorf("appendFlag(%q, cap %d, %v) = %q, want %q", b, cap(b), x, got, want)
			}
		}
	}
	type flags struct {
		A, B bool
		C    *bool
		D    bool `json:",string"`
		E    any
		F    []bool
		G    map[string]bool
	}
	yes := true
	for _, v := range []any{
		flags{A: true, C: &yes, D: true, E: false, F: []bool{true, false, true}, G: map[string]bool{"x": true, "y": false}},
		flags{B: true, E: true, F: []bool{false}},
		[]bool{false, false, true, true, false},
		map[string]any{"a": true, "b": false},
	} {
		got, err := Marshal(v)
		want, werr := stdjson.Marshal(v)
		if err != nil || werr != nil || string(got) != string(want) {
			t.Errorf("Marshal(%#v) = %s, %v; encoding/json: %s, %v", v, got, err, want, werr)
		}
	}
}
