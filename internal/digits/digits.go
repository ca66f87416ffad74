// Package digits writes decimal digits with a vector kernel where the CPU
// has one: the integers of 9 to 20 digits (64-bit ids, timestamps, hashes,
// a float's 16 or 17 digits) that the encoder's scalar conversion takes
// two or three rounds of multiplications for, in one call.
package digits

import "math/bits"

// Len returns how many decimal digits v has (1 for 0): v plus an entry
// chosen by its bit length, whose top half is the count for the values of
// that length and whose bottom half carries into it exactly when v
// reaches the power of ten among them (Lemire's "Computing the number of
// digits of an integer even faster"). Computed from v, not from its
// digits, a length lets the next number's place be known before the
// digits are.
func Len(v uint32) int {
	return int((uint64(v) + lenTable[bits.Len32(v)]) >> 32)
}

// lenTable[n] serves the values of n bits, [2^(n-1), 2^n) (and 0 for
// n = 0): with d the digits of the least of them, (d+1)<<32 - 10^d when
// 10^d is among them, else d<<32. The kernel reads it too.
var lenTable = func() (t [33]uint64) {
	t[0] = 1 << 32
	for n := 1; n < len(t); n++ {
		lo, hi := uint64(1)<<(n-1), uint64(1)<<n
		d, p := uint64(1), uint64(10) // lo has d digits; p = 10^d
		for p <= lo {
			d, p = d+1, p*10
		}
		t[n] = d << 32
		if p < hi {
			t[n] = (d+1)<<32 - p
		}
	}
	return t
}()

// PutUint writes the decimal digits of u, which must be at least 1e8 (9
// to 20 digits), as ASCII at d[0:] and returns how many there are; the
// bytes of d past them are scratch. It returns 0, and writes nothing,
// when this build or CPU has no kernel (the caller writes them its own
// way).
//
// The kernel divides u by 1e16 and 1e8 as the compiler does (scalar
// multiplies by reciprocals), splits the two halves below 1e16 into two
// groups of four digits each (by 1e4, in vector lanes), then divides every
// group by 1000, 100, 10 and 1 at once in 16-bit lanes and subtracts ten
// times each lane's left neighbour, which leaves one digit a lane (Muła's
// "SSE: conversion of integers to decimal representation"): sixteen digits
// in one register, shuffled down to the last k for a number of 9 to 16
// digits, or stored after the first 1 to 4 (u/1e16, in scalar lanes) for
// one of 17 to 20. The count comes from Len's table (the first 1 to 4
// digits' from compares), apart from the vector chain: what the caller
// writes next does not wait for the digits.
func PutUint(d *[20]byte, u uint64) int {
	if !useKernel {
		return 0
	}
	return putUint(d, u)
}
