package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// ---------------------------------------------------------------------------
// AVX2 Open with the key block first and the MAC ahead of the stores
//
//	func openAheadAVX2(s *State, dst, src, ad, adTail, macTail []byte, fin *[64]byte, tag *[16]byte)
//
// An Open knows its whole MAC input before any keystream exists; only r
// and s wait, in block 0. So this kernel computes block 0 alone first
// (with block 1, the message's first 64 bytes, in the other lane of one
// ymm row set: ten latency-bound double rounds), and from then on every
// 8-block batch MACs its own ciphertext during its rounds and writes its
// plaintext right after them. The mid-size kernel (mid_avx2.go) instead
// puts the key block in its first batch, which can MAC nothing, and so
// lags the MAC one batch behind: its last batch carries the previous
// batch's 32 MAC blocks however few blocks of keystream it has. x/crypto's
// AVX2 Open (chacha20poly1305_amd64.s, openAVX2: the key block first, the
// main loop hashing the bytes it decrypts) is the source of the order; the
// code is this module's and reuses the mid-size kernels' pieces.
//
//  1. Blocks 0 and 1 (counters s.Counter, +1), one row set. r and s from
//     block 0; h = the padded additional data (ad:
//     whole blocks, adTail: 0 or 16 bytes) and the first 64 bytes of src;
//     then dst[0:64] = src[0:64] ^ block 1. The out-of-order core runs
//     this integer work beside the start of the first batch, whose first
//     two double rounds also compute r^16 (four squarings).
//  2. (len(src)-64)/512 batches of xorBlocksAVX2's transposed 8-block
//     batch, counters from s.Counter+2: during the rounds the batch's own
//     32 MAC blocks, as two chains of 16 (A from h, B from 0); then the
//     stores (src ^ keystream to dst) with the join h = hA·r^16 + hB
//     merged into them. The MAC loads come before the stores: dst may be
//     src.
//  3. The last t = (len(src)-64)%512 bytes, if any: in two ymm row sets
//     up to 256 bytes (faster than the 8-block batch there: 1120-1312
//     bytes 3-5%), else in the 8-block batch; the MAC of their whole
//     16-byte blocks as chain A, conditional steps during the rounds (two
//     per double round in rows, six per two double rounds in the batch)
//     and the rest after; then the stores: whole 64-byte blocks to dst,
//     the partial one XORed into fin (which holds src's last len(src)%64
//     bytes, zero padded). Then macTail, the caller's copy of the padded
//     partial 16-byte block (if any) and the lengths.
//  4. tag = h mod 2^130-5 plus s. The caller compares it with the
//     message's tag and zeroes dst on a mismatch.
//
// len(src) > 64. The kernel reads and writes nothing past the message; the
// frame (the input state, s, r, s1, r^16) is wiped on return. s.Counter is
// left past the key set and the whole batches (the caller wipes s).
//
// Registers: as in the mid-size kernel (Y0-Y15 and the frame slots as in
// xorBlocksAVX2; R8-R10 = hA, R11-R13 = hB, AX, CX, R14, DI the MAC
// temporaries, R15 the MAC pointer, SI the round counter); in the last
// batch BP counts its conditional MAC blocks.

const signatureOpenAhead = "func(s *[12]uint32, dst []byte, src []byte, ad []byte, adTail []byte, macTail []byte, fin *[64]byte, tag *[16]byte)"

