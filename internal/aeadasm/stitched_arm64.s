//go:build gc && !purego

// The stitched ChaCha20-Poly1305 loop of arm64 (RFC 8439, Section 2.8): each
// iteration computes 6 ChaCha20 blocks (384 bytes) in NEON registers and, in
// the same round loop, absorbs 24 Poly1305 blocks (384 bytes) on the integer
// multiplier. On the wide cores (Neoverse N1/N2/V1/V2, AmpereOne) the NEON
// keystream leaves the integer and multiply slots idle, and the MAC fills
// them. The idea of running the MAC's integer steps inside the NEON rounds,
// and of mixing 4 blocks in the column layout with blocks in the row layout,
// is that of BoringSSL's crypto/cipher/asm/chacha20_poly1305_armv8.pl (4+1
// blocks); this code, its layout (4+2 blocks, no integer ChaCha20 block),
// its register map and its step order are written for Go's assembler and
// this module.
//
// Blocks 0..3 of an iteration have one state word per register, lane j
// holding block j (x/crypto's chacha_arm64.s and chacha20core's NEON4x1
// layout: no EXT between the rounds, a transposition at the end); blocks 4
// and 5 have one row of the state per register (NEON6x2's layout, the
// diagonals lined up with EXT). Every step of a round is one instruction
// on the four column-layout registers and the same on the two row-layout
// ones. The Poly1305 block step is that of poly1305's blocksScalar64
// (64-bit limbs, products by MUL/UMULH, h2 kept biased by -1; its comment
// derives the bounds), cut into four pieces that sit between the NEON
// steps:
//
//   MAC_LOAD    h += m + 2^128
//   MAC_HI      the high halves of the products, and the products of h2
//   MAC_LO      the low halves
//   MAC_REDUCE  the sums and the reduction modulo 2^130 - 5
//
// No piece leaves the flags live for the next one, and the NEON steps do
// not touch them. Nothing branches on the key, the accumulator or the data,
// and no memory index depends on them.
//
// Two functions share the loop: xorMACNEON, in NEON only, and xorMACSVE2,
// whose rounds do each EOR and rotation in one SVE2 XAR (where the NEON
// rounds take two or three instructions), for cores with SVE2. Their
// start and end are stitched_head_arm64.h and stitched_tail_arm64.h,
// included after each TEXT line; only the rounds differ.
//
// Register map:
//
//   R0       s *chacha20core.State: Key at 0, Counter at 32, Nonce at 36
//   R1       dst pointer, advanced per iteration
//   R2       src pointer, advanced per iteration
//   R3       bytes left
//   R4       counter of the iteration's first block (32-bit)
//   R5       round loop counter
//   R6       mac pointer, advanced by 16 per Poly1305 block
//   R7..R9   h0, h1, h2 - 1 (the biased h2)
//   R10 R11  r0, r1
//   R12      s1 = r1 + r1>>2
//   R13 R14  message block m0, m1
//   R15..R17, R19..R23
//            products and the reduction's temporaries t0..t7
//   R24      2: hibit + 1, which undoes h2's bias in MAC_LOAD
//   R25      temporary (addresses, counters)
//   R26      &neonConsts
//   R18 (platform), R27 (assembler temporary), R28 (g), R29 (frame pointer)
//   and R30 (link register) are not touched.
//
//   V0..V15  words 0..15 of blocks 0..3 (lane j = block j); after the
//            transposition, V(j), V(4+j), V(8+j), V(12+j) are block j's rows
//   V16 V17  row 0 (words 0..3) of blocks 4 and 5
//   V18 V19  row 1
//   V20 V21  row 2
//   V22 V23  row 3
//   V24..V29 rotation temporaries (V24..V27 for blocks 0..3, V28 and V29
//            for blocks 4 and 5; xorMACSVE2's rounds use none); input rows,
//            transposition and XOR temporaries outside the rounds
//   Z0..Z23  in xorMACSVE2's XARs: the Z registers whose low 128 bits are
//            V0..V23
//   V30      TBL index that rotates each 32-bit lane left by 8
//   V31      the counters of blocks 0..3, R4 + {0, 1, 2, 3}

