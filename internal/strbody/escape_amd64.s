//go:build amd64 && !purego

#include "textflag.h"

#define CONST32(name, b) \
	DATA name<>+0(SB)/8, $b \
	DATA name<>+8(SB)/8, $b \
	DATA name<>+16(SB)/8, $b \
	DATA name<>+24(SB)/8, $b \
	GLOBL name<>(SB), RODATA|NOPTR, $32

CONST32(cE2, 0xe2e2e2e2e2e2e2e2)
CONST32(c01, 0x0101010101010101)
CONST32(cA9, 0xa9a9a9a9a9a9a9a9)

CONST32(c7F, 0x7f7f7f7f7f7f7f7f)

// The constants ·c80, ·c70, ·c60, ·c0F and the UTF-8 check's tables
// ·byte1High, ·byte1Low and ·byte2High are in const_amd64.s, shared with
// the other kernels.

// The ASCII test's tables (see MASK), each 16 entries written twice
// (VPSHUFB looks up within each 128-bit half): by a byte's low half,
// without and with html (plainLow, htmlLow), and by its high half
// (high). An entry is a set of the kinds of byte that half could be
// part of; a byte has an escape when its halves' sets share one:
//
//	0x01 a control byte: high half 0 or 1, any low half
//	0x02 '"' (0x22), and with html '&' (0x26)
//	0x04 '\\' (0x5C)
//	0x08 with html, '<' (0x3C) and '>' (0x3E)
//
// A byte of 0x80 or more has no set by its high half (8 to F): none.
#define TABLE16(name, lo, hi) \
	DATA name<>+0(SB)/8, $lo \
	DATA name<>+8(SB)/8, $hi \
	DATA name<>+16(SB)/8, $lo \
	DATA name<>+24(SB)/8, $hi \
	GLOBL name<>(SB), RODATA|NOPTR, $32

TABLE16(plainLow, 0x0101010101030101, 0x0101010501010101)
TABLE16(htmlLow, 0x0103010101030101, 0x0109010d01010101)
TABLE16(high, 0x0000040008020101, 0)

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

// escText<>+8*c is the escape of the ASCII byte c, when c has one, in the
// low bytes of a word, and in its top byte the escape's length less one
// (1 or 5): the bytes it adds. A store of the word writes 8 bytes; the
// ones past the escape are written over by the next store.
DATA escText<>+0(SB)/8, $0x050030303030755c // \u0000
DATA escText<>+8(SB)/8, $0x050031303030755c // \u0001
DATA escText<>+16(SB)/8, $0x050032303030755c // \u0002
DATA escText<>+24(SB)/8, $0x050033303030755c // \u0003
DATA escText<>+32(SB)/8, $0x050034303030755c // \u0004
DATA escText<>+40(SB)/8, $0x050035303030755c // \u0005
DATA escText<>+48(SB)/8, $0x050036303030755c // \u0006
DATA escText<>+56(SB)/8, $0x050037303030755c // \u0007
DATA escText<>+64(SB)/8, $0x010000000000625c // \b
DATA escText<>+72(SB)/8, $0x010000000000745c // \t
DATA escText<>+80(SB)/8, $0x0100000000006e5c // \n
DATA escText<>+88(SB)/8, $0x050062303030755c // \u000b
DATA escText<>+96(SB)/8, $0x010000000000665c // \f
DATA escText<>+104(SB)/8, $0x010000000000725c // \r
DATA escText<>+112(SB)/8, $0x050065303030755c // \u000e
DATA escText<>+120(SB)/8, $0x050066303030755c // \u000f
DATA escText<>+128(SB)/8, $0x050030313030755c // \u0010
DATA escText<>+136(SB)/8, $0x050031313030755c // \u0011
DATA escText<>+144(SB)/8, $0x050032313030755c // \u0012
DATA escText<>+152(SB)/8, $0x050033313030755c // \u0013
DATA escText<>+160(SB)/8, $0x050034313030755c // \u0014
DATA escText<>+168(SB)/8, $0x050035313030755c // \u0015
DATA escText<>+176(SB)/8, $0x050036313030755c // \u0016
DATA escText<>+184(SB)/8, $0x050037313030755c // \u0017
DATA escText<>+192(SB)/8, $0x050038313030755c // \u0018
DATA escText<>+200(SB)/8, $0x050039313030755c // \u0019
DATA escText<>+208(SB)/8, $0x050061313030755c // \u001a
DATA escText<>+216(SB)/8, $0x050062313030755c // \u001b
DATA escText<>+224(SB)/8, $0x050063313030755c // \u001c
DATA escText<>+232(SB)/8, $0x050064313030755c // \u001d
DATA escText<>+240(SB)/8, $0x050065313030755c // \u001e
DATA escText<>+248(SB)/8, $0x050066313030755c // \u001f
DATA escText<>+272(SB)/8, $0x010000000000225c // \"
DATA escText<>+304(SB)/8, $0x050036323030755c // \u0026
DATA escText<>+480(SB)/8, $0x050063333030755c // \u003c
DATA escText<>+496(SB)/8, $0x050065333030755c // \u003e
DATA escText<>+736(SB)/8, $0x0100000000005c5c // \\
GLOBL escText<>(SB), RODATA|NOPTR, $744

