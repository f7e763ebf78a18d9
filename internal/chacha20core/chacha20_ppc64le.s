//go:build gc && !purego

#include "textflag.h"

// ChaCha20 keystream XOR for ppc64le with VMX and VSX (RFC 8439, Section
// 2.3), on the POWER8 instruction set that Go's ppc64le port requires, with
// one POWER10 variant of the four-block loop (paired, the VSXPaired path),
// which loads and stores the message 32 bytes at a time with LXVP and STXVP.
//
// Two layouts:
//   - Four blocks per iteration in the "vertical" layout: one vector per
//     state word, each 32-bit lane a different block, so a round is only
//     adds, XORs and rotates, and the blocks are transposed into byte order
//     at the end (the scheme of golang.org/x/crypto's chacha_ppc64x.s,
//     which comes from CRYPTOGAMS / OpenSSL's chacha-ppc.pl, and of the
//     4-way SSSE3 and NEON code). The rotations by 16 and 8 are VPERMXOR,
//     an XOR and a byte permutation in one instruction (the same sources'
//     idea), so a quarter round is 10 instructions, not 12.
//   - One block at a time in the "horizontal" layout for the last one to
//     three blocks: the four rows of the state in four vectors, a column
//     round on all four columns at once, and rotations of rows 1-3 by one,
//     two and three words (VSLDOI) into and out of the diagonal round. It
//     takes 26 instructions per double round for one block where the
//     vertical code takes 80 for four, which is fewer for up to three.
//
// Two savings over the vertical scheme of x/crypto:
//   - Precomputed first round. Only word 12 (the block counter) differs
//     between blocks, so in the first column round the quarter rounds of
//     columns 1, 2 and 3 are the same for every block, and so are x0 += x4
//     of column 0 and the first steps of two diagonal quarter rounds
//     (x1 += x6; x2 += x7; x13 = (x13 ^ x2) <<< 16). They are computed once
//     per call, in the horizontal layout, and splatted into vectors (as in
//     chacha20_loong64.s, which takes the idea from x/crypto's portable
//     chacha_generic.go). The working registers of the first double round
//     are written straight from these values by three-operand instructions,
//     so no per-iteration set-up remains except five copies of values that
//     do not fit in the VMX registers.
//   - Row-wise feed-forward. Words 0..11 and 13..15 of the input are the
//     same for every block, so they are added back after the transposition,
//     one 4-word row vector per 16 output bytes, held in registers for the
//     whole call; only the counter word is added before it.
//
// Byte order: LXVW4X loads word i of memory into word element i of a
// register (element 0 being the most significant, the numbering of the
// VMX instructions), each word in the machine's little-endian order, and
// STXVW4X stores the same way. So the State's words load in place, and the
// keystream rows, stored with STXVW4X after an XOR with message bytes
// loaded by LXVW4X, come out in the byte order of RFC 8439. Both accept any
// alignment.
//
// Register map:
//   R3        s *State
//   R4        dst, advanced by 256 (vertical) or 64 (horizontal) per iteration
//   R5        src, advanced like dst
//   R6        blocks
//   R7        address of the constant table
//   R8-R12, R14-R23  the offsets 16, 32, ..., 240 (16*k in the k-th one)
//   R24       iterations
//   R25, R26  the paired flag, the new counter
//   CTR       iterations left
//   V0-V15    the sixteen state words of four blocks (vertical), or
//             V0-V3 the four rows of one block (horizontal)
//   V16, V17  VPERMXOR controls: rotate each word left by 16, by 8
//   V18, V19  rotate counts 12 and 7 in every word (VRLW)
//   V20       vertical: block counters of the four lanes
//   V21-V24   feed-forward rows: (c0..c3), (k0..k3), (k4..k7), and
//             (0, n0, n1, n2) (vertical) or the horizontal block's
//             (counter, n0, n1, n2), which is also its input row 3
//   V25       vertical: c0+k0; horizontal: (1, 0, 0, 0)
//   V26-V31   vertical: k4, x5, x10, x1+x6, x2+x7, (x13^(x2+x7))<<<16,
//             after the precomputed first column round
//   VS0-VS2   k0, x6, x7: operands of XXLXOR, which reads any VSX register
//   VS3-VS7   x3, x9, x11, x14, x15: copied into their working registers
//             (VS35, VS41, VS43, VS46, VS47) at the start of every iteration
//   VS8-VS15  transposition and message temporaries (pairs VS10/VS11,
//             VS12/VS13, VS14/VS15 for LXVP and STXVP)
//   VS16      the mask (0xffffffff, 0, 0, 0)

