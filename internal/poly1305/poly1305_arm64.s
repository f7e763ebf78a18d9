//go:build gc && !purego

// Poly1305 block functions for arm64 (RFC 8439, Section 2.5.1).
// blocksScalar64 works in general-purpose registers: the accumulator in three
// 64-bit limbs, the products with MUL and UMULH, the reduction modulo
// 2^130 - 5 with shifts and adds. blocksNEON (second part of this file) adds
// a vector loop with 26-bit limbs for long inputs. Nothing branches on the
// key, the accumulator or the message, and no memory index depends on them;
// the only branches count the blocks.
//
// Multiplication (the method of OpenSSL's poly1305-armv8.pl and of
// poly1305-donna's 64-bit code): clamping makes r1 a multiple of 4, so the
// terms of h·r at 2^128 and 2^192 fold back exactly with s1 = r1 + r1>>2 =
// 5·r1/4, since h1·r1·2^128 = h1·(r1/4)·2^130 ≡ h1·s1 and
// h2·r1·2^192 ≡ h2·s1·2^64:
//
//   h·r ≡ d0 + d1·2^64 + d2·2^128 with
//     d0 = lo(h0·r0) + lo(h1·s1)
//     d1 = hi(h0·r0) + hi(h1·s1) + h2·s1 + lo(h0·r1) + lo(h1·r0)
//     d2 = hi(h0·r1) + hi(h1·r0) + h2·r0             (+ the carries)
//
// Clamping also keeps r0, r1 < 2^60 and s1 < 2^61, so every hi() is below
// 2^61. h2 is at most 9 after the message add (at most 7 on entry, the
// portable code's bound, then hibit and a carry), which keeps the sums
// marked "no carry" below 2^64, and d2 < 11·2^60, so that the reduction's
// 5·(d2>>2), computed as (d2 &^ 3) + (d2 >> 2), fits in 64 bits too.
//
// Three choices keep the loop at 23 instructions per 16-byte block, plus 2
// per trip of 8 blocks (the portable Go code compiles to 47 per block,
// golang.org/x/crypto's to about 66):
//   - h2·s1 and h2·r0 are added to a high half with MADD (no carry);
//   - lo(h1·r0) is not added into d1 but into the reduction's add chain,
//     whose carry then goes straight to the new h2 (a chain that was there
//     anyway, so the add costs no extra carry instruction);
//   - h2 is kept biased by -1 inside the function: the reduction computes
//     h2 = d2 - (d2 &^ 3) - 1 + carry with one SBC, and the next block's
//     message add adds hibit + 1 with the ADC that absorbs its carry.
//
// After each block h = h0 + h1·2^64 + h2·2^128 with h2 <= 4, so h < 2p and
// finalize's single conditional subtraction of p is enough.
//
// Register map:
//
//   R0        st *state: h [3]uint64 at 0, r [2]uint64 at 24, s at 40
//   R1        msg pointer, advanced by LDP.P
//   R2        end of msg's whole 16-byte blocks
//   R3        hibit + 1 (2 for full blocks, 1 for the padded last block)
//   R4 R5 R6  h0, h1, h2 - 1 (the biased h2)
//   R7 R8     r0, r1
//   R9        s1 = r1 + r1>>2
//   R10 R11   message block m0, m1
//   R12..R17, R19..R22
//             products and the reduction's temporaries (see MULR)
//   R23       end of msg's whole 128-byte groups
//   R18 (platform), R26, R27 (assembler temporary), R28 (g), R29 (frame
//   pointer) and R30 (link register) are not touched.

#include "textflag.h"

#define h0 R4
#define h1 R5
#define h2 R6
#define r0 R7
#define r1 R8
#define s1 R9
#define m0 R10
#define m1 R11
#define t0 R12
#define t1 R13
#define t2 R14
#define t3 R15
#define t4 R16
#define t5 R17
#define t6 R19
#define t7 R20
#define tt R21
#define t R22

