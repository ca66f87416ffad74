//go:build !goexperiment.jsonv2

package unmarshal

func allImpls() []impl { return baseImpls }
