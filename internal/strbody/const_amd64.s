//go:build amd64 && !purego

#include "textflag.h"

// The constants both kernels load (stop_amd64.s, escape_amd64.s): '"',
// '\\' and 0x1f in each of 32 bytes. A load costs a kernel's call less
// than making them from an immediate (MOVQ, VMOVQ, VPBROADCASTQ: three
// dependent steps each): BenchmarkStop -6% over 8 bytes to 4 KiB, AMD EPYC.
DATA ·c22+0(SB)/8, $0x2222222222222222
DATA ·c22+8(SB)/8, $0x2222222222222222
DATA ·c22+16(SB)/8, $0x2222222222222222
DATA ·c22+24(SB)/8, $0x2222222222222222
GLOBL ·c22(SB), RODATA|NOPTR, $32

DATA ·c5C+0(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA ·c5C+8(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA ·c5C+16(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA ·c5C+24(SB)/8, $0x5c5c5c5c5c5c5c5c
GLOBL ·c5C(SB), RODATA|NOPTR, $32

DATA ·c1F+0(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA ·c1F+8(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA ·c1F+16(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA ·c1F+24(SB)/8, $0x1f1f1f1f1f1f1f1f
GLOBL ·c1F(SB), RODATA|NOPTR, $32
