//go:build amd64 && !purego

#include "textflag.h"

// CONST16 defines name, 16 bytes of the word b twice over.
#define CONST16(name, b) \
	DATA name<>+0(SB)/8, $b \
	DATA name<>+8(SB)/8, $b \
	GLOBL name<>(SB), RODATA|NOPTR, $16

// x/10000 is x*0xd1b71759 >> 45 for every x below 2^32: the multiplier and
// 10000 in both quadwords, for VPMULUDQ (which reads the low half of each).
CONST16(div10000, 0xd1b71759)
CONST16(c10000, 10000)

// The low 16-bit lane of each quadword, four times over (VPSHUFB).
DATA spread<>+0(SB)/8, $0x0100010001000100
DATA spread<>+8(SB)/8, $0x0908090809080908
GLOBL spread<>(SB), RODATA|NOPTR, $16

// 16-bit lanes, two groups of four: x*4 is divided by 1000, 100, 10 and 1
// by taking the high half of a product twice (x*4*8389 >> 25, x*4*5243 >>
// 21, x*4*13108 >> 19, x*4*32768 >> 16 >> 1), exact for every x below
// 10000.
CONST16(divPowers, 0x80003334147b20c5)   // 8389, 5243, 13108, 32768
CONST16(shiftPowers, 0x8000200008000080) // 1<<7, 1<<11, 1<<13, 1<<15
CONST16(tens, 0x000a000a000a000a)
CONST16(zeros, 0x3030303030303030)

// from<>+16*s (s from 0 to 15) moves the bytes of a vector s places down,
// with zeros after them (VPSHUFB: an index with its top bit set makes a
// zero): the last 16-s digits of 16 to the front.
#define FROM(s, w0, w1) \
	DATA from<>+(16*s)(SB)/8, $w0 \
	DATA from<>+(16*s+8)(SB)/8, $w1
FROM(0, 0x0706050403020100, 0x0f0e0d0c0b0a0908)
FROM(1, 0x0807060504030201, 0x800f0e0d0c0b0a09)
FROM(2, 0x0908070605040302, 0x80800f0e0d0c0b0a)
FROM(3, 0x0a09080706050403, 0x8080800f0e0d0c0b)
FROM(4, 0x0b0a090807060504, 0x808080800f0e0d0c)
FROM(5, 0x0c0b0a0908070605, 0x80808080800f0e0d)
FROM(6, 0x0d0c0b0a09080706, 0x8080808080800f0e)
FROM(7, 0x0e0d0c0b0a090807, 0x808080808080800f)
FROM(8, 0x0f0e0d0c0b0a0908, 0x8080808080808080)
FROM(9, 0x800f0e0d0c0b0a09, 0x8080808080808080)
FROM(10, 0x80800f0e0d0c0b0a, 0x8080808080808080)
FROM(11, 0x8080800f0e0d0c0b, 0x8080808080808080)
FROM(12, 0x808080800f0e0d0c, 0x8080808080808080)
FROM(13, 0x80808080800f0e0d, 0x8080808080808080)
FROM(14, 0x8080808080800f0e, 0x8080808080808080)
FROM(15, 0x808080808080800f, 0x8080808080808080)
GLOBL from<>(SB), RODATA|NOPTR, $256

// DIGITS16 leaves in X0 the 16 decimal digits, in ASCII, of hi*1e8 + lo,
// hi and lo (below 1e8) read one at a time: a read of both at once
// would wait for the caller's two stores (no store forwarding across
// them), twice the time of the whole call. Each is split into
// two groups of four digits (abcd, efgh and ijkl, mnop) by 10000 in its
// own quadword; each group goes into four 16-bit lanes (times 4, for the
// precision of the products); the lanes become a, ab, abc, abcd; less ten
// times the lane before (0 for the first) they are a, b, c, d; packed to
// bytes and made ASCII, the 16 digits in order. No scalar multiply: the
// caller's own (the divisions that made hi and lo) have the multiplier.
#define DIGITS16(hi, lo) \
	VMOVD       hi, X0                   \
	VPINSRD     $2, lo, X0, X0           \
	VPMULUDQ    div10000<>(SB), X0, X1   \
	VPSRLQ      $45, X1, X1              \
	VPMULUDQ    c10000<>(SB), X1, X2     \
	VPSUBQ      X2, X0, X2               \
	VPSLLQ      $2, X1, X1               \
	VPSLLQ      $2, X2, X2               \
	VPUNPCKLQDQ X2, X1, X3               \
	VPUNPCKHQDQ X2, X1, X4               \
	VMOVDQU     spread<>(SB), X5         \
	VPSHUFB     X5, X3, X3               \
	VPSHUFB     X5, X4, X4               \
	VMOVDQU     divPowers<>(SB), X5      \
	VMOVDQU     shiftPowers<>(SB), X6    \
	VMOVDQU     tens<>(SB), X7           \
	VPMULHUW    X5, X3, X3               \
	VPMULHUW    X5, X4, X4               \
	VPMULHUW    X6, X3, X3               \
	VPMULHUW    X6, X4, X4               \
	VPMULLW     X7, X3, X1               \
	VPMULLW     X7, X4, X2               \
	VPSLLQ      $16, X1, X1              \
	VPSLLQ      $16, X2, X2              \
	VPSUBW      X1, X3, X3               \
	VPSUBW      X2, X4, X4               \
	VPACKUSWB   X4, X3, X0               \
	VPOR        zeros<>(SB), X0, X0

// func put16(d *[16]byte, hi, lo uint32)
TEXT ·put16(SB), NOSPLIT, $0-16
	MOVQ    d+0(FP), DI
	DIGITS16(hi+8(FP), lo+12(FP))
	VMOVDQU X0, (DI)
	RET

// func putLast(d *[16]byte, hi, lo uint32, k int)
//
// The last k of the 16 digits, at d[0:k], then 16-k zero bytes.
TEXT ·putLast(SB), NOSPLIT, $0-24
	MOVQ    d+0(FP), DI
	MOVQ    k+16(FP), CX
	DIGITS16(hi+8(FP), lo+12(FP))
	NEGQ    CX
	SHLQ    $4, CX
	LEAQ    from<>(SB), AX
	VPSHUFB 256(AX)(CX*1), X0, X0 // from<>+16*(16-k)
	VMOVDQU X0, (DI)
	RET
