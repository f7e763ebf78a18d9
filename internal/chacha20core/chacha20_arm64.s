//go:build gc && !purego

// ChaCha20 keystream for arm64 (RFC 8439, Section 2.3), with NEON blocks and
// general-purpose ("scalar") blocks computed side by side so that the vector
// and the integer pipelines are both busy. The idea is Andy Polyakov's
// (OpenSSL/CRYPTOGAMS crypto/chacha/asm/chacha-armv8.pl: "4xNEON+1xIALU" and
// "6xNEON+2xIALU"); this code, its register allocation and its tails are
// written for Go's assembler and this package's State.
//
// Two paths:
//
//   xorBlocksNEON4x1: 5 blocks (320 bytes) per iteration. 4 blocks live in
//   V0..V15 with one state word per register (lane j holds block j, as in
//   golang.org/x/crypto's chacha_arm64.s), the 5th block in 16 general-purpose
//   registers. One NEON double round and one scalar double round per trip of
//   the round loop, interleaved instruction by instruction.
//
//   xorBlocksNEON6x2: 8 blocks (512 bytes) per iteration. 6 blocks live in
//   V0..V23 with one row of the state per register (4 registers per block,
//   diagonals lined up with EXT), the 7th and the 8th block in general-purpose
//   registers one after the other: every trip of the round loop does one NEON
//   double round and two scalar double rounds, so the scalar block is done
//   after 5 trips and the second one starts.
//
// Register map (both paths):
//
//   R0       s *State: Key [8]uint32 at 0, Counter at 32, Nonce [3]uint32 at 36
//   R1       dst pointer, advanced per iteration
//   R2       src pointer, advanced per iteration
//   R3       bytes left
//   R4       NEON6x2: block counter of the iteration's first block (32-bit);
//            NEON4x1: inside the loop, the counter of its scalar block, the
//            iteration's fifth (first + 4)
//   R5       round loop counter (a temporary outside the round loops)
//   R6..R17, R19..R22
//            the scalar block: state words x0..x15 (named s0..s15 below)
//   R23..R25 temporaries
//   R26      &arm64Consts (the constants "expand 32-byte k" at offset 0)
//   R18 (platform), R27 (assembler temporary), R28 (g), R29 (frame pointer)
//   and R30 (link register) are not touched.
//
//   NEON4x1: V0..V15  words 0..15 of the 4 NEON blocks (lane j = block j of
//                     the iteration), after the rounds rows of the blocks
//            V16..V19 rotation temporaries; transposition and XOR temporaries
//            V20..V23 the input rows but for the counter (loop invariant):
//                     V20 the constants, V21 and V22 the key, V23 {0, nonce}
//            V24..V27 XOR temporaries
//            V28      the counters of the 4 NEON blocks, R4-4+{0, 1, 2, 3}
//            V29      {5, 5, 5, 5}: the counter step from one batch to the next
//            V30      TBL index that rotates each 32-bit lane left by 8
//            V31      {0, 1, 2, 3}: lane offsets of the block counter (set-up)
//
//   NEON6x2: V0..V5   row 0 (words 0..3) of blocks R4+0..R4+5 ("A")
//            V6..V11  row 1 (words 4..7)   ("B")
//            V12..V17 row 2 (words 8..11)  ("C")
//            V18..V23 row 3 (words 12..15) ("D")
//            V24..V29 rotation temporaries, input rows, XOR temporaries ("T")
//            V30      TBL index that rotates each 32-bit lane left by 8
//            V31      {1, 0, 0, 0}: the counter step between two rows D
//
// Go's ABI0 makes every vector register caller-saved, so nothing is spilled.

#include "textflag.h"

// The scalar block's state words.
#define s0 R6
#define s1 R7
#define s2 R8
#define s3 R9
#define s4 R10
#define s5 R11
#define s6 R12
#define s7 R13
#define s8 R14
#define s9 R15
#define s10 R16
#define s11 R17
#define s12 R19
#define s13 R20
#define s14 R21
#define s15 R22

// The "expand 32-byte k" constants.
#define SIGMA0 $0x61707865
#define SIGMA1 $0x3320646e
#define SIGMA2 $0x79622d32
#define SIGMA3 $0x6b206574

// ---------------------------------------------------------------------------
// Scalar block: set up, finish.

// SCALAR_INIT loads the input state of the block numbered R4+k into s0..s15.
#define SCALAR_INIT(k) \
	LDPW	(R26), (s0, s1); \
	LDPW	8(R26), (s2, s3); \
	LDPW	(R0), (s4, s5); \
	LDPW	8(R0), (s6, s7); \
	LDPW	16(R0), (s8, s9); \
	LDPW	24(R0), (s10, s11); \
	ADDW	$k, R4, s12; \
	LDPW	36(R0), (s13, s14); \
	MOVWU	44(R0), s15

