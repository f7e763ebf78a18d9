//go:build gc && !purego

#include "textflag.h"

// ChaCha20 keystream for loong64 (RFC 8439, Section 2.3), in LSX (4 blocks
// per iteration, 128-bit registers) and LASX (8 blocks per iteration, 256-bit
// registers). keystreamLSX and keystreamLASX only generate keystream into a
// buffer, which the Go code XORs into the message through subtle.XORBytes;
// xorKeyStreamLSX and xorKeyStreamLASX are the same code with the XOR fused
// into the output step, for whole iterations (the "Fused" paths).
// xorBlocksRows, at the end of the file, serves inputs of a few blocks: one
// block at a time in the row layout, XORed straight into dst.
//
// Layout: one register per state word, each 32-bit lane a different block
// ("vertical" layout, as in golang.org/x/crypto's chacha_loong64.s and the
// 4-way SSSE3/NEON code of OpenSSL), so a round is only adds, XORs and
// rotates (VADDW/VXORV/VROTRW, 96 instructions per double round) and the
// blocks are transposed into byte order once at the end.
//
// Two savings over that scheme:
//   - Precomputed first round. Only word 12 (the block counter) differs
//     between blocks, so in the first column round the quarter rounds of
//     columns 1, 2 and 3 are the same for every block, and so are the first
//     steps of two diagonal quarter rounds (x1 += x6; x2 += x7 and
//     x13 = (x13 ^ x2) <<< 16). They are computed once per call in scalar
//     code, which removes 41 of the 960 vector instructions of the ten
//     double rounds. (golang.org/x/crypto's portable chacha_generic.go
//     caches the three counter-independent quarter rounds the same way;
//     the two diagonal steps are this file's addition.)
//   - Row-wise feed-forward. Words 0..11 and 13..15 of the input are the
//     same for every block, so they are added back after the transposition,
//     one 4-word row vector per 16 output bytes, held in registers for the
//     whole call; only the counter word is added before it.
//
// Register map (all four functions; LASX uses the X registers that extend the
// V registers of the same number):
//   R4        s *State
//   R5        out (dst of the fused functions), advanced by 256 (LSX) or
//             512 (LASX) bytes per iteration
//   R6        iterations left
//   R7        src of the fused functions, advanced like out
//   R8-R19    scalar first round: x1,x5,x9,x13 / x2,x6,x10,x14 / x3,x7,x11,x15
//   R23-R25   c0+k0, k0, k4
//   R26       address of the constant table
//   R10, R15, R16, R18, R19  kept for the whole call: x9, x14, x3, x11, x15
//             after the first column round, broadcast into their working
//             registers at the start of every iteration
//   V0-V15    the sixteen state words of 4 (8) blocks
//   V16       block counters of the 4 (8) lanes
//   V17-V20   feed-forward rows: c0..c3, k0..k3, k4..k7, (0, n0, n1, n2)
//   V21       transposition temporary
//   V22-V31   first-round values used as operands, never overwritten:
//             x10, c0+k0, k0, k4, x5, x1+x6, x2+x7, (x13^(x2+x7))<<<16, x6,
//             x7

// The constant row "expand 32-byte k" twice (for LASX), then the lane
// offsets of the block counters.
DATA ·chachaLoong64Const+0x00(SB)/4, $0x61707865
DATA ·chachaLoong64Const+0x04(SB)/4, $0x3320646e
DATA ·chachaLoong64Const+0x08(SB)/4, $0x79622d32
DATA ·chachaLoong64Const+0x0c(SB)/4, $0x6b206574
DATA ·chachaLoong64Const+0x10(SB)/4, $0x61707865
DATA ·chachaLoong64Const+0x14(SB)/4, $0x3320646e
DATA ·chachaLoong64Const+0x18(SB)/4, $0x79622d32
DATA ·chachaLoong64Const+0x1c(SB)/4, $0x6b206574
DATA ·chachaLoong64Const+0x20(SB)/4, $0
DATA ·chachaLoong64Const+0x24(SB)/4, $1
DATA ·chachaLoong64Const+0x28(SB)/4, $2
DATA ·chachaLoong64Const+0x2c(SB)/4, $3
DATA ·chachaLoong64Const+0x30(SB)/4, $4
DATA ·chachaLoong64Const+0x34(SB)/4, $5
DATA ·chachaLoong64Const+0x38(SB)/4, $6
DATA ·chachaLoong64Const+0x3c(SB)/4, $7
GLOBL ·chachaLoong64Const(SB), RODATA|NOPTR, $64

