// The amd64 Poly1305 block functions of package internal/poly1305
// (-gen poly1305). Every generated function has the signature
//
//	func blocksXXX(st *state, msg []byte, hibit uint64)
//
// and absorbs len(msg)/16 blocks into st.h, exactly as blocksGeneric does
// (hibit is 1 for full blocks, 0 for the padded last block), leaving h
// partly reduced (h2 < 8) in the state's 64-bit limbs.
//
//   - blocksScalar: one block at a time with 64-bit limbs and MULQ (any
//     amd64 CPU).
//   - blocksAVX2: AVX2, four blocks per step in four lanes holding 26-bit
//     limbs; short inputs, and the first len/16 mod 4 blocks of a long one,
//     go through the scalar loop.
//
// The vector path converts h from and to 64-bit limbs at the start and end of
// each call and computes the powers of r it needs each time; that cost is why
// it only starts at a threshold (avx2MinBlocks).
//
// There is no AVX-512 IFMA block function: on the Intel cores measured, IFMA
// code slows the integer code that runs after it by more than it saves, so it
// would be off by default there, and a kernel stays only where it wins on a
// CPU the project measures. The batch kernel of package internal/aeadasm
// (lanes_aead.go) keeps its MAC in IFMA lanes, with the steps of
// poly1305_ifma.go.

package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The signature avo type-checks; the Go declarations in poly1305_amd64.go use
// *state, which has the same size and layout as [7]uint64 (h at 0, r at 24,
// s at 40).
const polySignature = "func(st *[7]uint64, msg []byte, hibit uint64)"

// Offsets in state.
const (
	offH = 0
	offR = 24
)

// The threshold in 16-byte blocks below which the AVX2 path leaves the whole
// input to the scalar loop, placed where the vector path starts to win on Zen 5
// (TestPathTimes; bench/README.md, amd64 Poly1305).
const avx2MinBlocks = 18

func genPoly1305() {
	genPolyScalar()
	genPolyAVX2()
}

// ---------------------------------------------------------------------------
// Scalar: 64-bit limbs

// Scalar register map. The state pointer is loaded again at the end, so DI is
// free as a temporary inside the loop.
var (
	rMsg    = RSI // next block
	rBlocks = RBX // blocks left
	rH0     = R8  // h, 64-bit limbs (h2 < 8)
	rH1     = R9
	rH2     = R10
	rR0     = R11 // r, clamped
	rR1     = R12
	rS1     = R13 // s1 = r1 + r1>>2 = 5·r1/4
	rHibit  = R14 // 1 for full blocks (the 2^128 bit), 0 for the padded last one
	rT0     = RCX
	rT1     = R15
	rT2     = RDI
)

// scalarPrologue loads the state and the arguments into the scalar register
// map; rBlocks gets the number of blocks.
func scalarPrologue() {
	Load(Param("st"), RDI)
	Load(Param("msg").Base(), rMsg)
	Load(Param("msg").Len(), rBlocks)
	Load(Param("hibit"), rHibit)
	SHRQ(U8(4), rBlocks)
	MOVQ(Mem{Base: RDI, Disp: offH}, rH0)
	MOVQ(Mem{Base: RDI, Disp: offH + 8}, rH1)
	MOVQ(Mem{Base: RDI, Disp: offH + 16}, rH2)
	MOVQ(Mem{Base: RDI, Disp: offR}, rR0)
	MOVQ(Mem{Base: RDI, Disp: offR + 8}, rR1)
	MOVQ(rR1, rS1)
	SHRQ(U8(2), rS1)
	ADDQ(rR1, rS1)
}

// scalarEpilogue stores h.
func scalarEpilogue() {
	Load(Param("st"), RDI)
	MOVQ(rH0, Mem{Base: RDI, Disp: offH})
	MOVQ(rH1, Mem{Base: RDI, Disp: offH + 8})
	MOVQ(rH2, Mem{Base: RDI, Disp: offH + 16})
}

// scalarLoop absorbs count blocks (a register, decremented to zero; nothing
// happens when it is zero already) from rMsg, advancing rMsg.
//
// The multiplication folds the reduction into the product, as OpenSSL's
// poly1305-x86_64.pl and poly1305-donna do: clamping clears the two low bits
// of r1, so h1·r1·2^128 = h1·(r1/4)·2^130 ≡ h1·(5·r1/4) = h1·s1, and h2·r1
// lands in column 1 as h2·s1. With d = h·r:
//
//	d0 = h0·r0 + h1·s1            (128 bits)
//	d1 = h0·r1 + h1·r0 + h2·s1    (128 bits)
//	d2 = h2·r0                    (64 bits)
//
// and after the carries, the bits of d at 2^130 and above (c) come back as
// 5·c = 4·c + c.
func scalarLoop(name string, count Register) {
	loop, done := name+"_loop", name+"_done"
	TESTQ(count, count)
	JZ(LabelRef(done))
	Label(loop)
	Comment("h += m (with the 2^128 bit)")
	ADDQ(Mem{Base: rMsg}, rH0)
	ADCQ(Mem{Base: rMsg, Disp: 8}, rH1)
	ADCQ(rHibit, rH2)
	Comment("d0 = h0·r0 + h1·s1 in T1:T0; d1 = h0·r1 + h1·r0 + h2·s1 in T2:H0")
	MOVQ(rR0, RAX)
	MULQ(rH0)
	MOVQ(RAX, rT0)
	MOVQ(RDX, rT1)
	MOVQ(rR1, RAX)
	MULQ(rH0)
	MOVQ(RAX, rH0)
	MOVQ(RDX, rT2)
	MOVQ(rS1, RAX)
	MULQ(rH1)
	ADDQ(RAX, rT0)
	ADCQ(RDX, rT1)
	MOVQ(rR0, RAX)
	MULQ(rH1)
	ADDQ(RAX, rH0)
	ADCQ(RDX, rT2)
	MOVQ(rH2, RAX)
	IMULQ(rS1, RAX)
	IMULQ(rR0, rH2)
	ADDQ(RAX, rH0)
	ADCQ(U8(0), rT2)
	Comment("carry d0's high word into d1, and d1's into d2 = h2·r0")
	ADDQ(rT1, rH0)
	ADCQ(rH2, rT2)
	Comment("h = d mod 2^130 + 5·(d >> 130)")
	MOVQ(rH0, rH1)
	MOVQ(rT0, rH0)
	MOVQ(rT2, rH2)
	ANDQ(U8(3), rH2)
	MOVQ(rT2, rT1)
	SHRQ(U8(2), rT1)
	ANDQ(I8(-4), rT2)
	ADDQ(rT1, rT2)
	ADDQ(rT2, rH0)
	ADCQ(U8(0), rH1)
	ADCQ(U8(0), rH2)
	LEAQ(Mem{Base: rMsg, Disp: 16}, rMsg)
	DECQ(count)
	JNZ(LabelRef(loop))
	Label(done)
}

func genPolyScalar() {
	TEXT("blocksScalar", NOSPLIT, polySignature)
	Doc("blocksScalar absorbs len(msg)/16 blocks, one at a time, with 64-bit limbs.")
	scalarPrologue()
	scalarLoop("scalar", rBlocks)
	scalarEpilogue()
	RET()
}
