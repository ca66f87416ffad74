//go:build amd64 && !purego

package digits

import "golang.org/x/sys/cpu"

// useKernel: the kernel is VEX-encoded (AVX), 128-bit: it leaves the upper
// halves of the vector registers clean.
var useKernel = cpu.X86.HasAVX

// put16 is Put16's kernel (digits_amd64.s).
//
//go:noescape
func put16(d *[16]byte, hi, lo uint32)

// putLast is PutLast's kernel (digits_amd64.s).
//
//go:noescape
func putLast(d *[16]byte, hi, lo uint32, k int)