// TABLES loads the ASCII test's tables for MASK: Y1 the low halves'
// (plainLow, or htmlLow when html, a register, is not zero), Y2 the high
// halves', Y3 0x0f and Y10 0x7f in every byte. The table is chosen by a
// branch (plain is the macro's own label), not by a CMOV of its address:
// the first block's check then waits for no load of html (on Intel Xeon,
// 2 ASCII blocks took 8% longer with the CMOV).
#define TABLES(html, plain) \
	VMOVDQU plainLow<>(SB), Y1 \
	TESTQ   html, html         \
	JZ      plain              \
	VMOVDQU htmlLow<>(SB), Y1  \
plain:                         \
	VMOVDQU high<>(SB), Y2     \
	VMOVDQU ·c0F(SB), Y3       \
	VMOVDQU c7F<>(SB), Y10

// SHORT loads into Y0 the n bytes at p (registers; n from 1 to 32), then
// zeros: straight from p when those 32 bytes do not cross a page (so the
// read cannot fault), else a byte at a time through buf, 32 bytes on the
// stack (the labels near and loop are the macro's own); the bytes past n
// are cleared with keep. BX, R8, R10 and R11 are scratch.
#define SHORT(p, n, buf, near, loop, loaded) \
	MOVL    p, R8                 \
	ANDL    $4095, R8             \
	CMPL    R8, $(4096-32)        \
	JHI     near                  \
	VMOVDQU (p), Y0               \
	JMP     loaded                \
near:                             \
	VPXOR   Y0, Y0, Y0            \
	VMOVDQU Y0, buf               \
	LEAQ    buf, R10              \
	XORQ    BX, BX                \
loop:                             \
	MOVBLZX (p)(BX*1), R11        \
	MOVB    R11, (R10)(BX*1)      \
	INCQ    BX                    \
	CMPQ    BX, n                 \
	JLT     loop                  \
	VMOVDQU (R10), Y0             \
loaded:                           \
	LEAQ    keep<>(SB), R10       \
	MOVQ    n, R11                \
	NEGQ    R11                   \
	VPAND   32(R10)(R11*1), Y0, Y0

// CUT jumps to cut when the count bytes before p+end (count at least 1)
// end with a character cut short: a lead byte in the last three whose
// character goes on past them; to whole when there are too few bytes
// left to look at. It ends comparing the third byte back with 0xF0: the
// caller jumps on the flags (JAE: cut short), as suits what follows it.
// R11 is scratch.
#define CUT(p, end, count, cut, whole) \
	MOVBLZX -1(p)(end*1), R11 \
	CMPL    R11, $0xC0        \
	JAE     cut               \
	CMPQ    count, $2         \
	JLT     whole             \
	MOVBLZX -2(p)(end*1), R11 \
	CMPL    R11, $0xE0        \
	JAE     cut               \
	CMPQ    count, $3         \
	JLT     whole             \
	MOVBLZX -3(p)(end*1), R11 \
	CMPL    R11, $0xF0

