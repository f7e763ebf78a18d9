// Command _asm generates xor_amd64.s, the SSE2 and AVX2 paths of XORBytes.
//
// Run it through `go generate` in the internal/xorbytes directory.
//
// There is no AVX-512 path. A 512-bit version of the AVX2 loop (4×64 bytes
// per trip), timed against std with TestXORBytesPaired on this project's
// AMD EPYC, took 0.79 of std's time at 2048 bytes against AVX2's 0.67, the
// same at 8 KiB (0.78) and 0.87 against 0.92 at 32 KiB: a loss where
// ChaCha20's buffers are and a small gain only past L1. Zen 4 runs 512-bit
// operations as two 256-bit halves, and the loop is bound by loads and
// stores, not by instruction count.
package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Registers, fixed so that both functions read alike.
var (
	dst = RDI // destination
	px  = RSI // x
	py  = RDX // y
	n   = RCX // length, n > 0, never changed
	i   = R8  // offset of the next block (n >= 16 paths)
	lim = R9  // end of the loop's blocks
	rag = R10 // n % 16 (SSE2) or n % 32 (AVX2): non-zero when a tail is kept
)

func main() {
	ConstraintExpr("gc,!purego")
	narrow()
	wide()
	Generate()
}

// at returns the memory operand base+i+disp.
func at(base Register, disp int) Mem { return Mem{Base: base, Index: i, Scale: 1, Disp: disp} }

// end returns the memory operand base+n+disp.
func end(base Register, disp int) Mem { return Mem{Base: base, Index: n, Scale: 1, Disp: disp} }

func loadArgs() {
	Load(Param("dst"), dst)
	Load(Param("x"), px)
	Load(Param("y"), py)
	Load(Param("n"), n)
}

// small XORs 0 < n < 16 bytes with general-purpose registers and returns, or
// jumps to "large" when n >= 16. Both functions start with it, so that no
// path pays for vector set-up (or VZEROUPPER) on short inputs. From 8 to 15
// bytes it XORs the first and the last 8 (overlapping), both read before
// either is written so that dst == x or dst == y stays correct; 4 to 7 and 2
// to 3 bytes likewise with narrower words; 1 byte alone.
func small() {
	Comment("n < 16: no vector registers.")
	CMPQ(n, Imm(16))
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
		CMPQ(n, Imm(uint64(w.size)))
		JB(LabelRef(w.next))
		w.mov(Mem{Base: px}, w.a)
		w.mov(end(px, -w.size), w.b)
		w.xor(Mem{Base: py}, w.a)
		w.xor(end(py, -w.size), w.b)
		w.mov(w.a, Mem{Base: dst})
		w.mov(w.b, end(dst, -w.size))
		RET()
	}
	Label("small1")
	MOVB(Mem{Base: px}, AL)
	XORB(Mem{Base: py}, AL)
	MOVB(AL, Mem{Base: dst})
	RET()
}

// narrow is the SSE2 path: after small, the last 16 bytes are XORed into
// X15 first when n%16 != 0 (kept, and stored last, over bytes that already
// hold the same values: the memcpy trick for a ragged end, with the load
// moved first because dst may be x or y); then 64-byte blocks in a loop, one
// 32- and one 16-byte block as the bits of n say, and the kept tail.
func narrow() {
	TEXT("xorBytesNarrow", NOSPLIT, "func(dst, x, y *byte, n int)")
	Comment("SSE2: dst[k] = x[k] ^ y[k] for k < n, n > 0.")
	loadArgs()
	small()

	Label("large")
	Comment("n >= 16: keep x^y of the last 16 bytes in X15 when n%16 != 0.")
	MOVQ(n, rag)
	ANDQ(Imm(15), rag)
	JZ(LabelRef("bulk"))
	MOVOU(end(px, -16), X14)
	MOVOU(end(py, -16), X15)
	PXOR(X14, X15)

	Label("bulk")
	XORQ(i, i)
	MOVQ(n, lim)
	ANDQ(I32(-64), lim)
	JZ(LabelRef("rem32"))
	Label("loop64")
	sseBlock(4)
	ADDQ(Imm(64), i)
	CMPQ(i, lim)
	JNE(LabelRef("loop64"))

	Label("rem32")
	TESTQ(U32(32), n)
	JZ(LabelRef("rem16"))
	sseBlock(2)
	ADDQ(Imm(32), i)
	Label("rem16")
	TESTQ(U32(16), n)
	JZ(LabelRef("tail"))
	sseBlock(1)

	Label("tail")
	TESTQ(rag, rag)
	JZ(LabelRef("done"))
	MOVOU(X15, end(dst, -16))
	Label("done")
	RET()
}

