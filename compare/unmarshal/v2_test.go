//go:build go1.27 && goexperiment.jsonv2

package unmarshal

import (
	jsonv2 "encoding/json/v2"
	"io"
)

// On Go 1.27, encoding/json/v2 joins the comparison: Unmarshal,
// and UnmarshalRead for a stream.
func allImpls() []impl {
	v2 := impl{"jsonv2", func(b []byte, v any) error { return jsonv2.Unmarshal(b, v) },
		func(r io.Reader, v any) error { return jsonv2.UnmarshalRead(r, v) }}
	return append(baseImpls[:len(baseImpls):len(baseImpls)], v2)
}
