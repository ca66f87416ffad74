//go:build amd64 && !purego

#include "textflag.h"

// HEX4 sets CX to the value of the four hexadecimal digits in AX (the
// first in its low byte), as Hex4 does, or jumps to end when one is not a
// digit. It uses R12 and R13.
#define HEX4 \
	MOVL AX, R12 \
	ADDL $0x50505050, R12 \
	MOVL AX, R13 \
	ADDL $0x46464646, R13 \
	NOTL R13 \
	ANDL R13, R12 \
	MOVL AX, R13 \
	ORL $0x20202020, R13 \
	MOVL R13, CX \
	ADDL $0x1f1f1f1f, R13 \
	ADDL $0x19191919, CX \
	NOTL CX \
	ANDL CX, R13 \
	ORL R13, R12 \
	NOTL R12 \
	ORL AX, R12 \
	TESTL $0x80808080, R12 \
	JNZ end \
	MOVL AX, CX \
	SHRL $6, CX \
	ANDL $0x01010101, CX \
	LEAL (CX)(CX*8), CX \
	ANDL $0x0f0f0f0f, AX \
	ADDL AX, CX \
	MOVL CX, AX \
	SHLL $4, CX \
	SHRL $8, AX \
	ORL AX, CX \
	ANDL $0x00ff00ff, CX \
	MOVL CX, AX \
	SHRL $16, AX \
	MOVBLZX CL, CX \
	SHLL $8, CX \
	ORL AX, CX

// func Unescape(dst, src []byte, j int) (n, next int, high uint64, full bool)
//
// Registers: SI src, DX len(src)-16 (the last j with 16 bytes from it),
// BX j, DI dst, R8 cap(dst)-16 (the last length with 16 bytes of room),
// R9 the length, R10 high, R11 the words a run may still take; AX, CX,
// R12, R13 scratch.
TEXT ·Unescape(SB), NOSPLIT, $0-81
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), R9
	MOVQ dst_cap+16(FP), R8
	MOVQ src_base+24(FP), SI
	MOVQ src_len+32(FP), DX
	MOVQ j+48(FP), BX
	SUBQ $16, R8
	SUBQ $16, DX
	XORL R10, R10
	CMPQ BX, DX
	JGT end
	CMPB (SI)(BX*1), $0x5c // (esc and word check the room)
	JEQ esc

next:
	// After an escape: another one, or the string's end, is known from
	// one byte; anything else starts a run.
	MOVBLZX (SI)(BX*1), AX
	CMPL AX, $0x5c
	JEQ esc
	CMPL AX, $0x22
	JEQ end

run:
	MOVL $4, R11

word:
	// A word of the run, stored at dst[w:] before it is tested: what
	// follows its stop is overwritten by the next escape or run.
	CMPQ BX, DX
	JGT end
	CMPQ R9, R8
	JGT full
	MOVQ (SI)(BX*1), AX
	MOVQ AX, (DI)(R9*1)
	// A byte that is '"' or a control byte (x = b^0x02 below 0x21), or
	// '\\' (b^0x5c is 0), and below 0x80, sets its top bit in CX; only
	// the lowest is exact, and only it is used.
	MOVQ $0x0202020202020202, CX
	XORQ AX, CX
	MOVQ $0xdedededededededf, R12 // minus 0x21 in each byte
	ADDQ R12, CX
	MOVQ $0x5c5c5c5c5c5c5c5c, R12
	XORQ AX, R12
	MOVQ $0xfefefefefefefeff, R13 // minus 0x01 in each byte
	ADDQ R13, R12
	ORQ R12, CX
	MOVQ AX, R12
	NOTQ R12
	ANDQ R12, CX
	MOVQ $0x8080808080808080, R12
	ANDQ R12, CX
	JNZ stop
	ORQ AX, R10
	ADDQ $8, BX
	ADDQ $8, R9
	DECL R11
	JNZ word
	JMP end // a long run: the caller searches the rest at once

