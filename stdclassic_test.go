//go:build !goexperiment.jsonv2

package json

// stdClassic: this toolchain builds encoding/json's classic implementation
// (Go 1.26; Go 1.27 with GOEXPERIMENT=nojsonv2), the one jsonpipe matches.
// See stdjson_contract_test.go.
const stdClassic = true
