//go:build !amd64 || purego

package digits

// useKernel is false: there is no kernel in this build.
var useKernel = false

func putUint(d *[20]byte, u uint64) int { panic("digits: no kernel") }