// SQR is a scalar quarter round on 32-bit words (the upper halves of the
// registers are ignored: ADD and ROTR are the .w forms).
#define SQR(a, b, c, d) \
	ADD	b, a; XOR	a, d; ROTR	$16, d; \
	ADD	d, c; XOR	c, b; ROTR	$20, b; \
	ADD	b, a; XOR	a, d; ROTR	$24, d; \
	ADD	d, c; XOR	c, b; ROTR	$25, b

// PRECOMPUTE runs the quarter rounds of columns 1, 2 and 3 of the first
// column round and the first steps of the diagonal quarter rounds
// (1, 6, 11, 12) and (2, 7, 8, 13), leaving the values listed in the
// register map in R8-R19 and R23-R25.
#define PRECOMPUTE \
	MOVV	$·chachaLoong64Const(SB), R26; \
	MOVWU	4(R26), R8; \
	MOVWU	4(R4), R9; \
	MOVWU	20(R4), R10; \
	MOVWU	36(R4), R11; \
	MOVWU	8(R26), R12; \
	MOVWU	8(R4), R13; \
	MOVWU	24(R4), R14; \
	MOVWU	40(R4), R15; \
	MOVWU	12(R26), R16; \
	MOVWU	12(R4), R17; \
	MOVWU	28(R4), R18; \
	MOVWU	44(R4), R19; \
	SQR(R8, R9, R10, R11); \
	SQR(R12, R13, R14, R15); \
	SQR(R16, R17, R18, R19); \
	ADD	R13, R8; \
	ADD	R17, R12; \
	XOR	R12, R11; \
	ROTR	$16, R11; \
	MOVWU	(R26), R23; \
	MOVWU	(R4), R24; \
	MOVWU	16(R4), R25; \
	ADD	R24, R23

// QR4 is one column or diagonal round: four quarter rounds (a, b, c, d)
// interleaved step by step. Rotations left by 16, 12, 8 and 7 are rotations
// right by 16, 20, 24 and 25.
#define QR4(OPADD, OPXOR, OPROT, a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, c3, d3) \
	OPADD	b0, a0; OPADD	b1, a1; OPADD	b2, a2; OPADD	b3, a3; \
	OPXOR	a0, d0; OPXOR	a1, d1; OPXOR	a2, d2; OPXOR	a3, d3; \
	OPROT	$16, d0; OPROT	$16, d1; OPROT	$16, d2; OPROT	$16, d3; \
	OPADD	d0, c0; OPADD	d1, c1; OPADD	d2, c2; OPADD	d3, c3; \
	OPXOR	c0, b0; OPXOR	c1, b1; OPXOR	c2, b2; OPXOR	c3, b3; \
	OPROT	$20, b0; OPROT	$20, b1; OPROT	$20, b2; OPROT	$20, b3; \
	OPADD	b0, a0; OPADD	b1, a1; OPADD	b2, a2; OPADD	b3, a3; \
	OPXOR	a0, d0; OPXOR	a1, d1; OPXOR	a2, d2; OPXOR	a3, d3; \
	OPROT	$24, d0; OPROT	$24, d1; OPROT	$24, d2; OPROT	$24, d3; \
	OPADD	d0, c0; OPADD	d1, c1; OPADD	d2, c2; OPADD	d3, c3; \
	OPXOR	c0, b0; OPXOR	c1, b1; OPXOR	c2, b2; OPXOR	c3, b3; \
	OPROT	$25, b0; OPROT	$25, b1; OPROT	$25, b2; OPROT	$25, b3

