package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// laneBlocks2MACAVX512 (package internal/aeadasm, lanes_amd64.s): the
// 32 lanes of laneBlocks2AVX512 (_asm/lanes2.go), and beside their rounds
// two scalar Poly1305 chains on the integer units, which the vector rounds
// leave idle: the first iters double rounds each absorb lanes2MACBlocks
// blocks into each chain (two messages' accumulators), as blocksScalar
// would, with the block step of the stitched loops (polyStepOps, MULX).
// The idea is the stitched AEAD loops' (x/crypto's AVX2 code, OpenSSL's),
// here across messages: aead's long group MACs the ciphertext of one pass
// of lanes while the next pass computes.
//
//	func laneBlocks2MACAVX512(l *[2]LaneSet, out *[32][64]byte, iters int,
//		macA *byte, hA *[3]uint64, rA *[2]uint64, macB *byte, hB *[3]uint64, rB *[2]uint64)
//
// Register map: Z0-Z31 as in laneBlocks2AVX512. In the rounds R8-R10 the
// accumulator of chain A, R11-R13 that of chain B, R14 and R15 their next
// blocks, SI the double rounds left, AX, BX, CX, DI the steps' temporaries
// (shared: each block's operations run in order, and the vector
// instructions between them leave the flags alone), DX the MULX source.
// The frame holds each chain's r0, r1 (and a zero word) and s1 = r1 +
// r1>>2, wiped on return. Afterwards AX (rLanes) and DI (rOut) as in
// lanes2Finish.

const lanes2MACSignature = "func(l *[2][12][16]uint32, out *[32][64]byte, iters int, macA *byte, hA *[3]uint64, rA *[2]uint64, macB *byte, hB *[3]uint64, rB *[2]uint64)"

// lanes2MACBlocks is the number of blocks of each chain per double round:
// measured on the Zen 5 under bhyve, the most that leave the double round's
// time (about 64 cycles) as it is (bench/README.md, "Batches").
const lanes2MACBlocks = 4

func genLanes2MAC() {
	TEXT("laneBlocks2MACAVX512", NOSPLIT, lanes2MACSignature)
	Doc("laneBlocks2MACAVX512 is laneBlocks2AVX512 with two scalar Poly1305",
		"chains beside the rounds: the first iters double rounds absorb",
		"lanes2MACBlocks 16-byte blocks from macA into hA (multiplier rA) and",
		"from macB into hB each.")
	type chainRegs struct {
		h       [3]GPPhysical
		ptr     GPPhysical
		r, s1   Mem
		hp, rp  string
		msgName string
	}
	chains := [2]chainRegs{
		{h: [3]GPPhysical{R8, R9, R10}, ptr: R14, r: AllocLocal(24), s1: AllocLocal(8), hp: "hA", rp: "rA", msgName: "macA"},
		{h: [3]GPPhysical{R11, R12, R13}, ptr: R15, r: AllocLocal(24), s1: AllocLocal(8), hp: "hB", rp: "rB", msgName: "macB"},
	}
	tmp := [4]GPPhysical{RAX, RBX, RCX, RDI}

	Comment("Each chain's r0, r1 and s1 = r1 + r1>>2 to the frame, its",
		"accumulator and message pointer to registers.")
	for _, c := range chains {
		Load(Param(c.rp), RAX)
		MOVQ(mem(RAX, 0), RBX)
		MOVQ(RBX, c.r)
		MOVQ(mem(RAX, 8), RCX)
		MOVQ(RCX, c.r.Offset(8))
		MOVQ(U32(0), c.r.Offset(16))
		MOVQ(RCX, RBX)
		SHRQ(U8(2), RBX)
		ADDQ(RCX, RBX)
		MOVQ(RBX, c.s1)
		Load(Param(c.hp), RAX)
		for i := 0; i < 3; i++ {
			MOVQ(mem(RAX, 8*i), c.h[i])
		}
		Load(Param(c.msgName), c.ptr)
	}

	Load(Param("l"), rLanes)
	lanes2Load()

	Comment("The first iters double rounds, with the chains' blocks spread",
		"through the vector instructions.")
	Load(Param("iters"), RSI)
	TESTQ(RSI, RSI)
	JZ(LabelRef("lanes2mac_plain"))
	Label("lanes2mac_rounds")
	vec := lanes2DROps()
	var scalar []func()
	for k := 0; k < lanes2MACBlocks; k++ {
		for _, c := range chains {
			scalar = append(scalar, polyStepOps(c.r, c.r.Offset(8), c.s1, tmp, c.ptr, c.h, k)...)
		}
	}
	merged := make([]func(), 0, len(vec)+len(scalar))
	done := 0
	for i, f := range vec {
		merged = append(merged, f)
		for want := (i + 1) * len(scalar) / len(vec); done < want; done++ {
			merged = append(merged, scalar[done])
		}
	}
	run(merged)
	for _, c := range chains {
		ADDQ(U32(16*lanes2MACBlocks), c.ptr)
	}
	DECQ(RSI)
	JNZ(LabelRef("lanes2mac_rounds"))

	Comment("The other double rounds, without the chains.")
	Label("lanes2mac_plain")
	Load(Param("iters"), RSI)
	NEGQ(RSI)
	ADDQ(U8(10), RSI)
	JZ(LabelRef("lanes2mac_finish"))
	Label("lanes2mac_plain_rounds")
	run(lanes2DROps())
	DECQ(RSI)
	JNZ(LabelRef("lanes2mac_plain_rounds"))

	Label("lanes2mac_finish")
	Comment("Store the accumulators and wipe r from the frame.")
	for _, c := range chains {
		Load(Param(c.hp), RAX)
		for i := 0; i < 3; i++ {
			MOVQ(c.h[i], mem(RAX, 8*i))
		}
		XORL(EAX, EAX)
		MOVQ(RAX, c.r)
		MOVQ(RAX, c.r.Offset(8))
		MOVQ(RAX, c.s1)
	}
	Load(Param("l"), rLanes)
	Load(Param("out"), rOut)
	lanes2Finish()
	VZEROUPPER()
	RET()
}