stop:
	// The stop is byte k of the word: the bytes before it are the run's
	// (m^(m-1) keeps them, and the stop's own bits, all ASCII).
	BSFQ CX, R12
	LEAQ -1(CX), R13
	XORQ CX, R13
	ANDQ R13, AX
	ORQ AX, R10
	SHRQ $3, R12
	ADDQ R12, BX
	ADDQ R12, R9
	CMPB (SI)(BX*1), $0x5c
	JNE end

esc:
	// An escape at src[j], with 12 bytes or more from it (a surrogate
	// pair's), and 4 bytes of room or more at dst[w:].
	CMPQ BX, DX
	JGT end
	CMPQ R9, R8
	JGT full
	MOVBLZX 1(SI)(BX*1), AX
	CMPL AX, $0x75 // 'u'
	JEQ uesc
	LEAQ ·EscapeByte(SB), R12
	MOVBLZX (R12)(AX*1), AX
	TESTL AX, AX
	JZ end // not an escape: the caller reports it
	MOVB AL, (DI)(R9*1)
	INCQ R9
	ADDQ $2, BX
	JMP next

uesc:
	MOVL 2(SI)(BX*1), AX
	HEX4
	LEAL -0xd800(CX), AX
	CMPL AX, $0x800
	JCS surrogate
	CMPL CX, $0x80
	JCS one
	CMPL CX, $0x800
	JCS two
	// Three bytes: 1110xxxx 10xxxxxx 10xxxxxx, stored as one word.
	MOVL CX, AX
	SHRL $12, AX
	ORL $0xe0, AX
	MOVL CX, R12
	SHRL $6, R12
	ANDL $0x3f, R12
	ORL $0x80, R12
	SHLL $8, R12
	ORL R12, AX
	ANDL $0x3f, CX
	ORL $0x80, CX
	SHLL $16, CX
	ORL CX, AX
	MOVL AX, (DI)(R9*1)
	ADDQ $3, R9
	ADDQ $6, BX
	JMP next

two:
	MOVL CX, AX
	SHRL $6, AX
	ORL $0xc0, AX
	ANDL $0x3f, CX
	ORL $0x80, CX
	SHLL $8, CX
	ORL CX, AX
	MOVW AX, (DI)(R9*1)
	ADDQ $2, R9
	ADDQ $6, BX
	JMP next

one:
	MOVB CX, (DI)(R9*1)
	INCQ R9
	ADDQ $6, BX
	JMP next

surrogate:
	// A high surrogate followed by a \u escape of a low one is a pair;
	// anything else (a lone surrogate: U+FFFD) is the caller's.
	CMPL CX, $0xdc00
	JCC end
	CMPW 6(SI)(BX*1), $0x755c // `\u`
	JNE end
	MOVL CX, R11 // free until a run sets it again
	MOVL 8(SI)(BX*1), AX
	HEX4
	LEAL -0xdc00(CX), AX
	CMPL AX, $0x400
	JCC end
	SUBL $0xd800, R11
	SHLL $10, R11
	ORL AX, R11
	ADDL $0x10000, R11
	// Four bytes: 11110xxx 10xxxxxx 10xxxxxx 10xxxxxx.
	MOVL R11, AX
	SHRL $18, AX
	ORL $0xf0, AX
	MOVL R11, CX
	SHRL $12, CX
	ANDL $0x3f, CX
	ORL $0x80, CX
	SHLL $8, CX
	ORL CX, AX
	MOVL R11, CX
	SHRL $6, CX
	ANDL $0x3f, CX
	ORL $0x80, CX
	SHLL $16, CX
	ORL CX, AX
	ANDL $0x3f, R11
	ORL $0x80, R11
	SHLL $24, R11
	ORL R11, AX
	MOVL AX, (DI)(R9*1)
	ADDQ $4, R9
	ADDQ $12, BX
	JMP next

full:
	MOVB $1, full+80(FP)
	JMP out

end:
	MOVB $0, full+80(FP)

out:
	MOVQ R9, n+56(FP)
	MOVQ BX, next+64(FP)
	MOVQ R10, high+72(FP)
	RET
