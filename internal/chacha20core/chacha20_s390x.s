//go:build gc && !purego

#include "textflag.h"

// ChaCha20 keystream XOR for s390x with the vector facility (RFC 8439,
// Section 2.3). Only z13 vector instructions are used (no vector-enhancements
// facility), so the code runs on every machine Go supports that reports VX.
//
// Two layouts:
//
//   Vertical, for every whole group of 4 blocks: one register per state word,
//   32-bit lane j holding block j (as in golang.org/x/crypto's
//   chacha_s390x.s), so a double round is 96 adds, XORs and rotates
//   (VAF/VX/VERLLF) and the blocks are transposed into byte order at the end.
//
//   Horizontal, for the 1 to 3 blocks left over: one block in four registers,
//   one row of the state each, the diagonals lined up with VSLDB (30
//   instructions per double round for one block, against 96 for four in the
//   vertical layout); a short input then costs about a third of a vertical
//   group per block instead of a whole group.
//
// Savings of the vertical code over that scheme (the code is written for this
// package's State and Go's assembler):
//   - Precomputed first round, as in chacha20_loong64.s (golang.org/x/crypto's
//     portable chacha_generic.go caches the three counter-independent
//     quarter rounds the same way). Only word 12 (the block counter) differs
//     between the blocks, so the quarter rounds of columns 1, 2 and 3 of the
//     first column round, x0 = c0+k0, and the first steps of two diagonal
//     quarter rounds (x1 += x6; x2 += x7; x13 = (x13^x2) <<< 16) are the
//     same for every block: they are computed once per call, in the
//     horizontal layout (all four columns in one register each), which
//     removes 41 of the 960 vector instructions of ten double rounds.
//   - The state of every group is loaded from a stack table with one VLM
//     (16 registers): the precomputed words broadcast into all four lanes.
//     The feed-forward and transposition constants come with a second VLM.
//   - The byte swap to the little-endian keystream is folded into the
//     second step of the transposition: a VPERM that merges two registers
//     can pick the bytes of each word in reverse order, so the swap costs
//     nothing. The feed-forward is added between the two steps, with the
//     input words arranged the way the first step leaves the lanes.
//   - The 256 bytes of message of a group are loaded and stored with one
//     VLM and one VSTM.
//
// Register map (xorBlocksVX):
//   R1        s *State: Key [8]uint32 at 0, Counter at 32, Nonce [3]uint32
//             at 36, big-endian words (the machine's byte order)
//   R2, R3    dst and src pointers, advanced per group and per block
//   R4        groups of 4 blocks left, then scratch
//   R5        single blocks left (0..3)
//   R6        block counter of the first single block
//   R7        &chachaS390XConst
//
//   Set-up (horizontal precomputation):
//   V16..V24  the constant table: sigma, lane offsets, ME, MO, MHI, MLO,
//             INC, BSWAP, ONE (see the DATA below)
//   V25, V26  key rows k0..k3, k4..k7
//   V27       row {counter, n0, n1, n2}
//   V28..V31  the four rows after the first column round
//   V0..V15   the table entries being assembled
//
//   Vertical group:
//   V0..V11, V16, V13..V15
//             state words x0..x15 of blocks 0..3 (x12 lives in V16 so that
//             V12 can keep the counters)
//   V12       block counters of the group, s.Counter+4i+{0,1,2,3}
//   V17..V24  feed-forward pairs (FFE, FFO) of rows 0..3, loaded after the
//             rounds; row 3 has zero in place of the counter
//   V25, V26  MHI, MLO: second transposition step with the byte swap
//   V27       INC = {4, 4, 4, 4}
//   V28..V31  transposition temporaries
//   After the transposition V(4r+j) holds row r of block j in keystream byte
//   order, and V16..V31 take the 256 bytes of message.
//
//   Single blocks (horizontal):
//   V16       sigma (row 0 of the input)
//   V17       sigma + k0..k3, row 0 after the first addition
//   V23       BSWAP, V24 ONE = {1, 0, 0, 0}
//   V25, V26  key rows, V27 row 3 with the block's counter
//   V28..V31  rows a, b, c, d
//   V0..V3    the 64 bytes of message
//
// Go's ABI0 makes every vector register caller-saved, so none is saved.
// The stack frame holds the group table (INIT, 16 vectors: the initial
// value of every working register, the counters at slot 12) and the output
// table (OUT, 11 vectors: V17..V27 of a group); both are wiped before the
// function returns.