// SCALAR_FINISH adds the input state of block R4+k back into s0..s15 (the
// words in 64-bit pairs: the odd word of a pair is added with a 64-bit ADD
// of the pair shifted right by 32, whose carry out of bit 31 the packing
// shifts away), packs the words in pairs into s0, s2, ..., s14, XORs them
// with the 64 bytes at off(R2) and stores the result at off(R1). It uses R5
// and R23..R25 as temporaries.
#define SCALAR_FINISH(k, off) \
	LDP	(R26), (R23, R24); \
	ADDW	R23, s0, s0; \
	ADD	R23>>32, s1, s1; \
	ADDW	R24, s2, s2; \
	ADD	R24>>32, s3, s3; \
	LDP	(R0), (R23, R24); \
	LDP	16(R0), (R25, R5); \
	ADDW	R23, s4, s4; \
	ADD	R23>>32, s5, s5; \
	ADDW	R24, s6, s6; \
	ADD	R24>>32, s7, s7; \
	ADDW	R25, s8, s8; \
	ADD	R25>>32, s9, s9; \
	ADDW	R5, s10, s10; \
	ADD	R5>>32, s11, s11; \
	LDP	32(R0), (R23, R24); \
	ADDW	$k, R4, R25; \
	ADDW	R25, s12, s12; \
	ADD	R23>>32, s13, s13; \
	ADDW	R24, s14, s14; \
	ADD	R24>>32, s15, s15; \
	ADD	s1<<32, s0, s0; \
	ADD	s3<<32, s2, s2; \
	ADD	s5<<32, s4, s4; \
	ADD	s7<<32, s6, s6; \
	ADD	s9<<32, s8, s8; \
	ADD	s11<<32, s10, s10; \
	ADD	s13<<32, s12, s12; \
	ADD	s15<<32, s14, s14; \
	LDP	off(R2), (s1, s3); \
	LDP	off+16(R2), (s5, s7); \
	LDP	off+32(R2), (s9, s11); \
	LDP	off+48(R2), (s13, s15); \
	EOR	s1, s0, s0; \
	EOR	s3, s2, s2; \
	EOR	s5, s4, s4; \
	EOR	s7, s6, s6; \
	EOR	s9, s8, s8; \
	EOR	s11, s10, s10; \
	EOR	s13, s12, s12; \
	EOR	s15, s14, s14; \
	STP	(s0, s2), off(R1); \
	STP	(s4, s6), off+16(R1); \
	STP	(s8, s10), off+32(R1); \
	STP	(s12, s14), off+48(R1)

// ---------------------------------------------------------------------------
// NEON4x1 round steps. Each macro is one step of four quarter rounds on the
// NEON blocks (registers va*, vb*, vc*, vd*: one state word of 4 blocks each)
// interleaved instruction by instruction with the same step of four quarter
// rounds on the scalar block (sa*, sb*, sc*, sd*), so that an in-order core
// can pair a vector and an integer instruction in every cycle.

// QR4_ROT16: a += b; d ^= a; d <<<= 16 (REV32 on halfwords, ROR 16).
#define QR4_ROT16(va0, va1, va2, va3, vb0, vb1, vb2, vb3, vd0, vd1, vd2, vd3, sa0, sa1, sa2, sa3, sb0, sb1, sb2, sb3, sd0, sd1, sd2, sd3) \
	VADD	vb0.S4, va0.S4, va0.S4; ADDW	sb0, sa0, sa0; \
	VADD	vb1.S4, va1.S4, va1.S4; ADDW	sb1, sa1, sa1; \
	VADD	vb2.S4, va2.S4, va2.S4; ADDW	sb2, sa2, sa2; \
	VADD	vb3.S4, va3.S4, va3.S4; ADDW	sb3, sa3, sa3; \
	VEOR	va0.B16, vd0.B16, vd0.B16; EORW	sa0, sd0, sd0; \
	VEOR	va1.B16, vd1.B16, vd1.B16; EORW	sa1, sd1, sd1; \
	VEOR	va2.B16, vd2.B16, vd2.B16; EORW	sa2, sd2, sd2; \
	VEOR	va3.B16, vd3.B16, vd3.B16; EORW	sa3, sd3, sd3; \
	VREV32	vd0.H8, vd0.H8; RORW	$16, sd0, sd0; \
	VREV32	vd1.H8, vd1.H8; RORW	$16, sd1, sd1; \
	VREV32	vd2.H8, vd2.H8; RORW	$16, sd2, sd2; \
	VREV32	vd3.H8, vd3.H8; RORW	$16, sd3, sd3

// QR4_ROT8: a += b; d ^= a; d <<<= 8 (TBL with V30, ROR 24).
#define QR4_ROT8(va0, va1, va2, va3, vb0, vb1, vb2, vb3, vd0, vd1, vd2, vd3, sa0, sa1, sa2, sa3, sb0, sb1, sb2, sb3, sd0, sd1, sd2, sd3) \
	VADD	vb0.S4, va0.S4, va0.S4; ADDW	sb0, sa0, sa0; \
	VADD	vb1.S4, va1.S4, va1.S4; ADDW	sb1, sa1, sa1; \
	VADD	vb2.S4, va2.S4, va2.S4; ADDW	sb2, sa2, sa2; \
	VADD	vb3.S4, va3.S4, va3.S4; ADDW	sb3, sa3, sa3; \
	VEOR	va0.B16, vd0.B16, vd0.B16; EORW	sa0, sd0, sd0; \
	VEOR	va1.B16, vd1.B16, vd1.B16; EORW	sa1, sd1, sd1; \
	VEOR	va2.B16, vd2.B16, vd2.B16; EORW	sa2, sd2, sd2; \
	VEOR	va3.B16, vd3.B16, vd3.B16; EORW	sa3, sd3, sd3; \
	VTBL	V30.B16, [vd0.B16], vd0.B16; RORW	$24, sd0, sd0; \
	VTBL	V30.B16, [vd1.B16], vd1.B16; RORW	$24, sd1, sd1; \
	VTBL	V30.B16, [vd2.B16], vd2.B16; RORW	$24, sd2, sd2; \
	VTBL	V30.B16, [vd3.B16], vd3.B16; RORW	$24, sd3, sd3