// The constant row "expand 32-byte k"; the lane numbers 0..3; the VPERMXOR
// controls that rotate every word left by 16 and by 8 (each byte selects
// byte n of both operands with 0xnn, in the big-endian byte numbering of
// the registers); a mask of word 0; and the horizontal counter increment.
DATA ·chachaPPC64Const+0x00(SB)/4, $0x61707865
DATA ·chachaPPC64Const+0x04(SB)/4, $0x3320646e
DATA ·chachaPPC64Const+0x08(SB)/4, $0x79622d32
DATA ·chachaPPC64Const+0x0c(SB)/4, $0x6b206574
DATA ·chachaPPC64Const+0x10(SB)/4, $0
DATA ·chachaPPC64Const+0x14(SB)/4, $1
DATA ·chachaPPC64Const+0x18(SB)/4, $2
DATA ·chachaPPC64Const+0x1c(SB)/4, $3
DATA ·chachaPPC64Const+0x20(SB)/4, $0x22330011
DATA ·chachaPPC64Const+0x24(SB)/4, $0x66774455
DATA ·chachaPPC64Const+0x28(SB)/4, $0xaabb8899
DATA ·chachaPPC64Const+0x2c(SB)/4, $0xeeffccdd
DATA ·chachaPPC64Const+0x30(SB)/4, $0x11223300
DATA ·chachaPPC64Const+0x34(SB)/4, $0x55667744
DATA ·chachaPPC64Const+0x38(SB)/4, $0x99aabb88
DATA ·chachaPPC64Const+0x3c(SB)/4, $0xddeeffcc
DATA ·chachaPPC64Const+0x40(SB)/4, $0xffffffff
DATA ·chachaPPC64Const+0x44(SB)/4, $0
DATA ·chachaPPC64Const+0x48(SB)/4, $0
DATA ·chachaPPC64Const+0x4c(SB)/4, $0
DATA ·chachaPPC64Const+0x50(SB)/4, $1
DATA ·chachaPPC64Const+0x54(SB)/4, $0
DATA ·chachaPPC64Const+0x58(SB)/4, $0
DATA ·chachaPPC64Const+0x5c(SB)/4, $0
GLOBL ·chachaPPC64Const(SB), RODATA|NOPTR, $96

// ABD4 and CDB4 are the two halves of a step of four vertical quarter
// rounds (a, b, c, d) interleaved: a += b; d = (d ^ a) <<< 16 or 8 (VPERMXOR
// with the control ctl does both), and c += d; b = (b ^ c) <<< 12 or 7
// (VRLW by the counts in rot).
#define ABD4(ctl, a0, b0, d0, a1, b1, d1, a2, b2, d2, a3, b3, d3) \
	VADDUWM	a0, b0, a0; VADDUWM	a1, b1, a1; VADDUWM	a2, b2, a2; VADDUWM	a3, b3, a3; \
	VPERMXOR	d0, a0, ctl, d0; VPERMXOR	d1, a1, ctl, d1; VPERMXOR	d2, a2, ctl, d2; VPERMXOR	d3, a3, ctl, d3
#define CDB4(rot, b0, c0, d0, b1, c1, d1, b2, c2, d2, b3, c3, d3) \
	VADDUWM	c0, d0, c0; VADDUWM	c1, d1, c1; VADDUWM	c2, d2, c2; VADDUWM	c3, d3, c3; \
	VXOR	b0, c0, b0; VXOR	b1, c1, b1; VXOR	b2, c2, b2; VXOR	b3, c3, b3; \
	VRLW	b0, rot, b0; VRLW	b1, rot, b1; VRLW	b2, rot, b2; VRLW	b3, rot, b3

