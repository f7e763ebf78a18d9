//go:build gc && !purego

// Poly1305 block function for riscv64 (RFC 8439, Section 2.5.1).
// blocksScalar64 works in general-purpose registers: the accumulator in three
// 64-bit limbs, the products with MUL and MULHU (the M extension, part of
// every GORISCV64 profile), the reduction modulo 2^130 - 5 with shifts and
// adds. Nothing branches on the key, the accumulator or the message, and no
// memory index depends on them; the branches count the blocks and choose the
// loads by the alignment of msg.
//
// The arithmetic is that of poly1305_loong64.s, step for step
// (RISC-V has no carry flag either: a carry out of x = a + b is SLTU a, x),
// where the bounds are argued: s1 = r1 + r1>>2 = 5·r1/4 folds the terms of
// h·r at 2^128 and 2^192, the two lo() products at 2^64 are summed first and
// join h1 after the reduction, the next block's message is added in the same
// pass as the reduction, and after each block h2 <= 4. 39 instructions per
// aligned block (38 with Zba, whose SH2ADD computes 5·q = (q << 2) + q),
// plus 2 per trip of 8 blocks; the portable Go code compiles to about 113
// per block (its byte-wise loads among them), golang.org/x/crypto's
// sum_riscv64.s to 62 for aligned blocks.
//
// Loads: RISC-V may trap on a misaligned 64-bit load, or emulate it slowly,
// so the words of msg are loaded aligned. When msg is not 8-byte aligned
// (k = msg mod 8 bytes, which is the same for every block), each 64-bit
// message word is assembled from two aligned words w, w' as
// w >> 8k | w' << (64 - 8k), six instructions more per block. The aligned
// words read hold at least one byte of msg each, so they never leave its
// pages; their bytes outside msg are shifted out.
//
// Register map:
//
//   X10       st *state: h [3]uint64 at 0, r [2]uint64 at 24, s at 40
//   X11       msg pointer (rounded down to 8 bytes): the block being
//             multiplied; the next one is read at an offset
//   X12       the whole blocks' count, then the end of the single steps
//   X13       hibit
//   X14       the end of the steps of eight blocks
//   X15 X16 X17   h0, h1, h2
//   X18 X19   r0, r1
//   X20       s1 = r1 + r1>>2
//   X21..X26, X28, X29
//             products, sums and carries (see REDUCE)
//   X30 X5    message block m0, m1, then their carries
//   X6 X7     misaligned msg: 8k and -8k (a shift by -8k is one by 64 - 8k)
//   X8        misaligned msg: the aligned word that starts the next block
//   X27 (g), X31 (assembler temporary) and X1..X4, X9 are not touched.

#include "textflag.h"

#define h0 X15
#define h1 X16
#define h2 X17
#define r0 X18
#define r1 X19
#define s1 X20
#define pa X21
#define pb X22
#define pc X23
#define pd X24
#define pe X25
#define pf X26
#define pg X28
#define t X29
#define m0 X30
#define m1 X5
#define sh X6
#define nsh X7
#define w X8

#ifdef GORISCV64_rva22u64
#define hasZba
#endif
#ifdef GORISCV64_rva23u64
#define hasZba
#endif

// TIMES5Q sets t = 5·(d2 >> 2) for d2 in pf (pd is scratch).
#ifdef hasZba
#define TIMES5Q \
	SRL	$2, pf, t; \
	SH2ADD	t, t, t
#else
#define TIMES5Q \
	SRL	$2, pf, t; \
	AND	$-4, pf, pd; \
	ADD	pd, t
#endif

// REDUCE multiplies h (h2 <= 9) by r and starts the reduction: it leaves
// h0 = d0 + 5·(d2 >> 2) and h2 = d2 & 3, pb = the first sum of d1 with the
// carries of h0 so far, pe = the lo sum that NEXT or LAST adds at 2^64.
// hi(h1·r0) and h2·r0 reuse h1 and h2.
#define REDUCE \
	/* The ten products. */ \
	MUL	r0, h0, pa;       /* lo(h0·r0) */ \
	MULHU	r0, h0, pb;       /* hi(h0·r0) */ \
	MUL	s1, h1, pc;       /* lo(h1·s1) */ \
	MULHU	s1, h1, pd;       /* hi(h1·s1) */ \
	MUL	r1, h0, pe;       /* lo(h0·r1) */ \
	MULHU	r1, h0, pf;       /* hi(h0·r1) */ \
	MUL	r0, h1, pg;       /* lo(h1·r0) */ \
	MULHU	r0, h1, h1;       /* hi(h1·r0) */ \
	MUL	s1, h2, t;        /* h2·s1 */ \
	MUL	r0, h2, h2;       /* h2·r0 */ \
	/* d0 and its carry pc; the first sum of d1 (no carry); the lo sum pe \
	 * and its carry pg; d2. */ \
	ADD	pc, pa, h0; \
	SLTU	pc, h0, pc; \
	ADD	pd, pb; \
	ADD	t, pb; \
	ADD	pg, pe; \
	SLTU	pg, pe, pg; \
	ADD	h1, pf; \
	ADD	h2, pf; \
	ADD	pg, pf; \
	/* h0 = d0 + 5·(d2 >> 2), its carry t; h2 = d2 & 3. */ \
	TIMES5Q; \
	AND	$3, pf, h2; \
	ADD	t, h0; \
	SLTU	t, h0, t; \
	ADD	pc, pb; \
	ADD	t, pb

