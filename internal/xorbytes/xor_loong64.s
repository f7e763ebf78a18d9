//go:build gc && !purego

#include "textflag.h"

// XORBytes for loong64: a 64-bit scalar path and LSX (128-bit) and LASX
// (256-bit) paths. Each function XORs n > 0 bytes with no alignment
// requirement on any of the three pointers (LoongArch allows unaligned
// accesses).
//
// The three functions share one skeleton, so that for every n the LASX path
// runs no more instructions than the LSX path, and LSX no more than Scalar:
// only the block bodies differ, and a wider body is always shorter.
//
//   n < 16:   XOR_SMALL, identical in all three: two overlapping loads per
//             operand (8, 4, 2 bytes wide) or one byte, with no vector
//             instruction and no loop; 8 bytes costs two compares. (Go's
//             std LSX/LASX change, which lost 11-21% at 8 bytes, put a Go
//             dispatch function, a second call, in front of its assembly
//             and starts each path with a four-step size ladder; here the
//             dispatch is inlined in XORBytes.)
//   n >= 16:  if n%16 != 0 the last 16 bytes of x^y are computed first and
//             kept (V31, or R16/R17 in Scalar); then 256-byte blocks in a
//             loop, then one block each of 128, 64, 32 and 16 bytes as the
//             bits of n say, and finally the kept tail is stored over the
//             last 16 bytes. Computing the tail before anything is stored
//             keeps exact overlap (dst == x or dst == y) correct: the tail
//             store rewrites bytes with the values they already hold.
//             The idea of covering a ragged end with one overlapping
//             full-width access is the usual memcpy trick (as in Go's
//             runtime memmove); loading it first is what aliasing requires.
//
// Branches depend only on n.
//
// Register map (all functions):
//   R4          dst, advanced past each finished block
//   R5          x, advanced likewise
//   R6          y, advanced likewise
//   R7          n (never changed)
//   R8          scratch: length tests, offsets of the small cases
//   R9          &dst[n-16], where the kept tail goes (when n%16 != 0)
//   R12         end of the 256-byte blocks in x (loop bound)
//   R14         n%16: non-zero when a tail was kept
//   R10-R11, R13, R15-R19, R23-R26   scalar data
//   V0-V15, X0-X15                   vector data
//   V30, V31 (Scalar: R16, R17)      the kept tail

// LOAD_ARGS loads the arguments into R4-R7.
#define LOAD_ARGS \
	MOVV	dst+0(FP), R4; \
	MOVV	x+8(FP), R5; \
	MOVV	y+16(FP), R6; \
	MOVV	n+24(FP), R7

// XOR_SMALL XORs 0 < n < 16 bytes and returns, or jumps to "large" when
// n >= 16. Between 8 and 15 bytes it XORs the first and the last 8 bytes
// (overlapping when n < 16), both loaded before either is stored; 4 to 7 and
// 2 to 3 bytes likewise with 4- and 2-byte words; 1 byte alone.
#define XOR_SMALL \
	SGTU	$16, R7, R8; \
	BEQ	R8, large; \
	SGTU	$8, R7, R8; \
	BNE	R8, small4; \
	ADDV	$-8, R7, R8; \
	MOVV	(R5), R10; \
	MOVV	(R6), R11; \
	MOVV	(R5)(R8), R13; \
	MOVV	(R6)(R8), R15; \
	XOR	R10, R11; \
	XOR	R13, R15; \
	MOVV	R11, (R4); \
	MOVV	R15, (R4)(R8); \
	RET; \
small4:; \
	SGTU	$4, R7, R8; \
	BNE	R8, small2; \
	ADDV	$-4, R7, R8; \
	MOVWU	(R5), R10; \
	MOVWU	(R6), R11; \
	MOVWU	(R5)(R8), R13; \
	MOVWU	(R6)(R8), R15; \
	XOR	R10, R11; \
	XOR	R13, R15; \
	MOVW	R11, (R4); \
	MOVW	R15, (R4)(R8); \
	RET; \
