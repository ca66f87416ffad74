//go:build amd64 && !purego

#include "textflag.h"

// STOPS sets Yd to the stops of the block Yx: its bytes equal to '"' (Y1)
// or '\\' (Y2), or at most 0x1f (Y3); Ta and Tb are temporaries.
#define STOPS(Yx, Yd, Ta, Tb) \
	VPCMPEQB Yx, Y1, Yd \
	VPCMPEQB Yx, Y2, Ta \
	VPMINUB  Yx, Y3, Tb \
	VPCMPEQB Yx, Tb, Tb \
	VPOR     Yd, Ta, Yd \
	VPOR     Yd, Tb, Yd

// func stopAVX2(w []byte, j int) (k int, nonASCII uint64)
//
// Per 32-byte block at w[j:]: a mask of the bytes equal to '"', equal to
// '\\', or at most 0x1f (min(c, 0x1f) == c); the first set bit is the
// stop. The blocks' bytes are ORed for their top bits (nonASCII).
//
// The constants are loaded from const_amd64.s. Every instruction that
// touches a vector register is VEX-encoded: a legacy-SSE instruction after
// an AVX one has dirtied the upper halves costs Intel cores about a
// thousand cycles a call (TestAsmVEXOnly checks every .s file).
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

	// One block at a time, until two are left after a block without a
	// stop (most runs that reach the kernel end in their first block);
	// then two a turn while two are left.
one:
	CMPQ      AX, DX
	JGT       done
	VMOVDQU   (SI)(AX*1), Y0
	VPOR      Y0, Y6, Y6
	STOPS(Y0, Y4, Y5, Y7)
	VPMOVMSKB Y4, BX
	TESTL     BX, BX
	JNZ       found
	ADDQ      $32, AX

pair:
	LEAQ      32(AX), CX
	CMPQ      CX, DX
	JGT       one
	VMOVDQU   (SI)(AX*1), Y0
	VMOVDQU   32(SI)(AX*1), Y8
	STOPS(Y0, Y4, Y5, Y7)  // the first block's stops
	STOPS(Y8, Y9, Y5, Y10) // the second's
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