#include "textflag.h"

#define h0 R7
#define h1 R8
#define h2 R9
#define r0 R10
#define r1 R11
#define s1 R12
#define m0 R13
#define m1 R14
#define t0 R15
#define t1 R16
#define t2 R17
#define t3 R19
#define t4 R20
#define t5 R21
#define t6 R22
#define t7 R23
#define two R24

// ---------------------------------------------------------------------------
// Poly1305: one block h = (h + m + 2^128)·r in four pieces.

// MAC_LOAD: h += the 16 bytes at R6 + 2^128; R6 advances.
#define MAC_LOAD \
	LDP.P	16(R6), (m0, m1); \
	ADDS	m0, h0, h0; \
	ADCS	m1, h1, h1; \
	ADC	two, h2, h2

// MAC_HI: t5 = hi(h0·r1) + h2·r0, t3 = hi(h1·s1) + h2·s1, t7 = hi(h1·r0),
// t1 = hi(h0·r0).
#define MAC_HI \
	UMULH	r1, h0, t5; \
	UMULH	s1, h1, t3; \
	UMULH	r0, h1, t7; \
	UMULH	r0, h0, t1; \
	MADD	r0, t5, h2, t5; \
	MADD	s1, t3, h2, t3

// MAC_LO: t0 = lo(h0·r0), t2 = lo(h1·s1), t4 = lo(h0·r1), t6 = lo(h1·r0),
// t1 += t3 (below 2^63: no carry).
#define MAC_LO \
	MUL	r0, h0, t0; \
	MUL	s1, h1, t2; \
	MUL	r1, h0, t4; \
	ADD	t1, t3, t1; \
	MUL	r0, h1, t6

// MAC_REDUCE: d = (t0 + t2) + (t1 + t4)·2^64 + (t5 + t7)·2^128, then
// h = d mod 2^130 + 5·(d >> 130) with t6 added on the way, and h2 biased.
#define MAC_REDUCE \
	ADDS	t2, t0, h0; \
	ADCS	t4, t1, h1; \
	ADC	t7, t5, h2; \
	AND	$-4, h2, t0; \
	ADD	h2>>2, t0, t1; \
	ADDS	t1, h0, h0; \
	ADCS	t6, h1, h1; \
	SBC	t0, h2, h2

// ---------------------------------------------------------------------------
// ChaCha20: the steps of a round, on the four registers of blocks 0..3 that
// a quarter-round step touches (V_*, registers as arguments) or on the two
// of blocks 4 and 5 (H_*, fixed registers).

// V_ADD: d += s, lane by lane.
#define V_ADD(s0, s1, s2, s3, d0, d1, d2, d3) \
	VADD	s0.S4, d0.S4, d0.S4; VADD	s1.S4, d1.S4, d1.S4; \
	VADD	s2.S4, d2.S4, d2.S4; VADD	s3.S4, d3.S4, d3.S4

// V_EOR: d = x ^ y.
#define V_EOR(x0, x1, x2, x3, y0, y1, y2, y3, d0, d1, d2, d3) \
	VEOR	x0.B16, y0.B16, d0.B16; VEOR	x1.B16, y1.B16, d1.B16; \
	VEOR	x2.B16, y2.B16, d2.B16; VEOR	x3.B16, y3.B16, d3.B16

// V_REV: d <<<= 16 (REV32 on halfwords).
#define V_REV(d0, d1, d2, d3) \
	VREV32	d0.H8, d0.H8; VREV32	d1.H8, d1.H8; VREV32	d2.H8, d2.H8; VREV32	d3.H8, d3.H8