// MASK sets Yd to the mask of the block Yx (see "Per block" below), a
// flagged byte's top bit set, and Yh to the high halves of Yx's bytes
// (the UTF-8 check reads them too); Tb is a temporary. Y1 and Y2 hold
// the low and high halves' tables (plainLow or htmlLow, and high), Y3
// 0x0f and Y10 0x7f in every byte.
#define MASK(Yx, Yd, Yh, Tb) \
	VPSRLW   $4, Yx, Yh  \
	VPAND    Y3, Yh, Yh  \
	VPAND    Y3, Yx, Tb  \
	VPSHUFB  Tb, Y1, Tb  \
	VPSHUFB  Yh, Y2, Yd  \
	VPAND    Tb, Yd, Yd  \
	VPADDUSB Y10, Yd, Yd

// UTF8(Yprev, Yzero) checks the block Y0 as UTF-8 (see "Per block"
// below), each byte with the three before it (P1, P2, P3, taken across
// the boundary from Yprev, the block before), Y8 holding the high halves
// of Y0's bytes, Y3 0x0f and Yzero zeros. It leaves in Y7 0xff at each
// byte with no error, and in Y14 0xff at the last byte of each U+2028
// and U+2029 (0xE2 0x80 0xA8 or 0xA9); Y5, Y6, Y9 and Y11 are
// temporaries.
//
// The errors of each byte with the one before it come from the tables.
// Then a continuation byte called for after another: P2 >= 0xE0 or P3 >=
// 0xF0 (the 0x80 bit of a saturated subtraction of 0x60 and 0x70),
// exactly where the 0x80 error bit is expected; the XOR clears it where
// it belongs and sets it where it is missing. A byte with any error bit
// left has an error.
#define UTF8(Yprev, Yzero) \
	VPERM2I128 $0x21, Y0, Yprev, Y5 \
	VPALIGNR   $13, Y5, Y0, Y11     \
	VPALIGNR   $14, Y5, Y0, Y7      \
	VPALIGNR   $15, Y5, Y0, Y6      \
	VPCMPEQB   cE2<>(SB), Y7, Y14   \
	VPCMPEQB   ·c80(SB), Y6, Y5     \
	VPAND      Y5, Y14, Y14         \
	VPOR       c01<>(SB), Y0, Y5    \
	VPCMPEQB   cA9<>(SB), Y5, Y5    \
	VPAND      Y5, Y14, Y14         \
	VPSRLW     $4, Y6, Y5           \
	VPAND      Y3, Y5, Y5           \
	VMOVDQU    ·byte1High(SB), Y9   \
	VPSHUFB    Y5, Y9, Y5           \
	VPAND      Y3, Y6, Y6           \
	VMOVDQU    ·byte1Low(SB), Y9    \
	VPSHUFB    Y6, Y9, Y6           \
	VPAND      Y6, Y5, Y5           \
	VMOVDQU    ·byte2High(SB), Y9   \
	VPSHUFB    Y8, Y9, Y6           \
	VPAND      Y6, Y5, Y5           \
	VPSUBUSB   ·c60(SB), Y7, Y7     \
	VPSUBUSB   ·c70(SB), Y11, Y11   \
	VPOR       Y11, Y7, Y7          \
	VPAND      ·c80(SB), Y7, Y7     \
	VPXOR      Y5, Y7, Y7           \
	VPCMPEQB   Yzero, Y7, Y7

// func escapeCopyAVX2(d []byte, s string, j int, html bool) (k, n int)
//
// Each 32-byte block of s from j is stored, as it is read, in d (s[j] at
// d[0], and one byte further for each byte an escape added), and checked.
// The bytes left after the whole blocks, if any, are read as one more
// block, zero-padded: straight from s when those 32 bytes do not cross a
// page (so the read cannot fault), else through a copy on the stack; that
// block is stored whole too, so d must hold Block bytes past s's end. A
// zero byte is a control byte, so the padding's first byte is always
// flagged: the kernel always stops, at the end of s at the latest.
//
// Per block, a mask of the bytes to look at:
//
//   - ASCII: '"', '\\', at most 0x1f, and with html '<', '>' and '&': a
//     byte whose halves' entries in the tables share a bit (two lookups
//     and an AND), made a top bit by adding 0x7f with saturation.
//   - UTF-8, when the block or the one before it has a byte of 0x80 or
//     more: each byte is checked with the three before it (P1, P2, P3,
//     taken across the blocks' boundary; before j they count as 0), by
//     Keiser and Lemire's tables (const_amd64.s): a continuation byte
//     where none is called for or the reverse, an overlong form, a
//     surrogate, a character past U+10FFFF, a lead byte that leads
//     nowhere (C0, C1, F5 and above), each flagged at its second byte or
//     where the byte it lacks should be; and U+2028 and U+2029, flagged
//     at their last byte.