small2:; \
	SGTU	$2, R7, R8; \
	BNE	R8, small1; \
	ADDV	$-2, R7, R8; \
	MOVHU	(R5), R10; \
	MOVHU	(R6), R11; \
	MOVHU	(R5)(R8), R13; \
	MOVHU	(R6)(R8), R15; \
	XOR	R10, R11; \
	XOR	R13, R15; \
	MOVH	R11, (R4); \
	MOVH	R15, (R4)(R8); \
	RET; \
small1:; \
	BEQ	R7, small0; \
	MOVBU	(R5), R10; \
	MOVBU	(R6), R11; \
	XOR	R10, R11; \
	MOVB	R11, (R4); \
small0:; \
	RET

// ADVANCE moves the three pointers past a finished block of k bytes.
#define ADVANCE(k) \
	ADDV	$k, R4; \
	ADDV	$k, R5; \
	ADDV	$k, R6

// SKELETON is the n >= 16 part shared by the three paths. TAIL_LOAD and
// TAIL_STORE keep and store the last 16 bytes; B256 ... B16 XOR one block at
// the current pointers.
#define SKELETON(TAIL_LOAD, TAIL_STORE, B256, B128, B64, B32, B16) \
large:; \
	AND	$15, R7, R14; \
	BEQ	R14, bulk; \
	ADDV	$-16, R7, R9; \
	TAIL_LOAD; \
bulk:; \
	SRLV	$8, R7, R12; \
	BEQ	R12, rem128; \
	SLLV	$8, R12; \
	ADDV	R5, R12; \
loop256:; \
	B256; \
	ADVANCE(256); \
	BNE	R5, R12, loop256; \
	AND	$255, R7, R8; \
	BEQ	R8, done; \
rem128:; \
	AND	$128, R7, R8; \
	BEQ	R8, rem64; \
	B128(0); \
	ADVANCE(128); \
	AND	$127, R7, R8; \
	BEQ	R8, done; \
rem64:; \
	AND	$64, R7, R8; \
	BEQ	R8, rem32; \
	B64(0); \
	ADVANCE(64); \
rem32:; \
	AND	$32, R7, R8; \
	BEQ	R8, rem16; \
	B32(0); \
	ADVANCE(32); \
rem16:; \
	AND	$16, R7, R8; \
	BEQ	R8, tail; \
	B16(0); \
tail:; \
	BEQ	R14, done; \
	TAIL_STORE; \
done:; \
	RET

// ---- Scalar blocks: 8-byte words, four at a time.

// S32 XORs the 32 bytes at offset off.
#define S32(off) \
	MOVV	(off+0)(R5), R10; \
	MOVV	(off+8)(R5), R11; \
	MOVV	(off+16)(R5), R13; \
	MOVV	(off+24)(R5), R15; \
	MOVV	(off+0)(R6), R18; \
	MOVV	(off+8)(R6), R19; \
	MOVV	(off+16)(R6), R23; \
	MOVV	(off+24)(R6), R24; \
	XOR	R10, R18; \
	XOR	R11, R19; \
	XOR	R13, R23; \
	XOR	R15, R24; \
	MOVV	R18, (off+0)(R4); \
	MOVV	R19, (off+8)(R4); \
	MOVV	R23, (off+16)(R4); \
	MOVV	R24, (off+24)(R4)

#define S16(off) \
	MOVV	(off+0)(R5), R10; \
	MOVV	(off+8)(R5), R11; \
	MOVV	(off+0)(R6), R18; \
	MOVV	(off+8)(R6), R19; \
	XOR	R10, R18; \
	XOR	R11, R19; \
	MOVV	R18, (off+0)(R4); \
	MOVV	R19, (off+8)(R4)

#define S64(off) S32(off); S32(off+32)
#define S128(off) S64(off); S64(off+64)
#define S256 S128(0); S128(128)

// S_TAIL_LOAD keeps x^y of the last 16 bytes in R16, R17 and points R9 at
// &dst[n-16] (R9 holds n-16 on entry).
#define S_TAIL_LOAD \
	ADDV	R5, R9, R25; \
	ADDV	R6, R9, R26; \
	MOVV	0(R25), R10; \
	MOVV	8(R25), R11; \
	MOVV	0(R26), R16; \
	MOVV	8(R26), R17; \
	ADDV	R4, R9; \
	XOR	R10, R16; \
	XOR	R11, R17

