//go:build !(go1.27 && goexperiment.jsonv2)

package tokens

// Before Go 1.27, or with GOEXPERIMENT=nojsonv2, encoding/json/jsontext is
// left out (Go 1.26 has it only as an experiment, marked as Go 1.27 API).
func allTokenizers() []tokenizer { return tokenizers }