// DROUND is a double round on the sixteen working registers.
#define DROUND(OPADD, OPXOR, OPROT, r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15) \
	QR4(OPADD, OPXOR, OPROT, r0, r4, r8, r12, r1, r5, r9, r13, r2, r6, r10, r14, r3, r7, r11, r15); \
	QR4(OPADD, OPXOR, OPROT, r0, r5, r10, r15, r1, r6, r11, r12, r2, r7, r8, r13, r3, r4, r9, r14)

// BCAST4 and BCAST8 broadcast a general register into every 32-bit lane of
// an LSX or LASX register.
#define BCAST4(r, v) VMOVQ	r, v.W4
#define BCAST8(r, v) XVMOVQ	r, v.W8

// FIRST is the first double round, starting from the precomputed values.
// It broadcasts the five precomputed words that are not kept in vector
// registers into their working registers (BCAST: general register to every
// lane), runs the quarter round of column 0 (words 0, 4, 8, 12, the only
// column with the counter in it; x0 = c0+k0 is the same in every block, so
// its first addition is precomputed), and then the diagonal round (0, 5,
// 10, 15) (1, 6, 11, 12) (2, 7, 8, 13) (3, 4, 9, 14) without x1 += x6,
// x2 += x7 and the first update of x13. Each precomputed operand p* is read
// in place by the instruction that first writes its word's working
// register, so none of them needs a copy. r0-r15 are the working registers
// and ctr the counters.
#define FIRST(OPADD, OPXOR, OPROT, BCAST, r0, r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15, ctr, pa0, pk0, pk4, p5, p1, p2, p13, p6, p7, p10) \
	BCAST(R16, r3); \
	BCAST(R10, r9); \
	BCAST(R18, r11); \
	BCAST(R15, r14); \
	BCAST(R19, r15); \
	OPXOR	pa0, ctr, r12; \
	OPROT	$16, r12; \
	OPADD	r12, pk4, r8; \
	OPXOR	r8, pk0, r4; \
	OPROT	$20, r4; \
	OPADD	r4, pa0, r0; \
	OPXOR	r0, r12; \
	OPROT	$24, r12; \
	OPADD	r12, r8; \
	OPXOR	r8, r4; \
	OPROT	$25, r4; \
	OPADD	p5, r0; \
	OPADD	r4, r3; \
	OPXOR	r0, r15; \
	OPXOR	p1, r12; \
	OPXOR	r3, r14; \
	OPROT	$16, r15; \
	OPROT	$16, r12; \
	OPROT	$16, r14; \
	OPADD	r15, p10, r10; \
	OPADD	r12, r11; \
	OPADD	p13, r8; \
	OPADD	r14, r9; \
	OPXOR	r10, p5, r5; \
	OPXOR	r11, p6, r6; \
	OPXOR	r8, p7, r7; \
	OPXOR	r9, r4; \
	OPROT	$20, r5; \
	OPROT	$20, r6; \
	OPROT	$20, r7; \
	OPROT	$20, r4; \
	OPADD	r5, r0; \
	OPADD	r6, p1, r1; \
	OPADD	r7, p2, r2; \
	OPADD	r4, r3; \
	OPXOR	r0, r15; \
	OPXOR	r1, r12; \
	OPXOR	r2, p13, r13; \
	OPXOR	r3, r14; \
	OPROT	$24, r15; \
	OPROT	$24, r12; \
	OPROT	$24, r13; \
	OPROT	$24, r14; \
	OPADD	r15, r10; \
	OPADD	r12, r11; \
	OPADD	r13, r8; \
	OPADD	r14, r9; \
	OPXOR	r10, r5; \
	OPXOR	r11, r6; \
	OPXOR	r8, r7; \
	OPXOR	r9, r4; \
	OPROT	$25, r5; \
	OPROT	$25, r6; \
	OPROT	$25, r7; \
	OPROT	$25, r4

