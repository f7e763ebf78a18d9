package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The row-layout last batches of the mid-size AVX2 kernels (mid_avx2.go).
//
// The last batch when it has at most 4 blocks (t <= 256 bytes), or an
// Open's after batch 1 of at most 6 (t <= rowMaxT), in xorBlocksAVX2's
// row layout: one to three sets of four rows (nsets; a Seal's takes one
// for at most two blocks, t <= 128), two blocks per set (one per
// 128-bit lane).
// Its rounds are shorter
// than the 8-block batch's (bench/README.md, "Engine per path and block
// count"; three sets 128 ns against the 8-block batch's 155 on AMD Zen
// 4), so the MAC work merged into them (the previous batch's, as in the
// 8-block batch) sets its length. Two sets keep their input rows in
// Y8-Y12 (the second set's counter row in Y12); three sets use Y0-Y11
// and Y12-Y14 as temporaries, so their input rows live in rowIn (in
// the wiped vector frame).

// midRowIn holds the input rows of one or two row sets: constants, key,
// key, the first set's counter row, the second set's counter row.
var midRowIn = [5]VecPhysical{Y8, Y9, Y10, Y11, Y12}

// rows3 reports whether the row batch has three sets.
func (mk *midKernel) rows3() bool { return mk.nsets == 3 }

// sets returns the row batch's sets of four rows.
func (mk *midKernel) sets() []quad {
	return []quad{{Y0, Y1, Y2, Y3}, {Y4, Y5, Y6, Y7}, {Y8, Y9, Y10, Y11}}[:mk.nsets]
}

// inRow returns input row j of set i: a register of midRowIn, or with
// three sets a slot of rowIn.
func (mk *midKernel) inRow(i, j int) Op {
	in := midRowIn
	switch {
	case mk.rows3() && j == 3:
		return mk.rowIn.Offset(32 * (3 + i))
	case mk.rows3():
		return mk.rowIn.Offset(32 * j)
	case j == 3 && i == 1:
		return in[4]
	}
	return in[j]
}

// rowSetup emits the row batch's input rows and copies them into the
// sets.
func (mk *midKernel) rowSetup() {
	MOVQ(mk.f.state, rState)
	if mk.rows3() {
		Comment("Three sets: the input rows to rowIn (constants, key, the three counter rows).")
		for j, m := range []Mem{sigma, mem(rState, offKey), mem(rState, offKey+16)} {
			VBROADCASTI128(m, Y12)
			VMOVDQU(Y12, mk.rowIn.Offset(32*j))
		}
		VBROADCASTI128(mem(rState, offCounter), Y12)
		VPADDD(rowLanes, Y12, Y12)
		for i := 0; i < 3; i++ {
			if i > 0 {
				VPADDD(rowStep2, Y12, Y12)
			}
			VMOVDQU(Y12, mk.rowIn.Offset(32*(3+i)))
		}
		for i, q := range mk.sets() {
			for j := 0; j < 4; j++ {
				VMOVDQU(mk.inRow(i, j), q[j])
			}
		}
		return
	}
	in := midRowIn
	rowInputs([4]VecPhysical(in[:4]))
	VPADDD(rowStep2, in[3], in[4])
	for i, q := range mk.sets() {
		for j := 0; j < 4; j++ {
			VMOVDQA(mk.inRow(i, j), q[j])
		}
	}
}

// rowDR2 returns the operations of two double rounds of the row batch's
// sets.
func (mk *midKernel) rowDR2() []func() {
	rtmp := []VecPhysical{Y13, Y14}
	if mk.rows3() {
		rtmp = []VecPhysical{Y12, Y13, Y14}
	}
	sets := mk.sets()
	shuf := func(a, c, d uint8) []func() {
		var ops []func()
		for _, q := range sets {
			ops = append(ops,
				func() { VPSHUFD(U8(a), q[0], q[0]) },
				func() { VPSHUFD(U8(c), q[2], q[2]) },
				func() { VPSHUFD(U8(d), q[3], q[3]) })
		}
		return ops
	}
	var ops []func()
	for k := 0; k < 2; k++ {
		ops = append(ops, avx2QROps(sets, rtmp)...)
		ops = append(ops, shuf(0x93, 0x39, 0x4e)...)
		ops = append(ops, avx2QROps(sets, rtmp)...)
		ops = append(ops, shuf(0x39, 0x93, 0x4e)...)
	}
	return ops
}

// rowAdd emits the row batch's feed-forward.
func (mk *midKernel) rowAdd() {
	Comment("Add the input rows.")
	for i, q := range mk.sets() {
		for j := 0; j < 4; j++ {
			VPADDD(mk.inRow(i, j), q[j], q[j])
		}
	}
}