// Valid UTF-8 without those characters flags nothing; a character that
// must be looked at is flagged at one of its bytes, within three of its
// start; an incomplete one at the end of s is flagged at the padding.
//
// In a block of ASCII after ASCII, every flagged byte is one with an
// escape (or the padding): each is escaped in turn in one pass over the
// mask (at "ascii"), while d has room for it beyond the len(s)-k+Block
// bytes the rest may still need (the room left is kept in R14).
//
// Elsewhere, at the first flagged byte: when it is an ASCII byte with an
// escape (not the padding), flagged for itself and not for a character
// cut short before it (it is s[j], or the byte before is ASCII, or ends a
// character as long as its lead byte says), its escape is written here,
// from escText, if d has room for it; the scan then starts again after
// it, with no bytes before (an ASCII byte is no part of a character).
//
// Any other flagged byte, or an escape without room, ends the call: k is
// its index, n the bytes of d written for s[j:k]. At the end of s, k is
// len(s) only when no character is cut short there (see atEnd).
TEXT ·escapeCopyAVX2(SB), NOSPLIT, $64-72
	MOVQ    d_base+0(FP), DI
	MOVQ    d_len+8(FP), R14
	MOVQ    s_base+24(FP), SI
	MOVQ    s_len+32(FP), DX
	MOVQ    j+40(FP), AX
	MOVBLZX html+48(FP), CX
	SUBQ    DX, R14
	ADDQ    AX, R14
	SUBQ    $32, R14 // the room for escapes: len(d) - (len(s)-j) - Block
	SUBQ    AX, DI   // s[i] goes to (DI)(i*1); DI grows by each escape's extra bytes
	TABLES(CX, tables)
	VPXOR   Y13, Y13, Y13 // zeros
	LEAQ    -32(DX), R13  // the last index a whole block starts at

restart:
	VPXOR Y12, Y12, Y12 // the block before: none, as zeros
	XORL  R9, R9        // the block before's bytes of 0x80 or more, as bits

one:
	CMPQ      AX, R13
	JGT       tail
	VMOVDQU   (SI)(AX*1), Y0
	VMOVDQU   Y0, (DI)(AX*1)

check:
	MASK(Y0, Y4, Y8, Y5)

checked: // Y8: the high halves of Y0's bytes
	VPMOVMSKB Y0, CX
	MOVL      CX, R11
	ORL       R9, R11
	JNZ       utf8
	// ASCII after ASCII: Y12 may stay, as it is ASCII too.
	VPMOVMSKB Y4, BX
	TESTL     BX, BX
	JNZ       ascii
	ADDQ      $32, AX
	JMP       pair

ascii:
	// Every flagged byte of an ASCII block after ASCII is one with an
	// escape, or the padding. Each is escaped in turn, and the block's
	// bytes after it are stored again, as many places further on as the
	// escape adds, from a copy that is readable for 32 bytes past any of
	// them: s itself when s goes on 32 bytes past the block, else the
	// block stored on the stack (whose second half is only written over
	// later). One pass over the mask, where a restart would check the
	// block again for each escape.
	BSFL    BX, R10          // the byte's place in the block
	LEAQ    (AX)(R10*1), R12 // and in s
	CMPQ    R12, DX
	JGE     end // the padding: nothing to escape
	LEAQ    (SI)(AX*1), R8
	LEAQ    64(AX), CX
	CMPQ    CX, DX
	JLE     escape1
	VMOVDQU Y0, buf-64(SP)
	LEAQ    buf-64(SP), R8
	JMP     escape1

each:
	BSFL    BX, R10
	LEAQ    (AX)(R10*1), R12
	CMPQ    R12, DX
	JGE     end // the padding

