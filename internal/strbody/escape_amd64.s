//go:build amd64 && !purego

#include "textflag.h"

#define CONST32(name, b) \
	DATA name<>+0(SB)/8, $b \
	DATA name<>+8(SB)/8, $b \
	DATA name<>+16(SB)/8, $b \
	DATA name<>+24(SB)/8, $b \
	GLOBL name<>(SB), RODATA|NOPTR, $32

CONST32(cBF, 0xbfbfbfbfbfbfbfbf)
CONST32(cDF, 0xdfdfdfdfdfdfdfdf)
CONST32(cEF, 0xefefefefefefefef)
CONST32(cC0, 0xc0c0c0c0c0c0c0c0)
CONST32(cFE, 0xfefefefefefefefe)
CONST32(cF5, 0xf5f5f5f5f5f5f5f5)
CONST32(c9F, 0x9f9f9f9f9f9f9f9f)
CONST32(c8F, 0x8f8f8f8f8f8f8f8f)
CONST32(cE0, 0xe0e0e0e0e0e0e0e0)
CONST32(cED, 0xedededededededed)
CONST32(cF0, 0xf0f0f0f0f0f0f0f0)
CONST32(cF4, 0xf4f4f4f4f4f4f4f4)
CONST32(cE2, 0xe2e2e2e2e2e2e2e2)
CONST32(c80, 0x8080808080808080)
CONST32(c01, 0x0101010101010101)
CONST32(cA9, 0xa9a9a9a9a9a9a9a9)

CONST32(c22, 0x2222222222222222)
CONST32(c5C, 0x5c5c5c5c5c5c5c5c)
CONST32(c1F, 0x1f1f1f1f1f1f1f1f)

// A, B and C of the ASCII test below, 32 bytes each, without and with html.
#define ABC(name, a, b, c) \
	DATA name<>+0(SB)/8, $a \
	DATA name<>+8(SB)/8, $a \
	DATA name<>+16(SB)/8, $a \
	DATA name<>+24(SB)/8, $a \
	DATA name<>+32(SB)/8, $b \
	DATA name<>+40(SB)/8, $b \
	DATA name<>+48(SB)/8, $b \
	DATA name<>+56(SB)/8, $b \
	DATA name<>+64(SB)/8, $c \
	DATA name<>+72(SB)/8, $c \
	DATA name<>+80(SB)/8, $c \
	DATA name<>+88(SB)/8, $c \
	GLOBL name<>(SB), RODATA|NOPTR, $96

ABC(plain, 0x2222222222222222, 0, 0x2222222222222222)
ABC(html, 0x2626262626262626, 0x0202020202020202, 0x3e3e3e3e3e3e3e3e)

// keep<>+32-n is n bytes of 0xff and then zeros.
DATA keep<>+0(SB)/8, $0xffffffffffffffff
DATA keep<>+8(SB)/8, $0xffffffffffffffff
DATA keep<>+16(SB)/8, $0xffffffffffffffff
DATA keep<>+24(SB)/8, $0xffffffffffffffff
DATA keep<>+32(SB)/8, $0
DATA keep<>+40(SB)/8, $0
DATA keep<>+48(SB)/8, $0
DATA keep<>+56(SB)/8, $0
GLOBL keep<>(SB), RODATA|NOPTR, $64

