//go:build go1.27 && goexperiment.jsonv2

package marshal

import (
	"bytes"
	"encoding/json/jsontext"
	jsonv2 "encoding/json/v2"
	"io"
)

// On Go 1.27, encoding/json/v2 joins the comparison with its own defaults
// (no HTML escaping, map keys in map order, nil slices as []), so its bytes
// are its own: Marshal, Marshal with jsontext.WithIndent, MarshalEncode
// into one reused jsontext.Encoder, and jsontext.Value's Compact, Indent
// and IsValid on a copy of the input (they work in place).
func allImpls() []impl {
	v2 := impl{
		name:    "jsonv2",
		marshal: func(v any) ([]byte, error) { return jsonv2.Marshal(v) },
		marshalIndent: func(v any, prefix, indent string) ([]byte, error) {
			return jsonv2.Marshal(v, jsontext.WithIndentPrefix(prefix), jsontext.WithIndent(indent))
		},
		newEncoder: func(w io.Writer) func(any) error {
			enc := jsontext.NewEncoder(w)
			return func(v any) error { return jsonv2.MarshalEncode(enc, v) }
		},
		compact: func(dst *bytes.Buffer, src []byte) error {
			v := jsontext.Value(append(dst.AvailableBuffer(), src...))
			if err := v.Compact(); err != nil {
				return err
			}
			dst.Write(v)
			return nil
		},
		indent: func(dst *bytes.Buffer, src []byte, prefix, indent string) error {
			v := jsontext.Value(append(dst.AvailableBuffer(), src...))
			if err := v.Indent(jsontext.WithIndentPrefix(prefix), jsontext.WithIndent(indent)); err != nil {
				return err
			}
			dst.Write(v)
			return nil
		},
		valid: func(b []byte) bool { return jsontext.Value(b).IsValid() },
	}
	return append(baseImpls[:len(baseImpls):len(baseImpls)], v2)
}