// V_TBL: d <<<= 8 (TBL with V30).
#define V_TBL(d0, d1, d2, d3) \
	VTBL	V30.B16, [d0.B16], d0.B16; VTBL	V30.B16, [d1.B16], d1.B16; \
	VTBL	V30.B16, [d2.B16], d2.B16; VTBL	V30.B16, [d3.B16], d3.B16

// V_SHL: d = T << l, T = V24..V27; V_SRI: d |= T >> r (with r = 32 - l:
// d = T <<< l).
#define V_SHL(l, d0, d1, d2, d3) \
	VSHL	$l, V24.S4, d0.S4; VSHL	$l, V25.S4, d1.S4; VSHL	$l, V26.S4, d2.S4; VSHL	$l, V27.S4, d3.S4
#define V_SRI(r, d0, d1, d2, d3) \
	VSRI	$r, V24.S4, d0.S4; VSRI	$r, V25.S4, d1.S4; VSRI	$r, V26.S4, d2.S4; VSRI	$r, V27.S4, d3.S4

// The same steps on blocks 4 and 5 (rows A = V16 V17, B = V18 V19, C =
// V20 V21, D = V22 V23, T = V28 V29).
#define H_ADD_AB VADD	V18.S4, V16.S4, V16.S4; VADD	V19.S4, V17.S4, V17.S4
#define H_EOR_DA VEOR	V16.B16, V22.B16, V22.B16; VEOR	V17.B16, V23.B16, V23.B16
#define H_REV_D VREV32	V22.H8, V22.H8; VREV32	V23.H8, V23.H8
#define H_TBL_D VTBL	V30.B16, [V22.B16], V22.B16; VTBL	V30.B16, [V23.B16], V23.B16
#define H_ADD_CD VADD	V22.S4, V20.S4, V20.S4; VADD	V23.S4, V21.S4, V21.S4
#define H_EOR_TBC VEOR	V20.B16, V18.B16, V28.B16; VEOR	V21.B16, V19.B16, V29.B16
#define H_SHL(l) VSHL	$l, V28.S4, V18.S4; VSHL	$l, V29.S4, V19.S4
#define H_SRI(r) VSRI	$r, V28.S4, V18.S4; VSRI	$r, V29.S4, V19.S4

// H_EXT lines up the diagonals of blocks 4 and 5, or back: rows B and D
// rotated by b and d bytes, row C by 8.
#define H_EXT(b, d) \
	VEXT	$b, V18.B16, V18.B16, V18.B16; VEXT	$b, V19.B16, V19.B16, V19.B16; \
	VEXT	$8, V20.B16, V20.B16, V20.B16; VEXT	$8, V21.B16, V21.B16, V21.B16; \
	VEXT	$d, V22.B16, V22.B16, V22.B16; VEXT	$d, V23.B16, V23.B16, V23.B16

// NOMAC fills a MAC slot of DOUBLE that takes no piece.
#define NOMAC

// H_TAIL is the last three steps of blocks 4 and 5's double round, which
// DOUBLE leaves to the start of the next one (or to after the last).
#define H_TAIL H_SHL(7); H_SRI(25); H_EXT(12, 4)

