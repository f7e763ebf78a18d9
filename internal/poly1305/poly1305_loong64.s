//go:build gc && !purego

// Poly1305 block function for loong64 (RFC 8439, Section 2.5.1).
// blocksScalar64 works in general-purpose registers: the accumulator in three
// 64-bit limbs, the products with MULV and MULHVU, the reduction modulo
// 2^130 - 5 with shifts and adds. Nothing branches on the key, the
// accumulator or the message, and no memory index depends on them; the only
// branches count the blocks.
//
// Multiplication: the method of poly1305_arm64.s (OpenSSL's
// poly1305-armv8.pl, poly1305-donna's 64-bit code). Clamping makes r1 a
// multiple of 4, so with s1 = r1 + r1>>2 = 5·r1/4 the terms of h·r at 2^128
// and 2^192 fold back exactly:
//
//   h·r ≡ d0 + d1·2^64 + d2·2^128 with
//     d0 = lo(h0·r0) + lo(h1·s1)
//     d1 = hi(h0·r0) + hi(h1·s1) + h2·s1 + lo(h0·r1) + lo(h1·r0)
//     d2 = hi(h0·r1) + hi(h1·r0) + h2·r0             (+ the carries)
//
// LoongArch has no carry flag: a carry out of x = a + b is SGTU a, x (x < a).
// Three choices keep the carries few, and the loop at 38 instructions per
// block, plus 2 per trip of 8 blocks (the portable Go code compiles to about
// 72 per block, golang.org/x/crypto's sum_loong64.s to 61):
//   - hi(h0·r0) + hi(h1·s1) + h2·s1 is below 2^64 (clamping keeps r0, r1 <
//     2^60 and s1 < 1.25·2^60, h2 <= 9 below), and so are those three plus
//     the three carries into d1 added below: they are added without a carry;
//   - lo(h0·r1) + lo(h1·r0) are added to each other first (one carry, into
//     d2) and their sum joins d1 only after the reduction, on the way to the
//     new h1, where its carry goes straight to h2;
//   - the next block's message is added in the same pass as the reduction
//     (REDUCE, then NEXT): the carries of h0 (the reduction's and the
//     message's) join the first sum of d1 with plain adds, as above.
// Each block then computes, with d2 = hi(h0·r1) + hi(h1·r0) + h2·r0 + the
// carry of the lo sum, and h2 := d2 & 3 + the carries out of h1 (+ hibit):
//
//   h0 = d0 + 5·(d2 >> 2) [+ m0]
//   h1 = hi(h0·r0) + hi(h1·s1) + h2·s1 + the carries of h0
//        + (lo(h0·r1) + lo(h1·r0)) [+ m1]
//
// Bounds: h2 <= 7 on entry (the portable code's bound), so h2 <= 9 after
// the first message add; then d2 < 11·2^60, 5·(d2 >> 2) fits in 64 bits,
// and after each block h < 2^130 + 2^128 + 2^64 (d mod 2^130, plus 5·(d2 >>
// 2), plus the lo sum at 2^64), so h2 <= 4 and h < 2p, as finalize needs;
// in the loop h2 <= 6 after the message add.
//
// Register map:
//
//   R4        st *state: h [3]uint64 at 0, r [2]uint64 at 24, s at 40
//   R5        msg pointer: the block being multiplied; the next one is
//             read at an offset
//   R6        the whole blocks' count, then the end of the single steps
//   R7        hibit
//   R8        the end of the steps of eight blocks
//   R9 R10 R11   h0, h1, h2
//   R12 R13   r0, r1
//   R14       s1 = r1 + r1>>2
//   R15..R21, R23..R26
//             products, sums and carries (see REDUCE)
//   R27 R28   message block m0, m1, then their carries
//   R22 (g), R29, R30 (assembler temporary) and R31 are not touched.

#include "textflag.h"

#define h0 R9
#define h1 R10
#define h2 R11
#define r0 R12
#define r1 R13
#define s1 R14
#define pa R15
#define pb R16
#define pc R17
#define pd R18
#define pe R19
#define pf R20
#define pg R21
#define pk R23
#define pu R24
#define pv R25
#define t R26
#define m0 R27
#define m1 R28

