//go:build goexperiment.jsonv2 && !go1.27

package json

import (
	stdjson "encoding/json"
	"encoding/json/jsontext"
	"testing"
)

// Go 1.26 with GOEXPERIMENT=jsonv2 builds encoding/json on its experimental
// encoding/json/v2, which calls MarshalJSONTo and UnmarshalJSONFrom.
// jsonpipe does not on this toolchain (README, "Which encoding/json"): its
// implementation (jsonto_go127.go) names encoding/json/jsontext, which a
// module at go 1.26 may use only in files built for Go 1.27 on. This test
// pins that difference.

type to126 struct{ N int }

func (to126) MarshalJSONTo(e *jsontext.Encoder) error { return e.WriteToken(jsontext.String("to")) }
func (t *to126) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	t.N = -1
	return d.SkipValue()
}

func TestJSONToNotOnGo126(t *testing.T) {
	if b, _ := Marshal(to126{1}); string(b) != `{"N":1}` {
		t.Errorf("Marshal = %s, want the struct's fields", b)
	}
	if b, _ := stdjson.Marshal(to126{1}); string(b) != `"to"` {
		t.Errorf("encoding/json's Marshal = %s, want the method's output", b)
	}
	var g, w to126
	Unmarshal([]byte(`{"N":2}`), &g)
	stdjson.Unmarshal([]byte(`{"N":2}`), &w)
	if g.N != 2 || w.N != -1 {
		t.Errorf("Unmarshal: %d, encoding/json: %d; want 2 (the field) and -1 (the method)", g.N, w.N)
	}
}
