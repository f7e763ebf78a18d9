//go:build gc && !purego

#include "go_asm.h"
#include "textflag.h"

// ChaCha20 keystream for riscv64 with the vector extension (RVV 1.0), for
// any VLEN from 128 bits up (RFC 8439, Section 2.3). The function only
// generates keystream into a buffer; the Go code XORs it into the message
// through subtle.XORBytes.
//
// Layout: one vector register per state word, each 32-bit element a
// different block (SEW=32, LMUL=1), so a round is only adds, XORs and
// rotates, and the number of blocks per iteration is VL: 4 at VLEN=128, 8 at
// 256, 32 at 1024 (capped by the blocks asked for, which the Go code caps at
// its buffer). The rotations are a shift left, a shift right and an OR:
// Go's assembler has no Zvbb instructions (vror), which RVA23 makes
// mandatory. Two strided segment stores (vssseg8e32, stride 64) write the
// sixteen words of every block into place, so the blocks need no
// transposition in registers.
//
// As in chacha20_loong64.s, the counter-independent part of the first
// double round (the quarter rounds of columns 1, 2, 3 and the first steps
// of diagonals (1, 6, 11, 12) and (2, 7, 8, 13)) is computed once per call
// in scalar code (the idea of golang.org/x/crypto's chacha_generic.go,
// extended by two diagonal steps). Here the precomputed words never occupy
// vector registers: the .vx instruction forms take them straight from
// general registers.
//
// Register map:
//   X10       s *State (its words read at State_Key+n: Key, Counter and Nonce
//             are consecutive; the portable code's cache comes first)
//   X11       out, advanced by 64*VL bytes per iteration
//   X12       blocks left
//   X13       VL of the iteration
//   X14       64, the stride between blocks
//   X15       scratch (out+32, 64*VL, loop counter)
//   X8, X9    scratch of the scalar code
//   X16-X19   x1+x6, x5, x9, (x13^(x2+x7))<<<16 after the scalar first round
//   X20-X23   x2+x7, x6, x10, x14
//   X24-X26, X28   x3, x7, x11, x15
//   X29, X30, X5   c0+k0, k0 (also word 4 of the feed-forward), k4 (word 8)
//   X6, X7    n1, n2: words 14 and 15 of the feed-forward
//   V0-V15    the sixteen state words of VL blocks
//   V16       block counters
//   V17-V20   rotation temporaries
//   V21-V31   feed-forward words 0, 1, 2, 3, 5, 6, 7, 9, 10, 11, 13

// SQR is a scalar quarter round on the low 32 bits of the registers. RORIW
// is one Zbb instruction with GORISCV64=rva22u64 and up, and three base
// instructions otherwise (the assembler expands it).
#define SQR(a, b, c, d) \
	ADDW	b, a; XOR	a, d; RORIW	$16, d; \
	ADDW	d, c; XOR	c, b; RORIW	$20, b; \
	ADDW	b, a; XOR	a, d; RORIW	$24, d; \
	ADDW	d, c; XOR	c, b; RORIW	$25, b

// ROT4 rotates four vectors left by l bits (right by r = 32-l).
#define ROT4(l, r, a, b, c, d) \
	VSLLVI	$l, a, V17; VSLLVI	$l, b, V18; VSLLVI	$l, c, V19; VSLLVI	$l, d, V20; \
	VSRLVI	$r, a, a; VSRLVI	$r, b, b; VSRLVI	$r, c, c; VSRLVI	$r, d, d; \
	VORVV	V17, a, a; VORVV	V18, b, b; VORVV	V19, c, c; VORVV	V20, d, d

// QR4 is one column or diagonal round: four quarter rounds (a, b, c, d)
// interleaved step by step.
#define QR4(a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, c3, d3) \
	VADDVV	b0, a0, a0; VADDVV	b1, a1, a1; VADDVV	b2, a2, a2; VADDVV	b3, a3, a3; \
	VXORVV	a0, d0, d0; VXORVV	a1, d1, d1; VXORVV	a2, d2, d2; VXORVV	a3, d3, d3; \
	ROT4(16, 16, d0, d1, d2, d3); \
	VADDVV	d0, c0, c0; VADDVV	d1, c1, c1; VADDVV	d2, c2, c2; VADDVV	d3, c3, c3; \
	VXORVV	c0, b0, b0; VXORVV	c1, b1, b1; VXORVV	c2, b2, b2; VXORVV	c3, b3, b3; \
	ROT4(12, 20, b0, b1, b2, b3); \
	VADDVV	b0, a0, a0; VADDVV	b1, a1, a1; VADDVV	b2, a2, a2; VADDVV	b3, a3, a3; \
	VXORVV	a0, d0, d0; VXORVV	a1, d1, d1; VXORVV	a2, d2, d2; VXORVV	a3, d3, d3; \
	ROT4(8, 24, d0, d1, d2, d3); \
	VADDVV	d0, c0, c0; VADDVV	d1, c1, c1; VADDVV	d2, c2, c2; VADDVV	d3, c3, c3; \
	VXORVV	c0, b0, b0; VXORVV	c1, b1, b1; VXORVV	c2, b2, b2; VXORVV	c3, b3, b3; \
	ROT4(7, 25, b0, b1, b2, b3)