// QR4 is one vertical column or diagonal round: four quarter rounds
// (a, b, c, d) interleaved step by step.
#define QR4(a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, c3, d3) \
	ABD4(V16, a0, b0, d0, a1, b1, d1, a2, b2, d2, a3, b3, d3); \
	CDB4(V18, b0, c0, d0, b1, c1, d1, b2, c2, d2, b3, c3, d3); \
	ABD4(V17, a0, b0, d0, a1, b1, d1, a2, b2, d2, a3, b3, d3); \
	CDB4(V19, b0, c0, d0, b1, c1, d1, b2, c2, d2, b3, c3, d3)

// DROUND is a vertical double round on V0-V15.
#define DROUND \
	QR4(V0, V4, V8, V12, V1, V5, V9, V13, V2, V6, V10, V14, V3, V7, V11, V15); \
	QR4(V0, V5, V10, V15, V1, V6, V11, V12, V2, V7, V8, V13, V3, V4, V9, V14)

// FIRST is the first vertical double round, starting from the precomputed
// values: the quarter round of column 0 without x0 += x4, then the diagonal
// round (0, 5, 10, 15) (1, 6, 11, 12) (2, 7, 8, 13) (3, 4, 9, 14) without
// x1 += x6, x2 += x7 and the first update of x13. Each precomputed operand
// is read in place by the instruction that first writes its word's working
// register; x3, x9, x11, x14 and x15, kept in VS3-VS7, are first copied in.
#define FIRST \
	VPERMXOR	V20, V25, V16, V12; \
	VADDUWM	V26, V12, V8; \
	XXLXOR	VS40, VS0, VS36; \
	VRLW	V4, V18, V4; \
	VADDUWM	V25, V4, V0; \
	VPERMXOR	V12, V0, V17, V12; \
	VADDUWM	V8, V12, V8; \
	VXOR	V4, V8, V4; \
	VRLW	V4, V19, V4; \
	XXLOR	VS3, VS3, VS35; \
	XXLOR	VS7, VS7, VS47; \
	XXLOR	VS6, VS6, VS46; \
	XXLOR	VS5, VS5, VS43; \
	XXLOR	VS4, VS4, VS41; \
	VADDUWM	V0, V27, V0; \
	VADDUWM	V3, V4, V3; \
	VPERMXOR	V15, V0, V16, V15; \
	VPERMXOR	V12, V29, V16, V12; \
	VPERMXOR	V14, V3, V16, V14; \
	VADDUWM	V28, V15, V10; \
	VADDUWM	V11, V12, V11; \
	VADDUWM	V8, V31, V8; \
	VADDUWM	V9, V14, V9; \
	VXOR	V10, V27, V5; \
	XXLXOR	VS43, VS1, VS38; \
	XXLXOR	VS40, VS2, VS39; \
	VXOR	V4, V9, V4; \
	VRLW	V5, V18, V5; \
	VRLW	V6, V18, V6; \
	VRLW	V7, V18, V7; \
	VRLW	V4, V18, V4; \
	VADDUWM	V0, V5, V0; \
	VADDUWM	V29, V6, V1; \
	VADDUWM	V30, V7, V2; \
	VADDUWM	V3, V4, V3; \
	VPERMXOR	V15, V0, V17, V15; \
	VPERMXOR	V12, V1, V17, V12; \
	VPERMXOR	V31, V2, V17, V13; \
	VPERMXOR	V14, V3, V17, V14; \
	CDB4(V19, V5, V10, V15, V6, V11, V12, V7, V8, V13, V4, V9, V14)

// ROUNDS is the twenty rounds of the vertical code, and the feed-forward
// of the counters.
#define ROUNDS \
	FIRST; \
	DROUND; DROUND; DROUND; DROUND; DROUND; DROUND; DROUND; DROUND; DROUND; \
	VADDUWM	V12, V20, V12

// NEXT4 advances the counters and the message pointers by four blocks.
#define NEXT4 \
	VSPLTISW	$4, V0; \
	VADDUWM	V20, V0, V20; \
	ADD	$256, R4; \
	ADD	$256, R5