// MULR sets a = a·r, partly reduced modulo 2^130 - 5, for a = a0 + a1·2^64 +
// a2·2^128 with a2 <= 9 (BLOCK's bound after its message add), and leaves
// a2 biased by -1: the result is a0 + a1·2^64 + (a2 + 1)·2^128 with
// a2 + 1 <= 4. The temporaries are t0..t7, tt and t.
#define MULR(a0, a1, a2) \
	/* The four 64x64-bit products, the high halves first: they feed the \
	 * longer dependency chains (llvm-mca: 1 cycle per block less on the \
	 * Cortex-A57 and Neoverse-N1 models than in column order). The small \
	 * products of a2 join a high half (no carry). */ \
	UMULH	r1, a0, t5;       /* hi(a0·r1) */ \
	UMULH	s1, a1, t3;       /* hi(a1·s1) */ \
	UMULH	r0, a1, t7;       /* hi(a1·r0) */ \
	UMULH	r0, a0, t1;       /* hi(a0·r0) */ \
	MADD	r0, t5, a2, t5;   /* t5 += a2·r0 */ \
	MADD	s1, t3, a2, t3;   /* t3 += a2·s1 */ \
	MUL	r0, a0, t0;       /* lo(a0·r0) */ \
	MUL	s1, a1, t2;       /* lo(a1·s1) */ \
	MUL	r1, a0, t4;       /* lo(a0·r1) */ \
	ADD	t1, t3, t1;       /* hi(a0·r0) + t3 (no carry) */ \
	MUL	r0, a1, t6;       /* lo(a1·r0) */ \
	/* d = d0 + d1·2^64 + d2·2^128, without lo(a1·r0) yet. */ \
	ADDS	t2, t0, a0; \
	ADCS	t4, t1, a1; \
	ADC	t7, t5, a2; \
	/* Reduce: a = d mod 2^130 + 5·(d >> 130), adding lo(a1·r0) on the \
	 * way; a2 = (d2 & 3) + carry - 1 (biased). */ \
	AND	$-4, a2, tt;      /* 4·(d2 >> 2) */ \
	ADD	a2>>2, tt, t;     /* 5·(d2 >> 2) */ \
	ADDS	t, a0, a0; \
	ADCS	t6, a1, a1; \
	SBC	tt, a2, a2

// BLOCK absorbs the 16 bytes at R1 and advances R1:
// h = (h + m + hibit·2^128)·r, partly reduced modulo 2^130 - 5.
#define BLOCK \
	/* h += m + hibit·2^128 (R3 = hibit + 1 undoes the bias of h2). */ \
	LDP.P	16(R1), (m0, m1); \
	ADDS	m0, h0, h0; \
	ADCS	m1, h1, h1; \
	ADC	R3, h2, h2; \
	MULR(h0, h1, h2)

// func blocksScalar64(st *state, msg []byte, hibit uint64)
//
// Absorbs len(msg)/16 blocks into st.h, each with hibit·2^128 added to it
// (hibit is 1 for full blocks, 0 for the last padded block of a message),
// as blocksGeneric does.
TEXT ·blocksScalar64(SB), NOSPLIT, $0-40
	MOVD	st+0(FP), R0
	MOVD	msg_base+8(FP), R1
	MOVD	msg_len+16(FP), R2
	MOVD	hibit+32(FP), R3

	// Load the state; s1 = 5·r1/4; bias h2 by -1 and R3 by +1.
	LDP	0(R0), (h0, h1)
	LDP	16(R0), (h2, r0)
	MOVD	32(R0), r1
	ADD	r1>>2, r1, s1
	SUB	$1, h2
	ADD	$1, R3

	// R23 = end of msg's whole 128-byte groups; R2 = end of its whole blocks.
	AND	$-128, R2, R23
	AND	$-16, R2
	ADD	R1, R23
	ADD	R1, R2
	CMP	R1, R23
	BEQ	tail

loop8:
	// Eight blocks per trip.
	BLOCK
	BLOCK
	BLOCK
	BLOCK
	BLOCK
	BLOCK
	BLOCK
	BLOCK
	CMP	R1, R23
	BNE	loop8

