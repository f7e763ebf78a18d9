//go:build gc && !purego

// The stitched ChaCha20-Poly1305 loop of arm64 (RFC 8439, Section 2.8): each
// iteration computes 6 ChaCha20 blocks (384 bytes) in NEON registers and, in
// the same round loop, absorbs 24 Poly1305 blocks (384 bytes) on the integer
// multiplier. On the wide cores (Neoverse N1/N2/V1/V2, AmpereOne) the NEON
// keystream leaves the integer and multiply slots idle, and the MAC fills
// them. The idea of running the MAC's integer steps inside the NEON rounds is
// that of BoringSSL's crypto/cipher/asm/chacha20_poly1305_armv8.pl; this
// code, its layout (6 NEON blocks, no integer ChaCha20 block), its register
// map and its step order are written for Go's assembler and this module.
//
// The NEON blocks have the row layout of chacha20core's NEON6x2 path (one
// row of a block per register, diagonals lined up with EXT); the Poly1305
// block step is that of poly1305's blocksScalar64 (64-bit limbs, products
// by MUL/UMULH, h2 kept biased by -1; its comment derives the bounds), cut
// into four pieces that sit between the NEON steps:
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
//   R25      temporary (addresses)
//   R26      &neonConsts
//   R18 (platform), R27 (assembler temporary), R28 (g), R29 (frame pointer)
//   and R30 (link register) are not touched.
//
//   V0..V5   row 0 (words 0..3) of blocks R4+0..R4+5 ("A")
//   V6..V11  row 1 ("B")
//   V12..V17 row 2 ("C")
//   V18..V23 row 3 ("D")
//   V24..V29 rotation temporaries, input rows, XOR temporaries
//   V30      TBL index that rotates each 32-bit lane left by 8
//   V31      {1, 0, 0, 0}: the counter step between two rows D

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
// ChaCha20: one instruction on the six NEON blocks, then the steps of a
// round, each six independent instructions on the rows of the map.

// ADD6: d += s, lane by lane, for six pairs of registers.
#define ADD6(s0, s1, s2, s3, s4, s5, d0, d1, d2, d3, d4, d5) \
	VADD	s0.S4, d0.S4, d0.S4; VADD	s1.S4, d1.S4, d1.S4; \
	VADD	s2.S4, d2.S4, d2.S4; VADD	s3.S4, d3.S4, d3.S4; \
	VADD	s4.S4, d4.S4, d4.S4; VADD	s5.S4, d5.S4, d5.S4

// EOR6: d = x ^ y for six triples.
#define EOR6(x0, x1, x2, x3, x4, x5, y0, y1, y2, y3, y4, y5, d0, d1, d2, d3, d4, d5) \
	VEOR	x0.B16, y0.B16, d0.B16; VEOR	x1.B16, y1.B16, d1.B16; \
	VEOR	x2.B16, y2.B16, d2.B16; VEOR	x3.B16, y3.B16, d3.B16; \
	VEOR	x4.B16, y4.B16, d4.B16; VEOR	x5.B16, y5.B16, d5.B16

// MOV6: d0..d5 = x.
#define MOV6(x, d0, d1, d2, d3, d4, d5) \
	VMOV	x.B16, d0.B16; VMOV	x.B16, d1.B16; VMOV	x.B16, d2.B16; \
	VMOV	x.B16, d3.B16; VMOV	x.B16, d4.B16; VMOV	x.B16, d5.B16

// ROW6: x added to the six registers of one row.
#define ROW6(x, d0, d1, d2, d3, d4, d5) ADD6(x, x, x, x, x, x, d0, d1, d2, d3, d4, d5)

// The steps on whole rows (see the map).
#define N_ADD_AB ADD6(V6, V7, V8, V9, V10, V11, V0, V1, V2, V3, V4, V5)
#define N_EOR_DA EOR6(V0, V1, V2, V3, V4, V5, V18, V19, V20, V21, V22, V23, V18, V19, V20, V21, V22, V23)
#define N_ADD_CD ADD6(V18, V19, V20, V21, V22, V23, V12, V13, V14, V15, V16, V17)
#define N_EOR_TBC EOR6(V12, V13, V14, V15, V16, V17, V6, V7, V8, V9, V10, V11, V24, V25, V26, V27, V28, V29)

// D <<<= 16
#define N_ROT16_D \
	VREV32	V18.H8, V18.H8; VREV32	V19.H8, V19.H8; VREV32	V20.H8, V20.H8; \
	VREV32	V21.H8, V21.H8; VREV32	V22.H8, V22.H8; VREV32	V23.H8, V23.H8

