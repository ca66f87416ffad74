//go:build !(go1.27 && goexperiment.jsonv2)

package unmarshal

func allImpls() []impl { return baseImpls }
