//go:build !goexperiment.jsonv2

package json

import (
	stdjson "encoding/json"
	"errors"
	"testing"
)

// The classic encoding/json (Go 1.26; Go 1.27 with GOEXPERIMENT=nojsonv2)
// has no encoding/json/jsontext, so no type here can have the MarshalJSONTo
// or UnmarshalJSONFrom that encoding/json/v2 calls; it looks at neither
// name. Nor does jsonpipe (jsonto_other.go): methods of those names, with
// the closest signature this build can spell, are ordinary methods, and
// both packages encode and decode such types by MarshalJSON, UnmarshalJSON
// or their kind. jsonto_go127_test.go is the other side.

type (
	// lookTo has look-alikes of both methods and no others.
	lookTo struct{ N int }
	// lookBoth has them beside MarshalJSON and UnmarshalJSON.
	lookBoth struct{ N int }
)

func (lookTo) MarshalJSONTo(*Encoder) error      { return errors.New("called") }
func (*lookTo) UnmarshalJSONFrom(*Decoder) error { return errors.New("called") }

func (lookBoth) MarshalJSONTo(*Encoder) error      { return errors.New("called") }
func (*lookBoth) UnmarshalJSONFrom(*Decoder) error { return errors.New("called") }
func (lookBoth) MarshalJSON() ([]byte, error)      { return []byte(`"v1"`), nil }
func (b *lookBoth) UnmarshalJSON(in []byte) error  { b.N = len(in); return nil }

func TestJSONToIgnored(t *testing.T) {
	for _, v := range []any{
		lookTo{1},
		&lookTo{2},
		[]lookTo{{3}},
		map[string]lookTo{"a": {4}},
		lookBoth{5},
		struct{ B *lookBoth }{&lookBoth{6}},
	} {
		if d := diffMarshalValue(v); d != "" {
			t.Error(d)
		}
	}
	for _, in := range []string{`{"N":7}`, `[1,2]`, `"x"`, `null`} {
		var g1, w1 lookTo
		gerr, werr := Unmarshal([]byte(in), &g1), stdjson.Unmarshal([]byte(in), &w1)
		if g1 != w1 || !sameError(gerr, werr) {
			t.Errorf("Unmarshal(%s) into lookTo: %+v, %v; encoding/json %+v, %v", in, g1, gerr, w1, werr)
		}
		var g2, w2 []lookBoth
		gerr, werr = Unmarshal([]byte("["+in+"]"), &g2), stdjson.Unmarshal([]byte("["+in+"]"), &w2)
		if len(g2) != 1 || len(w2) != 1 || g2[0] != w2[0] || !sameError(gerr, werr) {
			t.Errorf("Unmarshal([%s]) into []lookBoth: %+v, %v; encoding/json %+v, %v", in, g2, gerr, w2, werr)
		}
	}
}