tail:
	// The last 0 to 7 blocks, one per trip.
	CMP	R1, R2
	BEQ	done

loop1:
	BLOCK
	CMP	R1, R2
	BNE	loop1

done:
	// Undo the bias of h2 and store h.
	ADD	$1, h2
	STP	(h0, h1), 0(R0)
	MOVD	h2, 16(R0)
	RET

// ---------------------------------------------------------------------------
// NEON: 26-bit limbs, two lanes, four blocks per step.
//
// A number modulo p = 2^130 - 5 is x0 + x1·2^26 + x2·2^52 + x3·2^78 +
// x4·2^104, each limb in a 32-bit element (26 bits and a little more between
// reductions). UMULL/UMLAL (32x32 -> 64-bit multiply-accumulate on the low
// two elements of their sources) and UMULL2/UMLAL2 (the high two) compute
// two lanes at a time; with 2^130 ≡ 5 and s_j = 5·r_j the product is
//
//	d0 = x0·r0 + x1·s4 + x2·s3 + x3·s2 + x4·s1
//	d1 = x0·r1 + x1·r0 + x2·s4 + x3·s3 + x4·s2
//	d2 = x0·r2 + x1·r1 + x2·r0 + x3·s4 + x4·s3
//	d3 = x0·r3 + x1·r2 + x2·r1 + x3·r0 + x4·s4
//	d4 = x0·r4 + x1·r3 + x2·r2 + x3·r1 + x4·r0
//
// The technique is that of OpenSSL's poly1305-armv8.pl (poly1305_blocks_neon,
// after Bernstein and Schwabe, "NEON crypto", 2012) and of Andrew Moon's
// poly1305-opt: two lanes, and each step absorbs four blocks m0..m3 as
//
//	lane 0: h0' = (h0 + m0)·r^4 + m2·r^2
//	lane 1: h1' = (h1 + m1)·r^4 + m3·r^2
//
// so that one carry pass per step serves four blocks: the products of
// (h + m0|m1) with r^4 and of m2|m3 with r^2 go into the same accumulators,
// the first pair with UMULL/UMLAL on elements 0-1, the second with
// UMULL2/UMLAL2 on elements 2-3 of the same registers. (Two lanes times two
// interleaved accumulator sets, each with r^4, would do the same 50
// multiply-accumulates per step with shorter dependency chains, but need two
// carry passes and narrowings per step, 18 more instructions, and five more
// accumulator registers than the 32 this layout already fills.) The last step
// multiplies by r^4|r^3 and r^2|r^1 instead, which gives every block its
// own power of r; the lanes are then added and converted back to 64-bit
// limbs.
//
// Register layout, element by element (lane 0 is elements 0 and 2, lane 1
// elements 1 and 3):
//
//	H_j = [h0_j + m0_j, h1_j + m1_j, m2_j, m3_j]   limb j of the input
//	R_j = [r4_j, r4_j, r2_j, r2_j]                  limb j of r^4, r^2
//	F_j = [r4_j, r3_j, r2_j, r1_j]                  for the last step
//	S_j = 5·R_j (5·F_j in the last step), j = 1..4
//	D_k = [d_k of lane 0, d_k of lane 1]            64-bit accumulators
//
// The message: VLD4 splits four blocks into their 32-bit words w0..w3, one
// block per element, in exactly the order the layout above needs. Limb j
// (bits 26j..26j+25 of a block) is the top 26 bits of a 32-bit window that
// SHL and SRI assemble from two words, added to H_j with one USRA (shift
// right by 6 and accumulate). XTN leaves elements 2-3 of H_j zero, so the
// same USRA puts m2|m3 there.
//
// Bounds. The powers of r come from MULR (below 5·2^128), so their limbs
// are below 2^26 except limb 4 (below 5·2^24); s_j < 2^28.7. After a
// carry pass the limbs of h are below 2^26 except h_1 (below 2^26 + 2^7);
// the state converted on entry has limb 4 below 2^27 (h2 <= 7). So the inputs
// H_j stay below 2^27.4 and every d_k below 2^59 (10 products of at most
// 2^27.4·2^28.7), d4 (no s_j) below 2^56.4, c4 = d4 >> 26 below 2^31 (it fits the
// 32-bit elements of SHRN), and one pass d0 -> d1 -> d2 -> d3 -> d4 -> 5·d0
// -> d1 brings the limbs back under those bounds. The lane sums at the end
// are below 2^60.
//
// Vector register map:
//
//	V0-V4    H_0..H_4
//	V5-V9    D_0..D_4
//	V10-V13  w0..w3 of four blocks (VLD4); V10 also holds c4 (SHRN)
//	V14      the window of a limb
//	V15      2^26 - 1 in each 64-bit lane
//	V16      5 in each 32-bit element
//	V17      hibit·2^24 in each 32-bit element
//	V18-V22  R_0..R_4
//	V23-V26  S_1..S_4
//	V27-V31  F_0..F_4
//
// The general-purpose registers are those of blocksScalar64 (its first
// len/16 mod 4 blocks go through BLOCK), except that R23 marks the end of
// those blocks and then the start of the last vector step; p0, p1, p2
// (R10, R11, R24) hold the powers of r and R25 is scratch. R12..R17 carry
// the lanes' sums at the end.
// ---------------------------------------------------------------------------