// TRANSPOSE4 turns four registers holding one word of blocks 0..3 each
// (w0..w3 = words 4r..4r+3) into four registers holding words 4r..4r+3 of
// one block each, within each 128-bit lane: two rounds of interleaving, of
// words and then of doublewords, writing over the inputs as they are used
// up so that one temporary t suffices. The rows of blocks 0, 1, 2, 3 end
// up in w2, w0, t, w3; w1 is free afterwards.
#define TRANSPOSE4(ILVLW, ILVHW, ILVLV, ILVHV, w0, w1, w2, w3, t) \
	ILVLW	w0, w1, t; \
	ILVHW	w0, w1, w1; \
	ILVLW	w2, w3, w0; \
	ILVHW	w2, w3, w3; \
	ILVLV	t, w0, w2; \
	ILVHV	t, w0, w0; \
	ILVLV	w1, w3, t; \
	ILVHV	w1, w3, w3

// The output step of the LSX code, for one 16-byte row v at off: ST16
// stores it into the keystream buffer at R5, XOR16 XORs it with the message
// at R7 (using the free register t) and stores the result at R5.
#define ST16(v, off, t) \
	VMOVQ	v, (off)(R5)
#define XOR16(v, off, t) \
	VMOVQ	(off)(R7), t; \
	VXORV	t, v, v; \
	VMOVQ	v, (off)(R5)

// LSXROW finishes row r (words 4r..4r+3, off = 16r) of the four blocks:
// transposes, adds the feed-forward row and outputs 16 bytes of each block
// with OUT (ST16 or XOR16).
#define LSXROW(OUT, off, row, w0, w1, w2, w3) \
	TRANSPOSE4(VILVLW, VILVHW, VILVLV, VILVHV, w0, w1, w2, w3, V21); \
	VADDW	row, w2; \
	VADDW	row, w0; \
	VADDW	row, V21; \
	VADDW	row, w3; \
	OUT(w2, off+0, w1); \
	OUT(w0, off+64, w1); \
	OUT(V21, off+128, w1); \
	OUT(w3, off+192, w1)

// LSXSETUP runs the scalar first round and loads the registers that live
// for the whole call: the precomputed operands, the feed-forward rows (the
// counter lane of the last one is zero) and the counters s.Counter+0..3.
#define LSXSETUP \
	PRECOMPUTE; \
	VMOVQ	R23, V23.W4; \
	VMOVQ	R24, V24.W4; \
	VMOVQ	R25, V25.W4; \
	VMOVQ	R9, V26.W4; \
	VMOVQ	R8, V27.W4; \
	VMOVQ	R12, V28.W4; \
	VMOVQ	R11, V29.W4; \
	VMOVQ	R13, V30.W4; \
	VMOVQ	R17, V31.W4; \
	VMOVQ	R14, V22.W4; \
	VMOVQ	(R26), V17; \
	VMOVQ	0(R4), V18; \
	VMOVQ	16(R4), V19; \
	VMOVQ	32(R4), V20; \
	VMOVQ	R0, V20.W[0]; \
	VMOVQ	32(R4), V16.W4; \
	VMOVQ	32(R26), V21; \
	VADDW	V21, V16, V16

