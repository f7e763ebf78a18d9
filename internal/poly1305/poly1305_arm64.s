//go:build gc && !purego

// Poly1305 block function for arm64 (RFC 8439, Section 2.5.1) in
// general-purpose registers: the accumulator in three 64-bit limbs, the
// products with MUL and UMULH, the reduction modulo 2^130 - 5 with shifts and
// adds. Nothing branches on the key, the accumulator or the message; the only
// branches count the blocks.
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
//             products and the reduction's temporaries (see BLOCK)
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

// BLOCK absorbs the 16 bytes at R1 and advances R1:
// h = (h + m + hibit·2^128)·r, partly reduced modulo 2^130 - 5.
#define BLOCK \
	/* h += m + hibit·2^128 (R3 = hibit + 1 undoes the bias of h2). */ \
	LDP.P	16(R1), (m0, m1); \
	ADDS	m0, h0, h0; \
	ADCS	m1, h1, h1; \
	ADC	R3, h2, h2; \
	/* The four 64x64-bit products, the high halves first: they feed the \
	 * longer dependency chains (llvm-mca: 1 cycle per block less on the \
	 * Cortex-A57 and Neoverse-N1 models than in column order). The small \
	 * products of h2 join a high half (no carry). */ \
	UMULH	r1, h0, t5;       /* hi(h0·r1) */ \
	UMULH	s1, h1, t3;       /* hi(h1·s1) */ \
	UMULH	r0, h1, t7;       /* hi(h1·r0) */ \
	UMULH	r0, h0, t1;       /* hi(h0·r0) */ \
	MADD	r0, t5, h2, t5;   /* t5 += h2·r0 */ \
	MADD	s1, t3, h2, t3;   /* t3 += h2·s1 */ \
	MUL	r0, h0, t0;       /* lo(h0·r0) */ \
	MUL	s1, h1, t2;       /* lo(h1·s1) */ \
	MUL	r1, h0, t4;       /* lo(h0·r1) */ \
	ADD	t1, t3, t1;       /* hi(h0·r0) + t3 (no carry) */ \
	MUL	r0, h1, t6;       /* lo(h1·r0) */ \
	/* d = d0 + d1·2^64 + d2·2^128, without lo(h1·r0) yet. */ \
	ADDS	t2, t0, h0; \
	ADCS	t4, t1, h1; \
	ADC	t7, t5, h2; \
	/* Reduce: h = d mod 2^130 + 5·(d >> 130), adding lo(h1·r0) on the \
	 * way; h2 = (d2 & 3) + carry - 1 (biased). */ \
	AND	$-4, h2, tt;      /* 4·(d2 >> 2) */ \
	ADD	h2>>2, tt, t;     /* 5·(d2 >> 2) */ \
	ADDS	t, h0, h0; \
	ADCS	t6, h1, h1; \
	SBC	tt, h2, h2

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
