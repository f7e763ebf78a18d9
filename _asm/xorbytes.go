// The SSE2 and AVX2 paths of XORBytes, package internal/xorbytes
// (-gen xorbytes). There is no AVX-512 path: bench/README.md
// ("subtle.XORBytes") has the measurement.

package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Registers, fixed so that both functions read alike.
var (
	xDst = RDI // destination
	xPX  = RSI // x
	xPY  = RDX // y
	xN   = RCX // length, n > 0, never changed
	xI   = R8  // offset of the next block (n >= 16 paths)
	xLim = R9  // end of the loop's blocks
	xRag = R10 // n % 16 (SSE2) or n % 32 (AVX2): non-zero when a tail is kept
)

func genXORBytes() {
	xorNarrow()
	xorWide()
}

// at returns the memory operand base+i+disp.
func xorAt(base Register, disp int) Mem { return Mem{Base: base, Index: xI, Scale: 1, Disp: disp} }

// end returns the memory operand base+n+disp.
func xorEnd(base Register, disp int) Mem { return Mem{Base: base, Index: xN, Scale: 1, Disp: disp} }

func xorLoadArgs() {
	Load(Param("dst"), xDst)
	Load(Param("x"), xPX)
	Load(Param("y"), xPY)
	Load(Param("n"), xN)
}

// small XORs 0 < n < 16 bytes with general-purpose registers and returns, or
// jumps to "large" when n >= 16. Both functions start with it, so that no
// path pays for vector set-up (or VZEROUPPER) on short inputs. From 8 to 15
// bytes it XORs the first and the last 8 (overlapping), both read before
// either is written so that dst == x or dst == y stays correct; 4 to 7 and 2
// to 3 bytes likewise with narrower words; 1 byte alone.
func xorSmall() {
	Comment("n < 16: no vector registers.")
	CMPQ(xN, Imm(16))
	JAE(LabelRef("large"))
	for _, w := range []struct {
		size     int
		next     string
		mov, xor func(mr, r Op)
		a, b     Register
	}{
		{8, "small4", func(s, d Op) { MOVQ(s, d) }, func(s, d Op) { XORQ(s, d) }, RAX, RBX},
		{4, "small2", func(s, d Op) { MOVL(s, d) }, func(s, d Op) { XORL(s, d) }, EAX, EBX},
		{2, "small1", func(s, d Op) { MOVW(s, d) }, func(s, d Op) { XORW(s, d) }, AX, BX},
	} {
		if w.size != 8 {
			Label(fmt.Sprintf("small%d", w.size))
		}
		CMPQ(xN, Imm(uint64(w.size)))
		JB(LabelRef(w.next))
		w.mov(Mem{Base: xPX}, w.a)
		w.mov(xorEnd(xPX, -w.size), w.b)
		w.xor(Mem{Base: xPY}, w.a)
		w.xor(xorEnd(xPY, -w.size), w.b)
		w.mov(w.a, Mem{Base: xDst})
		w.mov(w.b, xorEnd(xDst, -w.size))
		RET()
	}
	Label("small1")
	MOVB(Mem{Base: xPX}, AL)
	XORB(Mem{Base: xPY}, AL)
	MOVB(AL, Mem{Base: xDst})
	RET()
}

// narrow is the SSE2 path: after small, the last 16 bytes are XORed into
// X15 first when n%16 != 0 (kept, and stored last, over bytes that already
// hold the same values: the memcpy trick for a ragged end, with the load
// moved first because dst may be x or y); then 64-byte blocks in a loop, one
// 32- and one 16-byte block as the bits of n say, and the kept tail.
func xorNarrow() {
	TEXT("xorBytesNarrow", NOSPLIT, "func(dst, x, y *byte, n int)")
	Comment("SSE2: dst[k] = x[k] ^ y[k] for k < n, n > 0.")
	xorLoadArgs()
	xorSmall()

	Label("large")
	Comment("n >= 16: keep x^y of the last 16 bytes in X15 when n%16 != 0.")
	MOVQ(xN, xRag)
	ANDQ(Imm(15), xRag)
	JZ(LabelRef("bulk"))
	MOVOU(xorEnd(xPX, -16), X14)
	MOVOU(xorEnd(xPY, -16), X15)
	PXOR(X14, X15)

	Label("bulk")
	XORQ(xI, xI)
	MOVQ(xN, xLim)
	ANDQ(I32(-64), xLim)
	JZ(LabelRef("rem32"))
	Label("loop64")
	xorSSEBlock(4)
	ADDQ(Imm(64), xI)
	CMPQ(xI, xLim)
	JNE(LabelRef("loop64"))

	Label("rem32")
	TESTQ(U32(32), xN)
	JZ(LabelRef("rem16"))
	xorSSEBlock(2)
	ADDQ(Imm(32), xI)
	Label("rem16")
	TESTQ(U32(16), xN)
	JZ(LabelRef("tail"))
	xorSSEBlock(1)

	Label("tail")
	TESTQ(xRag, xRag)
	JZ(LabelRef("done"))
	MOVOU(X15, xorEnd(xDst, -16))
	Label("done")
	RET()
}