// Constant table (big-endian doublewords, so each 32-bit word reads as
// written). ME and MO spread words 0,2 and 1,3 of a row over the
// lanes the first transposition step produces ({w0, w2, w0, w2} and
// {w1, w3, w1, w3}); MHI and MLO take words 0,1 and 2,3 of two registers
// alternately, each byte-swapped; BSWAP byte-swaps every word.
DATA ·chachaS390XConst+0x00(SB)/8, $0x617078653320646e // sigma
DATA ·chachaS390XConst+0x08(SB)/8, $0x79622d326b206574
DATA ·chachaS390XConst+0x10(SB)/8, $0x0000000000000001 // lane offsets
DATA ·chachaS390XConst+0x18(SB)/8, $0x0000000200000003
DATA ·chachaS390XConst+0x20(SB)/8, $0x0001020308090a0b // ME
DATA ·chachaS390XConst+0x28(SB)/8, $0x0001020308090a0b
DATA ·chachaS390XConst+0x30(SB)/8, $0x040506070c0d0e0f // MO
DATA ·chachaS390XConst+0x38(SB)/8, $0x040506070c0d0e0f
DATA ·chachaS390XConst+0x40(SB)/8, $0x0302010013121110 // MHI
DATA ·chachaS390XConst+0x48(SB)/8, $0x0706050417161514
DATA ·chachaS390XConst+0x50(SB)/8, $0x0b0a09081b1a1918 // MLO
DATA ·chachaS390XConst+0x58(SB)/8, $0x0f0e0d0c1f1e1d1c
DATA ·chachaS390XConst+0x60(SB)/8, $0x0000000400000004 // INC
DATA ·chachaS390XConst+0x68(SB)/8, $0x0000000400000004
DATA ·chachaS390XConst+0x70(SB)/8, $0x0302010007060504 // BSWAP
DATA ·chachaS390XConst+0x78(SB)/8, $0x0b0a09080f0e0d0c
DATA ·chachaS390XConst+0x80(SB)/8, $0x0000000100000000 // ONE
DATA ·chachaS390XConst+0x88(SB)/8, $0
GLOBL ·chachaS390XConst(SB), RODATA|NOPTR, $144

// Stack frame offsets of the group table and the output table.
#define INIT 8
#define OUT (INIT + 256)

// QR4 is one column or diagonal round of the vertical layout: four quarter
// rounds (a, b, c, d) interleaved step by step. QR4HEAD is its first three
// steps (a += b; d ^= a; d <<<= 16), QR4TAIL the other nine.
#define QR4HEAD(a0, b0, d0, a1, b1, d1, a2, b2, d2, a3, b3, d3) \
	VAF	b0, a0, a0; VAF	b1, a1, a1; VAF	b2, a2, a2; VAF	b3, a3, a3; \
	VX	a0, d0, d0; VX	a1, d1, d1; VX	a2, d2, d2; VX	a3, d3, d3; \
	VERLLF	$16, d0, d0; VERLLF	$16, d1, d1; VERLLF	$16, d2, d2; VERLLF	$16, d3, d3
