//go:build !(go1.27 && goexperiment.jsonv2)

package shapes

// Before Go 1.27, or with GOEXPERIMENT=nojsonv2, encoding/json/v2 is left
// out.
func allImpls() []impl { return baseImpls }