// LSXBLOCKS computes four blocks: the first double round from the
// precomputed values, the other nine, the feed-forward of the counters,
// then the transposition and the rest of the feed-forward row by row, each
// row output with OUT. Then it moves the counters on by 4.
#define LSXBLOCKS(OUT) \
	FIRST(VADDW, VXORV, VROTRW, BCAST4, V0, V1, V2, V3, V4, V5, V6, V7, V8, V9, V10, V11, V12, V13, V14, V15, V16, V23, V24, V25, V26, V27, V28, V29, V30, V31, V22); \
	DROUND(VADDW, VXORV, VROTRW, V0, V1, V2, V3, V4, V5, V6, V7, V8, V9, V10, V11, V12, V13, V14, V15); \
	DROUND(VADDW, VXORV, VROTRW, V0, V1, V2, V3, V4, V5, V6, V7, V8, V9, V10, V11, V12, V13, V14, V15); \
	DROUND(VADDW, VXORV, VROTRW, V0, V1, V2, V3, V4, V5, V6, V7, V8, V9, V10, V11, V12, V13, V14, V15); \
	DROUND(VADDW, VXORV, VROTRW, V0, V1, V2, V3, V4, V5, V6, V7, V8, V9, V10, V11, V12, V13, V14, V15); \
	DROUND(VADDW, VXORV, VROTRW, V0, V1, V2, V3, V4, V5, V6, V7, V8, V9, V10, V11, V12, V13, V14, V15); \
	DROUND(VADDW, VXORV, VROTRW, V0, V1, V2, V3, V4, V5, V6, V7, V8, V9, V10, V11, V12, V13, V14, V15); \
	DROUND(VADDW, VXORV, VROTRW, V0, V1, V2, V3, V4, V5, V6, V7, V8, V9, V10, V11, V12, V13, V14, V15); \
	DROUND(VADDW, VXORV, VROTRW, V0, V1, V2, V3, V4, V5, V6, V7, V8, V9, V10, V11, V12, V13, V14, V15); \
	DROUND(VADDW, VXORV, VROTRW, V0, V1, V2, V3, V4, V5, V6, V7, V8, V9, V10, V11, V12, V13, V14, V15); \
	VADDW	V16, V12, V12; \
	LSXROW(OUT, 0, V17, V0, V1, V2, V3); \
	LSXROW(OUT, 16, V18, V4, V5, V6, V7); \
	LSXROW(OUT, 32, V19, V8, V9, V10, V11); \
	LSXROW(OUT, 48, V20, V12, V13, V14, V15); \
	VADDWU	$4, V16, V16

// func keystreamLSX(s *State, out *byte, iters int)
//
// keystreamLSX writes 256*iters bytes of keystream to out: the blocks
// numbered s.Counter, s.Counter+1, ... (mod 2^32). It does not change s.
// iters must be at least 1.
TEXT ·keystreamLSX(SB), NOSPLIT, $0-24
	MOVV	s+0(FP), R4
	MOVV	out+8(FP), R5
	MOVV	iters+16(FP), R6
	LSXSETUP
loop:
	LSXBLOCKS(ST16)
	ADDV	$256, R5
	SUBV	$1, R6
	BNE	R6, R0, loop
	RET

// func xorKeyStreamLSX(s *State, dst, src *byte, iters int)
//
// xorKeyStreamLSX XORs 256*iters bytes of src with the keystream that
// keystreamLSX would write and stores the result to dst, which is src or
// does not overlap it. It does not change s. iters must be at least 1.
TEXT ·xorKeyStreamLSX(SB), NOSPLIT, $0-32
	MOVV	s+0(FP), R4
	MOVV	dst+8(FP), R5
	MOVV	src+16(FP), R7
	MOVV	iters+24(FP), R6
	LSXSETUP
xorloop:
	LSXBLOCKS(XOR16)
	ADDV	$256, R5
	ADDV	$256, R7
	SUBV	$1, R6
	BNE	R6, R0, xorloop
	RET

// The output step of the LASX code for rows r and r+1 of blocks j and j+4
// (off = 64j+16r), from a and b, which hold (row r of block j | row r of
// block j+4) and (row r+1 of block j | row r+1 of block j+4); va and vb are
// their low halves as LSX registers, t a free register.
//
// STPAIR stores into the keystream buffer at R5: the low halves directly,
// the high halves after XVPERMIQ has gathered them into a (source
// selectors: 3 = a's high half into the low half, 1 = b's high half into
// the high half).
#define STPAIR(off, a, b, va, vb, t) \
	VMOVQ	va, (off)(R5); \
	VMOVQ	vb, (off+16)(R5); \
	XVPERMIQ	$0x13, b, a; \
	XVMOVQ	a, (off+256)(R5)

// XORPAIR XORs with the message at R7 and stores at R5. It gathers the low
// halves into t (a copy of a: 2 = t's own low half stays low, 0 = b's low
// half goes high) and the high halves into a, so that each is one 32-byte
// load, XOR and store; b serves as the load register.
#define XORPAIR(off, a, b, va, vb, t) \
	XVORV	a, a, t; \
	XVPERMIQ	$0x02, b, t; \
	XVPERMIQ	$0x13, b, a; \
	XVMOVQ	(off)(R7), b; \
	XVXORV	b, t, t; \
	XVMOVQ	t, (off)(R5); \
	XVMOVQ	(off+256)(R7), b; \
	XVXORV	b, a, a; \
	XVMOVQ	a, (off+256)(R5)

