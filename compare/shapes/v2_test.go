//go:build go1.27 && goexperiment.jsonv2

package shapes

import (
	"encoding/json/jsontext"
	jsonv2 "encoding/json/v2"
	"io"
)

// On Go 1.27, encoding/json/v2 joins TestShapesAgree with its own defaults (names
// matched case-sensitively, no HTML escaping, map keys in map order): a
// jsontext.Decoder read by UnmarshalDecode, a jsontext.Encoder written by
// MarshalEncode, and jsontext.Value's IsValid. It is not timed: the
// v2-backed encoding/json is, and a round of the sweep is long enough.
func allImpls() []impl {
	v2 := impl{
		name:      "jsonv2",
		unmarshal: func(b []byte, v any) error { return jsonv2.Unmarshal(b, v) },
		newDecoder: func(r io.Reader) func(any) error {
			dec := jsontext.NewDecoder(r)
			return func(v any) error { return jsonv2.UnmarshalDecode(dec, v) }
		},
		valid:   func(b []byte) bool { return jsontext.Value(b).IsValid() },
		marshal: func(v any) ([]byte, error) { return jsonv2.Marshal(v) },
		newEncoder: func(w io.Writer) func(any) error {
			enc := jsontext.NewEncoder(w)
			return func(v any) error { return jsonv2.MarshalEncode(enc, v) }
		},
	}
	return append(baseImpls[:len(baseImpls):len(baseImpls)], v2)
}