// TRANSPOSE4 turns four vectors holding one word of blocks 0..3 each (w0..w3
// = words 4r..4r+3, given by their VSX names) into four holding words
// 4r..4r+3 of one block each: merges of words (XXMRGHW: blocks 0 and 1,
// XXMRGLW: blocks 2 and 3), then of doublewords. It writes over the inputs
// as they are used up, with the VSX register t as the only temporary, so
// the rows of blocks 0, 1, 2, 3 end up in w0, w3, w2, w1, where the VMX
// feed-forward can reach them.
#define TRANSPOSE4(w0, w1, w2, w3, t) \
	XXMRGLW	w2, w3, t; \
	XXMRGHW	w2, w3, w3; \
	XXMRGHW	w0, w1, w2; \
	XXMRGLW	w0, w1, w1; \
	XXPERMDI	w2, w3, $0, w0; \
	XXPERMDI	w2, w3, $3, w3; \
	XXPERMDI	w1, t, $0, w2; \
	XXPERMDI	w1, t, $3, w1

// XOR16 XORs the 16 bytes of src at offset off with the keystream row vs
// (a VSX name) and stores them to dst at the same offset, through the
// temporary t.
#define XOR16(vs, off, t) \
	LXVW4X	(R5)(off), t; \
	XXLXOR	t, vs, t; \
	STXVW4X	t, (R4)(off)

// ROWS finishes row r (words 4r..4r+3) of the four blocks: transposes
// w0..w3 (VMX names v0..v3), adds the feed-forward row ff and outputs 16
// bytes of each block at the offsets o0..o3 (64*block + 16*r).
#define ROWS(v0, v1, v2, v3, w0, w1, w2, w3, ff, o0, o1, o2, o3) \
	TRANSPOSE4(w0, w1, w2, w3, VS8); \
	VADDUWM	v0, ff, v0; \
	VADDUWM	v3, ff, v3; \
	VADDUWM	v2, ff, v2; \
	VADDUWM	v1, ff, v1; \
	XOR16(w0, o0, VS9); \
	XOR16(w3, o1, VS10); \
	XOR16(w2, o2, VS11); \
	XOR16(w1, o3, VS12)

// The POWER10 output step works on two rows of a block at once: LXVP and
// STXVP move 32 bytes between memory and a pair of VSX registers, the even
// one holding the second 16 bytes and the odd one the first, each in the
// order of LXV (word element 3-j holds word j of memory). The keystream
// rows are made in that order by transposing the words of a row in reverse
// (w3..w0) and by feed-forward rows loaded with LXV.
//
// ROWS2 finishes rows r and r+1 (words 4r..4r+7; off = 16r) of the four
// blocks: transposes w0..w3 and u0..u3 (VMX names v0..v3 and x0..x3), adds
// the feed-forward rows ffa and ffb and outputs 32 bytes of each block.
#define ROWS2(v0, v1, v2, v3, w0, w1, w2, w3, x0, x1, x2, x3, u0, u1, u2, u3, ffa, ffb, off) \
	TRANSPOSE4(w3, w2, w1, w0, VS8); \
	VADDUWM	v3, ffa, v3; \
	VADDUWM	v0, ffa, v0; \
	VADDUWM	v1, ffa, v1; \
	VADDUWM	v2, ffa, v2; \
	TRANSPOSE4(u3, u2, u1, u0, VS8); \
	VADDUWM	x3, ffb, x3; \
	VADDUWM	x0, ffb, x0; \
	VADDUWM	x1, ffb, x1; \
	VADDUWM	x2, ffb, x2; \
	XOR32(w3, u3, off, VS10, VS11); \
	XOR32(w0, u0, off+64, VS12, VS13); \
	XOR32(w1, u1, off+128, VS14, VS15); \
	XOR32(w2, u2, off+192, VS10, VS11)

// XOR32 XORs the 32 bytes of src at off with the keystream rows a (first 16
// bytes) and b and stores them to dst at off, through the register pair
// t0 (even), t1 = t0+1.
#define XOR32(a, b, off, t0, t1) \
	LXVP	off(R5), t0; \
	XXLXOR	t1, a, t1; \
	XXLXOR	t0, b, t0; \
	STXVP	t0, off(R4)

// HQR is a horizontal column round: the quarter rounds of the four columns
// of the rows a, b, c, d at once.
#define HQR(a, b, c, d) \
	VADDUWM	a, b, a; VPERMXOR	d, a, V16, d; VADDUWM	c, d, c; VXOR	b, c, b; VRLW	b, V18, b; \
	HQRB(a, b, c, d)

