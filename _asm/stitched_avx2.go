package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// ---------------------------------------------------------------------------
// The AVX2 steps of the mid-size kernels (mid_avx2.go): the 8-block
// transposed batch of xorBlocksAVX2 (words 10 and 11 or 8 and 9 in the
// stack frame) with Poly1305 on the integer units in two chains of 16
// blocks, hA = Horner(h, blocks 0..15), hB = Horner(0, blocks 16..31),
// joined as h' = hA·r^16 + hB.
//
// Registers: Y0-Y15 and the frame slots as in xorBlocksAVX2, BX = the
// aligned vector frame. In the rounds: R8-R10 = hA, R11-R13 = hB, DX = the
// MULX source, AX, CX, R14, DI = temporaries, R15 = the MAC pointer, SI =
// the round counter. Around the stores SI = src, DI = dst, and the join
// uses AX, CX, DX, R8-R15.

var (
	avx2ChainA = [3]GPPhysical{R8, R9, R10}
	avx2ChainB = [3]GPPhysical{R11, R12, R13}
	avx2Tmp    = [4]GPPhysical{RAX, RCX, R14, RDI}
	avx2Ptr    = R15
	avx2JoinP  = [5]GPPhysical{R11, R12, R13, RCX, R14}
)

// avx2QROps returns vecISA.qr's operations (AVX2 encoding) as a list.
func avx2QROps(qs []quad, tmp []VecPhysical) []func() {
	var ops []func()
	step := func(f func(i int, q quad)) {
		for i, q := range qs {
			ops = append(ops, func() { f(i, q) })
		}
	}
	for _, r := range [2][2]int{{16, 12}, {8, 7}} {
		mask := rol16
		if r[0] == 8 {
			mask = rol8
		}
		step(func(_ int, q quad) { VPADDD(q[1], q[0], q[0]) })
		step(func(_ int, q quad) { VPXOR(q[0], q[3], q[3]) })
		step(func(_ int, q quad) { VPSHUFB(mask, q[3], q[3]) })
		step(func(_ int, q quad) { VPADDD(q[3], q[2], q[2]) })
		step(func(_ int, q quad) { VPXOR(q[2], q[1], q[1]) })
		step(func(i int, q quad) { VPSLLD(U8(r[1]), q[1], tmp[i]) })
		step(func(_ int, q quad) { VPSRLD(U8(32-r[1]), q[1], q[1]) })
		step(func(i int, q quad) { VPXOR(tmp[i], q[1], q[1]) })
	}
	return ops
}

// avx2SpillDROps returns the operations of one double round of the 8-block
// AVX2 batch with words 0-7 and 12-15 in registers x(w), words 8 and 9 or
// 10 and 11 in x(8) and x(9) (the other pair at spill(w)), and x(10) and
// x(11) as temporaries (as in vecISA.transposed).
func avx2SpillDROps(x func(int) VecPhysical, spill func(int) Mem) []func() {
	c0, c1 := x(8), x(9)
	tmp := []VecPhysical{x(10), x(11)}
	q := func(w [4]int, c VecPhysical) quad { return quad{x(w[0]), x(w[1]), c, x(w[3])} }
	swap := func(out0, out1, in0, in1 int) []func() {
		return []func(){
			func() { VMOVDQU(c0, spill(out0)) },
			func() { VMOVDQU(c1, spill(out1)) },
			func() { VMOVDQU(spill(in0), c0) },
			func() { VMOVDQU(spill(in1), c1) },
		}
	}
	var ops []func()
	ops = append(ops, avx2QROps([]quad{q(columns[0], c0), q(columns[1], c1)}, tmp)...)
	ops = append(ops, swap(8, 9, 10, 11)...)
	ops = append(ops, avx2QROps([]quad{q(columns[2], c0), q(columns[3], c1)}, tmp)...)
	ops = append(ops, avx2QROps([]quad{q(diagonals[0], c0), q(diagonals[1], c1)}, tmp)...)
	ops = append(ops, swap(10, 11, 8, 9)...)
	ops = append(ops, avx2QROps([]quad{q(diagonals[2], c0), q(diagonals[3], c1)}, tmp)...)
	return ops
}

// avx2BroadcastState points rFrame at the 32-byte aligned vector frame in
// vframe and broadcasts the input state (the State at rState) to slots 0-11
// and 13-15 (slot 12, the counters, is written per batch).
func avx2BroadcastState(vframe Mem, slot func(int) Mem) {
	LEAQ(vframe, rFrame)
	ADDQ(U32(32-1), rFrame)
	ANDQ(I32(-32), rFrame)
	broadcastState(slot)
}

