//go:build !purego

#include "textflag.h"

// func special16(b []byte) (n int, high bool)
//
// For each 16-byte block: the bytes equal to '"', equal to '\\', or at
// most 0x1f (min(x, 0x1f) == x, unsigned) are marked, PMOVMSKB gathers one
// bit per byte, and the first marked byte ends the search. The top bits of
// every block read are ORed together for high.
TEXT ·special16(SB), NOSPLIT, $0-33
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), CX
	XORQ AX, AX                    // index of the current block
	XORL R8, R8                    // OR of the blocks' top bits
	MOVQ $0x2222222222222222, DX
	MOVQ DX, X1
	PUNPCKLQDQ X1, X1              // '"' in every byte
	MOVQ $0x5c5c5c5c5c5c5c5c, DX
	MOVQ DX, X2
	PUNPCKLQDQ X2, X2              // '\\' in every byte
	MOVQ $0x1f1f1f1f1f1f1f1f, DX
	MOVQ DX, X3
	PUNPCKLQDQ X3, X3              // 0x1f in every byte

loop:
	LEAQ 16(AX), DX
	CMPQ DX, CX
	JHI  done                      // fewer than 16 bytes left
	MOVOU (SI)(AX*1), X0
	PMOVMSKB X0, DX
	ORL  DX, R8
	MOVO X0, X4
	PCMPEQB X1, X4                 // == '"'
	MOVO X0, X5
	PCMPEQB X2, X5                 // == '\\'
	POR  X5, X4
	MOVO X0, X5
	PMINUB X3, X5                  // min(x, 0x1f)
	PCMPEQB X0, X5                 // == x: x <= 0x1f
	POR  X5, X4
	PMOVMSKB X4, DX
	TESTL DX, DX
	JNZ  found
	ADDQ $16, AX
	JMP  loop

found:
	BSFL DX, DX
	ADDQ DX, AX

done:
	MOVQ AX, n+24(FP)
	TESTL R8, R8
	SETNE high+32(FP)
	RET