// HQRB is the second half of HQR, from the second a += b.
#define HQRB(a, b, c, d) \
	VADDUWM	a, b, a; VPERMXOR	d, a, V17, d; VADDUWM	c, d, c; VXOR	b, c, b; VRLW	b, V19, b

// HDIAG is the horizontal diagonal round: rows 1, 2 and 3 rotated left by
// one, two and three words put the diagonals into the columns, and back.
#define HDIAG(a, b, c, d) \
	VSLDOI	$4, b, b, b; VSLDOI	$8, c, c, c; VSLDOI	$12, d, d, d; \
	HQR(a, b, c, d); \
	VSLDOI	$12, b, b, b; VSLDOI	$8, c, c, c; VSLDOI	$4, d, d, d

// HFIRST is the first horizontal column round, on the input rows V21-V24,
// which it reads in place, into V0-V3.
#define HFIRST \
	VADDUWM	V21, V22, V0; \
	VPERMXOR	V24, V0, V16, V3; \
	VADDUWM	V23, V3, V2; \
	VXOR	V22, V2, V1; \
	VRLW	V1, V18, V1; \
	HQRB(V0, V1, V2, V3)

// HDROUND is a horizontal double round on V0-V3.
#define HDROUND \
	HQR(V0, V1, V2, V3); \
	HDIAG(V0, V1, V2, V3)

// func xorBlocksVSX(s *State, dst, src *byte, blocks int, paired bool)
//
// xorBlocksVSX XORs 64*blocks bytes of src with the keystream blocks
// s.Counter, s.Counter+1, ... (mod 2^32) and stores the result to dst,
// which is src or does not overlap it, and advances s.Counter by blocks.
// blocks must be at least 1. paired selects the four-block loop with the
// POWER10 loads and stores LXVP and STXVP.
TEXT ·xorBlocksVSX(SB), NOSPLIT, $0-33
	MOVD	s+0(FP), R3
	MOVD	dst+8(FP), R4
	MOVD	src+16(FP), R5
	MOVD	blocks+24(FP), R6

	// Offsets, constants and the state rows.
	MOVD	$·chachaPPC64Const(SB), R7
	MOVD	$16, R8
	MOVD	$32, R9
	MOVD	$48, R10
	LXVW4X	(R7)(R0), VS53
	LXVW4X	(R7)(R9), VS48
	LXVW4X	(R7)(R10), VS49
	VSPLTISW	$12, V18
	VSPLTISW	$7, V19
	LXVW4X	(R3)(R0), VS54
	LXVW4X	(R3)(R8), VS55
	LXVW4X	(R3)(R9), VS56
	SRD	$2, R6, R24
	CMP	R24, $0
	BEQ	tail
	MOVD	R24, CTR
	MOVD	$64, R11
	MOVD	$80, R12
	LXVW4X	(R7)(R11), VS16
	MOVD	$96, R14
	MOVD	$112, R15
	MOVD	$128, R16
	MOVD	$144, R17
	MOVD	$160, R18
	MOVD	$176, R19
	MOVD	$192, R20
	MOVD	$208, R21
	MOVD	$224, R22
	MOVD	$240, R23

	// The first column round in the horizontal layout: lanes 1-3 of V0-V3
	// are then columns 1-3 for every block (lane 0 is column 0 for the
	// first block only and is not used).
	HFIRST
	// The first diagonal steps: lane 1 of V5 is x1+x6, lane 2 x2+x7, and
	// lane 2 of V7 is (x13 ^ (x2+x7)) <<< 16.
	VSLDOI	$4, V1, V1, V4
	VADDUWM	V0, V4, V5
	VSLDOI	$12, V3, V3, V6
	VPERMXOR	V6, V5, V16, V7
	// Splat every precomputed value into its register (register map).
	VADDUWM	V21, V22, V25
	VSPLTW	$0, V25, V25
	VSPLTW	$0, V23, V26
	VSPLTW	$1, V1, V27
	VSPLTW	$2, V2, V28
	VSPLTW	$1, V5, V29
	VSPLTW	$2, V5, V30
	VSPLTW	$2, V7, V31
	XXSPLTW	VS54, $0, VS0
	XXSPLTW	VS33, $2, VS1
	XXSPLTW	VS33, $3, VS2
	XXSPLTW	VS32, $3, VS3
	XXSPLTW	VS34, $1, VS4
	XXSPLTW	VS34, $3, VS5
	XXSPLTW	VS35, $2, VS6
	XXSPLTW	VS35, $3, VS7
	// The lane counters s.Counter+0..3, and the nonce row without the
	// counter for the feed-forward.
	LXVW4X	(R7)(R8), VS36
	VSPLTW	$0, V24, V20
	VADDUWM	V20, V4, V20
	MOVBZ	paired+32(FP), R25
	CMP	R25, $0
	BNE	paired
	XXLANDC	VS56, VS16, VS56

	PCALIGN	$16
