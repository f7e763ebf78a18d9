//go:build gc && !purego && (ppc64 || ppc64le)

// Poly1305 block function for ppc64le and ppc64 (RFC 8439, Section 2.5.1).
// blocksScalar64 works in general-purpose registers: the accumulator in three
// 64-bit limbs, the products with MULLD and MULHDU, the reduction modulo
// 2^130 - 5 with shifts and adds. Nothing branches on the key, the
// accumulator or the message, and no memory index depends on them; the only
// branches count the blocks.
//
// This is poly1305_arm64.s's blocksScalar64 in Power ISA, where its
// multiplication, bounds and choices are argued: s1 = r1 + r1>>2 = 5·r1/4
// folds the terms of h·r at 2^128 and 2^192; the products of h2 join a high
// half with no carry; lo(h1·r0) joins the reduction's add chain; and h2 is
// kept biased by -1 inside the function, so that the reduction computes the
// new h2 = (d2 & 3) + carry - 1 with one SUBE (RT = RB - RA - 1 + CA, like
// arm64's SBC) and the next message add adds hibit + 1 with the ADDE that
// absorbs its carry. The Power ISA has the carry bit (ADDC, ADDE) but no
// multiply-add before ISA 3.0 (GOPPC64=power8 is the default), so each
// product of h2 costs a MULLD and an ADD: 28 instructions per block (26 with
// GOPPC64=power9 or later, which has MADDLD), plus 3 per trip of 8 blocks (the portable Go code compiles to about 52 per block,
// golang.org/x/crypto's sum_ppc64x.s to 41). After each block h2 <= 4, so
// h < 2p as finalize needs.
//
// Loads: MOVD reads little-endian on ppc64le and needs no alignment; on
// big-endian ppc64 MOVDBR (byte-reversed, indexed form only) reads the
// words, one instruction more per block for advancing the pointer.
//
// Register map:
//
//   R3        st *state: h [3]uint64 at 0, r [2]uint64 at 24, s at 40
//   R4        msg pointer
//   R5        end of msg's whole 16-byte blocks
//   R6        hibit + 1 (2 for full blocks, 1 for the padded last block)
//   R7        end of msg's whole 128-byte groups
//   R8 R9 R10 h0, h1, h2 - 1 (the biased h2)
//   R11 R12   r0, r1
//   R14       s1 = r1 + r1>>2
//   R15 R16   message block m0, m1; m0 then holds the products of h2
//             (before power9)
//   R17..R26  products and the reduction's temporaries (see MULR)
//   R28       ppc64 only: 8, the index of m1
//   R0 (zero), R1 (stack), R2 (TOC), R13 (TLS), R30 (g) and R31
//   (assembler temporary) are not touched.

#include "textflag.h"

#define h0 R8
#define h1 R9
#define h2 R10
#define r0 R11
#define r1 R12
#define s1 R14
#define m0 R15
#define m1 R16
#define t0 R17
#define t1 R18
#define t2 R19
#define t3 R20
#define t4 R21
#define t5 R22
#define t6 R23
#define t7 R24
#define tt R25
#define t R26

// LOAD reads the block at off(R4) into m0, m1; ADVANCE(n) moves R4 on by n
// bytes after the blocks of a trip. On ppc64, LOAD reads at R4 and advances
// it itself.
#ifdef GOARCH_ppc64le
#define LOAD(off) \
	MOVD	off(R4), m0; \
	MOVD	off+8(R4), m1
#define ADVANCE(n) ADD $n, R4
#else
#define LOAD(off) \
	MOVDBR	(R4)(R0), m0; \
	MOVDBR	(R4)(R28), m1; \
	ADD	$16, R4
#define ADVANCE(n)
#endif

// MULADD(a, b, d) adds the low half of a·b to d: with MADDLD (ISA 3.0) when
// GOPPC64 is power9 or later, else with MULLD into m0 and an ADD.
#ifdef GOPPC64_power9
#define MULADD(a, b, d) MADDLD a, b, d, d
#else
#define MULADD(a, b, d) \
	MULLD	a, b, m0; \
	ADD	m0, d
#endif