// QR4_SHIFT: c += d; b ^= c; b <<<= l, with r = 32-l: the NEON blocks go
// through V16..V19 (EOR into a temporary, SHL, SRI), the scalar block uses
// ROR r.
#define QR4_SHIFT(vc0, vc1, vc2, vc3, vd0, vd1, vd2, vd3, vb0, vb1, vb2, vb3, sc0, sc1, sc2, sc3, sd0, sd1, sd2, sd3, sb0, sb1, sb2, sb3, l, r) \
	VADD	vd0.S4, vc0.S4, vc0.S4; ADDW	sd0, sc0, sc0; \
	VADD	vd1.S4, vc1.S4, vc1.S4; ADDW	sd1, sc1, sc1; \
	VADD	vd2.S4, vc2.S4, vc2.S4; ADDW	sd2, sc2, sc2; \
	VADD	vd3.S4, vc3.S4, vc3.S4; ADDW	sd3, sc3, sc3; \
	VEOR	vc0.B16, vb0.B16, V16.B16; EORW	sc0, sb0, sb0; \
	VEOR	vc1.B16, vb1.B16, V17.B16; EORW	sc1, sb1, sb1; \
	VEOR	vc2.B16, vb2.B16, V18.B16; EORW	sc2, sb2, sb2; \
	VEOR	vc3.B16, vb3.B16, V19.B16; EORW	sc3, sb3, sb3; \
	VSHL	$l, V16.S4, vb0.S4; RORW	$r, sb0, sb0; \
	VSHL	$l, V17.S4, vb1.S4; RORW	$r, sb1, sb1; \
	VSHL	$l, V18.S4, vb2.S4; RORW	$r, sb2, sb2; \
	VSHL	$l, V19.S4, vb3.S4; RORW	$r, sb3, sb3; \
	VSRI	$r, V16.S4, vb0.S4; \
	VSRI	$r, V17.S4, vb1.S4; \
	VSRI	$r, V18.S4, vb2.S4; \
	VSRI	$r, V19.S4, vb3.S4

// DOUBLEROUND_4X1 is one column round and one diagonal round on the four
// NEON blocks and on the scalar block.
#define DOUBLEROUND_4X1 \
	QR4_ROT16(V0, V1, V2, V3, V4, V5, V6, V7, V12, V13, V14, V15, s0, s1, s2, s3, s4, s5, s6, s7, s12, s13, s14, s15); \
	QR4_SHIFT(V8, V9, V10, V11, V12, V13, V14, V15, V4, V5, V6, V7, s8, s9, s10, s11, s12, s13, s14, s15, s4, s5, s6, s7, 12, 20); \
	QR4_ROT8(V0, V1, V2, V3, V4, V5, V6, V7, V12, V13, V14, V15, s0, s1, s2, s3, s4, s5, s6, s7, s12, s13, s14, s15); \
	QR4_SHIFT(V8, V9, V10, V11, V12, V13, V14, V15, V4, V5, V6, V7, s8, s9, s10, s11, s12, s13, s14, s15, s4, s5, s6, s7, 7, 25); \
	QR4_ROT16(V0, V1, V2, V3, V5, V6, V7, V4, V15, V12, V13, V14, s0, s1, s2, s3, s5, s6, s7, s4, s15, s12, s13, s14); \
	QR4_SHIFT(V10, V11, V8, V9, V15, V12, V13, V14, V5, V6, V7, V4, s10, s11, s8, s9, s15, s12, s13, s14, s5, s6, s7, s4, 12, 20); \
	QR4_ROT8(V0, V1, V2, V3, V5, V6, V7, V4, V15, V12, V13, V14, s0, s1, s2, s3, s5, s6, s7, s4, s15, s12, s13, s14); \
	QR4_SHIFT(V10, V11, V8, V9, V15, V12, V13, V14, V5, V6, V7, V4, s10, s11, s8, s9, s15, s12, s13, s14, s5, s6, s7, s4, 7, 25)

// XOR_BLOCK XORs the next 64 bytes of src with the keystream rows r0..r3
// and stores them to dst, through V16..V19; both pointers advance by 64.
#define XOR_BLOCK(r0, r1, r2, r3) \
	VLD1.P	64(R2), [V16.B16, V17.B16, V18.B16, V19.B16]; \
	VEOR	r0.B16, V16.B16, V16.B16; \
	VEOR	r1.B16, V17.B16, V17.B16; \
	VEOR	r2.B16, V18.B16, V18.B16; \
	VEOR	r3.B16, V19.B16, V19.B16; \
	VST1.P	[V16.B16, V17.B16, V18.B16, V19.B16], 64(R1)

// func xorBlocksNEON4x1(s *State, dst, src []byte)
//
// XORs src with the keystream from block s.Counter into dst and advances
// s.Counter by len(src)/64. len(src) is a multiple of 64 and len(dst) equals
// it. Whole 320-byte batches run 4 NEON + 1 scalar block; a last batch of 1
// to 4 blocks computes a whole batch and stores only the blocks asked for.
// Inside the loop R4 is the counter of the scalar block, the batch's fifth.
TEXT ·xorBlocksNEON4x1(SB), NOSPLIT, $0-56
	MOVD	s+0(FP), R0
	MOVD	dst_base+8(FP), R1
	MOVD	src_base+32(FP), R2
	MOVD	src_len+40(FP), R3
	CBZ	R3, ret4x1
	MOVWU	32(R0), R4

	// Loop invariants: V20 = the constants, V21 and V22 = the key, V23 =
	// {0, nonce}: the input rows but for the counter; V28 = counters
	// R4+{0, 1, 2, 3}, V29 = {5, 5, 5, 5}, V30 = rotate-by-8 TBL index.
	// Then R4 += 4: the counter of the first batch's scalar block.
	MOVD	$·arm64Consts(SB), R26
	FMOVQ	(R26), F20
	ADD	$16, R26, R23
	VLD1	(R23), [V30.B16, V31.B16]
	VLD1	(R0), [V21.S4, V22.S4]
	FMOVQ	32(R0), F23
	VMOV	ZR, V23.S[0]
	VDUP	R4, V28.S4
	VADD	V31.S4, V28.S4, V28.S4
	MOVW	$5, R23
	VDUP	R23, V29.S4
	ADDW	$4, R4