// func escapeCopyAVX2(d []byte, s string, j int, html bool) int
//
// Each 32-byte block of s from j is stored, as it is read, at the same
// place in d (s[j] at d[0]), and checked. The bytes left after the whole
// blocks, if any, are read as one more block, zero-padded: straight from s
// when those 32 bytes do not cross a page (so the read cannot fault), else
// through a copy on the stack; that block is stored whole too, so d must
// hold Block bytes past s's end. A zero byte is a control byte, so the
// padding's first byte is always flagged: the kernel always stops, at the
// end of s at the latest.
//
// Per block, a mask of the bytes to look at:
//
//   - ASCII: '"', '\\', at most 0x1f (min(c, 0x1f) == c), equal to A, or
//     equal to C once ORed with B. With html, A is '&' and B, C are 2, '>'
//     ('<' and '>' are the bytes that are '>' with bit 1 set); without, A
//     and C are '"' again and B is 0, which add nothing.
//   - UTF-8, when the block or the one before it has a byte of 0x80 or
//     more: each byte is checked against the three before it (P1, P2, P3,
//     taken across the blocks' boundary; before j they count as 0). A byte
//     is flagged when it is a continuation byte (0x80 to 0xBF) and none of
//     P1 >= 0xC0, P2 >= 0xE0, P3 >= 0xF0 calls for one, or the reverse;
//     when P1 is 0xC0, 0xC1 or 0xF5 and above; when P1 is 0xE0 and it is
//     below 0xA0, 0xED and 0xA0 or above, 0xF0 and below 0x90, 0xF4 and
//     0x90 or above; and when P2, P1 and it are U+2028 or U+2029.
//
// Valid UTF-8 without those characters flags nothing; a character that
// must be looked at is flagged at one of its bytes, within three of its
// start; an incomplete one at the end of s is flagged at the padding. It
// returns the index of the first flagged byte, at most len(s).
TEXT ·escapeCopyAVX2(SB), NOSPLIT, $32-64
	MOVQ    d_base+0(FP), DI
	MOVQ    s_base+24(FP), SI
	MOVQ    s_len+32(FP), DX
	MOVQ    j+40(FP), AX
	MOVBLZX html+48(FP), CX
	SUBQ    AX, DI // s[i] goes to (DI)(i*1)
	VMOVDQU c22<>(SB), Y1
	VMOVDQU c5C<>(SB), Y2
	VMOVDQU c1F<>(SB), Y3
	LEAQ    plain<>(SB), R8
	LEAQ    html<>(SB), R10
	TESTQ   CX, CX
	CMOVQNE R10, R8
	VMOVDQU 0(R8), Y8
	VMOVDQU 32(R8), Y9
	VMOVDQU 64(R8), Y10
	VPXOR   Y12, Y12, Y12 // the block before: none, as zeros
	VPXOR   Y13, Y13, Y13 // zeros
	XORL    R9, R9        // the block before's bytes of 0x80 or more, as bits
	LEAQ    -32(DX), R13  // the last index a whole block starts at

loop:
	CMPQ      AX, R13
	JGT       tail
	VMOVDQU   (SI)(AX*1), Y0
	VMOVDQU   Y0, (DI)(AX*1)

check:
	VPCMPEQB  Y0, Y1, Y4
	VPCMPEQB  Y0, Y2, Y5
	VPMINUB   Y0, Y3, Y6
	VPCMPEQB  Y0, Y6, Y6
	VPCMPEQB  Y0, Y8, Y7
	VPOR      Y0, Y9, Y11
	VPCMPEQB  Y11, Y10, Y11
	VPOR      Y4, Y5, Y4
	VPOR      Y6, Y7, Y6
	VPOR      Y4, Y11, Y4
	VPOR      Y4, Y6, Y4
	VPMOVMSKB Y0, CX
	MOVL      CX, R11
	ORL       R9, R11
	JNZ       utf8
	// ASCII after ASCII: Y12 may stay, as it is ASCII too.
	VPMOVMSKB Y4, BX
	TESTL     BX, BX
	JNZ       found
	ADDQ      $32, AX
	JMP       loop

