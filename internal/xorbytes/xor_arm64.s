//go:build gc && !purego

#include "textflag.h"

// XORBytes for arm64 with NEON. The shape is the loong64 one (see
// xor_loong64.s): n < 16 with general-purpose registers and two overlapping
// accesses per operand; from 16 bytes the last 16 bytes of x^y are computed
// first when n%16 != 0 and stored last (so dst == x or dst == y stays
// correct), 128-byte blocks in a loop, then one 64-, 32- and 16-byte block
// as the bits of n say. Branches depend only on n. Unaligned accesses are
// allowed on arm64.
//
// Register map:
//   R0   dst, advanced past each finished block (post-increment)
//   R1   x, advanced likewise
//   R2   y, advanced likewise
//   R3   n (never changed)
//   R4   offset of the last word of the small cases; loop counter
//   R5-R8  scalar data
//   R9   &dst[n-16], where the kept tail goes
//   R10  n%16: non-zero when a tail was kept
//   R11, R12  &x[n-16], &y[n-16]
//   V0-V7    x data, V16-V23 y data (and results)
//   V30, V31 the kept tail

// func xorBytesNarrow(dst, x, y *byte, n int)
TEXT ·xorBytesNarrow(SB), NOSPLIT|NOFRAME, $0-32
	MOVD	dst+0(FP), R0
	MOVD	x+8(FP), R1
	MOVD	y+16(FP), R2
	MOVD	n+24(FP), R3

	// n < 16: bits 3, 2, 1 of n choose the word size.
	CMP	$16, R3
	BHS	large
	TBZ	$3, R3, small4
	SUB	$8, R3, R4
	MOVD	(R1), R5
	MOVD	(R1)(R4), R6
	MOVD	(R2), R7
	MOVD	(R2)(R4), R8
	EOR	R5, R7
	EOR	R6, R8
	MOVD	R7, (R0)
	MOVD	R8, (R0)(R4)
	RET
small4:
	TBZ	$2, R3, small2
	SUB	$4, R3, R4
	MOVWU	(R1), R5
	MOVWU	(R1)(R4), R6
	MOVWU	(R2), R7
	MOVWU	(R2)(R4), R8
	EORW	R5, R7
	EORW	R6, R8
	MOVW	R7, (R0)
	MOVW	R8, (R0)(R4)
	RET
small2:
	TBZ	$1, R3, small1
	SUB	$2, R3, R4
	MOVHU	(R1), R5
	MOVHU	(R1)(R4), R6
	MOVHU	(R2), R7
	MOVHU	(R2)(R4), R8
	EORW	R5, R7
	EORW	R6, R8
	MOVH	R7, (R0)
	MOVH	R8, (R0)(R4)
	RET
small1:
	CBZ	R3, done
	MOVBU	(R1), R5
	MOVBU	(R2), R7
	EORW	R5, R7
	MOVB	R7, (R0)
	RET

large:
	// Keep x^y of the last 16 bytes in V31 when n%16 != 0.
	ANDS	$15, R3, R10
	BEQ	bulk
	SUB	$16, R3, R9
	ADD	R9, R1, R11
	ADD	R9, R2, R12
	ADD	R0, R9
	VLD1	(R11), [V30.B16]
	VLD1	(R12), [V31.B16]
	VEOR	V30.B16, V31.B16, V31.B16

bulk:
	// 128-byte blocks.
	LSR	$7, R3, R4
	CBZ	R4, rem64
loop128:
	VLD1.P	64(R1), [V0.B16, V1.B16, V2.B16, V3.B16]
	VLD1.P	64(R1), [V4.B16, V5.B16, V6.B16, V7.B16]
	VLD1.P	64(R2), [V16.B16, V17.B16, V18.B16, V19.B16]
	VLD1.P	64(R2), [V20.B16, V21.B16, V22.B16, V23.B16]
	VEOR	V0.B16, V16.B16, V16.B16
	VEOR	V1.B16, V17.B16, V17.B16
	VEOR	V2.B16, V18.B16, V18.B16
	VEOR	V3.B16, V19.B16, V19.B16
	VEOR	V4.B16, V20.B16, V20.B16
	VEOR	V5.B16, V21.B16, V21.B16
	VEOR	V6.B16, V22.B16, V22.B16
	VEOR	V7.B16, V23.B16, V23.B16
	VST1.P	[V16.B16, V17.B16, V18.B16, V19.B16], 64(R0)
	VST1.P	[V20.B16, V21.B16, V22.B16, V23.B16], 64(R0)
	SUB	$1, R4
	CBNZ	R4, loop128
	ANDS	$127, R3, ZR
	BEQ	done

rem64:
	TBZ	$6, R3, rem32
	VLD1.P	64(R1), [V0.B16, V1.B16, V2.B16, V3.B16]
	VLD1.P	64(R2), [V16.B16, V17.B16, V18.B16, V19.B16]
	VEOR	V0.B16, V16.B16, V16.B16
	VEOR	V1.B16, V17.B16, V17.B16
	VEOR	V2.B16, V18.B16, V18.B16
	VEOR	V3.B16, V19.B16, V19.B16
	VST1.P	[V16.B16, V17.B16, V18.B16, V19.B16], 64(R0)
rem32:
	TBZ	$5, R3, rem16
	VLD1.P	32(R1), [V0.B16, V1.B16]
	VLD1.P	32(R2), [V16.B16, V17.B16]
	VEOR	V0.B16, V16.B16, V16.B16
	VEOR	V1.B16, V17.B16, V17.B16
	VST1.P	[V16.B16, V17.B16], 32(R0)
rem16:
	TBZ	$4, R3, tail
	VLD1	(R1), [V0.B16]
	VLD1	(R2), [V16.B16]
	VEOR	V0.B16, V16.B16, V16.B16
	VST1	[V16.B16], (R0)

tail:
	// Store the kept tail over the last 16 bytes.
	CBZ	R10, done
	VST1	[V31.B16], (R9)
done:
	RET