#define S_TAIL_STORE \
	MOVV	R16, 0(R9); \
	MOVV	R17, 8(R9)

// ---- LSX blocks: 16-byte vectors, eight at a time.

#define L16(off) \
	VMOVQ	(off+0)(R5), V0; \
	VMOVQ	(off+0)(R6), V8; \
	VXORV	V0, V8, V8; \
	VMOVQ	V8, (off+0)(R4)

#define L32(off) \
	VMOVQ	(off+0)(R5), V0; \
	VMOVQ	(off+16)(R5), V1; \
	VMOVQ	(off+0)(R6), V8; \
	VMOVQ	(off+16)(R6), V9; \
	VXORV	V0, V8, V8; \
	VXORV	V1, V9, V9; \
	VMOVQ	V8, (off+0)(R4); \
	VMOVQ	V9, (off+16)(R4)

#define L64(off) \
	VMOVQ	(off+0)(R5), V0; \
	VMOVQ	(off+16)(R5), V1; \
	VMOVQ	(off+32)(R5), V2; \
	VMOVQ	(off+48)(R5), V3; \
	VMOVQ	(off+0)(R6), V8; \
	VMOVQ	(off+16)(R6), V9; \
	VMOVQ	(off+32)(R6), V10; \
	VMOVQ	(off+48)(R6), V11; \
	VXORV	V0, V8, V8; \
	VXORV	V1, V9, V9; \
	VXORV	V2, V10, V10; \
	VXORV	V3, V11, V11; \
	VMOVQ	V8, (off+0)(R4); \
	VMOVQ	V9, (off+16)(R4); \
	VMOVQ	V10, (off+32)(R4); \
	VMOVQ	V11, (off+48)(R4)

#define L128(off) \
	VMOVQ	(off+0)(R5), V0; \
	VMOVQ	(off+16)(R5), V1; \
	VMOVQ	(off+32)(R5), V2; \
	VMOVQ	(off+48)(R5), V3; \
	VMOVQ	(off+64)(R5), V4; \
	VMOVQ	(off+80)(R5), V5; \
	VMOVQ	(off+96)(R5), V6; \
	VMOVQ	(off+112)(R5), V7; \
	VMOVQ	(off+0)(R6), V8; \
	VMOVQ	(off+16)(R6), V9; \
	VMOVQ	(off+32)(R6), V10; \
	VMOVQ	(off+48)(R6), V11; \
	VMOVQ	(off+64)(R6), V12; \
	VMOVQ	(off+80)(R6), V13; \
	VMOVQ	(off+96)(R6), V14; \
	VMOVQ	(off+112)(R6), V15; \
	VXORV	V0, V8, V8; \
	VXORV	V1, V9, V9; \
	VXORV	V2, V10, V10; \
	VXORV	V3, V11, V11; \
	VXORV	V4, V12, V12; \
	VXORV	V5, V13, V13; \
	VXORV	V6, V14, V14; \
	VXORV	V7, V15, V15; \
	VMOVQ	V8, (off+0)(R4); \
	VMOVQ	V9, (off+16)(R4); \
	VMOVQ	V10, (off+32)(R4); \
	VMOVQ	V11, (off+48)(R4); \
	VMOVQ	V12, (off+64)(R4); \
	VMOVQ	V13, (off+80)(R4); \
	VMOVQ	V14, (off+96)(R4); \
	VMOVQ	V15, (off+112)(R4)

#define L256 L128(0); L128(128)

// V_TAIL_LOAD keeps x^y of the last 16 bytes in V31 and points R9 at
// &dst[n-16] (R9 holds n-16 on entry). LASX uses it too.
#define V_TAIL_LOAD \
	VMOVQ	(R5)(R9), V30; \
	VMOVQ	(R6)(R9), V31; \
	ADDV	R4, R9; \
	VXORV	V30, V31, V31

#define V_TAIL_STORE \
	VMOVQ	V31, (R9)

// ---- LASX blocks: 32-byte vectors, eight at a time (16 bytes with LSX).

