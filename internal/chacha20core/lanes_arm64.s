//go:build gc && !purego

// LaneBlocks for arm64: four independent ChaCha20 blocks per pass (RFC 8439,
// Section 2.3), one state word per NEON register and one block per 32-bit
// lane, the layout of xorBlocksNEON4x1's NEON blocks (chacha20_arm64.s). A
// LaneSet is stored word by word, so each word of four lanes is one 16-byte
// load: no transposition on the way in.
//
// Register map:
//
//   R0       &l.W[0][4p]: word 4 of the pass's first lane; the words of the
//            same lanes follow every 64 bytes
//   R1       out: where the pass's first block goes
//   R2       lanes left
//   R3       &arm64Consts (the constants at 0, the rotate-by-8 index at 16)
//   R4       address of the next input word while loading
//   R5       round loop counter
//   V0..V15  words 0..15 of the 4 blocks (lane j = block j)
//   V16..V19 rotation temporaries (rounds); then the input words and the
//            transposed blocks (see below)
//   V16..V31 after the rounds: the input words added back, then the
//            blocks, block j in V16+4j..V19+4j
//   V30      the rotate-by-8 index (rounds)
//
// Go's ABI0 makes every vector register caller-saved, so nothing is spilled.

#include "textflag.h"

// QR4 is one quarter round on four columns at once: a += b; d ^= a;
// d <<<= 16; c += d; b ^= c; b <<<= 12; a += b; d ^= a; d <<<= 8; c += d;
// b ^= c; b <<<= 7. Rotations by 16 are REV32 on halfwords, by 8 TBL with
// V30, by 12 and 7 SHL and SRI through V16..V19.
#define QR4(a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, d0, d1, d2, d3) \
	VADD	b0.S4, a0.S4, a0.S4; VADD	b1.S4, a1.S4, a1.S4; VADD	b2.S4, a2.S4, a2.S4; VADD	b3.S4, a3.S4, a3.S4; \
	VEOR	a0.B16, d0.B16, d0.B16; VEOR	a1.B16, d1.B16, d1.B16; VEOR	a2.B16, d2.B16, d2.B16; VEOR	a3.B16, d3.B16, d3.B16; \
	VREV32	d0.H8, d0.H8; VREV32	d1.H8, d1.H8; VREV32	d2.H8, d2.H8; VREV32	d3.H8, d3.H8; \
	VADD	d0.S4, c0.S4, c0.S4; VADD	d1.S4, c1.S4, c1.S4; VADD	d2.S4, c2.S4, c2.S4; VADD	d3.S4, c3.S4, c3.S4; \
	VEOR	c0.B16, b0.B16, V16.B16; VEOR	c1.B16, b1.B16, V17.B16; VEOR	c2.B16, b2.B16, V18.B16; VEOR	c3.B16, b3.B16, V19.B16; \
	VSHL	$12, V16.S4, b0.S4; VSHL	$12, V17.S4, b1.S4; VSHL	$12, V18.S4, b2.S4; VSHL	$12, V19.S4, b3.S4; \
	VSRI	$20, V16.S4, b0.S4; VSRI	$20, V17.S4, b1.S4; VSRI	$20, V18.S4, b2.S4; VSRI	$20, V19.S4, b3.S4; \
	VADD	b0.S4, a0.S4, a0.S4; VADD	b1.S4, a1.S4, a1.S4; VADD	b2.S4, a2.S4, a2.S4; VADD	b3.S4, a3.S4, a3.S4; \
	VEOR	a0.B16, d0.B16, d0.B16; VEOR	a1.B16, d1.B16, d1.B16; VEOR	a2.B16, d2.B16, d2.B16; VEOR	a3.B16, d3.B16, d3.B16; \
	VTBL	V30.B16, [d0.B16], d0.B16; VTBL	V30.B16, [d1.B16], d1.B16; VTBL	V30.B16, [d2.B16], d2.B16; VTBL	V30.B16, [d3.B16], d3.B16; \
	VADD	d0.S4, c0.S4, c0.S4; VADD	d1.S4, c1.S4, c1.S4; VADD	d2.S4, c2.S4, c2.S4; VADD	d3.S4, c3.S4, c3.S4; \
	VEOR	c0.B16, b0.B16, V16.B16; VEOR	c1.B16, b1.B16, V17.B16; VEOR	c2.B16, b2.B16, V18.B16; VEOR	c3.B16, b3.B16, V19.B16; \
	VSHL	$7, V16.S4, b0.S4; VSHL	$7, V17.S4, b1.S4; VSHL	$7, V18.S4, b2.S4; VSHL	$7, V19.S4, b3.S4; \
	VSRI	$25, V16.S4, b0.S4; VSRI	$25, V17.S4, b1.S4; VSRI	$25, V18.S4, b2.S4; VSRI	$25, V19.S4, b3.S4

// TRANSPOSE4 turns the words w0..w3 of four blocks (lane j = block j) into
// the blocks' rows o0..o3 (o_j = words of block j), through t0..t3 (TRN on
// 32-bit, then on 64-bit lanes, as xorBlocksNEON4x1 does).
#define TRANSPOSE4(w0, w1, w2, w3, t0, t1, t2, t3, o0, o1, o2, o3) \
	VTRN1	w1.S4, w0.S4, t0.S4; \
	VTRN2	w1.S4, w0.S4, t1.S4; \
	VTRN1	w3.S4, w2.S4, t2.S4; \
	VTRN2	w3.S4, w2.S4, t3.S4; \
	VTRN1	t2.D2, t0.D2, o0.D2; \
	VTRN1	t3.D2, t1.D2, o1.D2; \
	VTRN2	t2.D2, t0.D2, o2.D2; \
	VTRN2	t3.D2, t1.D2, o3.D2