// LASXROWS finishes rows r and r+1 (words 4r..4r+7, off = 16r) of the eight
// blocks and outputs them with PAIR (STPAIR or XORPAIR). w0..w3 hold words
// 4r..4r+3 and w4..w7 words 4r+4..4r+7; t is a free register. The first
// transposition leaves w1 free for the second, and the second leaves w5
// free for PAIR.
#define LASXROWS(PAIR, off, rowa, rowb, w0, w1, w2, w3, w4, w5, w6, w7, t, v0, v1, v2, v3, v4, v6, v7, vt) \
	TRANSPOSE4(XVILVLW, XVILVHW, XVILVLV, XVILVHV, w0, w1, w2, w3, t); \
	XVADDW	rowa, w2; \
	XVADDW	rowa, w0; \
	XVADDW	rowa, t; \
	XVADDW	rowa, w3; \
	TRANSPOSE4(XVILVLW, XVILVHW, XVILVLV, XVILVHV, w4, w5, w6, w7, w1); \
	XVADDW	rowb, w6; \
	XVADDW	rowb, w4; \
	XVADDW	rowb, w1; \
	XVADDW	rowb, w7; \
	PAIR(off+0, w2, w6, v2, v6, w5); \
	PAIR(off+64, w0, w4, v0, v4, w5); \
	PAIR(off+128, t, w1, vt, v1, w5); \
	PAIR(off+192, w3, w7, v3, v7, w5)

// LASXSETUP is LSXSETUP for LASX: the same values in 256-bit registers, the
// feed-forward rows repeated in both halves, the counters s.Counter+0..7.
#define LASXSETUP \
	PRECOMPUTE; \
	XVMOVQ	R23, X23.W8; \
	XVMOVQ	R24, X24.W8; \
	XVMOVQ	R25, X25.W8; \
	XVMOVQ	R9, X26.W8; \
	XVMOVQ	R8, X27.W8; \
	XVMOVQ	R12, X28.W8; \
	XVMOVQ	R11, X29.W8; \
	XVMOVQ	R13, X30.W8; \
	XVMOVQ	R17, X31.W8; \
	XVMOVQ	R14, X22.W8; \
	XVMOVQ	(R26), X17; \
	VMOVQ	0(R4), V18; \
	VMOVQ	16(R4), V19; \
	VMOVQ	32(R4), V20; \
	VMOVQ	R0, V20.W[0]; \
	XVPERMIQ	$0x00, X18, X18; \
	XVPERMIQ	$0x00, X19, X19; \
	XVPERMIQ	$0x00, X20, X20; \
	XVMOVQ	32(R4), X16.W8; \
	XVMOVQ	32(R26), X21; \
	XVADDW	X21, X16, X16

// LASXBLOCKS is LSXBLOCKS for eight blocks in LASX registers. Lanes 0-3 of
// each register hold blocks i..i+3 and lanes 4-7 blocks i+4..i+7.
#define LASXBLOCKS(PAIR) \
	FIRST(XVADDW, XVXORV, XVROTRW, BCAST8, X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15, X16, X23, X24, X25, X26, X27, X28, X29, X30, X31, X22); \
	DROUND(XVADDW, XVXORV, XVROTRW, X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15); \
	DROUND(XVADDW, XVXORV, XVROTRW, X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15); \
	DROUND(XVADDW, XVXORV, XVROTRW, X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15); \
	DROUND(XVADDW, XVXORV, XVROTRW, X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15); \
	DROUND(XVADDW, XVXORV, XVROTRW, X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15); \
	DROUND(XVADDW, XVXORV, XVROTRW, X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15); \
	DROUND(XVADDW, XVXORV, XVROTRW, X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15); \
	DROUND(XVADDW, XVXORV, XVROTRW, X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15); \
	DROUND(XVADDW, XVXORV, XVROTRW, X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15); \
	XVADDW	X16, X12, X12; \
	LASXROWS(PAIR, 0, X17, X18, X0, X1, X2, X3, X4, X5, X6, X7, X21, V0, V1, V2, V3, V4, V6, V7, V21); \
	LASXROWS(PAIR, 32, X19, X20, X8, X9, X10, X11, X12, X13, X14, X15, X21, V8, V9, V10, V11, V12, V14, V15, V21); \
	XVADDWU	$8, X16, X16