loop4x1:
	// Input state: the NEON blocks get every word broadcast to 4 lanes
	// from the input rows (the counter word from V28), the scalar block
	// R4 its words from memory. Interleaved so that every two-micro-op
	// LDP shares a dispatch group with a one-micro-op instruction on
	// Cortex-A57/A72 (3 micro-ops per cycle).
	LDPW	(R26), (s0, s1)
	VDUP	V20.S[0], V0.S4
	LDPW	8(R26), (s2, s3)
	VDUP	V20.S[1], V1.S4
	LDPW	(R0), (s4, s5)
	VDUP	V20.S[2], V2.S4
	LDPW	8(R0), (s6, s7)
	VDUP	V20.S[3], V3.S4
	LDPW	16(R0), (s8, s9)
	VDUP	V21.S[0], V4.S4
	LDPW	24(R0), (s10, s11)
	VDUP	V21.S[1], V5.S4
	MOVWU	R4, s12
	VDUP	V21.S[2], V6.S4
	VDUP	V21.S[3], V7.S4
	LDPW	36(R0), (s13, s14)
	VDUP	V22.S[0], V8.S4
	MOVWU	44(R0), s15
	VDUP	V22.S[1], V9.S4
	MOVD	$10, R5
	VDUP	V22.S[2], V10.S4
	VDUP	V22.S[3], V11.S4
	VMOV	V28.B16, V12.B16
	VDUP	V23.S[1], V13.S4
	VDUP	V23.S[2], V14.S4
	VDUP	V23.S[3], V15.S4