#define p0 R10
#define p1 R11
#define p2 R24

// The multiplications and narrowing shifts that Go's assembler does not
// know, encoded by hand (Arm ARM, "Advanced SIMD three different" and
// "shift by immediate"); the arguments are register numbers, in Go's operand
// order: Vn, Vm, Vd.
#define UMLAL(n, m, d)  WORD $(0x2ea08000 | ((m)<<16) | ((n)<<5) | (d))  /* Vd.2D += Vn.2S · Vm.2S */
#define UMULL2(n, m, d) WORD $(0x6ea0c000 | ((m)<<16) | ((n)<<5) | (d))  /* Vd.2D = Vn.4S[2:4] · Vm.4S[2:4] */
#define UMLAL2(n, m, d) WORD $(0x6ea08000 | ((m)<<16) | ((n)<<5) | (d))  /* Vd.2D += Vn.4S[2:4] · Vm.4S[2:4] */
#define XTN(n, d)       WORD $(0x0ea12800 | ((n)<<5) | (d))              /* Vd.2S = Vn.2D (low halves) */
#define SHRN26(n, d)    WORD $(0x0f268400 | ((n)<<5) | (d))              /* Vd.2S = Vn.2D >> 26 */
#define MUL4S(n, m, d)  WORD $(0x4ea09c00 | ((m)<<16) | ((n)<<5) | (d))  /* Vd.4S = Vn.4S · Vm.4S */

// MSG loads four blocks from R1 (advancing it) and adds them to H as
// described above: limb j of m0, m1 to elements 0, 1 (on top of h), of m2,
// m3 to elements 2, 3 (zero before), and hibit·2^24 to limb 4.
#define MSG \
	VLD4.P	64(R1), [V10.S4, V11.S4, V12.S4, V13.S4]; \
	VSHL	$6, V10.S4, V14.S4;         /* bits 0..25 at the top */ \
	VUSRA	$6, V14.S4, V0.S4; \
	VSHL	$12, V11.S4, V14.S4;        /* bits 20..51: w1 << 12 | w0 >> 20 */ \
	VSRI	$20, V10.S4, V14.S4; \
	VUSRA	$6, V14.S4, V1.S4; \
	VSHL	$18, V12.S4, V14.S4;        /* bits 46..77: w2 << 18 | w1 >> 14 */ \
	VSRI	$14, V11.S4, V14.S4; \
	VUSRA	$6, V14.S4, V2.S4; \
	VSHL	$24, V13.S4, V14.S4;        /* bits 72..103: w3 << 24 | w2 >> 8 */ \
	VSRI	$8, V12.S4, V14.S4; \
	VUSRA	$6, V14.S4, V3.S4; \
	VUSRA	$8, V13.S4, V4.S4;          /* bits 104..127: w3 >> 8 */ \
	VADD	V17.S4, V4.S4, V4.S4