// REDUCE multiplies h (h2 <= 9) by r and starts the reduction: it leaves
// h0 = d0 + 5·(d2 >> 2) and h2 = d2 & 3, pb = the first sum of d1 with the
// carries of h0 so far, pe = the lo sum that NEXT or LAST adds at 2^64.
#define REDUCE \
	/* The ten products. */ \
	MULV	r0, h0, pa;       /* lo(h0·r0) */ \
	MULHVU	r0, h0, pb;       /* hi(h0·r0) */ \
	MULV	s1, h1, pc;       /* lo(h1·s1) */ \
	MULHVU	s1, h1, pd;       /* hi(h1·s1) */ \
	MULV	r1, h0, pe;       /* lo(h0·r1) */ \
	MULHVU	r1, h0, pf;       /* hi(h0·r1) */ \
	MULV	r0, h1, pg;       /* lo(h1·r0) */ \
	MULHVU	r0, h1, pk;       /* hi(h1·r0) */ \
	MULV	s1, h2, pu;       /* h2·s1 */ \
	MULV	r0, h2, pv;       /* h2·r0 */ \
	/* d0 and its carry pc; the first sum of d1 (no carry); the lo sum pe \
	 * and its carry pg; d2. */ \
	ADDV	pc, pa, h0; \
	SGTU	pc, h0, pc; \
	ADDV	pd, pb; \
	ADDV	pu, pb; \
	ADDV	pg, pe; \
	SGTU	pg, pe, pg; \
	ADDV	pk, pf; \
	ADDV	pv, pf; \
	ADDV	pg, pf; \
	/* h0 = d0 + 5·(d2 >> 2), its carry t; h2 = d2 & 3. */ \
	SRLV	$2, pf, t; \
	ALSLV	$2, t, t, t;      /* 5·(d2 >> 2) */ \
	AND	$3, pf, h2; \
	ADDV	t, h0; \
	SGTU	t, h0, t; \
	ADDV	pc, pb; \
	ADDV	t, pb

// NEXT finishes REDUCE and adds the next block, at off(R5), and hibit·2^128:
// h = the product, reduced, + m + hibit·2^128 (h2 <= 6).
#define NEXT(off) \
	MOVV	off(R5), m0; \
	MOVV	off+8(R5), m1; \
	ADDV	m0, h0; \
	SGTU	m0, h0, m0;       /* carry of h0 */ \
	ADDV	m0, pb;           /* no carry */ \
	ADDV	pe, pb, h1; \
	SGTU	pe, h1, pe; \
	ADDV	m1, h1; \
	SGTU	m1, h1, m1; \
	ADDV	pe, h2; \
	ADDV	m1, h2; \
	ADDV	R7, h2

// LAST finishes REDUCE without a next block (h2 <= 4).
#define LAST \
	ADDV	pe, pb, h1; \
	SGTU	pe, h1, pe; \
	ADDV	pe, h2

// STEP multiplies the block at R5 and adds the next one, at 16·i(R5).
#define STEP(i) \
	REDUCE; \
	NEXT(16*(i))

// func blocksScalar64(st *state, msg []byte, hibit uint64)
//
// Absorbs len(msg)/16 blocks into st.h, each with hibit·2^128 added to it
// (hibit is 1 for full blocks, 0 for the last padded block of a message),
// as blocksGeneric does.
TEXT ·blocksScalar64(SB), NOSPLIT, $0-40
	MOVV	st+0(FP), R4
	MOVV	msg_base+8(FP), R5
	MOVV	msg_len+16(FP), R6
	MOVV	hibit+32(FP), R7

	// No whole block: nothing to do.
	SRLV	$4, R6
	BEQ	R6, ret

	// Load the state; s1 = 5·r1/4.
	MOVV	0(R4), h0
	MOVV	8(R4), h1
	MOVV	16(R4), h2
	MOVV	24(R4), r0
	MOVV	32(R4), r1
	SRLV	$2, r1, s1
	ADDV	r1, s1

	// h += the first block + hibit·2^128.
	MOVV	0(R5), m0
	MOVV	8(R5), m1
	ADDV	m0, h0
	SGTU	m0, h0, m0
	ADDV	m1, h1
	SGTU	m1, h1, m1
	ADDV	m0, h1
	SGTU	m0, h1, m0
	ADDV	m0, h2
	ADDV	m1, h2
	ADDV	R7, h2

	// Each step multiplies one block and adds the next: count - 1 steps,
	// then the last multiplication. R8 = the end of the steps of eight
	// blocks, R6 = the end of all the steps (in terms of R5).
	ADDV	$-1, R6
	SRLV	$3, R6, R8
	SLLV	$7, R8
	ADDV	R5, R8
	SLLV	$4, R6
	ADDV	R5, R6
	BEQ	R5, R8, tail

loop8:
	// Eight steps per trip.
	STEP(1)
	STEP(2)
	STEP(3)
	STEP(4)
	STEP(5)
	STEP(6)
	STEP(7)
	STEP(8)
	ADDV	$128, R5
	BNE	R5, R8, loop8

tail:
	// The last 0 to 7 steps, one per trip.
	BEQ	R5, R6, last

loop1:
	STEP(1)
	ADDV	$16, R5
	BNE	R5, R6, loop1

last:
	// The last block's multiplication; store h.
	REDUCE
	LAST
	MOVV	h0, 0(R4)
	MOVV	h1, 8(R4)
	MOVV	h2, 16(R4)

ret:
	RET