// DOUBLE is a column round and a diagonal round on the six blocks (blocks
// 0..3's registers: a, b, c, d = V0..V3, V4..V7, V8..V11, V12..V15 for the
// columns, V0..V3, V5 V6 V7 V4, V10 V11 V8 V9, V15 V12 V13 V14 for the
// diagonals), but for H_TAIL: blocks 4 and 5 run three steps behind blocks 0..3 (one step of
// each per line below; the offset spreads the shifts, which the Neoverse
// N1 and N2 execute on one of their two vector pipes only, against the
// other steps). p0..p15 are the MAC pieces (or NOMAC) after every other
// line.
#define DOUBLE(p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15) \
	V_ADD(V4, V5, V6, V7, V0, V1, V2, V3); p0; \
	V_EOR(V0, V1, V2, V3, V12, V13, V14, V15, V12, V13, V14, V15); \
	V_REV(V12, V13, V14, V15); p1; \
	V_ADD(V12, V13, V14, V15, V8, V9, V10, V11); H_ADD_AB; \
	V_EOR(V8, V9, V10, V11, V4, V5, V6, V7, V24, V25, V26, V27); H_EOR_DA; p2; \
	V_SHL(12, V4, V5, V6, V7); H_REV_D; \
	V_SRI(20, V4, V5, V6, V7); H_ADD_CD; p3; \
	V_ADD(V4, V5, V6, V7, V0, V1, V2, V3); H_EOR_TBC; \
	V_EOR(V0, V1, V2, V3, V12, V13, V14, V15, V12, V13, V14, V15); H_SHL(12); p4; \
	V_TBL(V12, V13, V14, V15); H_SRI(20); \
	V_ADD(V12, V13, V14, V15, V8, V9, V10, V11); H_ADD_AB; p5; \
	V_EOR(V8, V9, V10, V11, V4, V5, V6, V7, V24, V25, V26, V27); H_EOR_DA; \
	V_SHL(7, V4, V5, V6, V7); H_TBL_D; p6; \
	V_SRI(25, V4, V5, V6, V7); H_ADD_CD; \
	H_EOR_TBC; p7; \
	V_ADD(V5, V6, V7, V4, V0, V1, V2, V3); H_SHL(7); \
	V_EOR(V0, V1, V2, V3, V15, V12, V13, V14, V15, V12, V13, V14); H_SRI(25); p8; \
	V_REV(V15, V12, V13, V14); H_EXT(4, 12); \
	V_ADD(V15, V12, V13, V14, V10, V11, V8, V9); H_ADD_AB; p9; \
	V_EOR(V10, V11, V8, V9, V5, V6, V7, V4, V24, V25, V26, V27); H_EOR_DA; \
	V_SHL(12, V5, V6, V7, V4); H_REV_D; p10; \
	V_SRI(20, V5, V6, V7, V4); H_ADD_CD; \
	V_ADD(V5, V6, V7, V4, V0, V1, V2, V3); H_EOR_TBC; p11; \
	V_EOR(V0, V1, V2, V3, V15, V12, V13, V14, V15, V12, V13, V14); H_SHL(12); \
	V_TBL(V15, V12, V13, V14); H_SRI(20); p12; \
	V_ADD(V15, V12, V13, V14, V10, V11, V8, V9); H_ADD_AB; \
	V_EOR(V10, V11, V8, V9, V5, V6, V7, V4, V24, V25, V26, V27); H_EOR_DA; p13; \
	V_SHL(7, V5, V6, V7, V4); H_TBL_D; \
	V_SRI(25, V5, V6, V7, V4); H_ADD_CD; p14; \
	H_EOR_TBC; p15

// ADD6: d += s, lane by lane, for six pairs (the input rows after the
// rounds).
#define ADD6(s0, s1, s2, s3, s4, s5, d0, d1, d2, d3, d4, d5) \
	V_ADD(s0, s1, s2, s3, d0, d1, d2, d3); VADD	s4.S4, d4.S4, d4.S4; VADD	s5.S4, d5.S4, d5.S4

// LOAD_ROWS sets V24 = row 0 (the constants), V25 and V26 = rows 1 and 2
// (the key), V27 = row 3 of block R4+4 (R4+4 and the nonce), V28 = {0, 1,
// 2, 3} and V29 = {1, 0, 0, 0}.
#define LOAD_ROWS \
	VLD1	(R26), [V24.S4]; \
	VLD1	(R0), [V25.S4, V26.S4]; \
	ADD	$32, R0, R25; \
	VLD1	(R25), [V27.S4]; \
	ADDW	$4, R4, R25; \
	VMOV	R25, V27.S[0]; \
	ADD	$32, R26, R25; \
	VLD1	(R25), [V28.S4, V29.S4]