// MULT sets D = H·(r0..r4, s1..s4) in both lanes: the high elements of H by
// those of the multipliers, the low by the low. Row by row (one input limb
// at a time), so that the five accumulators form five independent chains,
// and the rows in the order in which REDUCE and MSG finish the limbs (H2,
// H3, H4, H0, H1): each chain is 10 multiply-accumulates long, and it can
// start while the last limbs are still being carried (llvm-mca: 13 to 14
// cycles per step less on the Cortex-A57 and Neoverse-V1 models, 9 on
// Neoverse-N1, than in the order H0..H4).
#define MULT(r0, r1, r2, r3, r4, s1, s2, s3, s4) \
	UMULL2(2, s3, 5); UMULL2(2, s4, 6); UMULL2(2, r0, 7); UMULL2(2, r1, 8); UMULL2(2, r2, 9); \
	UMLAL(2, s3, 5); UMLAL(2, s4, 6); UMLAL(2, r0, 7); UMLAL(2, r1, 8); UMLAL(2, r2, 9); \
	UMLAL2(3, s2, 5); UMLAL2(3, s3, 6); UMLAL2(3, s4, 7); UMLAL2(3, r0, 8); UMLAL2(3, r1, 9); \
	UMLAL(3, s2, 5); UMLAL(3, s3, 6); UMLAL(3, s4, 7); UMLAL(3, r0, 8); UMLAL(3, r1, 9); \
	UMLAL2(4, s1, 5); UMLAL2(4, s2, 6); UMLAL2(4, s3, 7); UMLAL2(4, s4, 8); UMLAL2(4, r0, 9); \
	UMLAL(4, s1, 5); UMLAL(4, s2, 6); UMLAL(4, s3, 7); UMLAL(4, s4, 8); UMLAL(4, r0, 9); \
	UMLAL2(0, r0, 5); UMLAL2(0, r1, 6); UMLAL2(0, r2, 7); UMLAL2(0, r3, 8); UMLAL2(0, r4, 9); \
	UMLAL(0, r0, 5); UMLAL(0, r1, 6); UMLAL(0, r2, 7); UMLAL(0, r3, 8); UMLAL(0, r4, 9); \
	UMLAL2(1, s4, 5); UMLAL2(1, r0, 6); UMLAL2(1, r1, 7); UMLAL2(1, r2, 8); UMLAL2(1, r3, 9); \
	UMLAL(1, s4, 5); UMLAL(1, r0, 6); UMLAL(1, r1, 7); UMLAL(1, r2, 8); UMLAL(1, r3, 9)

// REDUCE is the lazy carry pass on D, one chain d0 -> d1 -> d2 -> d3 -> d4
// -> 5·d0 -> d1 (USRA adds the carry and the AND keeps the low 26 bits; the
// carry out of d4 is narrowed by SHRN and multiplied by 5 with UMLAL), and
// XTN narrows the limbs back into H (clearing elements 2-3).
#define REDUCE \
	VUSRA	$26, V5.D2, V6.D2; \
	VAND	V15.B16, V5.B16, V5.B16; \
	VUSRA	$26, V6.D2, V7.D2; \
	VAND	V15.B16, V6.B16, V6.B16; \
	VUSRA	$26, V7.D2, V8.D2; \
	VAND	V15.B16, V7.B16, V7.B16; \
	VUSRA	$26, V8.D2, V9.D2; \
	VAND	V15.B16, V8.B16, V8.B16; \
	SHRN26(9, 10); \
	VAND	V15.B16, V9.B16, V9.B16; \
	UMLAL(10, 16, 5); \
	VUSRA	$26, V5.D2, V6.D2; \
	VAND	V15.B16, V5.B16, V5.B16; \
	XTN(5, 0); XTN(6, 1); XTN(7, 2); XTN(8, 3); XTN(9, 4)

