package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// ---------------------------------------------------------------------------
// Stitched AVX2 ChaCha20 and scalar Poly1305
//
//	func xorMACAVX2(s *State, dst, src, mac []byte, skip int, h *[3]uint64, r *[2]uint64)
//
// The contract of xorMACAVX512 with the AVX2 keystream for CPUs without
// AVX-512: len(src)/512 batches of 8 blocks (the AVX2 transposed batch of
// xorBlocksAVX2, with words 10 and 11 or 8 and 9 in the stack frame), and
// the first len(src) - 1024·skip bytes of mac absorbed into h on the
// integer units (with skip = 1, the first two batches MAC nothing).
//
// An 8-block batch takes about 530 cycles on Zen 5 (about 53 per double
// round) and carries 32 MAC blocks. They run as two chains of 16,
// hA = Horner(h, blocks 0..15), hB = Horner(0, blocks 16..31), joined as
// h' = hA·r^16 + hB (r^16: four squarings per call, up front for Open,
// merged into the first batch, unrolled, for Seal). The rounds run as five
// iterations of two double rounds, each carrying three blocks of each chain
// (about 48 cycles of latency per chain in about 106 cycles); the last block
// of each chain runs after the rounds, before the stores.
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

func genStitchedAVX2() {
	TEXT("xorMACAVX2", 0, signatureMAC)
	Doc("xorMACAVX2 XORs len(src)/512 batches of 8 keystream blocks into dst and",
		"absorbs the first len(src) bytes of mac into the Poly1305 accumulator h",
		"(with r) on the integer units, stitched into the AVX2 code.")
	const W = 32
	v, x, slot, spill := avx2Layout()
	vframe := AllocLocal(24*W + W)
	f := stitchedFrame{
		state: AllocLocal(8), src: AllocLocal(8), dst: AllocLocal(8), mac: AllocLocal(8),
		n: AllocLocal(8), r: AllocLocal(24), s1: AllocLocal(8), pow: AllocLocal(24),
	}

	stitchedArgs(f, 9, "mac2_ret")

	// r^16: four squarings (general products: r^2 and up are not clamped).
	powOps := func() []func() { return r16Ops(f.pow) }

	Comment("Align the vector frame and broadcast the input state into it.")
	Load(Param("s"), rState)
	MOVQ(rState, f.state)
	avx2BroadcastState(vframe, slot)
	loadH := func() {
		Load(Param("h"), RAX)
		for j := 0; j < 3; j++ {
			MOVQ(Mem{Base: RAX, Disp: 8 * j}, avx2ChainA[j])
		}
	}

	dr := func() []func() { return avx2SpillDROps(x, spill) }
	poly := func(blocks []int) []func() { return avx2ChainsAB(f, blocks) }

	// batch emits one batch, with the MAC or without it (Seal's first two
	// batches, whose ciphertext the next ones MAC). It ends with the flags
	// of the decrement of the batch count.
	batch := func(withMAC, withPow bool, name string) {
		Label(name)
		avx2LoadBatch(f.state, x, slot, spill)
		var group []func()
		if withMAC {
			Comment("Chain B starts from 0.")
			for _, r := range avx2ChainB {
				XORL(r.As32(), r.As32())
			}
			MOVQ(f.mac, avx2Ptr)
			Comment("Five times two double rounds, with three blocks of each MAC chain.")
			group = append(poly([]int{0, 1, 2}), func() { LEAQ(mem(avx2Ptr, 48), avx2Ptr) })
		}
		if withPow {
			Comment("Ten double rounds, unrolled, with r^16 computed in between.")
			var vec []func()
			for i := 0; i < 10; i++ {
				vec = append(vec, dr()...)
			}
			merge(vec, powOps())
		} else {
			MOVQ(U32(5), RSI)
			Label(name + "_rounds")
			merge(append(dr(), dr()...), group)
			DECQ(RSI)
			JNZ(LabelRef(name + "_rounds"))
		}

		if withMAC {
			Comment("The last block of each chain, before any store.")
			run(poly([]int{0}))
			LEAQ(mem(avx2Ptr, 512-5*48), avx2Ptr)
			MOVQ(avx2Ptr, f.mac)
		}

		avx2AddState(x, slot, spill)
		Comment("Transpose, XOR and store the 8 blocks.")
		MOVQ(f.src, rSrc)
		MOVQ(f.dst, rDst)
		v.storeAVX2(spill, xorStoreAVX2(9))
		if withMAC {
			Comment("Join the chains: h = hA·r^16 + hB.")
			run(mulGeneralOps(avx2ChainA, avx2JoinP, R15, RAX, f.pow))
		}
		avx2NextBatch(f)
	}

	Load(Param("skip"), RCX)
	TESTQ(RCX, RCX)
	JNZ(LabelRef("mac2_first"))
	Comment("Open: r^16 first.")
	run(powOps())
	loadH()
	JMP(LabelRef("mac2_loop"))

	Comment("Seal: the first KiB's ciphertext is MACed during the next one; the",
		"integer units compute r^16 during the first batch.")
	batch(false, true, "mac2_first")
	loadH()
	JZ(LabelRef("mac2_done"))
	batch(false, false, "mac2_second")
	JZ(LabelRef("mac2_done"))
	batch(true, false, "mac2_loop")
	JNZ(LabelRef("mac2_loop"))

	Label("mac2_done")
	Load(Param("h"), RAX)
	for j := 0; j < 3; j++ {
		MOVQ(avx2ChainA[j], Mem{Base: RAX, Disp: 8 * j})
	}
	Comment("Wipe the key material from the frame: the state slots, r, s1, r^16.")
	VPXOR(Y0, Y0, Y0)
	for i := 0; i < 24; i++ {
		VMOVDQU(Y0, slot(i))
	}
	XORL(EAX, EAX)
	for _, m := range []Mem{f.r, f.r.Offset(8), f.s1, f.pow, f.pow.Offset(8), f.pow.Offset(16)} {
		MOVQ(RAX, m)
	}
	VZEROUPPER()
	Label("mac2_ret")
	RET()
}