rounds4x1:
	DOUBLEROUND_4X1
	SUB	$1, R5
	CBNZ	R5, rounds4x1

	// NEON blocks: add the counters while the words are still one per
	// register and step them, turn the words into block rows (TRN on
	// 32-bit, then on 64-bit lanes, through V16..V19: a Q-form TRN is one
	// micro-op on Cortex-A57/A72, a ZIP three) and add the other input
	// rows to them. Beside them, the scalar block adds its input words
	// back (in 64-bit pairs, as SCALAR_FINISH does; the counter is R4) and
	// R23..R25 get the src addresses R2+64, +128, +192.
	VADD	V28.S4, V12.S4, V12.S4
	LDP	(R26), (R23, R24)
	VADD	V29.S4, V28.S4, V28.S4
	ADDW	R23, s0, s0
	VTRN1	V1.S4, V0.S4, V16.S4
	ADD	R23>>32, s1, s1
	VTRN2	V1.S4, V0.S4, V17.S4
	ADDW	R24, s2, s2
	VTRN1	V3.S4, V2.S4, V18.S4
	ADD	R24>>32, s3, s3
	VTRN2	V3.S4, V2.S4, V19.S4
	LDP	(R0), (R23, R24)
	VTRN1	V18.D2, V16.D2, V0.D2
	LDP	16(R0), (R25, R5)
	VTRN1	V19.D2, V17.D2, V1.D2
	ADDW	R23, s4, s4
	VTRN2	V18.D2, V16.D2, V2.D2
	ADD	R23>>32, s5, s5
	VTRN2	V19.D2, V17.D2, V3.D2
	ADDW	R24, s6, s6
	VADD	V20.S4, V0.S4, V0.S4
	ADD	R24>>32, s7, s7
	VADD	V20.S4, V1.S4, V1.S4
	ADDW	R25, s8, s8
	VADD	V20.S4, V2.S4, V2.S4
	ADD	R25>>32, s9, s9
	VADD	V20.S4, V3.S4, V3.S4
	ADDW	R5, s10, s10
	VTRN1	V5.S4, V4.S4, V16.S4
	ADD	R5>>32, s11, s11
	VTRN2	V5.S4, V4.S4, V17.S4
	LDP	32(R0), (R23, R24)
	VTRN1	V7.S4, V6.S4, V18.S4
	ADDW	R4, s12, s12
	VTRN2	V7.S4, V6.S4, V19.S4
	ADD	R23>>32, s13, s13
	VTRN1	V18.D2, V16.D2, V4.D2
	ADDW	R24, s14, s14
	VTRN1	V19.D2, V17.D2, V5.D2
	ADD	R24>>32, s15, s15
	VTRN2	V18.D2, V16.D2, V6.D2
	ADD	$64, R2, R23
	VTRN2	V19.D2, V17.D2, V7.D2
	ADD	$128, R2, R24
	VADD	V21.S4, V4.S4, V4.S4
	ADD	$192, R2, R25
	VADD	V21.S4, V5.S4, V5.S4
	VADD	V21.S4, V6.S4, V6.S4
	VADD	V21.S4, V7.S4, V7.S4
	VTRN1	V9.S4, V8.S4, V16.S4
	VTRN2	V9.S4, V8.S4, V17.S4
	VTRN1	V11.S4, V10.S4, V18.S4
	VTRN2	V11.S4, V10.S4, V19.S4
	VTRN1	V18.D2, V16.D2, V8.D2
	VTRN1	V19.D2, V17.D2, V9.D2
	VTRN2	V18.D2, V16.D2, V10.D2
	VTRN2	V19.D2, V17.D2, V11.D2
	VADD	V22.S4, V8.S4, V8.S4
	VADD	V22.S4, V9.S4, V9.S4
	VADD	V22.S4, V10.S4, V10.S4
	VADD	V22.S4, V11.S4, V11.S4
	VTRN1	V13.S4, V12.S4, V16.S4
	VTRN2	V13.S4, V12.S4, V17.S4
	VTRN1	V15.S4, V14.S4, V18.S4
	VTRN2	V15.S4, V14.S4, V19.S4
	VTRN1	V18.D2, V16.D2, V12.D2
	VTRN1	V19.D2, V17.D2, V13.D2
	VTRN2	V18.D2, V16.D2, V14.D2
	VTRN2	V19.D2, V17.D2, V15.D2
	VADD	V23.S4, V12.S4, V12.S4
	VADD	V23.S4, V13.S4, V13.S4
	VADD	V23.S4, V14.S4, V14.S4
	VADD	V23.S4, V15.S4, V15.S4

	SUBS	$320, R3
	BLO	partial4x1

	// Whole batch: the scalar block packs its words in pairs, XORs them
	// into bytes 256..319; the NEON blocks (lane j) into bytes 64j..64j+63,
	// src loaded with LD1 from R2 and R23..R25 = R2+64, +128, +192 (LD1
	// with post-increment costs one more micro-op each). VST1.P advances
	// R1, so the scalar block's STP offsets are relative to where R1 is
	// by then.
	VLD1	(R2), [V16.B16, V17.B16, V18.B16, V19.B16]
	ADD	s1<<32, s0, s0
	VEOR	V0.B16, V16.B16, V16.B16
	ADD	s3<<32, s2, s2
	VEOR	V4.B16, V17.B16, V17.B16
	ADD	s5<<32, s4, s4
	VEOR	V8.B16, V18.B16, V18.B16
	ADD	s7<<32, s6, s6
	VEOR	V12.B16, V19.B16, V19.B16
	ADD	s9<<32, s8, s8
	ADD	s11<<32, s10, s10
	ADD	s13<<32, s12, s12
	VLD1	(R23), [V24.B16, V25.B16, V26.B16, V27.B16]
	ADD	s15<<32, s14, s14
	VEOR	V1.B16, V24.B16, V24.B16
	LDP	256(R2), (s1, s3)
	VEOR	V5.B16, V25.B16, V25.B16
	LDP	272(R2), (s5, s7)
	VEOR	V9.B16, V26.B16, V26.B16
	LDP	288(R2), (s9, s11)
	VEOR	V13.B16, V27.B16, V27.B16
	LDP	304(R2), (s13, s15)
	EOR	s1, s0, s0
	VST1.P	[V16.B16, V17.B16, V18.B16, V19.B16], 64(R1)
	EOR	s3, s2, s2
	EOR	s5, s4, s4
	EOR	s7, s6, s6
	VLD1	(R24), [V16.B16, V17.B16, V18.B16, V19.B16]
	EOR	s9, s8, s8
	VEOR	V2.B16, V16.B16, V16.B16
	EOR	s11, s10, s10
	VEOR	V6.B16, V17.B16, V17.B16
	EOR	s13, s12, s12
	VEOR	V10.B16, V18.B16, V18.B16
	EOR	s15, s14, s14
	VEOR	V14.B16, V19.B16, V19.B16
	STP	(s0, s2), 192(R1)
	VST1.P	[V24.B16, V25.B16, V26.B16, V27.B16], 64(R1)
	STP	(s4, s6), 144(R1)
	VLD1	(R25), [V24.B16, V25.B16, V26.B16, V27.B16]
	STP	(s8, s10), 160(R1)
	VEOR	V3.B16, V24.B16, V24.B16
	STP	(s12, s14), 176(R1)
	VEOR	V7.B16, V25.B16, V25.B16
	VEOR	V11.B16, V26.B16, V26.B16
	VEOR	V15.B16, V27.B16, V27.B16
	VST1.P	[V16.B16, V17.B16, V18.B16, V19.B16], 64(R1)
	VST1	[V24.B16, V25.B16, V26.B16, V27.B16], (R1)
	ADD	$128, R1
	ADD	$320, R2
	ADDW	$5, R4
	CBNZ	R3, loop4x1
	B	done4x1

partial4x1:
	// 1 to 4 blocks left: store only those, from NEON lanes 0..3.
	ADD	$320, R3
	XOR_BLOCK(V0, V4, V8, V12)
	CMP	$128, R3
	BLO	tail4x1
	XOR_BLOCK(V1, V5, V9, V13)
	CMP	$192, R3
	BLO	tail4x1
	XOR_BLOCK(V2, V6, V10, V14)
	CMP	$256, R3
	BLO	tail4x1
	XOR_BLOCK(V3, V7, V11, V15)

tail4x1:
	// The counter after the last stored block: the batch's first block
	// (R4-4) plus the blocks stored.
	LSR	$6, R3, R23
	ADDW	R23, R4, R4

done4x1:
	// R4-4: the first block not done.
	SUBW	$4, R4
	MOVW	R4, 32(R0)

ret4x1:
	RET

// ---------------------------------------------------------------------------
// NEON6x2 round steps. Each macro is one step of the quarter round on the
// six NEON blocks (fixed registers, see the map at the top; six independent
// instructions) interleaved with half a step of the scalar block: two of its
// four quarter rounds, x += y; z ^= x; z >>>= r, on (x0, y0, z0) and
// (x1, y1, z1).

// A += B
#define V6_ADD_AB(x0, y0, z0, x1, y1, z1, r) \
	VADD	V6.S4, V0.S4, V0.S4; ADDW	y0, x0, x0; \
	VADD	V7.S4, V1.S4, V1.S4; ADDW	y1, x1, x1; \
	VADD	V8.S4, V2.S4, V2.S4; EORW	x0, z0, z0; \
	VADD	V9.S4, V3.S4, V3.S4; EORW	x1, z1, z1; \
	VADD	V10.S4, V4.S4, V4.S4; RORW	$r, z0, z0; \
	VADD	V11.S4, V5.S4, V5.S4; RORW	$r, z1, z1

