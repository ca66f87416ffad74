//go:build !goexperiment.jsonv2

package tokens

// Without GOEXPERIMENT=jsonv2 there is no encoding/json/jsontext.
func allTokenizers() []tokenizer { return tokenizers }