// SPLAT broadcasts the four words of row x to the four lanes of d0..d3.
#define SPLAT(x, d0, d1, d2, d3) \
	VDUP	x.S[0], d0.S4; VDUP	x.S[1], d1.S4; VDUP	x.S[2], d2.S4; VDUP	x.S[3], d3.S4

// TRANSPOSE turns four registers of blocks 0..3 (one word of each block per
// register) into four rows (one block's words per register), through
// V24..V27: TRN on 32-bit, then on 64-bit lanes.
#define TRANSPOSE(x0, x1, x2, x3) \
	VTRN1	x1.S4, x0.S4, V24.S4; \
	VTRN2	x1.S4, x0.S4, V25.S4; \
	VTRN1	x3.S4, x2.S4, V26.S4; \
	VTRN2	x3.S4, x2.S4, V27.S4; \
	VTRN1	V26.D2, V24.D2, x0.D2; \
	VTRN1	V27.D2, V25.D2, x1.D2; \
	VTRN2	V26.D2, V24.D2, x2.D2; \
	VTRN2	V27.D2, V25.D2, x3.D2

// XOR_STORE XORs the next 64 bytes of src with a block's rows a, b, c, d
// into dst, through V24..V27; both pointers advance by 64.
#define XOR_STORE(a, b, c, d) \
	VLD1.P	64(R2), [V24.B16, V25.B16, V26.B16, V27.B16]; \
	VEOR	a.B16, V24.B16, V24.B16; \
	VEOR	b.B16, V25.B16, V25.B16; \
	VEOR	c.B16, V26.B16, V26.B16; \
	VEOR	d.B16, V27.B16, V27.B16; \
	VST1.P	[V24.B16, V25.B16, V26.B16, V27.B16], 64(R1)

// func xorMACNEON(s *chacha20core.State, dst, src, mac []byte, h *[3]uint64, r *[2]uint64)
//
// For each 384-byte batch of src (len(src) is a multiple of 384, len(dst)
// and len(mac) equal it): XORs the keystream of blocks s.Counter..+5 into
// dst and absorbs the batch's 384 bytes of mac, as 24 full Poly1305
// blocks, into h with the clamped r. The batch's mac bytes are read before
// its dst bytes are written, so mac may be src and dst (an Open in place)
// or dst shifted back by one batch (a Seal). s.Counter advances by
// len(src)/64.
TEXT ·xorMACNEON(SB), NOSPLIT, $0-96
#include "stitched_head_arm64.h"

	// Ten double rounds with 24 Poly1305 blocks: 4 trips of two double
	// rounds with 3 and 2 blocks, then two with 2 each (at most 3 blocks a
	// double round: on the Neoverse N1 more would wait for the
	// multiplier). Each double round starts with the end of the previous
	// one of blocks 4 and 5 (none before the first), and one more end
	// follows the last.
	MOVD	$4, R5
	B	first

rounds:
	H_TAIL

first:
	DOUBLE(MAC_LOAD, MAC_HI, MAC_LO, MAC_REDUCE, NOMAC, MAC_LOAD, MAC_HI, MAC_LO, MAC_REDUCE, NOMAC, MAC_LOAD, MAC_HI, MAC_LO, MAC_REDUCE, NOMAC, NOMAC)
	H_TAIL
	DOUBLE(MAC_LOAD, NOMAC, MAC_HI, NOMAC, MAC_LO, NOMAC, MAC_REDUCE, NOMAC, MAC_LOAD, NOMAC, MAC_HI, NOMAC, MAC_LO, NOMAC, MAC_REDUCE, NOMAC)
	SUB	$1, R5
	CBNZ	R5, rounds
	H_TAIL
	DOUBLE(MAC_LOAD, NOMAC, MAC_HI, NOMAC, MAC_LO, NOMAC, MAC_REDUCE, NOMAC, MAC_LOAD, NOMAC, MAC_HI, NOMAC, MAC_LO, NOMAC, MAC_REDUCE, NOMAC)
	H_TAIL
	DOUBLE(MAC_LOAD, NOMAC, MAC_HI, NOMAC, MAC_LO, NOMAC, MAC_REDUCE, NOMAC, MAC_LOAD, NOMAC, MAC_HI, NOMAC, MAC_LO, NOMAC, MAC_REDUCE, NOMAC)
	H_TAIL