utf8:
	VPERM2I128 $0x21, Y0, Y12, Y5 // the block before's high half, this one's low half
	VPALIGNR   $13, Y5, Y0, Y11   // P3
	VPALIGNR   $14, Y5, Y0, Y7    // P2
	VPALIGNR   $15, Y5, Y0, Y6    // P1
	VMOVDQU    Y0, Y12
	MOVL       CX, R9

	// A continuation byte called for: P1 >= 0xC0, P2 >= 0xE0, P3 >= 0xF0.
	VPSUBUSB cBF<>(SB), Y6, Y5
	VPSUBUSB cDF<>(SB), Y7, Y14
	VPOR     Y14, Y5, Y5
	VPSUBUSB cEF<>(SB), Y11, Y14
	VPOR     Y14, Y5, Y5
	VPCMPEQB Y13, Y5, Y5 // none called for
	VMOVDQU  cC0<>(SB), Y14
	VPCMPGTB Y0, Y14, Y14 // a continuation byte: -64 > c, signed
	VPCMPEQB Y14, Y5, Y5  // none called for and one there, or the reverse
	VPOR     Y5, Y4, Y4

	// The second byte's range after 0xE0, 0xED, 0xF0 and 0xF4.
	VPMINUB  c9F<>(SB), Y0, Y5
	VPCMPEQB Y0, Y5, Y5 // below 0xA0
	VPCMPEQB cE0<>(SB), Y6, Y14
	VPAND    Y5, Y14, Y14
	VPOR     Y14, Y4, Y4
	VPCMPEQB cED<>(SB), Y6, Y14
	VPANDN   Y14, Y5, Y14
	VPOR     Y14, Y4, Y4
	VPMINUB  c8F<>(SB), Y0, Y5
	VPCMPEQB Y0, Y5, Y5 // below 0x90
	VPCMPEQB cF0<>(SB), Y6, Y14
	VPAND    Y5, Y14, Y14
	VPOR     Y14, Y4, Y4
	VPCMPEQB cF4<>(SB), Y6, Y14
	VPANDN   Y14, Y5, Y14
	VPOR     Y14, Y4, Y4

	// Lead bytes that lead nowhere: 0xC0, 0xC1, 0xF5 and above.
	VPAND    cFE<>(SB), Y6, Y14
	VPCMPEQB cC0<>(SB), Y14, Y14
	VPOR     Y14, Y4, Y4
	VPMAXUB  cF5<>(SB), Y6, Y14
	VPCMPEQB Y6, Y14, Y14
	VPOR     Y14, Y4, Y4

	// U+2028 and U+2029: 0xE2 0x80 0xA8 or 0xA9.
	VPCMPEQB cE2<>(SB), Y7, Y14
	VPCMPEQB c80<>(SB), Y6, Y5
	VPAND    Y5, Y14, Y14
	VPOR     c01<>(SB), Y0, Y5
	VPCMPEQB cA9<>(SB), Y5, Y5
	VPAND    Y5, Y14, Y14
	VPOR     Y14, Y4, Y4

	VPMOVMSKB Y4, BX
	TESTL     BX, BX
	JNZ       found
	ADDQ      $32, AX
	JMP       loop

tail:
	MOVQ  DX, CX
	SUBQ  AX, CX // the bytes left, 0 to 31
	JZ    done
	LEAQ  (SI)(AX*1), R12
	MOVL  R12, R8
	ANDL  $4095, R8
	CMPL  R8, $(4096-32)
	JHI   near
	VMOVDQU (R12), Y0
	JMP   pad

near: // the next page may not be there: the bytes left, one by one
	VPXOR   Y0, Y0, Y0
	VMOVDQU Y0, buf-32(SP)
	LEAQ    buf-32(SP), R10
	XORQ    BX, BX

byte:
	MOVBLZX (R12)(BX*1), R11
	MOVB    R11, (R10)(BX*1)
	INCQ    BX
	CMPQ    BX, CX
	JLT     byte
	VMOVDQU (R10), Y0

pad:
	LEAQ    keep<>(SB), R10
	NEGQ    CX
	VPAND   32(R10)(CX*1), Y0, Y0
	VMOVDQU Y0, (DI)(AX*1)
	JMP     check // the padding is flagged: on to found

found:
	BSFL BX, BX
	ADDQ BX, AX

done:
	VZEROUPPER
	MOVQ AX, ret+56(FP)
	RET
