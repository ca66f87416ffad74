//go:build amd64 && !purego

#include "textflag.h"

// 16-bit lanes, two groups of four: x*4 is divided by 1000, 100, 10 and 1
// by taking the high half of a product twice (x*4*8389 >> 25, x*4*5243 >>
// 21, x*4*13108 >> 19, x*4*32768 >> 16 >> 1), exact for every x below
// 10000.
DATA divPowers<>+0(SB)/8, $0x80003334147b20c5   // 8389, 5243, 13108, 32768
DATA divPowers<>+8(SB)/8, $0x80003334147b20c5
GLOBL divPowers<>(SB), RODATA|NOPTR, $16
DATA shiftPowers<>+0(SB)/8, $0x8000200008000080 // 1<<7, 1<<11, 1<<13, 1<<15
DATA shiftPowers<>+8(SB)/8, $0x8000200008000080
GLOBL shiftPowers<>(SB), RODATA|NOPTR, $16
DATA tens<>+0(SB)/8, $0x000a000a000a000a
DATA tens<>+8(SB)/8, $0x000a000a000a000a
GLOBL tens<>(SB), RODATA|NOPTR, $16
DATA zeros<>+0(SB)/8, $0x3030303030303030
DATA zeros<>+8(SB)/8, $0x3030303030303030
GLOBL zeros<>(SB), RODATA|NOPTR, $16

// func put16(d *[16]byte, hi, lo uint32)
//
// hi and lo are split into the groups abcd, efgh and ijkl, mnop (x/10000
// is x*0xd1b71759 >> 45 for every x below 2^32), which go into the 16-bit
// lanes of one word. Each of the two vectors takes two groups, every one
// repeated over four lanes (times 4, for the precision of the products);
// the lanes become a, ab, abc, abcd; less ten times the lane before (0 for
// the first) they are a, b, c, d; packed to bytes and made ASCII, the 16
// digits in order.
TEXT ·put16(SB), NOSPLIT, $0-16
	MOVQ       d+0(FP), DI
	MOVL       hi+8(FP), AX
	MOVL       lo+12(FP), BX
	MOVQ       $0xd1b71759, R8
	MOVQ       AX, CX
	IMULQ      R8, CX
	SHRQ       $45, CX        // abcd
	IMUL3Q     $10000, CX, DX
	SUBQ       DX, AX         // efgh
	MOVQ       BX, SI
	IMULQ      R8, SI
	SHRQ       $45, SI        // ijkl
	IMUL3Q     $10000, SI, DX
	SUBQ       DX, BX         // mnop
	SHLQ       $16, AX
	SHLQ       $32, SI
	SHLQ       $48, BX
	ORQ        AX, CX
	ORQ        SI, BX
	ORQ        BX, CX
	VMOVQ      CX, X0
	VPSLLW     $2, X0, X0
	VPUNPCKLWD X0, X0, X1     // abcd abcd efgh efgh ijkl ijkl mnop mnop
	VPUNPCKLDQ X1, X1, X2     // abcd x4, efgh x4
	VPUNPCKHDQ X1, X1, X3     // ijkl x4, mnop x4
	VMOVDQU    divPowers<>(SB), X4
	VMOVDQU    shiftPowers<>(SB), X5
	VMOVDQU    tens<>(SB), X6
	VPMULHUW   X4, X2, X2
	VPMULHUW   X4, X3, X3
	VPMULHUW   X5, X2, X2
	VPMULHUW   X5, X3, X3
	VPMULLW    X6, X2, X7
	VPMULLW    X6, X3, X8
	VPSLLQ     $16, X7, X7
	VPSLLQ     $16, X8, X8
	VPSUBW     X7, X2, X2
	VPSUBW     X8, X3, X3
	VPACKUSWB  X3, X2, X2
	VPOR       zeros<>(SB), X2, X2
	VMOVDQU    X2, (DI)
	RET