// func keystreamLASX(s *State, out *byte, iters int)
//
// keystreamLASX writes 512*iters bytes of keystream to out: the blocks
// numbered s.Counter, s.Counter+1, ... (mod 2^32). It does not change s.
// iters must be at least 1.
TEXT ·keystreamLASX(SB), NOSPLIT, $0-24
	MOVV	s+0(FP), R4
	MOVV	out+8(FP), R5
	MOVV	iters+16(FP), R6
	LASXSETUP
lasxloop:
	LASXBLOCKS(STPAIR)
	ADDV	$512, R5
	SUBV	$1, R6
	BNE	R6, R0, lasxloop
	RET

// func xorKeyStreamLASX(s *State, dst, src *byte, iters int)
//
// xorKeyStreamLASX XORs 512*iters bytes of src with the keystream that
// keystreamLASX would write and stores the result to dst, which is src or
// does not overlap it. It does not change s. iters must be at least 1.
TEXT ·xorKeyStreamLASX(SB), NOSPLIT, $0-32
	MOVV	s+0(FP), R4
	MOVV	dst+8(FP), R5
	MOVV	src+16(FP), R7
	MOVV	iters+24(FP), R6
	LASXSETUP
lasxxorloop:
	LASXBLOCKS(XORPAIR)
	ADDV	$512, R5
	ADDV	$512, R7
	SUBV	$1, R6
	BNE	R6, R0, lasxxorloop
	RET

// Row layout for short inputs (xorBlocksRows): one block at a time, the
// 4x4 state in four LSX registers, one row each ("horizontal" layout, as in
// the one-block SSSE3 code of OpenSSL's chacha-x86_64.pl, ChaCha20_ssse3,
// and of the Linux kernel's chacha20_block_xor_ssse3; chacha20_s390x.s and
// chacha20_ppc64le.s of this package do the same). A column round is one quarter round on whole rows (VADDW,
// VXORV, VROTRW); VSHUF4IW then rotates rows 1, 2 and 3 by one, two and
// three lanes so that the diagonals line up as columns, and rotates them
// back after the diagonal round: 30 instructions per double round for one
// block, against 96 for four (eight) blocks in the vertical layout, so a
// short input does not pay for a whole vertical iteration.
//
// Register map (xorBlocksRows):
//   R4        s *State
//   R5, R6    dst and src, advanced by 64 bytes per block
//   R7        blocks left
//   R8        address of the constant table
//   R9        scratch (the constant 1)
//   V0        row 0: "expand 32-byte k"
//   V1, V2    rows 1 and 2: k0..k3, k4..k7
//   V3        row 3: (counter, n0, n1, n2), the counter lane moved on by 1
//             per block
//   V4        (1, 0, 0, 0), the counter increment
//   V8-V11    working rows a, b, c, d
//   V12-V15   the 64 bytes of message of the block

// RQR is one quarter round on the four rows a, b, c, d (all four columns,
// or all four diagonals once the rows are rotated). Rotations left by 16,
// 12, 8 and 7 are rotations right by 16, 20, 24 and 25.
#define RQR(a, b, c, d) \
	VADDW	b, a; VXORV	a, d; VROTRW	$16, d; \
	VADDW	d, c; VXORV	c, b; VROTRW	$20, b; \
	VADDW	b, a; VXORV	a, d; VROTRW	$24, d; \
	VADDW	d, c; VXORV	c, b; VROTRW	$25, b

