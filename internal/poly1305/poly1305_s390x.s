//go:build gc && !purego

// Poly1305 block function for s390x (RFC 8439, Section 2.5.1), in
// general-purpose registers: the accumulator in three 64-bit limbs, the
// products with MLGR (64x64 -> 128 bits into an even/odd register pair),
// the message words loaded little-endian with MOVDBR (LRVG). Nothing
// branches on the key, the accumulator or the message, and no memory index
// depends on them; the only branches count the blocks.
//
// The arithmetic is that of blocksScalar64 in poly1305_arm64.s (after
// OpenSSL's poly1305 and poly1305-donna's 64-bit code): clamping makes r1 a
// multiple of 4, so with s1 = r1 + r1>>2 = 5·r1/4
//
//   h·r ≡ d0 + d1·2^64 + d2·2^128 with
//     d0 = lo(h0·r0) + lo(h1·s1)
//     d1 = hi(h0·r0) + hi(h1·s1) + h2·s1 + lo(h0·r1) + lo(h1·r0)
//     d2 = hi(h0·r1) + hi(h1·r0) + h2·r0             (+ the carries)
//
// and the same bounds hold (r0, r1 < 2^60, s1 < 2^61, h2 <= 9 after the
// message add, d2 < 11·2^60): h2·s1 and h2·r0 join a high half without a
// carry, lo(h1·r0) goes into the reduction's add chain, and h2 is kept
// biased by -1 so that the reduction's SUBE (d2 - (d2 &^ 3) - 1 + carry)
// leaves the next h2 in one instruction and the message add of the next
// block puts the 1 back with hibit (ADDE of hibit + 1).
//
// What is particular to s390x is where the operands live. MLGR multiplies
// the odd register of a pair by its source and overwrites the pair, so h0
// and h1 live in the odd registers of the pairs of their last products
// (h0·r1 in R4:R5, h1·r0 in R6:R7) and are multiplied in place there; only
// their first products (h0·r0, h1·s1) need a copy. h2 lives in R6 until
// h1·r0 overwrites it, by which time h2·s1 and h2·r0 have joined their high
// halves. The carry chains are kept free of instructions that set the
// condition code (MLGR, LRVG, LGR, SRLG and LA leave it alone).
//
// 26 instructions per 16-byte block, plus 2 per trip of 8 blocks.
//
// After each block h = h0 + h1·2^64 + h2·2^128 with h2 <= 4, so h < 2p and
// finalize's single conditional subtraction of p is enough.
//
// Register map:
//
//   R0:R1     pair A: the message words, then h0·r0; R1 ends as d0
//   R2:R3     pair B: h1·s1; later d2 &^ 3 and 5·(d2 >> 2)
//   R4:R5     pair C: h2·s1 for a moment, then h0·r1; R5 is h0 between
//             blocks
//   R6:R7     pair D: h1·r0; R6 is h2 - 1 (the biased h2) and R7 is h1
//             between blocks
//   R8, R9    r0, r1
//   R12       s1 = r1 + r1>>2
//   R10       msg pointer, advanced per trip
//   R11       trips left
//   hibit+32(FP) holds hibit + 1 during the call (the ADDE's memory
//   operand: every register is taken). No assembler expansion here uses
//   R10 or R11 (checked with go tool objdump); R13 (g), R14 (link) and R15
//   (stack) are not touched.

#include "textflag.h"

// BLOCK absorbs the 16 bytes at off(R10): h = (h + m + hibit·2^128)·r,
// partly reduced modulo 2^130 - 5.
#define BLOCK(off) \
	/* h += m + hibit·2^128 (hibit + 1 undoes the bias of h2). */ \
	MOVDBR	off(R10), R0; \
	MOVDBR	off+8(R10), R1; \
	ADDC	R0, R5; \
	ADDE	R1, R7; \
	ADDE	hibit+32(FP), R6; \
	/* The products; h2·s1 and h2·r0 join the high halves of h1·s1 and \
	 * h0·r1 (no carry). */ \
	MOVD	R5, R1; \
	MLGR	R8, R0;           /* A = h0·r0 */ \
	MOVD	R6, R4; \
	MULLD	R12, R4;          /* h2·s1 */ \
	MOVD	R7, R3; \
	MLGR	R12, R2;          /* B = h1·s1 */ \
	ADD	R4, R2; \
	MLGR	R9, R4;           /* C = h0·r1 */ \
	MULLD	R8, R6;           /* h2·r0 */ \
	ADD	R6, R4; \
	MLGR	R8, R6;           /* D = h1·r0 */ \
	/* d0 in R1, d1 without lo(h1·r0) in R0, d2 in R6. */ \
	ADDC	R3, R1; \
	ADDE	R2, R0; \
	ADDC	R5, R0; \
	ADDE	R4, R6; \
	/* Reduce: h = d mod 2^130 + 5·(d2 >> 2), adding lo(h1·r0) on the \
	 * way; h2 = (d2 & 3) + carry - 1 (biased). */ \
	RISBGZ	$0, $61, $0, R6, R2; /* 4·(d2 >> 2) */ \
	SRD	$2, R6, R3; \
	ADD	R2, R3;           /* 5·(d2 >> 2) */ \
	ADDC	R3, R1, R5; \
	ADDE	R0, R7; \
	SUBE	R2, R6

// func blocksScalar64(st *state, msg []byte, hibit uint64)
//
// Absorbs len(msg)/16 blocks into st.h, each with hibit·2^128 added to it
// (hibit is 1 for full blocks, 0 for the last padded block of a message),
// as blocksGeneric does.
TEXT ·blocksScalar64(SB), NOSPLIT, $0-40
	// Load the state; s1 = 5·r1/4; bias h2 by -1 and hibit by +1.
	MOVD	st+0(FP), R2
	MOVD	0(R2), R5
	MOVD	8(R2), R7
	MOVD	16(R2), R6
	MOVD	24(R2), R8
	MOVD	32(R2), R9
	SRD	$2, R9, R12
	ADD	R9, R12
	SUB	$1, R6
	MOVD	hibit+32(FP), R0
	ADD	$1, R0
	MOVD	R0, hibit+32(FP)

	// R11 = trips of 8 blocks.
	MOVD	msg_base+8(FP), R10
	MOVD	msg_len+16(FP), R11
	SRD	$7, R11
	CMPBEQ	R11, $0, tail

loop8:
	BLOCK(0)
	BLOCK(16)
	BLOCK(32)
	BLOCK(48)
	BLOCK(64)
	BLOCK(80)
	BLOCK(96)
	BLOCK(112)
	MOVD	$128(R10), R10
	BRCTG	R11, loop8

tail:
	// The last 0 to 7 blocks, one per trip: R11 = (len >> 4) & 7.
	MOVD	msg_len+16(FP), R11
	RISBGZ	$61, $63, $60, R11, R11
	CMPBEQ	R11, $0, done

loop1:
	BLOCK(0)
	MOVD	$16(R10), R10
	BRCTG	R11, loop1

done:
	// Undo the bias of h2 and store h.
	ADD	$1, R6
	MOVD	st+0(FP), R2
	MOVD	R5, 0(R2)
	MOVD	R7, 8(R2)
	MOVD	R6, 16(R2)
	RET