// LIMBS26 converts two numbers below 2^131, one per 64-bit lane of lo
// (bits 0..63), hi (bits 64..127) and top (bits 128 and up), into 26-bit
// limbs l0..l4, one number per lane (l4 keeps the bits above 2^130).
#define LIMBS26(lo, hi, top, l0, l1, l2, l3, l4) \
	VAND	V15.B16, lo.B16, l0.B16; \
	VUSHR	$26, lo.D2, l1.D2; \
	VAND	V15.B16, l1.B16, l1.B16; \
	VUSHR	$52, lo.D2, l2.D2; \
	VSLI	$12, hi.D2, l2.D2; \
	VAND	V15.B16, l2.B16, l2.B16; \
	VUSHR	$14, hi.D2, l3.D2; \
	VAND	V15.B16, l3.B16, l3.B16; \
	VUSHR	$40, hi.D2, l4.D2; \
	VSLI	$24, top.D2, l4.D2

// TIMES5 sets V(d) = 5·V(n) in every 32-bit element (V16 holds the 5s).
#define TIMES5(n, d) MUL4S(n, 16, d)

// func blocksNEON(st *state, msg []byte, hibit uint64)
//
// Absorbs len(msg)/16 blocks into st.h as blocksScalar64 does: the first
// len/16 mod 4 of them one at a time with BLOCK, the others four at a time
// with NEON. Worth it only for long inputs (the set-up costs about 20
// blocks' worth of the vector step's savings); the dispatcher decides.
TEXT ·blocksNEON(SB), NOSPLIT, $0-40
	MOVD	st+0(FP), R0
	MOVD	msg_base+8(FP), R1
	MOVD	msg_len+16(FP), R2
	MOVD	hibit+32(FP), R3

	// V17 = hibit·2^24 in every element; R3 = hibit + 1 for BLOCK.
	LSL	$24, R3, R25
	VDUP	R25, V17.S4
	ADD	$1, R3

	// Load the state; s1 = 5·r1/4; R2 = end of the whole blocks, R23 = end
	// of the first len/16 mod 4 of them.
	LDP	0(R0), (h0, h1)
	LDP	16(R0), (h2, r0)
	MOVD	32(R0), r1
	ADD	r1>>2, r1, s1
	AND	$-16, R2
	AND	$48, R2, R23
	ADD	R1, R2
	ADD	R1, R23

	// The leading blocks, one at a time (h2 biased by -1 meanwhile).
	SUB	$1, h2
	CMP	R1, R23
	BEQ	neonLeadDone

neonLead:
	BLOCK
	CMP	R1, R23
	BNE	neonLead