// rowStore stores block 2i+l (rows 0-1 and 2-3 of lane l of set i):
// whole blocks XORed into dst, the partial one into fin.
func (mk *midKernel) rowStore() {
	MOVQ(mk.f.src, rSrc)
	MOVQ(mk.f.dst, rDst)
	for i, q := range mk.sets() {
		for l, imm := range []uint8{0x20, 0x31} {
			blk := 2*i + l
			xor, fin, next := newLabel("rxor"), newLabel("rfin"), newLabel("rnext")
			VPERM2I128(U8(imm), q[1], q[0], Y13)
			VPERM2I128(U8(imm), q[3], q[2], Y14)
			CMPQ(mk.tF64, U8(blk))
			JA(LabelRef(xor))
			JE(LabelRef(fin))
			JMP(LabelRef(next))
			Label(fin)
			MOVQ(mk.tFin, RCX)
			VPXOR(Mem{Base: RCX}, Y13, Y13)
			VPXOR(mem(RCX, 32), Y14, Y14)
			VMOVDQU(Y13, Mem{Base: RCX})
			VMOVDQU(Y14, mem(RCX, 32))
			JMP(LabelRef(next))
			Label(xor)
			VPXOR(mem(rSrc, 64*blk), Y13, Y13)
			VPXOR(mem(rSrc, 64*blk+32), Y14, Y14)
			VMOVDQU(Y13, mem(rDst, 64*blk))
			VMOVDQU(Y14, mem(rDst, 64*blk+32))
			Label(next)
		}
	}
}

// rowEnd finishes a row-layout last batch: Seal stores, then joins (or
// computes r^16), Open joins (or r^16), MACs the tail (before the
// stores: an Open in place) and stores; then s.Counter moves past the
// batch (8 blocks, as the other batches).
func (mk *midKernel) rowEnd(name string, prevFrom int, extra func()) {
	mk.rowAdd()
	if mk.open {
		mk.finishPrev(prevFrom)
	}
	if mk.open {
		run([]func(){extra})
		mk.tailMAC(func(x string) string { return mk.lbl(name + "_" + x) })
		mk.rowStore()
	} else {
		mk.rowStore()
		run([]func(){extra})
	}
	MOVQ(mk.f.state, rState)
	ADDL(U8(8), mem(rState, offCounter))
	if mk.open {
		JMP(LabelRef(mk.lbl("done")))
	} else {
		JMP(LabelRef(mk.lbl("tail")))
	}
}

// rowBatch emits the row-layout last batches after the loop: label
// row (two sets), and batch 1's (b1Row: b1r); for a Seal also row1 and
// b1r1 (one set, for at most two blocks), for an Open row3 (three
// sets). Each measured faster only there (bench/README.md, "AVX2 Open's
// last batch in three row sets", "One row set for a last batch of one
// or two blocks"): a Seal's last batch in three sets, and batch 1's,
// whose single MAC chain sets its length, were no faster, and an Open's
// in one set was 2-4% faster at some lengths and 1.6% slower at others.
func (mk *midKernel) rowBatch() {
	f, lbl := mk.f, mk.lbl
	counts := []int{2, 1}
	if mk.open {
		counts = []int{2, 3}
	}
	for _, n := range counts {
		mk.nsets = n
		name := map[int]string{1: "row1", 2: "row", 3: "row3"}[n]
		Label(lbl(name))
		if n == 2 && mk.open {
			CMPQ(mk.tT, U32(256))
			JA(LabelRef(lbl("row3")))
		} else if n == 2 {
			CMPQ(mk.tT, U32(128))
			JBE(LabelRef(lbl("row1")))
		}
		Comment("The loop's last batch in the row layout; the previous batch's MAC as",
			"two chains of 16.")
		mk.rowSetup()
		for _, r := range avx2ChainB {
			XORL(r.As32(), r.As32())
		}
		MOVQ(f.mac, avx2Ptr)
		MOVQ(U32(5), RSI)
		Label(lbl(name + "_rounds"))
		merge(mk.rowDR2(), append(mk.chainsAB([]int{0, 1, 2}), func() { LEAQ(mem(avx2Ptr, 48), avx2Ptr) }))
		DECQ(RSI)
		JNZ(LabelRef(lbl(name + "_rounds")))
		run(mk.chainsAB([]int{0}))
		join := mulGeneralOps(avx2ChainA, avx2JoinP, R15, RAX, f.pow)
		mk.rowEnd(name, 0, func() { run(join) })
		if n < 3 {
			mk.b1Row(map[int]string{1: "b1r1", 2: "b1r"}[n])
		}
	}
	mk.nsets = 2
}

// b1Row emits batch 1 as the last batch in the row layout (label name:
// b1r with two sets, b1r1 with one): batch 0's MAC (b1MAC, with the row
// rounds) and, as the last batch, r^16 if the tail needs it (lastPow).
func (mk *midKernel) b1Row(name string) {
	lbl := mk.lbl
	Label(lbl(name))
	if mk.nsets == 2 && !mk.open {
		CMPQ(mk.tT, U32(128))
		JBE(LabelRef(lbl("b1r1")))
	}
	Comment("Batch 1 as the last batch in the row layout; batch 0's MAC as one chain",
		"(and, for Open, chain Z).")
	mk.rowSetup()
	MOVQ(mk.f.mac, avx2Ptr)
	if mk.open {
		CMPQ(mk.tX, U8(0))
		JL(LabelRef(lbl(name + "_noz")))
		mk.b1MAC(true, name+"_zrounds", mk.rowDR2, 5)
		JMP(LabelRef(lbl(name + "_macd")))
		Label(lbl(name + "_noz"))
	}
	mk.b1MAC(false, name+"_rounds", mk.rowDR2, 5)
	Label(lbl(name + "_macd"))
	mk.rowEnd(name, 1, mk.lastPow)
}