// D ^= A
#define V6_EOR_DA(x0, y0, z0, x1, y1, z1, r) \
	VEOR	V0.B16, V18.B16, V18.B16; ADDW	y0, x0, x0; \
	VEOR	V1.B16, V19.B16, V19.B16; ADDW	y1, x1, x1; \
	VEOR	V2.B16, V20.B16, V20.B16; EORW	x0, z0, z0; \
	VEOR	V3.B16, V21.B16, V21.B16; EORW	x1, z1, z1; \
	VEOR	V4.B16, V22.B16, V22.B16; RORW	$r, z0, z0; \
	VEOR	V5.B16, V23.B16, V23.B16; RORW	$r, z1, z1

// D <<<= 16
#define V6_ROT16_D(x0, y0, z0, x1, y1, z1, r) \
	VREV32	V18.H8, V18.H8; ADDW	y0, x0, x0; \
	VREV32	V19.H8, V19.H8; ADDW	y1, x1, x1; \
	VREV32	V20.H8, V20.H8; EORW	x0, z0, z0; \
	VREV32	V21.H8, V21.H8; EORW	x1, z1, z1; \
	VREV32	V22.H8, V22.H8; RORW	$r, z0, z0; \
	VREV32	V23.H8, V23.H8; RORW	$r, z1, z1

// D <<<= 8
#define V6_ROT8_D(x0, y0, z0, x1, y1, z1, r) \
	VTBL	V30.B16, [V18.B16], V18.B16; ADDW	y0, x0, x0; \
	VTBL	V30.B16, [V19.B16], V19.B16; ADDW	y1, x1, x1; \
	VTBL	V30.B16, [V20.B16], V20.B16; EORW	x0, z0, z0; \
	VTBL	V30.B16, [V21.B16], V21.B16; EORW	x1, z1, z1; \
	VTBL	V30.B16, [V22.B16], V22.B16; RORW	$r, z0, z0; \
	VTBL	V30.B16, [V23.B16], V23.B16; RORW	$r, z1, z1

// C += D
#define V6_ADD_CD(x0, y0, z0, x1, y1, z1, r) \
	VADD	V18.S4, V12.S4, V12.S4; ADDW	y0, x0, x0; \
	VADD	V19.S4, V13.S4, V13.S4; ADDW	y1, x1, x1; \
	VADD	V20.S4, V14.S4, V14.S4; EORW	x0, z0, z0; \
	VADD	V21.S4, V15.S4, V15.S4; EORW	x1, z1, z1; \
	VADD	V22.S4, V16.S4, V16.S4; RORW	$r, z0, z0; \
	VADD	V23.S4, V17.S4, V17.S4; RORW	$r, z1, z1

// T = B ^ C
#define V6_EOR_TBC(x0, y0, z0, x1, y1, z1, r) \
	VEOR	V12.B16, V6.B16, V24.B16; ADDW	y0, x0, x0; \
	VEOR	V13.B16, V7.B16, V25.B16; ADDW	y1, x1, x1; \
	VEOR	V14.B16, V8.B16, V26.B16; EORW	x0, z0, z0; \
	VEOR	V15.B16, V9.B16, V27.B16; EORW	x1, z1, z1; \
	VEOR	V16.B16, V10.B16, V28.B16; RORW	$r, z0, z0; \
	VEOR	V17.B16, V11.B16, V29.B16; RORW	$r, z1, z1

// B = T << l
#define V6_SHL_B(l, x0, y0, z0, x1, y1, z1, r) \
	VSHL	$l, V24.S4, V6.S4; ADDW	y0, x0, x0; \
	VSHL	$l, V25.S4, V7.S4; ADDW	y1, x1, x1; \
	VSHL	$l, V26.S4, V8.S4; EORW	x0, z0, z0; \
	VSHL	$l, V27.S4, V9.S4; EORW	x1, z1, z1; \
	VSHL	$l, V28.S4, V10.S4; RORW	$r, z0, z0; \
	VSHL	$l, V29.S4, V11.S4; RORW	$r, z1, z1

// B |= T >> n
#define V6_SRI_B(n, x0, y0, z0, x1, y1, z1, r) \
	VSRI	$n, V24.S4, V6.S4; ADDW	y0, x0, x0; \
	VSRI	$n, V25.S4, V7.S4; ADDW	y1, x1, x1; \
	VSRI	$n, V26.S4, V8.S4; EORW	x0, z0, z0; \
	VSRI	$n, V27.S4, V9.S4; EORW	x1, z1, z1; \
	VSRI	$n, V28.S4, V10.S4; RORW	$r, z0, z0; \
	VSRI	$n, V29.S4, V11.S4; RORW	$r, z1, z1

// B = B rotated by n bytes (lines the diagonals up, or back)
#define V6_EXT_B(n, x0, y0, z0, x1, y1, z1, r) \
	VEXT	$n, V6.B16, V6.B16, V6.B16; ADDW	y0, x0, x0; \
	VEXT	$n, V7.B16, V7.B16, V7.B16; ADDW	y1, x1, x1; \
	VEXT	$n, V8.B16, V8.B16, V8.B16; EORW	x0, z0, z0; \
	VEXT	$n, V9.B16, V9.B16, V9.B16; EORW	x1, z1, z1; \
	VEXT	$n, V10.B16, V10.B16, V10.B16; RORW	$r, z0, z0; \
	VEXT	$n, V11.B16, V11.B16, V11.B16; RORW	$r, z1, z1

