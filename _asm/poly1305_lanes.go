package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// sumLanesIFMA: the Poly1305 accumulators of eight independent messages, one
// per 64-bit lane, with AVX-512 IFMA (package internal/poly1305,
// lanes_amd64.go). Each lane runs h = (h + m)·r with its own r, one block per
// step, using the same operations as blocksIFMA's last step (ifmaAbsorbOps,
// ifmaMulReduceOps). The messages are right-aligned: step k holds block k of
// each lane at 16·slot bytes into a 128-byte row, zeros before a lane's first
// block; the 2^128 bit is added only from a lane's first step on, so the
// leading zero blocks leave h at zero. Slot j is lane 2j for j < 4 and
// 2(j−4)+1 otherwise, ifmaAbsorbOps's order.
//
// Eight messages share a step's latency, which a single message's chain pays
// alone: this is what makes the batch API's short messages cheap. The idea of
// spreading independent messages over the lanes, rather than one message's
// blocks, is the multi-buffer technique of Intel's ipsec-mb (its
// multi-lane managers); the code is written from the equations in
// poly1305_ifma.go.
func genPolyLanes() {
	TEXT("sumLanesIFMA", NOSPLIT, "func(st *[72]uint64, msg *byte, steps int)")
	Doc("sumLanesIFMA absorbs steps rows of 128 bytes at msg into eight accumulators",
		"(st: r and its multiples by lane, the first step of each lane; the",
		"accumulators out).")
	// Register map: zH accumulators, zV the lanes' r (r0, r1, r2, 20·r1,
	// 20·r2), Z26 the lanes' first steps, Z27 the step number, Z28 ones,
	// Z29 the step's 2^128 bits, K1 the lanes that have started.
	st, msg, n := RDI, RSI, RCX
	Load(Param("st"), st)
	Load(Param("msg"), msg)
	Load(Param("steps"), n)
	start, step, one, hib := Z26, Z27, Z28, Z29

	Comment("Constants, the lanes' r and first steps; h = 0.")
	MOVQ(U64(ifmaMask44), RAX)
	VPBROADCASTQ(RAX, zMask44)
	MOVQ(U64(ifmaMask42), RAX)
	VPBROADCASTQ(RAX, zMask42)
	MOVQ(U64(1<<40), RAX)
	VPBROADCASTQ(RAX, zHibit)
	MOVQ(U64(1), RAX)
	VPBROADCASTQ(RAX, one)
	for i := range zV {
		VMOVDQU64(mem(st, 64*i), zV[i])
	}
	VMOVDQU64(mem(st, 64*5), start)
	VPXORQ(step, step, step)
	for _, h := range zH {
		VPXORQ(h, h, h)
	}

	g := polyIFMA
	g.hibit = hib
	Label("lanes_loop")
	Comment("The 2^128 bit in the lanes whose message has started, h += m, h ·= r.")
	VPCMPUQ(U8(5), start, step, K1) // step >= start
	VMOVDQA64_Z(zHibit, K1, hib)
	run(ifmaAbsorbOps(g, zH, msg, 0))
	mulReduce(zH, zV, zH)
	VPADDQ(one, step, step)
	ADDQ(U32(128), msg)
	DECQ(n)
	JNZ(LabelRef("lanes_loop"))

	Comment("The accumulators, partly reduced, to st.")
	for i, h := range zH {
		VMOVDQU64(h, mem(st, 64*(6+i)))
	}
	VZEROUPPER()
	RET()
}