// MULR sets h = h·r, partly reduced modulo 2^130 - 5, for h2 <= 9 (BLOCK's
// bound after its message add), and leaves h2 biased by -1: the result is
// h0 + h1·2^64 + (h2 + 1)·2^128 with h2 + 1 <= 4.
#define MULR \
	/* The four high halves first (they feed the longer chains); the \
	 * products of h2 join two of them (no carry). */ \
	MULHDU	r1, h0, t5;       /* hi(h0·r1) */ \
	MULHDU	s1, h1, t3;       /* hi(h1·s1) */ \
	MULHDU	r0, h1, t7;       /* hi(h1·r0) */ \
	MULHDU	r0, h0, t1;       /* hi(h0·r0) */ \
	MULADD(r0, h2, t5);       /* + h2·r0 */ \
	MULADD(s1, h2, t3);       /* + h2·s1 */ \
	MULLD	r0, h0, t0;       /* lo(h0·r0) */ \
	MULLD	s1, h1, t2;       /* lo(h1·s1) */ \
	MULLD	r1, h0, t4;       /* lo(h0·r1) */ \
	ADD	t3, t1;           /* hi(h0·r0) + t3 (no carry) */ \
	MULLD	r0, h1, t6;       /* lo(h1·r0) */ \
	/* d = d0 + d1·2^64 + d2·2^128, without lo(h1·r0) yet. */ \
	ADDC	t2, t0, h0; \
	ADDE	t4, t1, h1; \
	ADDE	t7, t5, h2; \
	/* Reduce: h = d mod 2^130 + 5·(d >> 130), adding lo(h1·r0) on the \
	 * way; h2 = (d2 & 3) + carry - 1 (biased). */ \
	RLDICR	$0, h2, $61, tt;  /* 4·(d2 >> 2) */ \
	SRD	$2, h2, t; \
	ADD	tt, t;            /* 5·(d2 >> 2) */ \
	ADDC	t, h0; \
	ADDE	t6, h1; \
	SUBE	tt, h2, h2

// BLOCK absorbs the 16 bytes at off(R4):
// h = (h + m + hibit·2^128)·r, partly reduced modulo 2^130 - 5.
#define BLOCK(off) \
	/* h += m + hibit·2^128 (R6 = hibit + 1 undoes the bias of h2). */ \
	LOAD(off); \
	ADDC	m0, h0; \
	ADDE	m1, h1; \
	ADDE	R6, h2; \
	MULR

// func blocksScalar64(st *state, msg []byte, hibit uint64)
//
// Absorbs len(msg)/16 blocks into st.h, each with hibit·2^128 added to it
// (hibit is 1 for full blocks, 0 for the last padded block of a message),
// as blocksGeneric does.
TEXT ·blocksScalar64(SB), NOSPLIT, $0-40
	MOVD	st+0(FP), R3
	MOVD	msg_base+8(FP), R4
	MOVD	msg_len+16(FP), R5
	MOVD	hibit+32(FP), R6

	// Load the state; s1 = 5·r1/4; bias h2 by -1 and R6 by +1.
	MOVD	0(R3), h0
	MOVD	8(R3), h1
	MOVD	16(R3), h2
	MOVD	24(R3), r0
	MOVD	32(R3), r1
	SRD	$2, r1, s1
	ADD	r1, s1
	ADD	$-1, h2
	ADD	$1, R6
#ifndef GOARCH_ppc64le
	MOVD	$8, R28
#endif

	// R7 = end of msg's whole 128-byte groups; R5 = end of its whole blocks.
	RLDICR	$0, R5, $56, R7
	RLDICR	$0, R5, $59, R5
	ADD	R4, R7
	ADD	R4, R5
	CMP	R4, R7
	BEQ	tail

loop8:
	// Eight blocks per trip.
	BLOCK(0)
	BLOCK(16)
	BLOCK(32)
	BLOCK(48)
	BLOCK(64)
	BLOCK(80)
	BLOCK(96)
	BLOCK(112)
	ADVANCE(128)
	CMP	R4, R7
	BNE	loop8

tail:
	// The last 0 to 7 blocks, one per trip.
	CMP	R4, R5
	BEQ	done

loop1:
	BLOCK(0)
	ADVANCE(16)
	CMP	R4, R5
	BNE	loop1

done:
	// Undo the bias of h2 and store h.
	ADD	$1, h2
	MOVD	h0, 0(R3)
	MOVD	h1, 8(R3)
	MOVD	h2, 16(R3)
	RET