loop:
	ROUNDS
	// Row by row: transpose, add the rest of the input, XOR into the
	// message.
	ROWS(V0, V1, V2, V3, VS32, VS33, VS34, VS35, V21, R0, R11, R16, R20)
	ROWS(V4, V5, V6, V7, VS36, VS37, VS38, VS39, V22, R8, R12, R17, R21)
	ROWS(V8, V9, V10, V11, VS40, VS41, VS42, VS43, V23, R9, R14, R18, R22)
	ROWS(V12, V13, V14, V15, VS44, VS45, VS46, VS47, V24, R10, R15, R19, R23)
	// The next four counters and blocks.
	NEXT4
	BDNZ	loop

	// Row 3 of the next block for the horizontal code: its counter from
	// lane 0 of V20, the nonce from V24.
	XXSEL	VS56, VS52, VS16, VS56
	BR	tail

paired:
	// The feed-forward rows in the order of LXV (the mask of word 0 loads
	// as the mask of element 3).
	LXV	0(R7), VS53
	LXV	0(R3), VS54
	LXV	16(R3), VS55
	LXV	32(R3), VS56
	LXV	64(R7), VS9
	XXLANDC	VS56, VS9, VS56

	PCALIGN	$16
pairedloop:
	ROUNDS
	// Two rows at a time.
	ROWS2(V0, V1, V2, V3, VS32, VS33, VS34, VS35, V4, V5, V6, V7, VS36, VS37, VS38, VS39, V21, V22, 0)
	ROWS2(V8, V9, V10, V11, VS40, VS41, VS42, VS43, V12, V13, V14, V15, VS44, VS45, VS46, VS47, V23, V24, 32)
	NEXT4
	BDNZ	pairedloop

	// The input rows of the horizontal code again, in the order of LXVW4X,
	// and its row 3 with the counter from lane 0 of V20.
	LXVW4X	(R7)(R0), VS53
	LXVW4X	(R3)(R0), VS54
	LXVW4X	(R3)(R8), VS55
	LXVW4X	(R3)(R9), VS56
	XXSEL	VS56, VS52, VS16, VS56

tail:
	// The last blocks%4 blocks, one at a time. V24 holds row 3 of the next
	// block.
	ANDCC	$3, R6, R24
	BEQ	done
	MOVD	R24, CTR
	MOVD	$80, R12
	LXVW4X	(R7)(R12), VS57

	PCALIGN	$16
tailloop:
	HFIRST
	HDIAG(V0, V1, V2, V3)
	HDROUND
	HDROUND
	HDROUND
	HDROUND
	HDROUND
	HDROUND
	HDROUND
	HDROUND
	HDROUND
	// Feed-forward, the next counter, and the XOR into the message.
	VADDUWM	V0, V21, V0
	VADDUWM	V1, V22, V1
	VADDUWM	V2, V23, V2
	VADDUWM	V3, V24, V3
	VADDUWM	V24, V25, V24
	XOR16(VS32, R0, VS9)
	XOR16(VS33, R8, VS10)
	XOR16(VS34, R9, VS11)
	XOR16(VS35, R10, VS12)
	ADD	$64, R4
	ADD	$64, R5
	BDNZ	tailloop

done:
	MOVWZ	32(R3), R26
	ADD	R6, R26
	MOVW	R26, 32(R3)
	RET