#include "stitched_tail_arm64.h"

// ---------------------------------------------------------------------------
// The SVE2 variant (xorMACSVE2): SVE2's XAR, exclusive OR and rotate right
// on 32-bit lanes, does a step's EOR and rotation in one instruction (two
// or three in NEON). It runs on the Z registers, whose low 128 bits are
// V0..V31: lanes are independent, so the bits above 128 (if the vector
// length has any) hold junk that no NEON instruction reads, and nothing
// depends on the vector length. Every rotation is an XAR but the 8-bit one
// of blocks 4 and 5 (EOR and TBL, as in DOUBLE): the Neoverse N2 and V2
// run XAR on one vector pipe only, and that mix spreads the steps best by
// llvm-mca (bench/README.md). The step order has no three-step offset:
// with the shifts gone there is nothing for it to spread.

// XAR: register d = (d ^ m) >>> rot on 32-bit lanes, d and m register
// numbers (XAR Zd.S, Zd.S, Zm.S, #rot; Go's assembler has no SVE2
// mnemonics, and 128 - rot is the encoding's tsz:imm3 field for .S).
#define XAR(rot, m, d) WORD $(0x04003400 | (128-(rot))<<16 | (m)<<5 | (d))
#define XAR4(rot, m0, m1, m2, m3, d0, d1, d2, d3) \
	XAR(rot, m0, d0); XAR(rot, m1, d1); XAR(rot, m2, d2); XAR(rot, m3, d3)

// The XAR steps of blocks 0..3 (d ^= a, then b ^= c, rotated left by 16,
// 12, 8, 7 = right by 16, 20, 24, 25), in the column round (X_COL*: a, b,
// c, d = V0..V3, V4..V7, V8..V11, V12..V15) and the diagonal round
// (X_DIA*: V0..V3, V5 V6 V7 V4, V10 V11 V8 V9, V15 V12 V13 V14), and of
// blocks 4 and 5 (XH_D: D ^= A, XH_B: B ^= C).
#define X_COL16 XAR4(16, 0, 1, 2, 3, 12, 13, 14, 15)
#define X_COL12 XAR4(20, 8, 9, 10, 11, 4, 5, 6, 7)
#define X_COL8 XAR4(24, 0, 1, 2, 3, 12, 13, 14, 15)
#define X_COL7 XAR4(25, 8, 9, 10, 11, 4, 5, 6, 7)
#define X_DIA16 XAR4(16, 0, 1, 2, 3, 15, 12, 13, 14)
#define X_DIA12 XAR4(20, 10, 11, 8, 9, 5, 6, 7, 4)
#define X_DIA8 XAR4(24, 0, 1, 2, 3, 15, 12, 13, 14)
#define X_DIA7 XAR4(25, 10, 11, 8, 9, 5, 6, 7, 4)
#define XH_D(rot) XAR(rot, 16, 22); XAR(rot, 17, 23)
#define XH_B(rot) XAR(rot, 20, 18); XAR(rot, 21, 19)

// XROUND is one round on the six blocks, one step of blocks 0..3 and the
// same of blocks 4 and 5 per line: ADDB (a += b), X16, ADDD (c += d), X12,
// ADDB, X8, ADDD, X7 are blocks 0..3's steps; p0..p3 the MAC pieces (or
// NOMAC) after every other line.
#define XROUND(ADDB, X16, ADDD, X12, X8, X7, p0, p1, p2, p3) \
	ADDB; H_ADD_AB; p0; \
	X16; XH_D(16); \
	ADDD; H_ADD_CD; p1; \
	X12; XH_B(20); \
	ADDB; H_ADD_AB; p2; \
	X8; H_EOR_DA; H_TBL_D; \
	ADDD; H_ADD_CD; p3; \
	X7; XH_B(25)

