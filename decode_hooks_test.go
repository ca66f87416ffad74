package json

import (
	stdjson "encoding/json"
	"reflect"
	"testing"
)

// countText and countJSON count their method's calls, as a method with a
// side effect would show them.
type countText struct{ S string }

type countJSON struct{ S string }

var countCalls int

func (c *countText) UnmarshalText(b []byte) error {
	countCalls++
	c.S = string(b)
	return nil
}

func (c *countJSON) UnmarshalJSON(b []byte) error {
	countCalls++
	c.S = string(b)
	return nil
}

// hookPlaces are types that reach a counting method in each way a value
// can hold one, and inputs with one value of it.
var hookPlaces = []struct {
	name string
	new  func() any
	in   string
}{
	{"text", func() any { return new(struct{ X countText }) }, `{"X":"a"}`},
	{"textptr", func() any { return new(struct{ X *countText }) }, `{"X":"a"}`},
	{"json", func() any { return new(struct{ X countJSON }) }, `{"X":[1]}`},
	{"jsonptr", func() any { return new(struct{ X *countJSON }) }, `{"X":[1]}`},
	{"slice", func() any { return new(struct{ X []*countText }) }, `{"X":["a"]}`},
	{"array", func() any { return new(struct{ X [2]*countJSON }) }, `{"X":[1]}`},
	{"map", func() any { return new(struct{ X map[string]*countText }) }, `{"X":{"k":"a"}}`},
	{"nested", func() any { return new(struct{ N *struct{ X *countText } }) }, `{"N":{"X":"a"}}`},
	{"records", func() any { return new([]struct{ X *countText }) }, `[{"X":"a"}]`},
	{"top", func() any { return new(*countText) }, `"a"`},
}

// TestHooksAfterSyntaxError: encoding/json checks the whole input before
// it calls a method of the target's; so does Unmarshal, wherever the type
// holds the method (a pointer's once was missed: its method ran, then the
// syntax error came).
func TestHooksAfterSyntaxError(t *testing.T) {
	for _, c := range hookPlaces {
		for _, in := range []string{c.in, c.in[:len(c.in)-1] + `,}`, c.in + ` x`} {
			countCalls = 0
			err := Unmarshal([]byte(in), c.new())
			ours := countCalls
			countCalls = 0
			stdErr := stdjson.Unmarshal([]byte(in), c.new())
			if ours != countCalls || errString(err) != errString(stdErr) {
				t.Errorf("%s %s: %d calls, %v; encoding/json: %d calls, %v", c.name, in, ours, err, countCalls, stdErr)
			}
			for range 2 { // the second call of a type takes its own paths
				countCalls = 0
				v := c.new()
				err = Unmarshal([]byte(in), v)
				ours = countCalls
				countCalls = 0
				w := c.new()
				stdErr = stdjson.Unmarshal([]byte(in), w)
				if ours != countCalls || errString(err) != errString(stdErr) || !reflect.DeepEqual(v, w) {
					t.Errorf("%s %s again: %d calls, %v; encoding/json: %d calls, %v", c.name, in, ours, err, countCalls, stdErr)
				}
			}
		}
	}
}
