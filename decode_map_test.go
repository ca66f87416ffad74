package json

import (
	stdjson "encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestMapStringScalar: objects into a map from string to each predeclared
// scalar type that has a decoder of its own (mapStringScalar), whose values
// are read in place where scalarNext takes them and as tokens where it
// does not, decode as encoding/json decodes them: values of the map's kind
// and of every other, null, numbers it cannot hold, keys escaped and
// repeated, whitespace anywhere, and faults; into a new map and into one
// that is there; through Unmarshal and a Decoder, whole and a byte at a
// time.
func TestMapStringScalar(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 2))
	keys := []string{`"a"`, `"b"`, `"a_longer_key_past_sixteen"`, `"\u0061"`, `"é"`, `""`, `"k\"q"`}
	values := []string{`1`, `-7`, `0`, `9223372036854775807`, `9223372036854775808`, `1.5`, `-0.25e3`, `1e999`,
		`"s"`, `"\u00e9\n"`, "\"\xff\"", `true`, `false`, `null`, `[1,2]`, `{"x":1}`, `[]`, `{}`}
	faults := []string{`"a" 1`, `"a":`, `"a":1 "b":2`, `"a":1,`, `,`, `"a":tru`, `"a":-`, `1:1`, `"a":[1,}`}
	space := []string{"", "", "", " ", "\n\t"}
	object := func() string {
		ms := make([]string, r.IntN(12))
		for i := range ms {
			switch {
			case r.IntN(40) == 0:
				ms[i] = faults[r.IntN(len(faults))]
			case r.IntN(3) == 0:
				ms[i] = keys[r.IntN(len(keys))] + space[r.IntN(len(space))] + ":" + space[r.IntN(len(space))] + values[r.IntN(len(values))]
			default:
				ms[i] = keys[r.IntN(len(keys))] + ":" + values[r.IntN(5)] // mostly numbers
			}
			if i > 0 {
				ms[i] = space[r.IntN(len(space))] + "," + space[r.IntN(len(space))] + ms[i]
			}
		}
		return "{" + strings.Join(ms, "") + space[r.IntN(len(space))] + "}"
	}
	check := func(round int, in []byte) {
		t.Helper()
		checkDecodeAgrees[[]map[string]int](t, round, in)
		checkDecodeAgrees[[]map[string]int64](t, round, in)
		checkDecodeAgrees[[]map[string]float64](t, round, in)
		checkDecodeAgrees[[]map[string]string](t, round, in)
		checkDecodeAgrees[[]map[string]bool](t, round, in)
		checkDecodeAgrees[map[string]int](t, round, in)
	}
	for round := range 400 {
		objects := make([]string, 1+r.IntN(4))
		for i := range objects {
			objects[i] = object()
		}
		in := []byte("[" + strings.Join(objects, ",") + "]")
		if round%4 == 3 {
			in = in[1 : len(in)-1] // one object (or several: an error)
		}
		check(round, in)

		// Into maps that are there: members are added to them.
		got, want := map[string]float64{"a": 3, "x": 4}, map[string]float64{"a": 3, "x": 4}
		err, werr := Unmarshal(in, &got), stdjson.Unmarshal(in, &want)
		if !sameError(err, werr) || werr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: Unmarshal(%s) into a map that is there = %v, %v; encoding/json: %v, %v", round, in, got, err, want, werr)
		}
	}
}