#define QR4TAIL(a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, c3, d3) \
	VAF	d0, c0, c0; VAF	d1, c1, c1; VAF	d2, c2, c2; VAF	d3, c3, c3; \
	VX	c0, b0, b0; VX	c1, b1, b1; VX	c2, b2, b2; VX	c3, b3, b3; \
	VERLLF	$12, b0, b0; VERLLF	$12, b1, b1; VERLLF	$12, b2, b2; VERLLF	$12, b3, b3; \
	VAF	b0, a0, a0; VAF	b1, a1, a1; VAF	b2, a2, a2; VAF	b3, a3, a3; \
	VX	a0, d0, d0; VX	a1, d1, d1; VX	a2, d2, d2; VX	a3, d3, d3; \
	VERLLF	$8, d0, d0; VERLLF	$8, d1, d1; VERLLF	$8, d2, d2; VERLLF	$8, d3, d3; \
	VAF	d0, c0, c0; VAF	d1, c1, c1; VAF	d2, c2, c2; VAF	d3, c3, c3; \
	VX	c0, b0, b0; VX	c1, b1, b1; VX	c2, b2, b2; VX	c3, b3, b3; \
	VERLLF	$7, b0, b0; VERLLF	$7, b1, b1; VERLLF	$7, b2, b2; VERLLF	$7, b3, b3
#define QR4(a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, c3, d3) \
	QR4HEAD(a0, b0, d0, a1, b1, d1, a2, b2, d2, a3, b3, d3); \
	QR4TAIL(a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, c3, d3)

// DROUNDV is a double round on the vertical working registers.
#define DROUNDV \
	QR4(V0, V4, V8, V16, V1, V5, V9, V13, V2, V6, V10, V14, V3, V7, V11, V15); \
	QR4(V0, V5, V10, V15, V1, V6, V11, V16, V2, V7, V8, V13, V3, V4, V9, V14)

// FIRSTV is the first double round of a group, from the table just loaded:
// the quarter round of column 0 (x0 already holds c0+k0, and x12 is made
// from the counters), then the diagonal round without the steps the table
// already holds (x1 += x6, x2 += x7, x13 = (x13^x2) <<< 16).
#define FIRSTV \
	VX	V0, V12, V16; VERLLF	$16, V16, V16; \
	VAF	V16, V8, V8; VX	V8, V4, V4; VERLLF	$12, V4, V4; \
	VAF	V4, V0, V0; VX	V0, V16, V16; VERLLF	$8, V16, V16; \
	VAF	V16, V8, V8; VX	V8, V4, V4; VERLLF	$7, V4, V4; \
	VAF	V5, V0, V0; VAF	V4, V3, V3; \
	VX	V0, V15, V15; VX	V1, V16, V16; VX	V3, V14, V14; \
	VERLLF	$16, V15, V15; VERLLF	$16, V16, V16; VERLLF	$16, V14, V14; \
	QR4TAIL(V0, V5, V10, V15, V1, V6, V11, V16, V2, V7, V8, V13, V3, V4, V9, V14)

// ROWV finishes row r of the four blocks of a group: x0..x3 are words
// 4r..4r+3 (one block per lane), ffe and ffo the feed-forward pairs of the
// row. The first step merges words 4r, 4r+2 and 4r+1, 4r+3 lane by lane,
// the feed-forward is added, and the second step (VPERM with MHI, MLO)
// leaves row r of block j, byte-swapped, in oj.
#define ROWV(x0, x1, x2, x3, ffe, ffo, o0, o1, o2, o3) \
	VMRHF	x0, x2, V28; VMRHF	x1, x3, V29; VMRLF	x0, x2, V30; VMRLF	x1, x3, V31; \
	VAF	ffe, V28, V28; VAF	ffo, V29, V29; VAF	ffe, V30, V30; VAF	ffo, V31, V31; \
	VPERM	V28, V29, V25, o0; VPERM	V28, V29, V26, o1; \
	VPERM	V30, V31, V25, o2; VPERM	V30, V31, V26, o3

// FFPAIR spreads an input row over the feed-forward pair (e, o) that ROWV
// adds, with ME (V18) and MO (V19).
#define FFPAIR(row, e, o) \
	VPERM	row, row, V18, e; VPERM	row, row, V19, o

