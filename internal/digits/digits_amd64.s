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
// hi and lo below 1e8, each a register. Each is split into
// two groups of four digits (abcd, efgh and ijkl, mnop) by 10000 in its
// own quadword; each group goes into four 16-bit lanes (times 4, for the
// precision of the products); the lanes become a, ab, abc, abcd; less ten
// times the lane before (0 for the first) they are a, b, c, d; packed to
// bytes and made ASCII, the 16 digits in order. No scalar multiply: the
// divisions that made hi and lo have the multiplier.
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

// func putUint(d *[20]byte, u uint64) int
//
// The digits of u (at least 1e8) at d[0:k], k returned; bytes of d past
// them are scratch. The divisions are the compiler's for the same
// constants (a multiply by a reciprocal and a shift); the digits are
// counted apart from the vector chain, so the caller's next position
// does not wait for them.
TEXT ·putUint(SB), NOSPLIT, $0-24
	MOVQ d+0(FP), DI
	MOVQ u+8(FP), SI
	MOVQ $10000000000000000, CX
	CMPQ SI, CX
	JAE  long

	// 9 to 16 digits: hi = u/1e8, lo = u%1e8, and the last k of the 16
	// digits of hi and lo, k = 8 + Len(hi).
	MOVQ    $0xabcc77118461cefd, AX
	MULQ    SI
	SHRQ    $26, DX
	IMUL3Q  $100000000, DX, CX
	SUBQ    CX, SI
	BSRL    DX, CX // hi is at least 1: Len's bit length less 1
	LEAQ    ·lenTable+8(SB), AX
	MOVQ    (AX)(CX*8), CX
	ADDQ    DX, CX
	SHRQ    $32, CX
	ADDQ    $8, CX
	MOVQ    CX, ret+16(FP)
	DIGITS16(DX, SI)
	NEGQ    CX
	SHLQ    $4, CX
	LEAQ    from<>(SB), AX
	VPSHUFB 256(AX)(CX*1), X0, X0 // from<>+16*(16-k)
	VMOVDQU X0, (DI)
	RET

long:
	// 17 to 20 digits: q = u/1e16 (at most 1844), then the 16 digits of
	// the rest as above, and q's h digits (1 to 4) before them: q as
	// a = q/100 and b = q%100 in two 16-bit lanes, each divided by 10 at
	// once (n/10 is n*103>>10 below 100), the four digits in the bytes of
	// one word, its h last written (the rest are overwritten).
	MOVQ    SI, BX
	SHRQ    $1, BX
	MOVQ    $0xe69594bec44de15c, AX
	MULQ    BX
	SHRQ    $52, DX
	MOVQ    DX, R8
	IMULQ   DX, CX
	SUBQ    CX, SI
	MOVQ    $0xabcc77118461cefd, AX
	MULQ    SI
	SHRQ    $26, DX
	IMUL3Q  $100000000, DX, CX
	SUBQ    CX, SI
	DIGITS16(DX, SI)
	IMUL3L  $5243, R8, AX
	SHRL    $19, AX
	IMUL3L  $100, AX, CX
	MOVL    R8, BX
	SUBL    CX, BX
	SHLL    $16, BX
	ORL     AX, BX
	IMUL3L  $103, BX, CX
	SHRL    $10, CX
	ANDL    $0x000f000f, CX
	IMUL3L  $10, CX, AX
	SUBL    AX, BX
	SHLL    $8, BX
	ORL     CX, BX
	ORL     $0x30303030, BX
	MOVL    $1, AX
	CMPL    R8, $10
	SBBL    $-1, AX
	CMPL    R8, $100
	SBBL    $-1, AX
	CMPL    R8, $1000
	SBBL    $-1, AX
	MOVL    $4, CX
	SUBL    AX, CX
	SHLL    $3, CX
	SHRL    CX, BX
	MOVL    BX, (DI)
	VMOVDQU X0, (DI)(AX*1)
	ADDQ    $16, AX
	MOVQ    AX, ret+16(FP)
	RET