escape1:
	MOVBLZX (SI)(R12*1), CX
	LEAQ    escText<>(SB), R11
	MOVQ    (R11)(CX*8), CX
	MOVQ    CX, R11
	SHRQ    $56, R11 // the bytes the escape adds
	CMPQ    R11, R14
	JGT     full
	SUBQ    R11, R14
	MOVQ    CX, (DI)(R12*1) // the escape, and 8-its length bytes the next store writes over
	ADDQ    R11, DI
	VMOVDQU 1(R8)(R10*1), Y5
	VMOVDQU Y5, 1(DI)(R12*1)
	LEAL    -1(BX), R10
	ANDL    R10, BX
	JNZ     each
	ADDQ    $32, AX
	JMP     one

end:
	MOVQ DX, AX
	JMP  done

full: // no room for this escape: the caller grows d
	MOVQ R12, AX
	JMP  done

utf8:
	UTF8(Y12, Y13)
	VMOVDQU   Y0, Y12
	MOVL      CX, R9
	VPOR      Y14, Y4, Y4
	VPMOVMSKB Y4, BX
	VPMOVMSKB Y7, R11
	NOTL      R11
	ORL       R11, BX
	JNZ       found
	ADDQ      $32, AX
	JMP       one

	// After a block of ASCII with nothing to escape, two blocks a turn
	// while two are left: both stored, then checked together (their masks
	// and their bytes' top bits ORed). A pair with anything to look at
	// goes on as one block at a time (checked), from the first of them
	// with something; after a block with an escape or a byte of 0x80 or
	// more, the next block is read alone (one), so that text with many
	// escapes, or not ASCII, does not check blocks twice.
pair: // (R9 is 0: the block before was ASCII)
	LEAQ      32(AX), CX
	CMPQ      CX, R13
	JGT       one
	VMOVDQU   (SI)(AX*1), Y0
	VMOVDQU   32(SI)(AX*1), Y15
	VMOVDQU   Y0, (DI)(AX*1)
	VMOVDQU   Y15, 32(DI)(AX*1)
	MASK(Y0, Y4, Y8, Y6)  // the first block's
	MASK(Y15, Y5, Y9, Y7) // the second's
	VPOR      Y4, Y0, Y6
	VPOR      Y5, Y15, Y7
	VPOR      Y6, Y7, Y7
	VPMOVMSKB Y7, CX
	TESTL     CX, CX
	JNZ       pairFound
	ADDQ      $64, AX
	JMP       pair

pairFound:
	VPMOVMSKB Y6, CX
	TESTL     CX, CX
	JNZ       checked // in the first block
	ADDQ      $32, AX // in the second, after a plain ASCII one
	VMOVDQU   Y15, Y0
	VMOVDQU   Y5, Y4
	VMOVDQU   Y9, Y8
	JMP       checked

tail:
	MOVQ  DX, CX
	SUBQ  AX, CX // the bytes left, 0 to 31
	JZ    atEnd
	LEAQ  (SI)(AX*1), R12
	SHORT(R12, CX, buf-64(SP), near, byte, pad)
	VMOVDQU Y0, (DI)(AX*1)
	JMP     check // the padding is flagged: on to found

found:
	BSFL    BX, BX
	ADDQ    BX, AX
	CMPQ    AX, DX
	JGE     atEnd // the padding
	MOVBLZX (SI)(AX*1), CX
	CMPL    CX, $0x80
	JAE     done // not ASCII: the caller's
	CMPQ    AX, j+40(FP)
	JEQ     escape
	MOVBLZX -1(SI)(AX*1), R10
	CMPL    R10, $0x80
	JB      escape

	// After a byte of 0x80 or more. Every byte before this one passed, so
	// that byte ends a valid character, or a valid one cut short, which is
	// flagged here too (and a lead byte just before flags an ASCII byte:
	// the caller's). Escaped here when the lead byte 2, 3 or 4 back says
	// the character is that long (it is at j or after, where the check
	// began).
	CMPL    R10, $0xC0
	JAE     done
	MOVBLZX -2(SI)(AX*1), R10
	CMPL    R10, $0xC0
	JB      back3
	CMPL    R10, $0xE0
	JB      escape
	JMP     done