// broadcastState broadcasts each word of the input state (the constants and
// the State at rState) to a ymm frame slot, 0-11 and 13-15; slot 12, the
// counters, is written per batch.
func broadcastState(slot func(int) Mem) {
	for i := 0; i < 4; i++ {
		VPBROADCASTD(sigma.Offset(4*i), Y0)
		VMOVDQU(Y0, slot(i))
	}
	for i := 0; i < 8; i++ {
		VPBROADCASTD(mem(rState, offKey+4*i), Y0)
		VMOVDQU(Y0, slot(4+i))
	}
	for i := 0; i < 3; i++ {
		VPBROADCASTD(mem(rState, offNonce+4*i), Y0)
		VMOVDQU(Y0, slot(13+i))
	}
}

// avx2ChainsAB returns the MAC steps of blocks k (chain A) and 16+k (chain
// B), for each k of blocks, of the 32 blocks at avx2Ptr.
func avx2ChainsAB(f stitchedFrame, blocks []int) []func() {
	var ops []func()
	for _, k := range blocks {
		ops = append(ops, polyBlockOps(f, avx2Tmp, avx2Ptr, avx2ChainA, k)...)
		ops = append(ops, polyBlockOps(f, avx2Tmp, avx2Ptr, avx2ChainB, 16+k)...)
	}
	return ops
}

// avx2NextBatch moves src and dst (in rSrc and rDst) on by one 8-block
// batch, and the counter by 8, and decrements the batch count, whose flags
// end the batch.
func avx2NextBatch(f stitchedFrame) {
	ADDQ(U32(512), rSrc)
	ADDQ(U32(512), rDst)
	MOVQ(rSrc, f.src)
	MOVQ(rDst, f.dst)
	MOVQ(f.state, rState)
	ADDL(U8(8), mem(rState, offCounter))
	DECQ(f.n)
}

// avx2Layout returns the AVX2 transposed batch's registers (state word i in
// x(i)) and its frame slots at rFrame: slot(i) holds input word i, spill(w)
// word w (8..15) of the batch while the rounds swap words 8-11 through the
// frame.
func avx2Layout() (v vecISA, x func(int) VecPhysical, slot, spill func(int) Mem) {
	const W = 32
	v = vecISA{name: "AVX2", width: W, avx: true,
		regs: [16]VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15}}
	x = func(i int) VecPhysical { return v.regs[i] }
	slot = func(i int) Mem { return mem(rFrame, W*i) }
	spill = func(word int) Mem { return slot(16 + word - 8) }
	return v, x, slot, spill
}

// avx2LoadBatch loads an 8-block AVX2 batch: the counters s.Counter+0 ...
// s.Counter+7 (s at state) into Y12 and their slot, the other words from
// their slots into Y0-Y15, and words 10 and 11 to their spill slots as
// well (the rounds swap words 8-11 through the frame).
func avx2LoadBatch(state Mem, x func(int) VecPhysical, slot, spill func(int) Mem) {
	Comment("Counters s.Counter+0 ... s.Counter+7, one per lane.")
	MOVQ(state, rState)
	VPBROADCASTD(mem(rState, offCounter), x(12))
	VPADDD(iota16, x(12), x(12))
	VMOVDQU(x(12), slot(12))
	for i := 0; i < 16; i++ {
		switch i {
		case 10, 11:
			VMOVDQU(slot(i), x(i))
			VMOVDQU(x(i), spill(i))
		case 12:
		default:
			VMOVDQU(slot(i), x(i))
		}
	}
}

// avx2AddState adds the input state to an 8-block AVX2 batch; words 8-15
// go to their spill slots.
func avx2AddState(x func(int) VecPhysical, slot, spill func(int) Mem) {
	Comment("Add the input state; words 8-15 go to the frame.")
	for i := 0; i < 16; i++ {
		switch i {
		case 10, 11:
			VMOVDQU(spill(i), x(i))
			VPADDD(slot(i), x(i), x(i))
			VMOVDQU(x(i), spill(i))
		default:
			VPADDD(slot(i), x(i), x(i))
			if i >= 8 {
				VMOVDQU(x(i), spill(i))
			}
		}
	}
}

// r16Ops returns the operations that raise the value at pow (r, three
// 64-bit limbs) to r^16 in place: four squarings by mulGeneralOps, in the
// AVX2 stitched loops' registers (chain A, the join's, R15, AX).
func r16Ops(pow Mem) []func() { return r16OpsWith(pow, avx2ChainA, avx2JoinP, R15, RAX) }

// r16OpsWith is r16Ops in the registers given: mulGeneralOps' a, p, lo
// and hi (and DX).
func r16OpsWith(pow Mem, a [3]GPPhysical, p [5]GPPhysical, lo, hi GPPhysical) []func() {
	var ops []func()
	for i := 0; i < 4; i++ {
		for j := 0; j < 3; j++ {
			ops = append(ops,
				func() { MOVQ(pow.Offset(8*j), a[j]) },
				func() { XORL(p[j].As32(), p[j].As32()) })
		}
		ops = append(ops, mulGeneralOps(a, p, lo, hi, pow)...)
		for j := 0; j < 3; j++ {
			ops = append(ops, func() { MOVQ(a[j], pow.Offset(8*j)) })
		}
	}
	return ops
}
