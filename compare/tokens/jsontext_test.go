//go:build go1.27 && goexperiment.jsonv2

package tokens

import (
	"bytes"
	"encoding/json/jsontext"
	"io"
)

// jsontextCount uses Go 1.27's encoding/json/jsontext Decoder.ReadToken,
// which streams from an io.Reader as jsonpipe does.
func jsontextCount(data []byte) (int, error) {
	d := jsontext.NewDecoder(bytes.NewReader(data))
	n := 0
	for {
		if _, err := d.ReadToken(); err != nil {
			if err == io.EOF {
				return n, nil
			}
			return n, err
		}
		n++
	}
}

func allTokenizers() []tokenizer {
	return append(tokenizers[:len(tokenizers):len(tokenizers)], tokenizer{"jsontext", jsontextCount})
}
