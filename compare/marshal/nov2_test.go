//go:build !(go1.27 && goexperiment.jsonv2)

package marshal

// Before Go 1.27, or with GOEXPERIMENT=nojsonv2, encoding/json/v2 is left
// out (Go 1.26 has it only as an experiment, marked as Go 1.27 API).
func allImpls() []impl { return baseImpls }
