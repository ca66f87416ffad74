//go:build !amd64 || purego

package digits

// useKernel is false: there is no kernel in this build.
var useKernel = false

func put16(d *[16]byte, hi, lo uint32) { panic("digits: no kernel") }

func putLast(d *[16]byte, hi, lo uint32, k int) { panic("digits: no kernel") }