// sseBlock XORs k 16-byte vectors at offset i, each loaded, XORed and
// stored before the next (measured faster on this project's AMD EPYC than
// all loads first: 1.00 instead of 1.10-1.19 times std's time at 2048
// bytes). SSE2's PXOR with a memory operand needs alignment, so both
// inputs are loaded with MOVOU.
func sseBlock(k int) {
	xs := []VecPhysical{X0, X1, X2, X3}
	ys := []VecPhysical{X4, X5, X6, X7}
	for j := 0; j < k; j++ {
		MOVOU(at(px, 16*j), xs[j])
		MOVOU(at(py, 16*j), ys[j])
		PXOR(ys[j], xs[j])
		MOVOU(xs[j], at(dst, 16*j))
	}
}

// wide is the AVX2 path: small as above; 16 to 31 bytes as two overlapping
// 16-byte XMM blocks; from 32 bytes the SSE2 shape with 32-byte YMM vectors:
// the kept last 32 bytes, 128-byte blocks in a loop, then 64 and 32.
func wide() {
	TEXT("xorBytesWide", NOSPLIT, "func(dst, x, y *byte, n int)")
	Comment("AVX2: dst[k] = x[k] ^ y[k] for k < n, n > 0.")
	loadArgs()
	small()

	Label("large")
	CMPQ(n, Imm(32))
	JAE(LabelRef("ymm"))
	Comment("16 <= n < 32: the first and the last 16 bytes, both read first.")
	VMOVDQU(Mem{Base: px}, X0)
	VMOVDQU(end(px, -16), X1)
	VPXOR(Mem{Base: py}, X0, X0)
	VPXOR(end(py, -16), X1, X1)
	VMOVDQU(X0, Mem{Base: dst})
	VMOVDQU(X1, end(dst, -16))
	RET()

	Label("ymm")
	Comment("n >= 32: keep x^y of the last 32 bytes in Y15 when n%32 != 0.")
	MOVQ(n, rag)
	ANDQ(Imm(31), rag)
	JZ(LabelRef("bulk"))
	VMOVDQU(end(px, -32), Y15)
	VPXOR(end(py, -32), Y15, Y15)

	Label("bulk")
	XORQ(i, i)
	MOVQ(n, lim)
	ANDQ(I32(-128), lim)
	JZ(LabelRef("rem64"))
	Label("loop128")
	avxBlock(4)
	ADDQ(Imm(128), i)
	CMPQ(i, lim)
	JNE(LabelRef("loop128"))

	Label("rem64")
	TESTQ(U32(64), n)
	JZ(LabelRef("rem32"))
	avxBlock(2)
	ADDQ(Imm(64), i)
	Label("rem32")
	TESTQ(U32(32), n)
	JZ(LabelRef("tail"))
	avxBlock(1)

	Label("tail")
	TESTQ(rag, rag)
	JZ(LabelRef("done"))
	VMOVDQU(Y15, end(dst, -32))
	Label("done")
	VZEROUPPER()
	RET()
}

// avxBlock XORs k 32-byte vectors at offset i, one after the other as in
// sseBlock; VEX-encoded VPXOR takes the unaligned y operand from memory.
func avxBlock(k int) {
	ys := []VecPhysical{Y0, Y1, Y2, Y3}
	for j := 0; j < k; j++ {
		VMOVDQU(at(px, 32*j), ys[j])
		VPXOR(at(py, 32*j), ys[j], ys[j])
		VMOVDQU(ys[j], at(dst, 32*j))
	}
}
