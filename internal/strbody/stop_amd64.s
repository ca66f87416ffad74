//go:build amd64 && !purego

#include "textflag.h"

// func stopAVX2(w []byte, j int) (k int, nonASCII uint64)
//
// Per 32-byte block at w[j:]: a mask of the bytes equal to '"', equal to
// '\\', or at most 0x1f (min(c, 0x1f) == c); the first set bit is the
// stop. The blocks' bytes are ORed for their top bits (nonASCII).
//
// The constants are loaded from const_amd64.s. Every instruction that
// touches a vector register is VEX-encoded: a legacy-SSE instruction after an AVX one
// has dirtied the upper halves costs Intel cores about a thousand cycles a
// call (TestAsmVEXOnly in the module's root checks every .s file).
TEXT ·stopAVX2(SB), NOSPLIT, $0-48
	MOVQ w_base+0(FP), SI
	MOVQ w_len+8(FP), DX
	MOVQ j+24(FP), AX
	VMOVDQU ·c22(SB), Y1
	VMOVDQU ·c5C(SB), Y2
	VMOVDQU ·c1F(SB), Y3
	VPXOR Y6, Y6, Y6
	SUBQ $32, DX // the last index a whole block starts at
	JL   done

	// The first block alone (most runs that reach the kernel end in it),
	// then two blocks a turn while two are left, then one.
	CMPQ      AX, DX
	JGT       done
	VMOVDQU   (SI)(AX*1), Y0
	VPOR      Y0, Y6, Y6
	VPCMPEQB  Y0, Y1, Y4
	VPCMPEQB  Y0, Y2, Y5
	VPMINUB   Y0, Y3, Y7
	VPCMPEQB  Y0, Y7, Y7
	VPOR      Y4, Y5, Y4
	VPOR      Y4, Y7, Y4
	VPMOVMSKB Y4, BX
	TESTL     BX, BX
	JNZ       found
	ADDQ      $32, AX

pair:
	LEAQ      32(AX), CX
	CMPQ      CX, DX
	JGT       loop
	VMOVDQU   (SI)(AX*1), Y0
	VMOVDQU   32(SI)(AX*1), Y8
	VPCMPEQB  Y0, Y1, Y4
	VPCMPEQB  Y0, Y2, Y5
	VPMINUB   Y0, Y3, Y7
	VPCMPEQB  Y0, Y7, Y7
	VPOR      Y4, Y5, Y4
	VPOR      Y4, Y7, Y4 // the first block's stops
	VPCMPEQB  Y8, Y1, Y9
	VPCMPEQB  Y8, Y2, Y5
	VPMINUB   Y8, Y3, Y10
	VPCMPEQB  Y8, Y10, Y10
	VPOR      Y9, Y5, Y9
	VPOR      Y9, Y10, Y9 // the second's
	VPOR      Y0, Y6, Y6
	VPOR      Y4, Y9, Y5
	VPMOVMSKB Y5, BX
	TESTL     BX, BX
	JNZ       pairFound
	VPOR      Y8, Y6, Y6
	ADDQ      $64, AX
	JMP       pair

pairFound:
	VPMOVMSKB Y4, BX
	TESTL     BX, BX
	JNZ       found // in the first block
	VPOR      Y8, Y6, Y6
	ADDQ      $32, AX
	VPMOVMSKB Y9, BX
	JMP       found

loop:
	CMPQ      AX, DX
	JGT       done
	VMOVDQU   (SI)(AX*1), Y0
	VPOR      Y0, Y6, Y6
	VPCMPEQB  Y0, Y1, Y4
	VPCMPEQB  Y0, Y2, Y5
	VPMINUB   Y0, Y3, Y7
	VPCMPEQB  Y0, Y7, Y7
	VPOR      Y4, Y5, Y4
	VPOR      Y4, Y7, Y4
	VPMOVMSKB Y4, BX
	TESTL     BX, BX
	JNZ       found
	ADDQ      $32, AX
	JMP       loop

found:
	BSFL BX, BX
	ADDQ BX, AX

done:
	VPMOVMSKB Y6, CX
	XORQ      DI, DI
	TESTL     CX, CX
	JZ        out
	MOVQ      $0x80, DI

out:
	VZEROUPPER
	MOVQ AX, k+32(FP)
	MOVQ DI, nonASCII+40(FP)
	RET
