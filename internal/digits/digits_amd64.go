//go:build amd64 && !purego

package digits

import "golang.org/x/sys/cpu"

// useKernel: the kernel is VEX-encoded (AVX), 128-bit: it leaves the upper
// halves of the vector registers clean.
var useKernel = cpu.X86.HasAVX

// putUint is PutUint's kernel (digits_amd64.s).
//
//go:noescape
func putUint(d *[20]byte, u uint64) int