neonLeadDone:
	ADD	$1, h2
	CMP	R1, R2
	BEQ	neonStore

	// r^2, r^3, r^4 by MULR from p = r, gathered for LIMBS26 as
	// P = [r^4, r^2] (V10 bits 0..63, V11 bits 64..127, V12 the rest) and
	// Q = [r^3, r^1] (V13, V14, V0).
	MOVD	r0, p0
	MOVD	r1, p1
	MOVD	ZR, p2
	MULR(p0, p1, p2)
	ADD	$1, p2
	VMOV	p0, V10.D[1]
	VMOV	p1, V11.D[1]
	VMOV	p2, V12.D[1]
	MULR(p0, p1, p2)
	ADD	$1, p2
	VMOV	p0, V13.D[0]
	VMOV	p1, V14.D[0]
	FMOVD	p2, F0            // V0 = [top of r^3, 0]
	MULR(p0, p1, p2)
	ADD	$1, p2
	VMOV	p0, V10.D[0]
	VMOV	p1, V11.D[0]
	VMOV	p2, V12.D[0]
	VMOV	r0, V13.D[1]
	VMOV	r1, V14.D[1]

	// Constants: V15 = 2^26 - 1 per 64-bit lane, V16 = 5 per element.
	MOVD	$0x3ffffff, R25
	VDUP	R25, V15.D2
	MOVD	$5, R25
	VDUP	R25, V16.S4

	// F_j = [r4_j, r3_j, r2_j, r1_j]: P's limbs in the low halves of the
	// 64-bit lanes, Q's in the high halves; R_j = [r4_j, r4_j, r2_j, r2_j];
	// S_j = 5·R_j.
	LIMBS26(V10, V11, V12, V27, V28, V29, V30, V31)
	LIMBS26(V13, V14, V0, V5, V6, V7, V8, V9)
	VSLI	$32, V5.D2, V27.D2
	VSLI	$32, V6.D2, V28.D2
	VSLI	$32, V7.D2, V29.D2
	VSLI	$32, V8.D2, V30.D2
	VSLI	$32, V9.D2, V31.D2
	VTRN1	V27.S4, V27.S4, V18.S4
	VTRN1	V28.S4, V28.S4, V19.S4
	VTRN1	V29.S4, V29.S4, V20.S4
	VTRN1	V30.S4, V30.S4, V21.S4
	VTRN1	V31.S4, V31.S4, V22.S4
	TIMES5(19, 23)
	TIMES5(20, 24)
	TIMES5(21, 25)
	TIMES5(22, 26)

	// h in 26-bit limbs in element 0 of H (FMOVD clears the rest).
	AND	$0x3ffffff, h0, R12
	UBFX	$26, h0, $26, R13
	EXTR	$52, h0, h1, R14
	AND	$0x3ffffff, R14
	UBFX	$14, h1, $26, R15
	EXTR	$40, h1, h2, R16
	FMOVD	R12, F0
	FMOVD	R13, F1
	FMOVD	R14, F2
	FMOVD	R15, F3
	FMOVD	R16, F4

	// Every step but the last: H = H + m, D = H·[r^4, r^2], carry, narrow;
	// two steps per trip, after one alone if their number is odd.
	SUB	$64, R2, R23      // the last step's blocks
	SUB	R1, R23, R25
	TBZ	$6, R25, neonPairs
	MSG
	MULT(18, 19, 20, 21, 22, 23, 24, 25, 26)
	REDUCE

neonPairs:
	CMP	R1, R23
	BEQ	neonLast

neonLoop:
	MSG
	MULT(18, 19, 20, 21, 22, 23, 24, 25, 26)
	REDUCE
	MSG
	MULT(18, 19, 20, 21, 22, 23, 24, 25, 26)
	REDUCE
	CMP	R1, R23
	BNE	neonLoop

neonLast:
	// The last step: each block times its own power, r^4, r^3, r^2, r^1
	// (S_j = 5·F_j now).
	MSG
	TIMES5(28, 23)
	TIMES5(29, 24)
	TIMES5(30, 25)
	TIMES5(31, 26)
	MULT(27, 28, 29, 30, 31, 23, 24, 25, 26)

	// Add the lanes (each below 2^59), carry in 64-bit registers and
	// convert to h0 + h1·2^64 + h2·2^128 with h2 <= 4.
	VADDP	V6.D2, V5.D2, V5.D2
	VADDP	V8.D2, V7.D2, V7.D2
	VADDP	V9.D2, V9.D2, V9.D2
	VMOV	V5.D[0], R12
	VMOV	V5.D[1], R13
	VMOV	V7.D[0], R14
	VMOV	V7.D[1], R15
	VMOV	V9.D[0], R16
	ADD	R12>>26, R13, R13
	AND	$0x3ffffff, R12
	ADD	R13>>26, R14, R14
	AND	$0x3ffffff, R13
	ADD	R14>>26, R15, R15
	AND	$0x3ffffff, R14
	ADD	R15>>26, R16, R16
	AND	$0x3ffffff, R15
	LSR	$26, R16, R17
	AND	$0x3ffffff, R16
	ADD	R17, R12
	ADD	R17<<2, R12
	ADD	R12>>26, R13, R13
	AND	$0x3ffffff, R12
	ORR	R13<<26, R12, h0  // below 2^53
	LSR	$12, R14, h1
	ORR	R15<<14, h1
	ORR	R16<<40, h1
	LSR	$24, R16, h2
	ADDS	R14<<52, h0
	ADCS	ZR, h1
	ADC	ZR, h2

neonStore:
	STP	(h0, h1), 0(R0)
	MOVD	h2, 16(R0)
	RET