// LOADA loads the block at off(X11) into m0, m1 (msg aligned).
#define LOADA(off) \
	MOV	off(X11), m0; \
	MOV	off+8(X11), m1

// LOADU assembles the block that starts k bytes into off(X11) (msg
// misaligned by k) from w = the word at off(X11) and the two words after
// it, and leaves the last of them in w for the next block.
#define LOADU(off) \
	MOV	off+8(X11), m1; \
	SRL	sh, w, m0; \
	SLL	nsh, m1, pa; \
	OR	pa, m0; \
	MOV	off+16(X11), w; \
	SRL	sh, m1; \
	SLL	nsh, w, pa; \
	OR	pa, m1

// ADDM adds m0, m1 and hibit·2^128 to h0, h1 and the first sum of d1 in
// pb, pe (the rest of REDUCE): h = the product, reduced, + m +
// hibit·2^128 (h2 <= 6).
#define ADDM \
	ADD	m0, h0; \
	SLTU	m0, h0, m0;       /* carry of h0 */ \
	ADD	m0, pb;           /* no carry */ \
	ADD	pe, pb, h1; \
	SLTU	pe, h1, pe; \
	ADD	m1, h1; \
	SLTU	m1, h1, m1; \
	ADD	pe, h2; \
	ADD	m1, h2; \
	ADD	X13, h2

// LAST finishes REDUCE without a next block (h2 <= 4).
#define LAST \
	ADD	pe, pb, h1; \
	SLTU	pe, h1, pe; \
	ADD	pe, h2

// FIRST adds the first block, in m0, m1, and hibit·2^128 to h (h2 <= 9).
#define FIRST \
	ADD	m0, h0; \
	SLTU	m0, h0, m0; \
	ADD	m1, h1; \
	SLTU	m1, h1, m1; \
	ADD	m0, h1; \
	SLTU	m0, h1, m0; \
	ADD	m0, h2; \
	ADD	m1, h2; \
	ADD	X13, h2

// ENDS sets X14 = the end of the steps of eight blocks and X12 = the end of
// all the steps (in terms of X11) from X12 = the number of blocks.
#define ENDS \
	ADD	$-1, X12; \
	SRL	$3, X12, X14; \
	SLL	$7, X14; \
	ADD	X11, X14; \
	SLL	$4, X12; \
	ADD	X11, X12

// LOOPS runs the steps, each of which multiplies one block and adds the next
// one (read by LOAD): eight per trip while X11 != X14, then one per trip
// while X11 != X12, with label prefix L.
#define LOOPS(LOAD, L8, L1, LT) \
	BEQ	X11, X14, LT; \
L8: \
	REDUCE; LOAD(16); ADDM; \
	REDUCE; LOAD(32); ADDM; \
	REDUCE; LOAD(48); ADDM; \
	REDUCE; LOAD(64); ADDM; \
	REDUCE; LOAD(80); ADDM; \
	REDUCE; LOAD(96); ADDM; \
	REDUCE; LOAD(112); ADDM; \
	REDUCE; LOAD(128); ADDM; \
	ADD	$128, X11; \
	BNE	X11, X14, L8; \
LT: \
	BEQ	X11, X12, last; \
L1: \
	REDUCE; LOAD(16); ADDM; \
	ADD	$16, X11; \
	BNE	X11, X12, L1; \
	JMP	last

// func blocksScalar64(st *state, msg []byte, hibit uint64)
//
// Absorbs len(msg)/16 blocks into st.h, each with hibit·2^128 added to it
// (hibit is 1 for full blocks, 0 for the last padded block of a message),
// as blocksGeneric does.
TEXT ·blocksScalar64(SB), NOSPLIT, $0-40
	MOV	st+0(FP), X10
	MOV	msg_base+8(FP), X11
	MOV	msg_len+16(FP), X12
	MOV	hibit+32(FP), X13

	// No whole block: nothing to do.
	SRL	$4, X12
	BEQZ	X12, ret

	// Load the state; s1 = 5·r1/4.
	MOV	0(X10), h0
	MOV	8(X10), h1
	MOV	16(X10), h2
	MOV	24(X10), r0
	MOV	32(X10), r1
	SRL	$2, r1, s1
	ADD	r1, s1

	// Round X11 down to 8 bytes; sh = 8·k for the misalignment k.
	AND	$7, X11, sh
	SUB	sh, X11
	ENDS
	BNEZ	sh, misaligned

	// Aligned msg: h += the first block + hibit·2^128, then the steps.
	LOADA(0)
	FIRST
	LOOPS(LOADA, aloop8, aloop1, atail)

misaligned:
	SLL	$3, sh
	SUB	sh, X0, nsh
	MOV	0(X11), w
	LOADU(0)
	FIRST
	LOOPS(LOADU, uloop8, uloop1, utail)

last:
	// The last block's multiplication; store h.
	REDUCE
	LAST
	MOV	h0, 0(X10)
	MOV	h1, 8(X10)
	MOV	h2, 16(X10)

ret:
	RET