// XDOUBLE is a column round and a diagonal round on the six blocks, blocks
// 4 and 5's diagonals lined up by EXT between them and back after.
#define XDOUBLE(p0, p1, p2, p3, p4, p5, p6, p7) \
	XROUND(V_ADD(V4, V5, V6, V7, V0, V1, V2, V3), X_COL16, V_ADD(V12, V13, V14, V15, V8, V9, V10, V11), X_COL12, X_COL8, X_COL7, p0, p1, p2, p3); \
	H_EXT(4, 12); \
	XROUND(V_ADD(V5, V6, V7, V4, V0, V1, V2, V3), X_DIA16, V_ADD(V15, V12, V13, V14, V10, V11, V8, V9), X_DIA12, X_DIA8, X_DIA7, p4, p5, p6, p7); \
	H_EXT(12, 4)

// func xorMACSVE2(s *chacha20core.State, dst, src, mac []byte, h *[3]uint64, r *[2]uint64)
//
// xorMACNEON with the rotations by XAR: needs SVE2.
TEXT ·xorMACSVE2(SB), NOSPLIT, $0-96
#include "stitched_head_arm64.h"

	// Ten double rounds with 24 Poly1305 blocks, as in xorMACNEON: 4 trips
	// of two double rounds with 3 and 2 blocks, then two with 2 each.
	MOVD	$4, R5

rounds:
	XDOUBLE(MAC_LOAD; MAC_HI, MAC_LO; MAC_REDUCE, MAC_LOAD; MAC_HI, MAC_LO; MAC_REDUCE, MAC_LOAD; MAC_HI, MAC_LO, MAC_REDUCE, NOMAC)
	XDOUBLE(MAC_LOAD, MAC_HI, NOMAC, MAC_LO, MAC_REDUCE, MAC_LOAD, MAC_HI, MAC_LO; MAC_REDUCE)
	SUB	$1, R5
	CBNZ	R5, rounds
	XDOUBLE(MAC_LOAD, MAC_HI, NOMAC, MAC_LO, MAC_REDUCE, MAC_LOAD, MAC_HI, MAC_LO; MAC_REDUCE)
	XDOUBLE(MAC_LOAD, MAC_HI, NOMAC, MAC_LO, MAC_REDUCE, MAC_LOAD, MAC_HI, MAC_LO; MAC_REDUCE)

#include "stitched_tail_arm64.h"

// neonConsts: the ChaCha20 constants "expand 32-byte k" (0), the TBL index
// that rotates each 32-bit lane left by 8 (16), the lane offsets of the
// counters of blocks 0..3, {0, 1, 2, 3} (32), and the row-3 counter step
// {1, 0, 0, 0} (48).
DATA ·neonConsts+0x00(SB)/4, $0x61707865
DATA ·neonConsts+0x04(SB)/4, $0x3320646e
DATA ·neonConsts+0x08(SB)/4, $0x79622d32
DATA ·neonConsts+0x0c(SB)/4, $0x6b206574
DATA ·neonConsts+0x10(SB)/4, $0x02010003
DATA ·neonConsts+0x14(SB)/4, $0x06050407
DATA ·neonConsts+0x18(SB)/4, $0x0a09080b
DATA ·neonConsts+0x1c(SB)/4, $0x0e0d0c0f
DATA ·neonConsts+0x20(SB)/4, $0
DATA ·neonConsts+0x24(SB)/4, $1
DATA ·neonConsts+0x28(SB)/4, $2
DATA ·neonConsts+0x2c(SB)/4, $3
DATA ·neonConsts+0x30(SB)/4, $1
DATA ·neonConsts+0x34(SB)/4, $0
DATA ·neonConsts+0x38(SB)/4, $0
DATA ·neonConsts+0x3c(SB)/4, $0
GLOBL ·neonConsts(SB), NOPTR|RODATA, $64