// RDIAG turns the diagonals of rows b, c, d into columns: lane i of b, c
// and d takes lane i+1, i+2 and i+3 (mod 4). VSHUF4IW's immediate holds
// the source lane of lane i in bits 2i+1..2i: 0x39 = (1, 2, 3, 0),
// 0x4e = (2, 3, 0, 1), 0x93 = (3, 0, 1, 2).
#define RDIAG(b, c, d) \
	VSHUF4IW	$0x39, b, b; \
	VSHUF4IW	$0x4e, c, c; \
	VSHUF4IW	$0x93, d, d

// RUNDIAG undoes RDIAG.
#define RUNDIAG(b, c, d) \
	VSHUF4IW	$0x93, b, b; \
	VSHUF4IW	$0x4e, c, c; \
	VSHUF4IW	$0x39, d, d

// RDROUND is a double round on the working rows V8-V11.
#define RDROUND \
	RQR(V8, V9, V10, V11); \
	RDIAG(V9, V10, V11); \
	RQR(V8, V9, V10, V11); \
	RUNDIAG(V9, V10, V11)

// func xorBlocksRows(s *State, dst, src *byte, blocks int)
//
// xorBlocksRows XORs 64*blocks bytes of src with the keystream blocks
// numbered s.Counter, s.Counter+1, ... (mod 2^32) and stores the result to
// dst, which is src or does not overlap it. It does not change s. blocks
// must be at least 1. It uses LSX only.
TEXT ·xorBlocksRows(SB), NOSPLIT, $0-32
	MOVV	s+0(FP), R4
	MOVV	dst+8(FP), R5
	MOVV	src+16(FP), R6
	MOVV	blocks+24(FP), R7

	// The input rows and the counter increment.
	MOVV	$·chachaLoong64Const(SB), R8
	VMOVQ	(R8), V0
	VMOVQ	0(R4), V1
	VMOVQ	16(R4), V2
	VMOVQ	32(R4), V3
	MOVV	$1, R9
	VXORV	V4, V4, V4
	VMOVQ	R9, V4.W[0]

rowsloop:
	// First steps of the first column round, written straight from the
	// input rows into the working rows (no copies): a = row0 + row1,
	// d = (row3 ^ a) >>> 16, c = row2 + d, b = (row1 ^ c) >>> 20.
	VADDW	V1, V0, V8
	VXORV	V8, V3, V11
	VROTRW	$16, V11
	VADDW	V11, V2, V10
	VXORV	V10, V1, V9
	VROTRW	$20, V9

	// The rest of the first double round.
	VADDW	V9, V8
	VXORV	V8, V11
	VROTRW	$24, V11
	VADDW	V11, V10
	VXORV	V10, V9
	VROTRW	$25, V9
	RDIAG(V9, V10, V11)
	RQR(V8, V9, V10, V11)
	RUNDIAG(V9, V10, V11)

	// The other nine double rounds.
	RDROUND
	RDROUND
	RDROUND
	RDROUND
	RDROUND
	RDROUND
	RDROUND
	RDROUND
	RDROUND

	// Feed-forward: the keystream block is the working rows plus the
	// input rows.
	VADDW	V0, V8
	VADDW	V1, V9
	VADDW	V2, V10
	VADDW	V3, V11

	// XOR with the 64 bytes of message and store. All loads come before
	// the stores, so dst == src is fine.
	VMOVQ	0(R6), V12
	VMOVQ	16(R6), V13
	VMOVQ	32(R6), V14
	VMOVQ	48(R6), V15
	VXORV	V12, V8, V8
	VXORV	V13, V9, V9
	VXORV	V14, V10, V10
	VXORV	V15, V11, V11
	VMOVQ	V8, 0(R5)
	VMOVQ	V9, 16(R5)
	VMOVQ	V10, 32(R5)
	VMOVQ	V11, 48(R5)

	// Next block: counter lane + 1 (mod 2^32), pointers on by 64.
	VADDW	V4, V3, V3
	ADDV	$64, R5
	ADDV	$64, R6
	SUBV	$1, R7
	BNE	R7, R0, rowsloop
	RET
