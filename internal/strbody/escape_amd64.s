//go:build amd64 && !purego

#include "textflag.h"

// func escapeAVX2(w []byte, j int, html bool) int
//
// Per 32-byte block at w[j:]: a mask of the bytes equal to '"', equal to
// '\\', at most 0x1f (min(c, 0x1f) == c), equal to A, or equal to C once
// ORed with B, with the block's own bytes ORed in for their top bits (0x80
// and above); the first set bit is the stop. With html, A is '&' and B, C
// are 2, '>' ('<' and '>' are the bytes that are '>' with bit 1 set);
// without, A and C are '"' again and B is 0, which add nothing.
TEXT ·escapeAVX2(SB), NOSPLIT, $0-48
	MOVQ    w_base+0(FP), SI
	MOVQ    w_len+8(FP), DX
	MOVQ    j+24(FP), AX
	MOVBLZX html+32(FP), CX
	MOVQ    $0x2222222222222222, BX
	MOVQ    BX, X1
	VPBROADCASTQ X1, Y1
	MOVQ    $0x5c5c5c5c5c5c5c5c, BX
	MOVQ    BX, X2
	VPBROADCASTQ X2, Y2
	MOVQ    $0x1f1f1f1f1f1f1f1f, BX
	MOVQ    BX, X3
	VPBROADCASTQ X3, Y3
	MOVQ    $0x2222222222222222, R8
	XORQ    R9, R9
	MOVQ    R8, R10
	TESTQ   CX, CX
	JZ      consts
	MOVQ    $0x2626262626262626, R8
	MOVQ    $0x0202020202020202, R9
	MOVQ    $0x3e3e3e3e3e3e3e3e, R10

consts:
	MOVQ    R8, X8
	VPBROADCASTQ X8, Y8
	MOVQ    R9, X9
	VPBROADCASTQ X9, Y9
	MOVQ    R10, X10
	VPBROADCASTQ X10, Y10
	SUBQ    $32, DX // the last index a whole block starts at
	JL      done

loop:
	CMPQ      AX, DX
	JGT       done
	VMOVDQU   (SI)(AX*1), Y0
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
	VPOR      Y4, Y0, Y4
	VPMOVMSKB Y4, BX
	TESTL     BX, BX
	JNZ       found
	ADDQ      $32, AX
	JMP       loop

found:
	BSFL BX, BX
	ADDQ BX, AX

done:
	VZEROUPPER
	MOVQ AX, ret+40(FP)
	RET