// DROUND is a double round on V0-V15.
#define DROUND \
	QR4(V0, V4, V8, V12, V1, V5, V9, V13, V2, V6, V10, V14, V3, V7, V11, V15); \
	QR4(V0, V5, V10, V15, V1, V6, V11, V12, V2, V7, V8, V13, V3, V4, V9, V14)

// BCASTW loads the 32-bit word at off from the State's key (X10) into
// every element of v.
#define BCASTW(off, v) \
	MOVWU	State_Key+off(X10), X8; \
	VMVVX	X8, v

// BCASTC puts the constant c into every element of v.
#define BCASTC(c, v) \
	MOV	$c, X8; \
	VMVVX	X8, v

// func keystreamRVV(s *State, out *byte, blocks int)
//
// keystreamRVV writes 64*blocks bytes of keystream to out: the blocks
// numbered s.Counter, s.Counter+1, ... (mod 2^32). It does not change s.
// blocks must be at least 1.
TEXT ·keystreamRVV(SB), NOSPLIT, $0-24
	MOV	s+0(FP), X10
	MOV	out+8(FP), X11
	MOV	blocks+16(FP), X12
	MOV	$64, X14

	// Scalar first round: the quarter rounds of columns 1, 2 and 3.
	MOV	$0x3320646e, X16
	MOVWU	State_Key+4(X10), X17
	MOVWU	State_Key+20(X10), X18
	MOVWU	State_Key+36(X10), X19
	MOV	$0x79622d32, X20
	MOVWU	State_Key+8(X10), X21
	MOVWU	State_Key+24(X10), X22
	MOVWU	State_Key+40(X10), X23
	MOV	$0x6b206574, X24
	MOVWU	State_Key+12(X10), X25
	MOVWU	State_Key+28(X10), X26
	MOVWU	State_Key+44(X10), X28
	SQR(X16, X17, X18, X19)
	SQR(X20, X21, X22, X23)
	SQR(X24, X25, X26, X28)
	// First steps of the diagonals (1, 6, 11, 12) and (2, 7, 8, 13):
	// x1 += x6; x2 += x7; x13 = (x13 ^ x2) <<< 16.
	ADDW	X21, X16
	ADDW	X25, X20
	XOR	X20, X19
	RORIW	$16, X19
	// Column 0 starts from x0 = c0+k0, the same in every block.
	MOVWU	State_Key+0(X10), X30
	MOVWU	State_Key+16(X10), X5
	MOV	$0x61707865, X29
	ADDW	X30, X29
	MOVWU	State_Key+40(X10), X6
	MOVWU	State_Key+44(X10), X7

	// Feed-forward words and counters, for VLMAX elements (VL only
	// decreases from one iteration to the next, so a tail-agnostic update
	// never reaches an element a later iteration uses).
	VSETVLI	X0, E32, M1, TA, MA, X13
	BCASTC(0x61707865, V21)
	BCASTC(0x3320646e, V22)
	BCASTC(0x79622d32, V23)
	BCASTC(0x6b206574, V24)
	BCASTW(4, V25)
	BCASTW(8, V26)
	BCASTW(12, V27)
	BCASTW(20, V28)
	BCASTW(24, V29)
	BCASTW(28, V30)
	BCASTW(36, V31)
	MOVWU	State_Key+32(X10), X8
	VIDV	V16
	VADDVX	X8, V16, V16

