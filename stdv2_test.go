//go:build goexperiment.jsonv2

package json

// stdClassic: this toolchain builds encoding/json on top of encoding/json/v2
// (Go 1.27's default; GOEXPERIMENT=jsonv2 on Go 1.26), whose messages,
// offsets and some results differ from the classic implementation that
// jsonpipe matches. See stdjson_contract_test.go.
const stdClassic = false
