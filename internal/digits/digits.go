// Package digits writes decimal digits with a vector kernel where the CPU
// has one: sixteen at once, for the integers of 9 to 20 digits (64-bit
// ids, timestamps, hashes, a float's 16 or 17 digits) that the encoder's
// scalar conversion takes two or three rounds of multiplications for.
package digits

// Kernel reports whether Put16 and PutLast have a kernel in this build
// and on this CPU. A caller that asks first, and writes the digits its own
// way when not, keeps nothing of that way live across the kernel's call:
// an assembly call clobbers every register, so what is live is spilled
// before it and reloaded after.
func Kernel() bool { return useKernel }

// Put16 writes the 16 decimal digits of hi*1e8 + lo as ASCII at d, and
// reports whether it did: it does nothing and returns false when this
// build or CPU has no kernel (the caller writes them its own way). hi and
// lo must be below 1e8.
//
// The kernel splits each half into two groups of four digits (by 1e4, in
// vector lanes: the callers' divisions keep the scalar multiplier), then
// divides every group by 1000, 100, 10 and 1 at once in 16-bit lanes and
// subtracts ten times each lane's left neighbour, which leaves one digit
// a lane (Muła's "SSE: conversion of integers to decimal representation").
func Put16(d *[16]byte, hi, lo uint32) bool {
	if !useKernel {
		return false
	}
	put16(d, hi, lo)
	return true
}

// PutLast writes the last k of the 16 decimal digits of hi*1e8 + lo as
// ASCII at d[0:k] and zero bytes at d[k:16], and reports whether it did, as
// Put16 does; k must be in [1, 16]. A number of 9 to 16 digits is PutLast
// of its two halves and its length: one store of 16 bytes, the leading
// zeros moved out by one shuffle.
func PutLast(d *[16]byte, hi, lo uint32, k int) bool {
	if !useKernel {
		return false
	}
	putLast(d, hi, lo, k)
	return true
}