func genOpenAheadAVX2() {
	TEXT("openAheadAVX2", 0, signatureOpenAhead)
	Doc("openAheadAVX2 is the AEAD Open of a message of more than 64 bytes: the",
		"key block first, then 8-block batches that MAC their own ciphertext during",
		"their rounds (_asm/openahead.go).")
	lbl := func(s string) string { return "oa_" + s }
	const W = 32
	_, x, slot, spill := avx2Layout()
	const nslots = 24
	vframe := AllocLocal(nslots*W + W)
	f := stitchedFrame{
		state: AllocLocal(8), src: AllocLocal(8), dst: AllocLocal(8),
		n: AllocLocal(8), r: AllocLocal(24), s1: AllocLocal(8), pow: AllocLocal(24),
	}
	sKey := AllocLocal(16)
	tT, tF64, tFin, rc := AllocLocal(8), AllocLocal(8), AllocLocal(8), AllocLocal(8)

	Comment("Align the vector frame; t = (len(src)-64)%512 bytes after the batches,",
		"(len(src)-64)/512 batches; src and dst past the first 64 bytes.")
	LEAQ(vframe, rFrame)
	ADDQ(U32(W-1), rFrame)
	ANDQ(I32(-W), rFrame)
	Load(Param("src").Len(), RCX)
	SUBQ(U8(64), RCX)
	MOVQ(RCX, RDX)
	SHRQ(U8(9), RDX)
	MOVQ(RDX, f.n)
	ANDQ(U32(511), RCX)
	MOVQ(RCX, tT)
	SHRQ(U8(6), RCX)
	MOVQ(RCX, tF64)
	Load(Param("fin"), RCX)
	MOVQ(RCX, tFin)
	Load(Param("dst").Base(), RDI)
	Load(Param("src").Base(), RSI)
	LEAQ(mem(RDI, 64), RDX)
	MOVQ(RDX, f.dst)
	LEAQ(mem(RSI, 64), RDX)
	MOVQ(RDX, f.src)
	Load(Param("s"), rState)
	MOVQ(rState, f.state)

	Comment("Blocks 0 and 1: one row set (lane 0 block 0, lane 1 block 1).")
	set0 := quad{Y0, Y1, Y2, Y3}
	rowsIn := [4]VecPhysical{Y8, Y9, Y10, Y11}
	rowInputs(rowsIn)
	for j := range set0 {
		VMOVDQA(rowsIn[j], set0[j])
	}
	rowRoundLoop(lbl("key_rounds"), []quad{set0}, func() { run(avx2QROps([]quad{set0}, []VecPhysical{Y13})) }, Mem{}, nil)
	for j := range set0 {
		VPADDD(rowsIn[j], set0[j], set0[j])
	}
	Comment("r (clamped) and s from block 0; block 1 to Y12, Y13 until its MAC is done.")
	VMOVQ(X0, R8)
	VPEXTRQ(U8(1), X0, R9)
	VMOVDQU(X1, sKey)
	VPERM2I128(U8(0x31), Y1, Y0, Y12)
	VPERM2I128(U8(0x31), Y3, Y2, Y13)
	clampR(R8, R9, RDX)
	storeR(f)

	step := func(ptr GPPhysical) { run(polyBlockOps(f, avx2Tmp, ptr, avx2ChainA, 0)) }
	// macLoop absorbs the count (in RSI, set by the caller; flags from its
	// last write) 16-byte blocks at avx2Ptr into chain A.
	macLoop := func(name string) {
		JZ(LabelRef(lbl(name + "_done")))
		Label(lbl(name))
		step(avx2Ptr)
		ADDQ(U8(16), avx2Ptr)
		DECQ(RSI)
		JNZ(LabelRef(lbl(name)))
		Label(lbl(name + "_done"))
	}
	absorbAD(f, lbl)
	Comment("h += the first 64 bytes of src.")
	Load(Param("src").Base(), avx2Ptr)
	for k := 0; k < 4; k++ {
		run(polyBlockOps(f, avx2Tmp, avx2Ptr, avx2ChainA, k))
	}
	Comment("dst[0:64] = src[0:64] ^ block 1 (its MAC loads are done).")
	Load(Param("src").Base(), RSI)
	Load(Param("dst").Base(), RDI)
	VPXOR(Mem{Base: RSI}, Y12, Y12)
	VPXOR(mem(RSI, 32), Y13, Y13)
	VMOVDQU(Y12, Mem{Base: RDI})
	VMOVDQU(Y13, mem(RDI, 32))
	MOVQ(f.state, rState)
	ADDL(U8(2), mem(rState, offCounter))

	Comment("Broadcast the input state into the vector frame.")
	broadcastState(slot)

	dr := func() []func() { return avx2SpillDROps(x, spill) }
	dr2 := func() []func() { return append(dr(), dr()...) }
	xorStore := func(blk, half int) []func() {
		o := 64*blk + 32*half
		return []func(){
			func() { VPXOR(mem(rSrc, o), Y12, Y12) },
			func() { VMOVDQU(Y12, mem(rDst, o)) },
		}
	}

	// The joins below need r^16. Computed before the first batch, its
	// four dependent squarings delay the batch's start (bench/README.md,
	// "r^16 inside the first batch"); so they run in the first batch's
	// first two double rounds, in registers the chains do not use until
	// then (h stays in R8-R10), and the batch's MAC steps in the other
	// eight, four of each chain per two.
	// batchEnd adds the input state, stores the batch with the join
	// h = hA·r^16 + hB merged in, and moves on a batch (its flags: zero
	// after the last).
	batchEnd := func() {
		avx2AddState(x, slot, spill)
		Comment("Stores, with h = hA·r^16 + hB.")
		MOVQ(f.src, rSrc)
		MOVQ(f.dst, rDst)
		merge(midStoreOps(spill, xorStore), mulGeneralOps(avx2ChainA, avx2JoinP, R15, RAX, f.pow))
		avx2NextBatch(f)
	}

	Comment("The 8-block batches: each MACs its own 32 blocks as chains A and B",
		"during its rounds, then stores, joining the chains. The first also",
		"computes r^16 in its first two double rounds.")
	CMPQ(f.n, U8(0))
	JE(LabelRef(lbl("last")))
	avx2LoadBatch(f.state, x, slot, spill)
	merge(dr2(), r16OpsWith(f.pow, avx2ChainB, [5]GPPhysical{RCX, R14, RDI, RSI, RBP}, R15, RAX))
	for _, r := range avx2ChainB {
		XORL(r.As32(), r.As32())
	}
	MOVQ(f.src, avx2Ptr)
	MOVQ(U32(4), RSI)
	Label(lbl("first_rounds"))
	merge(dr2(), append(avx2ChainsAB(f, []int{0, 1, 2, 3}), func() { LEAQ(mem(avx2Ptr, 64), avx2Ptr) }))
	DECQ(RSI)
	JNZ(LabelRef(lbl("first_rounds")))
	batchEnd()
	JZ(LabelRef(lbl("last")))

	Label(lbl("loop"))
	avx2LoadBatch(f.state, x, slot, spill)
	for _, r := range avx2ChainB {
		XORL(r.As32(), r.As32())
	}
	MOVQ(f.src, avx2Ptr)
	MOVQ(U32(5), RSI)
	Label(lbl("loop_rounds"))
	merge(dr2(), append(avx2ChainsAB(f, []int{0, 1, 2}), func() { LEAQ(mem(avx2Ptr, 48), avx2Ptr) }))
	DECQ(RSI)
	JNZ(LabelRef(lbl("loop_rounds")))
	run(avx2ChainsAB(f, []int{0}))
	batchEnd()
	JNZ(LabelRef(lbl("loop")))

	// condA is one conditional MAC step of the last batch: a block at
	// avx2Ptr while BP counts some left.
	condA := func() {
		skip := newLabel("oa_skip")
		TESTQ(RBP, RBP)
		JZ(LabelRef(skip))
		step(avx2Ptr)
		ADDQ(U8(16), avx2Ptr)
		DECQ(RBP)
		Label(skip)
	}
	// macRest absorbs the last batch's blocks left (BP) after its rounds.
	macRest := func(name string) {
		Label(lbl(name + "_rest"))
		TESTQ(RBP, RBP)
		JZ(LabelRef(lbl(name + "_done")))
		condA()
		JMP(LabelRef(lbl(name + "_rest")))
		Label(lbl(name + "_done"))
	}

	Label(lbl("last"))
	CMPQ(tT, U8(0))
	JE(LabelRef(lbl("mactail")))
	MOVQ(f.src, avx2Ptr)
	MOVQ(tT, RBP)
	SHRQ(U8(4), RBP)
	CMPQ(tT, U32(256))
	JBE(LabelRef(lbl("lastrow")))

	Comment("The last batch, 5 to 8 blocks: transposed, six conditional MAC steps",
		"per two double rounds.")
	avx2LoadBatch(f.state, x, slot, spill)
	MOVQ(U32(5), RSI)
	Label(lbl("last_rounds"))
	var six []func()
	for i := 0; i < 6; i++ {
		six = append(six, condA)
	}
	merge(dr2(), six)
	DECQ(RSI)
	JNZ(LabelRef(lbl("last_rounds")))
	avx2AddState(x, slot, spill)
	macRest("last")
	MOVQ(f.src, rSrc)
	MOVQ(f.dst, rDst)
	run(midStoreOps(spill, func(blk, half int) []func() {
		return []func(){func() { lastBlockStore(Y12, blk, half, tF64, tFin) }}
	}))
	JMP(LabelRef(lbl("mactail")))

	Comment("The last batch, 1 to 4 blocks: two row sets, two conditional MAC steps",
		"per double round.")
	Label(lbl("lastrow"))
	MOVQ(f.state, rState)
	in := [5]VecPhysical{Y8, Y9, Y10, Y11, Y12}
	rowInputs([4]VecPhysical(in[:4]))
	VPADDD(rowStep2, in[3], in[4])
	sets := []quad{{Y0, Y1, Y2, Y3}, {Y4, Y5, Y6, Y7}}
	inRow := func(i, j int) VecPhysical {
		if j == 3 && i == 1 {
			return in[4]
		}
		return in[j]
	}
	for i, q := range sets {
		for j := range q {
			VMOVDQA(inRow(i, j), q[j])
		}
	}
	rowRoundLoop(lbl("lastrow_rounds"), sets, func() { run(avx2QROps(sets, []VecPhysical{Y13, Y14})) }, rc, func() {
		condA()
		condA()
	})
	for i, q := range sets {
		for j := range q {
			VPADDD(inRow(i, j), q[j], q[j])
		}
	}
	macRest("lastrow")
	MOVQ(f.src, rSrc)
	MOVQ(f.dst, rDst)
	for i, q := range sets {
		for l, imm := range []uint8{0x20, 0x31} {
			VPERM2I128(U8(imm), q[1], q[0], Y13)
			VPERM2I128(U8(imm), q[3], q[2], Y14)
			lastBlockStore(Y13, 2*i+l, 0, tF64, tFin)
			lastBlockStore(Y14, 2*i+l, 1, tF64, tFin)
		}
	}
	JMP(LabelRef(lbl("mactail")))

	Comment("macTail (after the stores: it is the caller's copy): the padded partial",
		"16-byte block if any, and the lengths.")
	Label(lbl("mactail"))
	Load(Param("macTail").Base(), avx2Ptr)
	Load(Param("macTail").Len(), RSI)
	SHRQ(U8(4), RSI)
	macLoop("mt")

	Label(lbl("tag"))
	Comment("The tag: h mod 2^130-5 (h < 2p: subtract p unless that borrows), plus s,",
		"mod 2^128 (RFC 8439, Section 2.5.1).")
	polyTag([3]GPPhysical{R8, R9, R10}, [3]GPPhysical{RAX, RCX, RDX}, sKey)
	Load(Param("tag"), RAX)
	MOVQ(R8, Mem{Base: RAX})
	MOVQ(R9, Mem{Base: RAX, Disp: 8})
	Comment("Wipe the key material from the frame (the state slots, s, r, s1, r^16)",
		"and the vector registers.")
	LEAQ(vframe, rFrame)
	ADDQ(U32(W-1), rFrame)
	ANDQ(I32(-W), rFrame)
	VPXOR(Y0, Y0, Y0)
	for i := 0; i < nslots; i++ {
		VMOVDQU(Y0, slot(i))
	}
	XORL(EAX, EAX)
	for _, m := range []Mem{sKey, sKey.Offset(8), f.r, f.r.Offset(8), f.s1, f.pow, f.pow.Offset(8), f.pow.Offset(16)} {
		MOVQ(RAX, m)
	}
	clearY0Y15()
	RET()
}