loop:
	// VL = min(blocks left, VLMAX), or as the hardware splits a rest of
	// less than 2*VLMAX.
	VSETVLI	X12, E32, M1, TA, MA, X13

	// Column 0 of the first column round.
	VXORVX	X29, V16, V12
	VSLLVI	$16, V12, V17
	VSRLVI	$16, V12, V12
	VORVV	V17, V12, V12
	VADDVX	X5, V12, V8
	VXORVX	X30, V8, V4
	VSLLVI	$12, V4, V17
	VSRLVI	$20, V4, V4
	VORVV	V17, V4, V4
	VADDVX	X29, V4, V0
	VXORVV	V0, V12, V12
	VSLLVI	$8, V12, V17
	VSRLVI	$24, V12, V12
	VORVV	V17, V12, V12
	VADDVV	V12, V8, V8
	VXORVV	V8, V4, V4
	VSLLVI	$7, V4, V17
	VSRLVI	$25, V4, V4
	VORVV	V17, V4, V4

	// First diagonal round, (0,5,10,15) (1,6,11,12) (2,7,8,13) (3,4,9,14),
	// taking the precomputed words from general registers. a += b:
	VADDVX	X17, V0, V0
	VADDVX	X24, V4, V3
	// d ^= a; d <<<= 16 (x13 is done)
	VXORVX	X28, V0, V15
	VXORVX	X16, V12, V12
	VXORVX	X23, V3, V14
	VSLLVI	$16, V15, V17
	VSLLVI	$16, V12, V18
	VSLLVI	$16, V14, V19
	VSRLVI	$16, V15, V15
	VSRLVI	$16, V12, V12
	VSRLVI	$16, V14, V14
	VORVV	V17, V15, V15
	VORVV	V18, V12, V12
	VORVV	V19, V14, V14
	// c += d
	VADDVX	X22, V15, V10
	VADDVX	X26, V12, V11
	VADDVX	X19, V8, V8
	VADDVX	X18, V14, V9
	// b ^= c; b <<<= 12
	VXORVX	X17, V10, V5
	VXORVX	X21, V11, V6
	VXORVX	X25, V8, V7
	VXORVV	V9, V4, V4
	ROT4(12, 20, V5, V6, V7, V4)
	// a += b
	VADDVV	V5, V0, V0
	VADDVX	X16, V6, V1
	VADDVX	X20, V7, V2
	VADDVV	V4, V3, V3
	// d ^= a; d <<<= 8
	VXORVV	V0, V15, V15
	VXORVV	V1, V12, V12
	VXORVX	X19, V2, V13
	VXORVV	V3, V14, V14
	ROT4(8, 24, V15, V12, V13, V14)
	// c += d
	VADDVV	V15, V10, V10
	VADDVV	V12, V11, V11
	VADDVV	V13, V8, V8
	VADDVV	V14, V9, V9
	// b ^= c; b <<<= 7
	VXORVV	V10, V5, V5
	VXORVV	V11, V6, V6
	VXORVV	V8, V7, V7
	VXORVV	V9, V4, V4
	ROT4(7, 25, V5, V6, V7, V4)

	// The other nine double rounds, three per trip.
	MOV	$3, X15
rounds:
	DROUND
	DROUND
	DROUND
	SUB	$1, X15
	BNEZ	X15, rounds

	// Feed forward.
	VADDVV	V21, V0, V0
	VADDVV	V22, V1, V1
	VADDVV	V23, V2, V2
	VADDVV	V24, V3, V3
	VADDVX	X30, V4, V4
	VADDVV	V25, V5, V5
	VADDVV	V26, V6, V6
	VADDVV	V27, V7, V7
	VADDVX	X5, V8, V8
	VADDVV	V28, V9, V9
	VADDVV	V29, V10, V10
	VADDVV	V30, V11, V11
	VADDVV	V16, V12, V12
	VADDVV	V31, V13, V13
	VADDVX	X6, V14, V14
	VADDVX	X7, V15, V15

	// Words 0-7 of block i go to out+64*i, words 8-15 to out+64*i+32.
	VSSSEG8E32V	V0, X14, (X11)
	ADD	$32, X11, X15
	VSSSEG8E32V	V8, X14, (X15)

	// Next VL blocks.
	VADDVX	X13, V16, V16
	SLLI	$6, X13, X15
	ADD	X15, X11
	SUB	X13, X12
	BNEZ	X12, loop
	RET

// func rvvRequired() bool
//
// rvvRequired reports whether the build targets a profile that includes
// the vector extension (GORISCV64=rva23u64), so that the vector path is
// used without asking the operating system.
TEXT ·rvvRequired(SB), NOSPLIT, $0-1
#ifdef GORISCV64_rva23u64
	MOV	$1, X5
#else
	MOV	$0, X5
#endif
	MOVB	X5, ret+0(FP)
	RET

// func rvvLanes() int
//
// rvvLanes returns VLMAX for 32-bit elements at LMUL=1, the number of blocks
// one iteration of keystreamRVV computes (VLEN/32). Only for CPUs with V.
TEXT ·rvvLanes(SB), NOSPLIT, $0-8
	VSETVLI	X0, E32, M1, TA, MA, X5
	MOV	X5, ret+0(FP)
	RET