// LOAD_WORDS loads words 4..15 of the pass's four lanes, 64 bytes apart
// from R0, into w4..w15, through R4.
#define LOAD_WORDS(w4, w5, w6, w7, w8, w9, w10, w11, w12, w13, w14, w15) \
	MOVD	R0, R4; \
	VLD1	(R4), [w4.S4]; ADD	$64, R4; VLD1	(R4), [w5.S4]; ADD	$64, R4; \
	VLD1	(R4), [w6.S4]; ADD	$64, R4; VLD1	(R4), [w7.S4]; ADD	$64, R4; \
	VLD1	(R4), [w8.S4]; ADD	$64, R4; VLD1	(R4), [w9.S4]; ADD	$64, R4; \
	VLD1	(R4), [w10.S4]; ADD	$64, R4; VLD1	(R4), [w11.S4]; ADD	$64, R4; \
	VLD1	(R4), [w12.S4]; ADD	$64, R4; VLD1	(R4), [w13.S4]; ADD	$64, R4; \
	VLD1	(R4), [w14.S4]; ADD	$64, R4; VLD1	(R4), [w15.S4]

// func laneBlocksNEON(l *LaneSet, out *[Lanes][BlockSize]byte, n int)
//
// Writes the keystream block of lane i of l to out[i] for i < n, four lanes
// per pass (a last pass of fewer lanes computes and writes four).
TEXT ·laneBlocksNEON(SB), NOSPLIT, $0-24
	MOVD	l+0(FP), R0
	MOVD	out+8(FP), R1
	MOVD	n+16(FP), R2
	MOVD	$·arm64Consts(SB), R3

pass:
	// The input: the constants in every lane, words 4..15 from the
	// LaneSet, 64 bytes apart.
	VLD1	(R3), [V0.S4]
	VDUP	V0.S[3], V3.S4
	VDUP	V0.S[2], V2.S4
	VDUP	V0.S[1], V1.S4
	VDUP	V0.S[0], V0.S4
	ADD	$16, R3, R4
	VLD1	(R4), [V30.B16]
	LOAD_WORDS(V4, V5, V6, V7, V8, V9, V10, V11, V12, V13, V14, V15)
	MOVD	$10, R5

rounds:
	// A column round, then a diagonal round.
	QR4(V0, V1, V2, V3, V4, V5, V6, V7, V8, V9, V10, V11, V12, V13, V14, V15)
	QR4(V0, V1, V2, V3, V5, V6, V7, V4, V10, V11, V8, V9, V15, V12, V13, V14)
	SUB	$1, R5
	CBNZ	R5, rounds

	// The input added back: the constants and words 4..15 loaded again
	// into V16..V31 (the rotation index is no longer needed).
	VLD1	(R3), [V28.S4]
	VDUP	V28.S[3], V31.S4
	VDUP	V28.S[2], V30.S4
	VDUP	V28.S[1], V29.S4
	VDUP	V28.S[0], V28.S4
	LOAD_WORDS(V16, V17, V18, V19, V20, V21, V22, V23, V24, V25, V26, V27)
	VADD	V28.S4, V0.S4, V0.S4
	VADD	V29.S4, V1.S4, V1.S4
	VADD	V30.S4, V2.S4, V2.S4
	VADD	V31.S4, V3.S4, V3.S4
	VADD	V16.S4, V4.S4, V4.S4
	VADD	V17.S4, V5.S4, V5.S4
	VADD	V18.S4, V6.S4, V6.S4
	VADD	V19.S4, V7.S4, V7.S4
	VADD	V20.S4, V8.S4, V8.S4
	VADD	V21.S4, V9.S4, V9.S4
	VADD	V22.S4, V10.S4, V10.S4
	VADD	V23.S4, V11.S4, V11.S4
	VADD	V24.S4, V12.S4, V12.S4
	VADD	V25.S4, V13.S4, V13.S4
	VADD	V26.S4, V14.S4, V14.S4
	VADD	V27.S4, V15.S4, V15.S4

	// Words to blocks: block j's rows go to V16+4j..V19+4j, so that one
	// ST1 of four registers stores it. Each group of words uses as
	// temporaries registers that are free by then: the outputs of later
	// groups for the first, the words of the group before for the others.
	TRANSPOSE4(V0, V1, V2, V3, V17, V18, V19, V21, V16, V20, V24, V28)
	TRANSPOSE4(V4, V5, V6, V7, V0, V1, V2, V3, V17, V21, V25, V29)
	TRANSPOSE4(V8, V9, V10, V11, V4, V5, V6, V7, V18, V22, V26, V30)
	TRANSPOSE4(V12, V13, V14, V15, V8, V9, V10, V11, V19, V23, V27, V31)
	VST1.P	[V16.B16, V17.B16, V18.B16, V19.B16], 64(R1)
	VST1.P	[V20.B16, V21.B16, V22.B16, V23.B16], 64(R1)
	VST1.P	[V24.B16, V25.B16, V26.B16, V27.B16], 64(R1)
	VST1.P	[V28.B16, V29.B16, V30.B16, V31.B16], 64(R1)

	// The next four lanes.
	ADD	$16, R0
	SUBS	$4, R2
	BGT	pass
	RET
