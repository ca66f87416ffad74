//go:build amd64 && !purego

#include "textflag.h"

// CONST32 defines sym, 32 bytes of the word b four times over.
#define CONST32(sym, b) \
	DATA sym+0(SB)/8, $b \
	DATA sym+8(SB)/8, $b \
	DATA sym+16(SB)/8, $b \
	DATA sym+24(SB)/8, $b \
	GLOBL sym(SB), RODATA|NOPTR, $32

// The constants the kernels load, 32 bytes each (stop_amd64.s,
// escape_amd64.s, valid_amd64.s). A load costs a kernel's call less than
// making one from an immediate (MOVQ, VMOVQ, VPBROADCASTQ: three dependent
// steps each): BenchmarkStop -6% over 8 bytes to 4 KiB, AMD EPYC.
//
// '"', '\\' and 0x1f in every byte:
CONST32(·c22, 0x2222222222222222)
CONST32(·c5C, 0x5c5c5c5c5c5c5c5c)
CONST32(·c1F, 0x1f1f1f1f1f1f1f1f)

// 0x80, 0x70, 0x60 and 0x0f in every byte (the UTF-8 checks'):
CONST32(·c80, 0x8080808080808080)
CONST32(·c70, 0x7070707070707070)
CONST32(·c60, 0x6060606060606060)
CONST32(·c0F, 0x0f0f0f0f0f0f0f0f)

// The UTF-8 check's tables (Keiser and Lemire, "Validating UTF-8 in less
// than one instruction per byte", 2021), read by the escape kernel and by
// ValidUTF8AVX2: each 16 entries written twice (VPSHUFB looks up within
// each 128-bit half). An entry is a set of the errors a byte's half could
// be part of; a byte, with the one before it, is an error when the three
// sets of their halves share a bit:
//
//	0x01 too short: a lead byte not followed by a continuation byte
//	0x02 too long: a continuation byte after an ASCII byte
//	0x04 overlong three-byte form: E0 80-9F
//	0x08 too large: F4 90-BF, F5-FF 90-BF
//	0x10 surrogate: ED A0-BF
//	0x20 overlong two-byte form: C0-C1 80-BF
//	0x40 overlong four-byte form, F0 80-8F; or too large, F5-FF 80-8F
//	0x80 two continuation bytes: an error unless the three bytes before
//	     make the second the third or fourth byte of a character
//
// byte1High: by the high half of the byte before; byte1Low: by its low
// half; byte2High: by the high half of the byte.
DATA ·byte1High+0(SB)/8, $0x0202020202020202
DATA ·byte1High+8(SB)/8, $0x4915012180808080
DATA ·byte1High+16(SB)/8, $0x0202020202020202
DATA ·byte1High+24(SB)/8, $0x4915012180808080
GLOBL ·byte1High(SB), RODATA|NOPTR, $32

DATA ·byte1Low+0(SB)/8, $0xcbcbcb8b8383a3e7
DATA ·byte1Low+8(SB)/8, $0xcbcbdbcbcbcbcbcb
DATA ·byte1Low+16(SB)/8, $0xcbcbcb8b8383a3e7
DATA ·byte1Low+24(SB)/8, $0xcbcbdbcbcbcbcbcb
GLOBL ·byte1Low(SB), RODATA|NOPTR, $32

DATA ·byte2High+0(SB)/8, $0x0101010101010101
DATA ·byte2High+8(SB)/8, $0x01010101babaaee6
DATA ·byte2High+16(SB)/8, $0x0101010101010101
DATA ·byte2High+24(SB)/8, $0x01010101babaaee6
GLOBL ·byte2High(SB), RODATA|NOPTR, $32