// sseBlock XORs k 16-byte vectors at offset i, each loaded, XORed and
// stored before the next (measured faster on this project's AMD EPYC than
// all loads first: 1.00 instead of 1.10-1.19 times std's time at 2048
// bytes). SSE2's PXOR with a memory operand needs alignment, so both
// inputs are loaded with MOVOU.
func xorSSEBlock(k int) {
	xs := []VecPhysical{X0, X1, X2, X3}
	ys := []VecPhysical{X4, X5, X6, X7}
	for j := 0; j < k; j++ {
		MOVOU(xorAt(xPX, 16*j), xs[j])
		MOVOU(xorAt(xPY, 16*j), ys[j])
		PXOR(ys[j], xs[j])
		MOVOU(xs[j], xorAt(xDst, 16*j))
	}
}

// wide is the AVX2 path: small as above; 16 to 31 bytes as two overlapping
// 16-byte XMM blocks; from 32 bytes the SSE2 shape with 32-byte YMM vectors:
// the kept last 32 bytes, 128-byte blocks in a loop, then 64 and 32.
func xorWide() {
	TEXT("xorBytesWide", NOSPLIT, "func(dst, x, y *byte, n int)")
	Comment("AVX2: dst[k] = x[k] ^ y[k] for k < n, n > 0.")
	xorLoadArgs()
	xorSmall()

	Label("large")
	CMPQ(xN, Imm(32))
	JAE(LabelRef("ymm"))
	Comment("16 <= n < 32: the first and the last 16 bytes, both read first.")
	VMOVDQU(Mem{Base: xPX}, X0)
	VMOVDQU(xorEnd(xPX, -16), X1)
	VPXOR(Mem{Base: xPY}, X0, X0)
	VPXOR(xorEnd(xPY, -16), X1, X1)
	VMOVDQU(X0, Mem{Base: xDst})
	VMOVDQU(X1, xorEnd(xDst, -16))
	RET()

	Label("ymm")
	Comment("n >= 32: keep x^y of the last 32 bytes in Y15 when n%32 != 0.")
	MOVQ(xN, xRag)
	ANDQ(Imm(31), xRag)
	JZ(LabelRef("bulk"))
	VMOVDQU(xorEnd(xPX, -32), Y15)
	VPXOR(xorEnd(xPY, -32), Y15, Y15)

	Label("bulk")
	XORQ(xI, xI)
	MOVQ(xN, xLim)
	ANDQ(I32(-128), xLim)
	JZ(LabelRef("rem64"))
	Label("loop128")
	xorAVXBlock(4)
	ADDQ(Imm(128), xI)
	CMPQ(xI, xLim)
	JNE(LabelRef("loop128"))

	Label("rem64")
	TESTQ(U32(64), xN)
	JZ(LabelRef("rem32"))
	xorAVXBlock(2)
	ADDQ(Imm(64), xI)
	Label("rem32")
	TESTQ(U32(32), xN)
	JZ(LabelRef("tail"))
	xorAVXBlock(1)

	Label("tail")
	TESTQ(xRag, xRag)
	JZ(LabelRef("done"))
	VMOVDQU(Y15, xorEnd(xDst, -32))
	Label("done")
	VZEROUPPER()
	RET()
}

// avxBlock XORs k 32-byte vectors at offset i, one after the other as in
// sseBlock; VEX-encoded VPXOR takes the unaligned y operand from memory.
func xorAVXBlock(k int) {
	ys := []VecPhysical{Y0, Y1, Y2, Y3}
	for j := 0; j < k; j++ {
		VMOVDQU(xorAt(xPX, 32*j), ys[j])
		VPXOR(xorAt(xPY, 32*j), ys[j], ys[j])
		VMOVDQU(ys[j], xorAt(xDst, 32*j))
	}
}