// C = C rotated by 8 bytes
#define V6_EXT_C(x0, y0, z0, x1, y1, z1, r) \
	VEXT	$8, V12.B16, V12.B16, V12.B16; ADDW	y0, x0, x0; \
	VEXT	$8, V13.B16, V13.B16, V13.B16; ADDW	y1, x1, x1; \
	VEXT	$8, V14.B16, V14.B16, V14.B16; EORW	x0, z0, z0; \
	VEXT	$8, V15.B16, V15.B16, V15.B16; EORW	x1, z1, z1; \
	VEXT	$8, V16.B16, V16.B16, V16.B16; RORW	$r, z0, z0; \
	VEXT	$8, V17.B16, V17.B16, V17.B16; RORW	$r, z1, z1

// D = D rotated by n bytes (the one step with no scalar work beside it)
#define V6_EXT_D(n) \
	VEXT	$n, V18.B16, V18.B16, V18.B16; \
	VEXT	$n, V19.B16, V19.B16, V19.B16; \
	VEXT	$n, V20.B16, V20.B16, V20.B16; \
	VEXT	$n, V21.B16, V21.B16, V21.B16; \
	VEXT	$n, V22.B16, V22.B16, V22.B16; \
	VEXT	$n, V23.B16, V23.B16, V23.B16

// NEON_ROUND_6X2 is one round (b, c, d are the EXT byte counts that follow
// it: 4, 8, 12 after a column round, 12, 8, 4 after a diagonal round) on the
// six NEON blocks, interleaved with one whole double round of the scalar
// block: its column round (quarter rounds 0-4-8-12, 1-5-9-13, 2-6-10-14,
// 3-7-11-15), then its diagonal round (0-5-10-15, 1-6-11-12, 2-7-8-13,
// 3-4-9-14), each step in two halves. The two rows of scalar arguments of
// each step are the halves of one step "x += y; z ^= x; z <<<= 32-r".
#define NEON_ROUND_6X2(b, d) \
	V6_ADD_AB(s0, s4, s12, s1, s5, s13, 16); \
	V6_EOR_DA(s2, s6, s14, s3, s7, s15, 16); \
	V6_ROT16_D(s8, s12, s4, s9, s13, s5, 20); \
	V6_ADD_CD(s10, s14, s6, s11, s15, s7, 20); \
	V6_EOR_TBC(s0, s4, s12, s1, s5, s13, 24); \
	V6_SHL_B(12, s2, s6, s14, s3, s7, s15, 24); \
	V6_SRI_B(20, s8, s12, s4, s9, s13, s5, 25); \
	V6_ADD_AB(s10, s14, s6, s11, s15, s7, 25); \
	V6_EOR_DA(s0, s5, s15, s1, s6, s12, 16); \
	V6_ROT8_D(s2, s7, s13, s3, s4, s14, 16); \
	V6_ADD_CD(s10, s15, s5, s11, s12, s6, 20); \
	V6_EOR_TBC(s8, s13, s7, s9, s14, s4, 20); \
	V6_SHL_B(7, s0, s5, s15, s1, s6, s12, 24); \
	V6_SRI_B(25, s2, s7, s13, s3, s4, s14, 24); \
	V6_EXT_B(b, s10, s15, s5, s11, s12, s6, 25); \
	V6_EXT_C(s8, s13, s7, s9, s14, s4, 25); \
	V6_EXT_D(d)

// XOR_ROWS XORs the next 64 bytes of src with block rows a, b, c, d into
// dst, through V24..V27; both pointers advance by 64.
#define XOR_ROWS(a, b, c, d) \
	VLD1.P	64(R2), [V24.B16, V25.B16, V26.B16, V27.B16]; \
	VEOR	a.B16, V24.B16, V24.B16; \
	VEOR	b.B16, V25.B16, V25.B16; \
	VEOR	c.B16, V26.B16, V26.B16; \
	VEOR	d.B16, V27.B16, V27.B16; \
	VST1.P	[V24.B16, V25.B16, V26.B16, V27.B16], 64(R1)

// LOAD_ROWS_6X2 sets V24 = row 0 (the constants), V25 and V26 = rows 1 and
// 2 (the key), V27 = row 3 of block R4 (R4 and the nonce).
#define LOAD_ROWS_6X2 \
	VLD1	(R26), [V24.S4]; \
	VLD1	(R0), [V25.S4, V26.S4]; \
	ADD	$32, R0, R23; \
	VLD1	(R23), [V27.S4]; \
	VMOV	R4, V27.S[0]

// func xorBlocksNEON6x2(s *State, dst, src []byte)
//
// XORs src with the keystream from block s.Counter into dst and advances
// s.Counter by len(src)/64. len(src) is a multiple of 512 and len(dst) equals
// it. Blocks R4+0..R4+5 of each batch are the NEON ones (bytes 0..383),
// R4+6 and R4+7 the scalar ones (bytes 384..511).
TEXT ·xorBlocksNEON6x2(SB), NOSPLIT, $0-56
	MOVD	s+0(FP), R0
	MOVD	dst_base+8(FP), R1
	MOVD	src_base+32(FP), R2
	MOVD	src_len+40(FP), R3
	CBZ	R3, ret6x2
	MOVWU	32(R0), R4

	// V30 = rotate-by-8 TBL index, V31 = {1, 0, 0, 0}.
	MOVD	$·arm64Consts(SB), R26
	ADD	$16, R26, R23
	VLD1	(R23), [V30.B16]
	ADD	$48, R26, R23
	VLD1	(R23), [V31.B16]