// QRH is a quarter round on the four rows of the horizontal layout.
#define QRH(a, b, c, d) \
	VAF	b, a, a; VX	a, d, d; VERLLF	$16, d, d; \
	VAF	d, c, c; VX	c, b, b; VERLLF	$12, b, b; \
	VAF	b, a, a; VX	a, d, d; VERLLF	$8, d, d; \
	VAF	d, c, c; VX	c, b, b; VERLLF	$7, b, b

// DIAGH lines the diagonals of rows b, c, d up under row a; UNDIAGH undoes
// it.
#define DIAGH(b, c, d) \
	VSLDB	$4, b, b, b; VSLDB	$8, c, c, c; VSLDB	$12, d, d, d
#define UNDIAGH(b, c, d) \
	VSLDB	$12, b, b, b; VSLDB	$8, c, c, c; VSLDB	$4, d, d, d

// DROUNDH is a double round of the horizontal layout on V28..V31.
#define DROUNDH \
	QRH(V28, V29, V30, V31); DIAGH(V29, V30, V31); \
	QRH(V28, V29, V30, V31); UNDIAGH(V29, V30, V31)

// func xorBlocksVX(s *State, dst, src []byte)
//
// xorBlocksVX XORs the len(src)/64 whole blocks of src with the keystream
// from block s.Counter (each block's counter wrapping modulo 2^32) into
// dst, which is src or does not overlap it. It does not change s.
TEXT ·xorBlocksVX(SB), NOSPLIT, $432-56
	MOVD	s+0(FP), R1
	MOVD	dst_base+8(FP), R2
	MOVD	src_base+32(FP), R3
	MOVD	src_len+40(FP), R4
	MOVD	$·chachaS390XConst(SB), R7
	MOVWZ	32(R1), R6
	SRD	$6, R4, R5
	AND	$3, R5
	SRD	$8, R4
	CMPBEQ	R4, $0, single

	// The counter of the first single block: s.Counter + 4*groups (the
	// 32-bit store below drops the carry).
	SLD	$2, R4, R8
	ADD	R8, R6

	// Set-up: the constants, the key rows and row 3.
	VLM	(R7), V16, V24
	VLM	(R1), V25, V26
	VL	32(R1), V27

	// The first column round on the rows (lane j is column j; column 0,
	// which has the counter, is redone per group), then the first steps of
	// the diagonal round: V1 lanes 1, 2 = x1+x6, x2+x7, V2 lane 2 = x13.
	VAF	V16, V25, V28
	VX	V27, V28, V31
	VERLLF	$16, V31, V31
	VAF	V26, V31, V30
	VX	V25, V30, V29
	VERLLF	$12, V29, V29
	VAF	V29, V28, V28
	VX	V28, V31, V31
	VERLLF	$8, V31, V31
	VAF	V31, V30, V30
	VX	V30, V29, V29
	VERLLF	$7, V29, V29
	VSLDB	$4, V29, V29, V1
	VAF	V28, V1, V1
	VSLDB	$12, V31, V31, V2
	VX	V1, V2, V2
	VERLLF	$16, V2, V2

	// The group table: every working register's first value, broadcast.
	VREPF	$2, V2, V13
	VREPF	$2, V1, V2
	VREPF	$1, V1, V1
	VAF	V16, V25, V0
	VREPF	$0, V0, V0
	VREPF	$3, V28, V3
	VREPF	$0, V25, V4
	VREPF	$1, V29, V5
	VREPF	$2, V29, V6
	VREPF	$3, V29, V7
	VREPF	$0, V26, V8
	VREPF	$1, V30, V9
	VREPF	$2, V30, V10
	VREPF	$3, V30, V11
	VREPF	$0, V27, V12
	VAF	V17, V12, V12
	VREPF	$2, V31, V14
	VREPF	$3, V31, V15
	VSTM	V0, V15, INIT(R15)

	// The output table: the feed-forward pairs of the input rows (row 3
	// with its counter word cleared), then MHI, MLO and INC.
	FFPAIR(V16, V0, V1)
	FFPAIR(V25, V2, V3)
	FFPAIR(V26, V4, V5)
	VLEIF	$0, $0, V27
	FFPAIR(V27, V6, V7)
	VSTM	V0, V7, OUT(R15)
	VSTM	V20, V22, OUT+128(R15)

