//go:build gc && !purego

#include "textflag.h"

// XORBytes for riscv64: an RVV path (strip-mined, LMUL=8, any alignment)
// and a 64-bit scalar path.
//
// Scalar: RISC-V may trap or emulate misaligned word accesses (slowly), so
// 64-bit words are used only when dst, x and y share their alignment modulo
// 8 (as Go's std xorBytes and memequal do): a few bytes up to dst's 8-byte
// boundary, 64-byte blocks of eight words, words, then bytes. Otherwise,
// and below 16 bytes, bytes are XORed one at a time, eight per iteration.
// Branches depend only on n and on the addresses.
//
// Register map:
//   X10  dst, advanced
//   X11  x, advanced
//   X12  y, advanced
//   X13  bytes left
//   X5   vector length (RVV); constant 16, then trip counts (Scalar)
//   X6, X7  alignment tests
//   X14-X25, X28-X30  data

// func xorBytesWide(dst, x, y *byte, n int)
// RVV: each trip XORs vl = min(n, VLMAX) bytes with byte elements, so no
// alignment matters and no tail code is needed; every byte is loaded
// before the same byte is stored, which keeps dst == x or dst == y correct.
TEXT ·xorBytesWide(SB), NOSPLIT|NOFRAME, $0-32
	MOV	dst+0(FP), X10
	MOV	x+8(FP), X11
	MOV	y+16(FP), X12
	MOV	n+24(FP), X13
loop:
	VSETVLI	X13, E8, M8, TA, MA, X5
	VLE8V	(X11), V8
	VLE8V	(X12), V16
	VXORVV	V8, V16, V8
	VSE8V	V8, (X10)
	ADD	X5, X11
	ADD	X5, X12
	ADD	X5, X10
	SUB	X5, X13
	BNEZ	X13, loop
	RET

// func xorBytesScalar(dst, x, y *byte, n int)
TEXT ·xorBytesScalar(SB), NOSPLIT|NOFRAME, $0-32
	MOV	dst+0(FP), X10
	MOV	x+8(FP), X11
	MOV	y+16(FP), X12
	MOV	n+24(FP), X13

	// Words only from 16 bytes and when the three share alignment mod 8.
	MOV	$16, X5
	BLT	X13, X5, bytes8
	XOR	X10, X11, X6
	XOR	X10, X12, X7
	OR	X7, X6
	AND	$7, X6
	BNEZ	X6, bytes8

	// Bytes up to dst's 8-byte boundary: (-dst) & 7 of them.
	SUB	X10, X0, X6
	AND	$7, X6
	BEQZ	X6, words
	SUB	X6, X13
head:
	MOVBU	(X11), X14
	MOVBU	(X12), X15
	XOR	X14, X15
	MOVB	X15, (X10)
	ADD	$1, X11
	ADD	$1, X12
	ADD	$1, X10
	SUB	$1, X6
	BNEZ	X6, head

words:
	// 64-byte blocks of eight aligned words.
	SRL	$6, X13, X5
	BEQZ	X5, words8
loop64:
	MOV	0(X11), X14
	MOV	8(X11), X15
	MOV	16(X11), X16
	MOV	24(X11), X17
	MOV	32(X11), X18
	MOV	40(X11), X19
	MOV	48(X11), X20
	MOV	56(X11), X21
	MOV	0(X12), X22
	MOV	8(X12), X23
	MOV	16(X12), X24
	MOV	24(X12), X25
	MOV	32(X12), X28
	MOV	40(X12), X29
	MOV	48(X12), X30
	MOV	56(X12), X7
	XOR	X14, X22
	XOR	X15, X23
	XOR	X16, X24
	XOR	X17, X25
	XOR	X18, X28
	XOR	X19, X29
	XOR	X20, X30
	XOR	X21, X7
	MOV	X22, 0(X10)
	MOV	X23, 8(X10)
	MOV	X24, 16(X10)
	MOV	X25, 24(X10)
	MOV	X28, 32(X10)
	MOV	X29, 40(X10)
	MOV	X30, 48(X10)
	MOV	X7, 56(X10)
	ADD	$64, X11
	ADD	$64, X12
	ADD	$64, X10
	SUB	$1, X5
	BNEZ	X5, loop64
	AND	$63, X13

words8:
	// Single aligned words.
	SRL	$3, X13, X5
	BEQZ	X5, bytes
loop8:
	MOV	(X11), X14
	MOV	(X12), X15
	XOR	X14, X15
	MOV	X15, (X10)
	ADD	$8, X11
	ADD	$8, X12
	ADD	$8, X10
	SUB	$1, X5
	BNEZ	X5, loop8
	AND	$7, X13
	JMP	bytes

bytes8:
	// Eight single bytes per trip (short or relatively misaligned).
	SRL	$3, X13, X5
	BEQZ	X5, bytes
loopb8:
	MOVBU	0(X11), X14
	MOVBU	1(X11), X15
	MOVBU	2(X11), X16
	MOVBU	3(X11), X17
	MOVBU	4(X11), X18
	MOVBU	5(X11), X19
	MOVBU	6(X11), X20
	MOVBU	7(X11), X21
	MOVBU	0(X12), X22
	MOVBU	1(X12), X23
	MOVBU	2(X12), X24
	MOVBU	3(X12), X25
	MOVBU	4(X12), X28
	MOVBU	5(X12), X29
	MOVBU	6(X12), X30
	MOVBU	7(X12), X7
	XOR	X14, X22
	XOR	X15, X23
	XOR	X16, X24
	XOR	X17, X25
	XOR	X18, X28
	XOR	X19, X29
	XOR	X20, X30
	XOR	X21, X7
	MOVB	X22, 0(X10)
	MOVB	X23, 1(X10)
	MOVB	X24, 2(X10)
	MOVB	X25, 3(X10)
	MOVB	X28, 4(X10)
	MOVB	X29, 5(X10)
	MOVB	X30, 6(X10)
	MOVB	X7, 7(X10)
	ADD	$8, X11
	ADD	$8, X12
	ADD	$8, X10
	SUB	$1, X5
	BNEZ	X5, loopb8
	AND	$7, X13

bytes:
	// The last n%8 bytes.
	BEQZ	X13, done
loop1:
	MOVBU	(X11), X14
	MOVBU	(X12), X15
	XOR	X14, X15
	MOVB	X15, (X10)
	ADD	$1, X11
	ADD	$1, X12
	ADD	$1, X10
	SUB	$1, X13
	BNEZ	X13, loop1
done:
	RET