// D <<<= 8
#define N_ROT8_D \
	VTBL	V30.B16, [V18.B16], V18.B16; VTBL	V30.B16, [V19.B16], V19.B16; \
	VTBL	V30.B16, [V20.B16], V20.B16; VTBL	V30.B16, [V21.B16], V21.B16; \
	VTBL	V30.B16, [V22.B16], V22.B16; VTBL	V30.B16, [V23.B16], V23.B16

// B = T << l
#define N_SHL_B(l) \
	VSHL	$l, V24.S4, V6.S4; VSHL	$l, V25.S4, V7.S4; VSHL	$l, V26.S4, V8.S4; \
	VSHL	$l, V27.S4, V9.S4; VSHL	$l, V28.S4, V10.S4; VSHL	$l, V29.S4, V11.S4

// B |= T >> r (r = 32 - l: B = T <<< l)
#define N_SRI_B(r) \
	VSRI	$r, V24.S4, V6.S4; VSRI	$r, V25.S4, V7.S4; VSRI	$r, V26.S4, V8.S4; \
	VSRI	$r, V27.S4, V9.S4; VSRI	$r, V28.S4, V10.S4; VSRI	$r, V29.S4, V11.S4

// X = X rotated by n bytes, for the six registers of one row (lines the
// diagonals up, or back).
#define N_EXT(n, x0, x1, x2, x3, x4, x5) \
	VEXT	$n, x0.B16, x0.B16, x0.B16; VEXT	$n, x1.B16, x1.B16, x1.B16; \
	VEXT	$n, x2.B16, x2.B16, x2.B16; VEXT	$n, x3.B16, x3.B16, x3.B16; \
	VEXT	$n, x4.B16, x4.B16, x4.B16; VEXT	$n, x5.B16, x5.B16, x5.B16

#define N_EXT_B(n) N_EXT(n, V6, V7, V8, V9, V10, V11)
#define N_EXT_C N_EXT(8, V12, V13, V14, V15, V16, V17)
#define N_EXT_D(n) N_EXT(n, V18, V19, V20, V21, V22, V23)

// ROUND_MAC1 is one round on the NEON blocks (b and d: the EXT byte counts
// of rows B and D that follow it, 4 and 12 after a column round, 12 and 4
// after a diagonal round) with one Poly1305 block, its four pieces four
// NEON steps apart.
#define ROUND_MAC1(b, d) \
	N_ADD_AB; MAC_LOAD; \
	N_EOR_DA; \
	N_ROT16_D; \
	N_ADD_CD; \
	N_EOR_TBC; MAC_HI; \
	N_SHL_B(12); \
	N_SRI_B(20); \
	N_ADD_AB; \
	N_EOR_DA; MAC_LO; \
	N_ROT8_D; \
	N_ADD_CD; \
	N_EOR_TBC; \
	N_SHL_B(7); MAC_REDUCE; \
	N_SRI_B(25); \
	N_EXT_B(b); \
	N_EXT_C; \
	N_EXT_D(d)

// ROUND_MAC2 is ROUND_MAC1 with two Poly1305 blocks, their pieces two NEON
// steps apart.
#define ROUND_MAC2(b, d) \
	N_ADD_AB; MAC_LOAD; \
	N_EOR_DA; \
	N_ROT16_D; MAC_HI; \
	N_ADD_CD; \
	N_EOR_TBC; MAC_LO; \
	N_SHL_B(12); \
	N_SRI_B(20); MAC_REDUCE; \
	N_ADD_AB; \
	N_EOR_DA; MAC_LOAD; \
	N_ROT8_D; \
	N_ADD_CD; MAC_HI; \
	N_EOR_TBC; \
	N_SHL_B(7); MAC_LO; \
	N_SRI_B(25); \
	N_EXT_B(b); MAC_REDUCE; \
	N_EXT_C; \
	N_EXT_D(d)

// LOAD_ROWS sets V24 = row 0 (the constants), V25 and V26 = rows 1 and 2
// (the key), V27 = row 3 of block R4 (R4 and the nonce).
#define LOAD_ROWS \
	VLD1	(R26), [V24.S4]; \
	VLD1	(R0), [V25.S4, V26.S4]; \
	ADD	$32, R0, R25; \
	VLD1	(R25), [V27.S4]; \
	VMOV	R4, V27.S[0]

