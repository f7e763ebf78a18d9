//go:build gc && !purego

#include "textflag.h"

// Memclr for riscv64, RV64I base instructions only.
//
// The technique is that of the change to Go's runtime memclrNoHeapPointers
// on riscv64 (src/runtime/memclr_riscv64.s): reach an 8-byte boundary, zero
// 64 bytes per loop iteration with eight doubleword stores, finish with
// 32/16/8/4-byte tails. Written anew, with these differences:
//   - the first test is whether there are 64 bytes or more, so that a long
//     aligned clear reaches the loop after two tests;
//   - the alignment is done with at most one byte, one halfword and one word
//     store (decided by the low address bits) instead of a byte loop;
//   - the loop runs up to a precomputed end address, so one iteration is
//     eight stores, one ADD and one branch (10 instructions per 64 bytes);
//   - the tails are picked by the bits of the remaining length (which is
//     public, never secret), lengths below 64 go to them straight from the
//     alignment, the function returns as soon as nothing is left, and the
//     last 1..7 bytes are single natural stores (word, halfword, byte)
//     instead of a byte loop.
// Every store is naturally aligned: RISC-V may trap or be slow on misaligned
// stores, and nothing here relies on them.
//
// The function also makes the choice between itself and the portable code
// (see memclr_riscv64.go for why the choice is here and not in a
// Go if statement): when the toggle useRV64Unrolled is off it jumps to
// memclrGeneric, whose arguments have the same layout.
//
// Register map:
//   X10  p: the next byte to zero
//   X11  n: bytes left to zero (from p)
//   X12  end of the buffer (only while aligning)
//   X13  n rounded down to 64, then where the 64-byte loop stops
//   X5   scratch: the toggle, tested bits, the constant 8

// func memclr(p unsafe.Pointer, n uintptr)
TEXT ·memclr(SB), NOSPLIT, $0-16
	// Dispatch: the portable code unless the toggle is on.
	MOVBU	·useRV64Unrolled(SB), X5
	BEQZ	X5, portable

	MOV	p+0(FP), X10
	MOV	n+8(FP), X11

	// X13 = n rounded down to 64. Fewer than 64 bytes: see under64.
	AND	$-64, X11, X13
	BEQZ	X13, under64
	AND	$7, X10, X5
	BNEZ	X5, align

loop64start:
	// p is 8-byte aligned and X13 (> 0) bytes are cleared by the loop.
	ADD	X10, X13, X13

loop64:
	// 64 bytes per iteration.
	MOV	ZERO, 0(X10)
	MOV	ZERO, 8(X10)
	MOV	ZERO, 16(X10)
	MOV	ZERO, 24(X10)
	MOV	ZERO, 32(X10)
	MOV	ZERO, 40(X10)
	MOV	ZERO, 48(X10)
	MOV	ZERO, 56(X10)
	ADD	$64, X10
	BNE	X10, X13, loop64

	// 0..63 bytes left.
	AND	$63, X11
	BEQZ	X11, done

tail32:
	// 1..63 bytes left, p 8-byte aligned: one store group per set bit of
	// n, largest first, so that every store stays aligned. After each
	// group, leave if nothing is left: 16- and 32-byte keys and 48-byte
	// states end there.
	AND	$32, X11, X5
	BEQZ	X5, tail16
	MOV	ZERO, 0(X10)
	MOV	ZERO, 8(X10)
	MOV	ZERO, 16(X10)
	MOV	ZERO, 24(X10)
	ADD	$32, X10
	AND	$31, X11
	BEQZ	X11, done
tail16:
	AND	$16, X11, X5
	BEQZ	X5, tail8
	MOV	ZERO, 0(X10)
	MOV	ZERO, 8(X10)
	ADD	$16, X10
	AND	$15, X11
	BEQZ	X11, done
tail8:
	AND	$8, X11, X5
	BEQZ	X5, tail7
	MOV	ZERO, 0(X10)
	ADD	$8, X10
tail7:
	// Multiples of 8 are done here.
	AND	$7, X11
	BEQZ	X11, done
	AND	$4, X11, X5
	BEQZ	X5, tail2
	MOVW	ZERO, 0(X10)
	ADD	$4, X10
tail2:
	AND	$2, X11, X5
	BEQZ	X5, tail1
	MOVH	ZERO, 0(X10)
	ADD	$2, X10
tail1:
	AND	$1, X11, X5
	BEQZ	X5, done
	MOVB	ZERO, 0(X10)
done:
	RET

under64:
	// Fewer than 64 bytes. Fewer than 8: the pointer may have any
	// alignment, so byte stores only. Otherwise align, then the tails.
	MOV	$8, X5
	BLTU	X11, X5, small
	AND	$7, X10, X5
	BEQZ	X5, tail32

align:
	// At least 8 bytes and p not 8-byte aligned, so the 1..7 bytes up to
	// the next 8-byte boundary are all inside the buffer. Store a byte if
	// p is odd, then a halfword if p is 2 mod 4, then a word if p is 4 mod
	// 8; then recompute n from the end address and go on to the loop or,
	// if fewer than 64 bytes are left, to the tails.
	ADD	X10, X11, X12
	AND	$1, X10, X5
	BEQZ	X5, align2
	MOVB	ZERO, 0(X10)
	ADD	$1, X10
align2:
	AND	$2, X10, X5
	BEQZ	X5, align4
	MOVH	ZERO, 0(X10)
	ADD	$2, X10
align4:
	AND	$4, X10, X5
	BEQZ	X5, aligned
	MOVW	ZERO, 0(X10)
	ADD	$4, X10
aligned:
	SUB	X10, X12, X11
	AND	$-64, X11, X13
	BNEZ	X13, loop64start
	JMP	tail32

small:
	// 0..7 bytes at any alignment: 4, 2 and 1 bytes by the bits of n.
	AND	$4, X11, X5
	BEQZ	X5, small2
	MOVB	ZERO, 0(X10)
	MOVB	ZERO, 1(X10)
	MOVB	ZERO, 2(X10)
	MOVB	ZERO, 3(X10)
	ADD	$4, X10
small2:
	AND	$2, X11, X5
	BEQZ	X5, small1
	MOVB	ZERO, 0(X10)
	MOVB	ZERO, 1(X10)
	ADD	$2, X10
small1:
	AND	$1, X11, X5
	BEQZ	X5, smalldone
	MOVB	ZERO, 0(X10)
smalldone:
	RET

portable:
	// Tail call: memclrGeneric(p unsafe.Pointer, n uintptr) finds its arguments
	// where we found ours.
	JMP	·memclrGeneric(SB)