group:
	// Ten double rounds on four blocks.
	VLM	INIT(R15), V0, V15
	FIRSTV
	DROUNDV
	DROUNDV
	DROUNDV
	DROUNDV
	DROUNDV
	DROUNDV
	DROUNDV
	DROUNDV
	DROUNDV

	// Feed-forward of the counters; the next group's counters go back to
	// the table.
	VLM	OUT(R15), V17, V27
	VAF	V12, V16, V16
	VAF	V27, V12, V12
	VST	V12, INIT+192(R15)

	// Transposition, feed-forward and byte swap, row by row: row r of
	// block j ends in V(4r+j).
	ROWV(V0, V1, V2, V3, V17, V18, V0, V1, V2, V3)
	ROWV(V4, V5, V6, V7, V19, V20, V4, V5, V6, V7)
	ROWV(V8, V9, V10, V11, V21, V22, V8, V9, V10, V11)
	ROWV(V16, V13, V14, V15, V23, V24, V12, V13, V14, V15)

	// XOR with the 256 bytes of message: block j's rows are V16+4j..19+4j.
	VLM	(R3), V16, V31
	VX	V0, V16, V16
	VX	V4, V17, V17
	VX	V8, V18, V18
	VX	V12, V19, V19
	VX	V1, V20, V20
	VX	V5, V21, V21
	VX	V9, V22, V22
	VX	V13, V23, V23
	VX	V2, V24, V24
	VX	V6, V25, V25
	VX	V10, V26, V26
	VX	V14, V27, V27
	VX	V3, V28, V28
	VX	V7, V29, V29
	VX	V11, V30, V30
	VX	V15, V31, V31
	VSTM	V16, V31, (R2)

	MOVD	$256(R2), R2
	MOVD	$256(R3), R3
	BRCTG	R4, group

	// Wipe the key-derived tables.
	XC	$256, INIT(R15), INIT(R15)
	XC	$176, OUT(R15), OUT(R15)

single:
	CMPBEQ	R5, $0, done

	// Set-up of the horizontal layout: the input rows, row 3 with the
	// counter of the first single block, and sigma + k0..k3.
	VLM	(R7), V16, V24
	VLM	(R1), V25, V26
	VL	32(R1), V27
	VLVGF	$0, R6, V27
	VAF	V16, V25, V17

block:
	// The first quarter round reads the input rows in place (row 0 plus
	// row 1 from V17); then the rest of the ten double rounds.
	VX	V17, V27, V31
	VERLLF	$16, V31, V31
	VAF	V26, V31, V30
	VX	V25, V30, V29
	VERLLF	$12, V29, V29
	VAF	V17, V29, V28
	VX	V28, V31, V31
	VERLLF	$8, V31, V31
	VAF	V31, V30, V30
	VX	V30, V29, V29
	VERLLF	$7, V29, V29
	DIAGH(V29, V30, V31)
	QRH(V28, V29, V30, V31)
	UNDIAGH(V29, V30, V31)
	DROUNDH
	DROUNDH
	DROUNDH
	DROUNDH
	DROUNDH
	DROUNDH
	DROUNDH
	DROUNDH
	DROUNDH

	// Feed-forward, byte swap, XOR with the 64 bytes of message.
	VAF	V16, V28, V28
	VAF	V25, V29, V29
	VAF	V26, V30, V30
	VAF	V27, V31, V31
	VPERM	V28, V28, V23, V28
	VPERM	V29, V29, V23, V29
	VPERM	V30, V30, V23, V30
	VPERM	V31, V31, V23, V31
	VLM	(R3), V0, V3
	VX	V28, V0, V0
	VX	V29, V1, V1
	VX	V30, V2, V2
	VX	V31, V3, V3
	VSTM	V0, V3, (R2)

	VAF	V24, V27, V27
	MOVD	$64(R2), R2
	MOVD	$64(R3), R3
	BRCTG	R5, block

done:
	RET