#define X32(off) \
	XVMOVQ	(off+0)(R5), X0; \
	XVMOVQ	(off+0)(R6), X8; \
	XVXORV	X0, X8, X8; \
	XVMOVQ	X8, (off+0)(R4)

#define X64(off) \
	XVMOVQ	(off+0)(R5), X0; \
	XVMOVQ	(off+32)(R5), X1; \
	XVMOVQ	(off+0)(R6), X8; \
	XVMOVQ	(off+32)(R6), X9; \
	XVXORV	X0, X8, X8; \
	XVXORV	X1, X9, X9; \
	XVMOVQ	X8, (off+0)(R4); \
	XVMOVQ	X9, (off+32)(R4)

#define X128(off) \
	XVMOVQ	(off+0)(R5), X0; \
	XVMOVQ	(off+32)(R5), X1; \
	XVMOVQ	(off+64)(R5), X2; \
	XVMOVQ	(off+96)(R5), X3; \
	XVMOVQ	(off+0)(R6), X8; \
	XVMOVQ	(off+32)(R6), X9; \
	XVMOVQ	(off+64)(R6), X10; \
	XVMOVQ	(off+96)(R6), X11; \
	XVXORV	X0, X8, X8; \
	XVXORV	X1, X9, X9; \
	XVXORV	X2, X10, X10; \
	XVXORV	X3, X11, X11; \
	XVMOVQ	X8, (off+0)(R4); \
	XVMOVQ	X9, (off+32)(R4); \
	XVMOVQ	X10, (off+64)(R4); \
	XVMOVQ	X11, (off+96)(R4)

#define X256 \
	XVMOVQ	0(R5), X0; \
	XVMOVQ	32(R5), X1; \
	XVMOVQ	64(R5), X2; \
	XVMOVQ	96(R5), X3; \
	XVMOVQ	128(R5), X4; \
	XVMOVQ	160(R5), X5; \
	XVMOVQ	192(R5), X6; \
	XVMOVQ	224(R5), X7; \
	XVMOVQ	0(R6), X8; \
	XVMOVQ	32(R6), X9; \
	XVMOVQ	64(R6), X10; \
	XVMOVQ	96(R6), X11; \
	XVMOVQ	128(R6), X12; \
	XVMOVQ	160(R6), X13; \
	XVMOVQ	192(R6), X14; \
	XVMOVQ	224(R6), X15; \
	XVXORV	X0, X8, X8; \
	XVXORV	X1, X9, X9; \
	XVXORV	X2, X10, X10; \
	XVXORV	X3, X11, X11; \
	XVXORV	X4, X12, X12; \
	XVXORV	X5, X13, X13; \
	XVXORV	X6, X14, X14; \
	XVXORV	X7, X15, X15; \
	XVMOVQ	X8, 0(R4); \
	XVMOVQ	X9, 32(R4); \
	XVMOVQ	X10, 64(R4); \
	XVMOVQ	X11, 96(R4); \
	XVMOVQ	X12, 128(R4); \
	XVMOVQ	X13, 160(R4); \
	XVMOVQ	X14, 192(R4); \
	XVMOVQ	X15, 224(R4)

// func xorBytesScalar(dst, x, y *byte, n int)
TEXT ·xorBytesScalar(SB), NOSPLIT|NOFRAME, $0-32
	LOAD_ARGS
	XOR_SMALL
	SKELETON(S_TAIL_LOAD, S_TAIL_STORE, S256, S128, S64, S32, S16)

// LSX.
// func xorBytesNarrow(dst, x, y *byte, n int)
TEXT ·xorBytesNarrow(SB), NOSPLIT|NOFRAME, $0-32
	LOAD_ARGS
	XOR_SMALL
	SKELETON(V_TAIL_LOAD, V_TAIL_STORE, L256, L128, L64, L32, L16)

// LASX.
// func xorBytesWide(dst, x, y *byte, n int)
TEXT ·xorBytesWide(SB), NOSPLIT|NOFRAME, $0-32
	LOAD_ARGS
	XOR_SMALL
	SKELETON(V_TAIL_LOAD, V_TAIL_STORE, X256, X128, X64, X32, L16)