back3:
	MOVBLZX -3(SI)(AX*1), R10
	CMPL    R10, $0xE0
	JB      back4 // a continuation byte (a 2-byte lead here would have been flagged)
	CMPL    R10, $0xF0
	JB      escape
	JMP     done

back4:
	MOVBLZX -4(SI)(AX*1), R10
	CMPL    R10, $0xF0
	JAE     escape
	JMP     done

escape:
	LEAQ    escText<>(SB), R11
	MOVQ    (R11)(CX*8), R10
	MOVQ    R10, R12
	SHRQ    $56, R12 // the bytes the escape adds
	CMPQ    R12, R14
	JGT     done // no room left: the caller grows d
	SUBQ    R12, R14
	MOVQ    R10, (DI)(AX*1) // the escape, and scratch the next block writes over
	ADDQ    R12, DI
	INCQ    AX
	JMP     restart

atEnd:
	// The end of s, and k = len(s) says that all of s[j:] is written,
	// unless its last character is cut short: a continuation byte called
	// for after the end, by a lead byte in the last three from j (the
	// padding's flag, or nothing when s ends with a whole block). Then
	// k is the last byte, for the caller to find that character's start.
	MOVQ    DX, AX
	MOVQ    DX, R10
	SUBQ    j+40(FP), R10 // the bytes from j
	JZ      done
	CUT(SI, DX, R10, cut, done)
	JB done

cut:
	DECQ AX

done:
	VZEROUPPER
	MOVQ AX, k+56(FP)
	ADDQ AX, DI
	SUBQ d_base+0(FP), DI
	MOVQ DI, n+64(FP)
	RET

// func copyPlainAVX2(d, s *byte, n int, html bool) bool
//
// CopyPlain's kernel: the n bytes at s (1 to 32) as one block, zero-padded
// (read as the escape kernel's tail reads them: straight from s when the 32
// bytes do not cross a page, else through a copy on the stack), stored whole
// at d, and checked as the escape kernel checks a block after a block of
// ASCII: an ASCII byte with an escape, a UTF-8 error, U+2028 or U+2029,
// each among the n bytes, makes the answer false; so does a character cut
// short at the end (a lead byte in the last three whose character goes on
// past them), which the block flags only in the padding.
TEXT ·copyPlainAVX2(SB), NOSPLIT, $32-33
	MOVQ    d+0(FP), DI
	MOVQ    s+8(FP), SI
	MOVQ    n+16(FP), CX
	MOVBLZX html+24(FP), DX
	SHORT(SI, CX, buf-32(SP), plainNear, plainByte, plainLoaded)
	VMOVDQU Y0, (DI)
	MOVQ    $1, R11
	SHLQ    CX, R11
	DECQ    R11 // the n bytes' bits
	TABLES(DX, plainTables)
	MASK(Y0, Y4, Y8, Y5)
	VPMOVMSKB Y4, BX
	ANDQ      R11, BX
	JNZ       plainNo // an ASCII byte with an escape
	VPMOVMSKB Y0, BX
	TESTL     BX, BX
	JZ        plainYes // ASCII

	// UTF-8, the bytes before s as zeros (ASCII).
	VPXOR Y12, Y12, Y12
	UTF8(Y12, Y12)
	VPMOVMSKB  Y7, BX
	NOTL       BX
	VPMOVMSKB  Y14, R10
	ORL        R10, BX
	ANDQ       R11, BX
	JNZ        plainNo

	// A character cut short at the end.
	CUT(SI, CX, CX, plainNo, plainYes)
	JAE plainNo

plainYes:
	VZEROUPPER
	MOVB $1, ret+32(FP)
	RET

plainNo:
	VZEROUPPER
	MOVB $0, ret+32(FP)
	RET

// EscapeKernel jumps to escapeCopyAVX2 when useAVX2, else to
// escapeCopyGeneric (through its ABI0 wrapper), with the caller's
// arguments and return address as they are: no frame of its own.
TEXT ·EscapeKernel(SB), NOSPLIT, $0-72
	CMPB ·useAVX2(SB), $0
	JEQ  generic
	JMP  ·escapeCopyAVX2(SB)
generic:
	JMP  ·escapeCopyGeneric(SB)