// XOR_STORE adds row 3 of the input, V29, to row d of the next block and
// steps V29's counter; then it XORs the next 64 bytes of src with the
// block's rows a, b, c, d into dst, through V24..V27; both pointers advance
// by 64.
#define XOR_STORE(a, b, c, d) \
	VADD	V29.S4, d.S4, d.S4; \
	VADD	V31.S4, V29.S4, V29.S4; \
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
	MOVD	s+0(FP), R0
	MOVD	dst_base+8(FP), R1
	MOVD	src_base+32(FP), R2
	MOVD	src_len+40(FP), R3
	MOVD	mac_base+56(FP), R6
	CBZ	R3, ret
	MOVWU	32(R0), R4

	// The MAC: h (h2 biased by -1), r and s1 = 5·r1/4.
	MOVD	h+80(FP), R25
	LDP	0(R25), (h0, h1)
	MOVD	16(R25), h2
	SUB	$1, h2
	MOVD	r+88(FP), R25
	LDP	0(R25), (r0, r1)
	ADD	r1>>2, r1, s1
	MOVD	$2, two

	// V30 = rotate-by-8 TBL index, V31 = {1, 0, 0, 0}.
	MOVD	$·neonConsts(SB), R26
	ADD	$16, R26, R25
	VLD1	(R25), [V30.B16, V31.B16]

loop:
	// Blocks R4..R4+5: rows A, B, C the same for all, row D counts up.
	LOAD_ROWS
	MOV6(V24, V0, V1, V2, V3, V4, V5)
	MOV6(V25, V6, V7, V8, V9, V10, V11)
	MOV6(V26, V12, V13, V14, V15, V16, V17)
	VMOV	V27.B16, V18.B16
	VADD	V31.S4, V18.S4, V19.S4
	VADD	V31.S4, V19.S4, V20.S4
	VADD	V31.S4, V20.S4, V21.S4
	VADD	V31.S4, V21.S4, V22.S4
	VADD	V31.S4, V22.S4, V23.S4

	// Ten double rounds with 24 Poly1305 blocks: 4 trips with 3 blocks,
	// then 6 trips with 2.
	MOVD	$4, R5

rounds3:
	ROUND_MAC2(4, 12)
	ROUND_MAC1(12, 4)
	SUB	$1, R5
	CBNZ	R5, rounds3
	MOVD	$6, R5

rounds2:
	ROUND_MAC1(4, 12)
	ROUND_MAC1(12, 4)
	SUB	$1, R5
	CBNZ	R5, rounds2

	// Add the input rows back in (row D's, with its counter, block by
	// block in XOR_STORE) and XOR the 6 blocks into dst.
	LOAD_ROWS
	ROW6(V24, V0, V1, V2, V3, V4, V5)
	ROW6(V25, V6, V7, V8, V9, V10, V11)
	ROW6(V26, V12, V13, V14, V15, V16, V17)
	VMOV	V27.B16, V29.B16
	XOR_STORE(V0, V6, V12, V18)
	XOR_STORE(V1, V7, V13, V19)
	XOR_STORE(V2, V8, V14, V20)
	XOR_STORE(V3, V9, V15, V21)
	XOR_STORE(V4, V10, V16, V22)
	XOR_STORE(V5, V11, V17, V23)

	ADDW	$6, R4
	SUBS	$384, R3
	BNE	loop

	// Store the counter and h (h2 unbiased).
	MOVW	R4, 32(R0)
	ADD	$1, h2
	MOVD	h+80(FP), R25
	STP	(h0, h1), 0(R25)
	MOVD	h2, 16(R25)

ret:
	RET

// neonConsts: the ChaCha20 constants "expand 32-byte k" (0), the TBL index
// that rotates each 32-bit lane left by 8 (16) and the row-3 counter step
// {1, 0, 0, 0} (32).
DATA ·neonConsts+0x00(SB)/4, $0x61707865
DATA ·neonConsts+0x04(SB)/4, $0x3320646e
DATA ·neonConsts+0x08(SB)/4, $0x79622d32
DATA ·neonConsts+0x0c(SB)/4, $0x6b206574
DATA ·neonConsts+0x10(SB)/4, $0x02010003
DATA ·neonConsts+0x14(SB)/4, $0x06050407
DATA ·neonConsts+0x18(SB)/4, $0x0a09080b
DATA ·neonConsts+0x1c(SB)/4, $0x0e0d0c0f
DATA ·neonConsts+0x20(SB)/4, $1
DATA ·neonConsts+0x24(SB)/4, $0
DATA ·neonConsts+0x28(SB)/4, $0
DATA ·neonConsts+0x2c(SB)/4, $0
GLOBL ·neonConsts(SB), NOPTR|RODATA, $48
