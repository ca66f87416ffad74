//go:build amd64 && !purego

#include "textflag.h"

// The tables of the check (·byte1High, ·byte1Low, ·byte2High) and its
// constants are in const_amd64.s, shared with the escape kernel.

// incomplete: the most each of a block's bytes may be when the block ends
// the text (a lead byte in the last three must not need more bytes than
// are left: at most EF, DF, BF).
DATA incomplete<>+0(SB)/8, $0xffffffffffffffff
DATA incomplete<>+8(SB)/8, $0xffffffffffffffff
DATA incomplete<>+16(SB)/8, $0xffffffffffffffff
DATA incomplete<>+24(SB)/8, $0xbfdfefffffffffff
GLOBL incomplete<>(SB), RODATA|NOPTR, $32

// CHECK ORs into Y11 the errors of the block in Y0, whose bytes one, two
// and three places before are in Y3, Y4, Y5. Y8-Y10: the tables; Y12:
// 0x80s; Y13: 0x70s; Y14: 0x60s; Y15: 0x0Fs. Y6, Y7 are scratch; Y4 is
// overwritten.
//
// prev2 >= 0xE0 or prev3 >= 0xF0 is where a byte must be a continuation
// byte after another (the 0x80 bit of a saturated subtraction of 0x60 and
// 0x70), and exactly there the 0x80 error bit is expected: the XOR clears
// it where it belongs and sets it where it is missing.
#define CHECK \
	VPSRLW     $4, Y3, Y6 \
	VPAND      Y15, Y6, Y6 \
	VPSHUFB    Y6, Y8, Y6 \
	VPAND      Y15, Y3, Y7 \
	VPSHUFB    Y7, Y9, Y7 \
	VPAND      Y7, Y6, Y6 \
	VPSRLW     $4, Y0, Y7 \
	VPAND      Y15, Y7, Y7 \
	VPSHUFB    Y7, Y10, Y7 \
	VPAND      Y7, Y6, Y6 \
	VPSUBUSB   Y14, Y4, Y4 \
	VPSUBUSB   Y13, Y5, Y5 \
	VPOR       Y5, Y4, Y4 \
	VPAND      Y12, Y4, Y4 \
	VPXOR      Y6, Y4, Y4 \
	VPOR       Y4, Y11, Y11

// LOADAT loads the block at off(SI) into Y0 and the bytes one, two and
// three places before it into Y3, Y4, Y5: unaligned loads, cheaper than
// moving bytes between registers.
#define LOADAT(off) \
	VMOVDQU off(SI), Y0 \
	VMOVDQU off-1(SI), Y3 \
	VMOVDQU off-2(SI), Y4 \
	VMOVDQU off-3(SI), Y5

// TABLES loads CHECK's tables and constants into Y8-Y10 and Y12-Y15.
#define TABLES \
	VMOVDQU ·byte1High(SB), Y8 \
	VMOVDQU ·byte1Low(SB), Y9 \
	VMOVDQU ·byte2High(SB), Y10 \
	VMOVDQU ·c80(SB), Y12 \
	VMOVDQU ·c70(SB), Y13 \
	VMOVDQU ·c60(SB), Y14 \
	VMOVDQU ·c0F(SB), Y15

// FIRST checks the first block, in Y0, into a cleared Y11: its bytes
// before are zeros and its own, moved along (VPALIGNR moves within each
// half: the half before each half, zeros or Y0's low one, is put beside it
// first).
#define FIRST \
	VPERM2I128 $0x08, Y0, Y0, Y2 \
	VPALIGNR   $15, Y2, Y0, Y3 \
	VPALIGNR   $14, Y2, Y0, Y4 \
	VPALIGNR   $13, Y2, Y0, Y5 \
	VPXOR      Y11, Y11, Y11 \
	CHECK

// INCOMPLETE ORs into Y11 the bytes of the last block, in Y0, that start
// a rune it cuts short, and sets ZF when Y11 is all zeros: no error.
#define INCOMPLETE \
	VMOVDQU  incomplete<>(SB), Y1 \
	VPSUBUSB Y1, Y0, Y1 \
	VPOR     Y1, Y11, Y11 \
	VPTEST   Y11, Y11

// func validUTF8AVX2(p []byte) bool
//
// ValidUTF8AVX2's kernel (utf8dfa.Valid's from 35 bytes): len(p) >= 35.
// The blocks at 0, 32, 64... and then the last 32 bytes, which may
// overlap the block before: a byte's errors depend on it and the three
// before it only, so checking one twice changes nothing. Before the first
// block is as if ASCII. The last block's last three bytes are then checked
// against incomplete.
//
// Every instruction on a vector register is VEX-encoded (vex_test.go).
TEXT ·validUTF8AVX2(SB), NOSPLIT, $0-25
	MOVQ    p_base+0(FP), SI
	MOVQ    p_len+8(FP), CX
	LEAQ    -32(SI)(CX*1), DI // the last block
	TABLES

	VMOVDQU    (SI), Y0
	FIRST
	ADDQ       $32, SI

loop:
	CMPQ SI, DI
	JAE  last
	LOADAT(0)
	CHECK
	ADDQ $32, SI
	JMP  loop

last:
	MOVQ     DI, SI
	LOADAT(0)
	CHECK
	INCOMPLETE
	SETEQ    ret+24(FP)
	VZEROUPPER
	RET

// func copyValidUTF8AVX2(d *byte, p []byte) bool
//
// CopyValidUTF8AVX2's kernel: validUTF8AVX2 that also stores each block it
// checks at the same offset from d, so that the text is read once for
// both (len(p) >= 35, and d has room for len(p) bytes). The last block,
// which may overlap the one before, is stored again whole: the bytes it
// writes twice are the same. BX is d's distance from p, so a block's
// store is at (SI)(BX*1).
TEXT ·copyValidUTF8AVX2(SB), NOSPLIT, $0-33
	MOVQ    d+0(FP), BX
	MOVQ    p_base+8(FP), SI
	MOVQ    p_len+16(FP), CX
	SUBQ    SI, BX
	LEAQ    -32(SI)(CX*1), DI // the last block
	TABLES

	VMOVDQU    (SI), Y0
	VMOVDQU    Y0, (SI)(BX*1)
	FIRST
	ADDQ       $32, SI

copyloop:
	CMPQ    SI, DI
	JAE     copylast
	LOADAT(0)
	VMOVDQU Y0, (SI)(BX*1)
	CHECK
	ADDQ    $32, SI
	JMP     copyloop

copylast:
	MOVQ     DI, SI
	LOADAT(0)
	VMOVDQU  Y0, (SI)(BX*1)
	CHECK
	INCOMPLETE
	SETEQ    ret+32(FP)
	VZEROUPPER
	RET