loop6x2:
	// NEON blocks R4..R4+5: rows A, B, C the same for all, row D counts up.
	LOAD_ROWS_6X2
	VMOV	V24.B16, V0.B16
	VMOV	V24.B16, V1.B16
	VMOV	V24.B16, V2.B16
	VMOV	V24.B16, V3.B16
	VMOV	V24.B16, V4.B16
	VMOV	V24.B16, V5.B16
	VMOV	V25.B16, V6.B16
	VMOV	V25.B16, V7.B16
	VMOV	V25.B16, V8.B16
	VMOV	V25.B16, V9.B16
	VMOV	V25.B16, V10.B16
	VMOV	V25.B16, V11.B16
	VMOV	V26.B16, V12.B16
	VMOV	V26.B16, V13.B16
	VMOV	V26.B16, V14.B16
	VMOV	V26.B16, V15.B16
	VMOV	V26.B16, V16.B16
	VMOV	V26.B16, V17.B16
	VMOV	V27.B16, V18.B16
	VADD	V31.S4, V18.S4, V19.S4
	VADD	V31.S4, V19.S4, V20.S4
	VADD	V31.S4, V20.S4, V21.S4
	VADD	V31.S4, V21.S4, V22.S4
	VADD	V31.S4, V22.S4, V23.S4

	// First scalar block, R4+6, during the first 5 NEON double rounds.
	SCALAR_INIT(6)
	MOVD	$5, R5

rounds6x2a:
	NEON_ROUND_6X2(4, 12)
	NEON_ROUND_6X2(12, 4)
	SUB	$1, R5
	CBNZ	R5, rounds6x2a

	SCALAR_FINISH(6, 384)

	// Second scalar block, R4+7, during the last 5 NEON double rounds.
	SCALAR_INIT(7)
	MOVD	$5, R5

rounds6x2b:
	NEON_ROUND_6X2(4, 12)
	NEON_ROUND_6X2(12, 4)
	SUB	$1, R5
	CBNZ	R5, rounds6x2b

	SCALAR_FINISH(7, 448)

	// Add the input rows back into the NEON blocks and XOR them in.
	LOAD_ROWS_6X2
	VADD	V24.S4, V0.S4, V0.S4
	VADD	V24.S4, V1.S4, V1.S4
	VADD	V24.S4, V2.S4, V2.S4
	VADD	V24.S4, V3.S4, V3.S4
	VADD	V24.S4, V4.S4, V4.S4
	VADD	V24.S4, V5.S4, V5.S4
	VADD	V25.S4, V6.S4, V6.S4
	VADD	V25.S4, V7.S4, V7.S4
	VADD	V25.S4, V8.S4, V8.S4
	VADD	V25.S4, V9.S4, V9.S4
	VADD	V25.S4, V10.S4, V10.S4
	VADD	V25.S4, V11.S4, V11.S4
	VADD	V26.S4, V12.S4, V12.S4
	VADD	V26.S4, V13.S4, V13.S4
	VADD	V26.S4, V14.S4, V14.S4
	VADD	V26.S4, V15.S4, V15.S4
	VADD	V26.S4, V16.S4, V16.S4
	VADD	V26.S4, V17.S4, V17.S4
	VADD	V27.S4, V18.S4, V18.S4
	VADD	V31.S4, V27.S4, V27.S4
	VADD	V27.S4, V19.S4, V19.S4
	VADD	V31.S4, V27.S4, V27.S4
	VADD	V27.S4, V20.S4, V20.S4
	VADD	V31.S4, V27.S4, V27.S4
	VADD	V27.S4, V21.S4, V21.S4
	VADD	V31.S4, V27.S4, V27.S4
	VADD	V27.S4, V22.S4, V22.S4
	VADD	V31.S4, V27.S4, V27.S4
	VADD	V27.S4, V23.S4, V23.S4
	XOR_ROWS(V0, V6, V12, V18)
	XOR_ROWS(V1, V7, V13, V19)
	XOR_ROWS(V2, V8, V14, V20)
	XOR_ROWS(V3, V9, V15, V21)
	XOR_ROWS(V4, V10, V16, V22)
	XOR_ROWS(V5, V11, V17, V23)

	// The scalar blocks are already stored at bytes 384..511.
	ADD	$128, R1
	ADD	$128, R2
	ADDW	$8, R4
	SUBS	$512, R3
	BNE	loop6x2

	MOVW	R4, 32(R0)

ret6x2:
	RET

// arm64Consts: the ChaCha20 constants (0), the TBL index that rotates each
// 32-bit lane left by 8 (16), the counter lane offsets {0, 1, 2, 3} (32) and
// the row-3 counter step {1, 0, 0, 0} (48).
DATA ·arm64Consts+0x00(SB)/4, SIGMA0
DATA ·arm64Consts+0x04(SB)/4, SIGMA1
DATA ·arm64Consts+0x08(SB)/4, SIGMA2
DATA ·arm64Consts+0x0c(SB)/4, SIGMA3
DATA ·arm64Consts+0x10(SB)/4, $0x02010003
DATA ·arm64Consts+0x14(SB)/4, $0x06050407
DATA ·arm64Consts+0x18(SB)/4, $0x0a09080b
DATA ·arm64Consts+0x1c(SB)/4, $0x0e0d0c0f
DATA ·arm64Consts+0x20(SB)/4, $0
DATA ·arm64Consts+0x24(SB)/4, $1
DATA ·arm64Consts+0x28(SB)/4, $2
DATA ·arm64Consts+0x2c(SB)/4, $3
DATA ·arm64Consts+0x30(SB)/4, $1
DATA ·arm64Consts+0x34(SB)/4, $0
DATA ·arm64Consts+0x38(SB)/4, $0
DATA ·arm64Consts+0x3c(SB)/4, $0
GLOBL ·arm64Consts(SB), NOPTR|RODATA, $64
