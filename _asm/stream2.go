package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// xorLanes2AVX512: the keystream of one State in passes of 32 blocks, two
// 16-lane zmm batches (counters s.Counter+0..15 and s.Counter+16..31) whose
// rounds are interleaved instruction by instruction, as laneBlocks2AVX512
// (lanes2.go) does for independent lanes. One batch's rounds are a chain
// four quarter rounds wide; where every simple vector instruction takes two
// cycles (AMD Zen 5 under bhyve, bench/README.md) that chain leaves half
// the vector ports idle and the hybrid 16+1 batch of xorBlocksAVX512 is
// bound by it, not by the ports; the second batch fills them.
//
//	func xorLanes2AVX512(s *State, dst, src []byte)
//
// It XORs len(src)/64 blocks: whole passes while at least 32 are left,
// then one pass for the rest, which writes only the blocks asked for (the
// caller gives it a rest worth a pass: chacha20core's xorLanes2). The two
// batches take all 32 zmm registers (VPROLD rotations, no scratch), so the
// input words are broadcast from the State again for the feed-forward, and
// the second batch's words 12-15 wait in the frame while the first batch
// borrows their registers for its transposition; the frame is cleared
// before returning.
//
// xorLanes2SplitAVX512 is one such pass for a chacha20.Cipher's call that
// ends in a partial block: the len(src)/64 blocks asked for into dst, then
// the next len(buf)/64 blocks into buf (XORed in place: the cipher's
// buffer, holding the message's last bytes and zeros), together at most
// 32, so that the buffered blocks cost no call of their own.
//
//	func xorLanes2SplitAVX512(s *State, dst, src, buf []byte)
//
// Register map: Zw word w of blocks 0-15 of the pass, Z(16+w) word w of
// blocks 16-31; RAX the State, RSI src, RDI dst, RCX blocks left, RDX the
// double-round counter; for the split pass, R8 the blocks of src and R9
// buf.
func genXORLanes2AVX512() {
	genXORLanes2(false)
	genXORLanes2(true)
}

func genXORLanes2(split bool) {
	name, sig := "xorLanes2AVX512", signature
	if split {
		name, sig = "xorLanes2SplitAVX512", "func(s *[12]uint32, dst, src, buf []byte)"
	}
	TEXT(name, NOSPLIT, sig)
	if split {
		Doc("xorLanes2SplitAVX512 XORs len(src)/64 keystream blocks into dst and the next",
			"len(buf)/64 into buf, at most 32 in all, in one pass of two 16-lane batches.")
	} else {
		Doc("xorLanes2AVX512 XORs len(src)/64 keystream blocks into dst with AVX-512F,",
			"32 blocks per pass in two interleaved 16-lane batches.")
	}
	park := AllocLocal(4 * 64)
	if split {
		Comment("R8 = blocks of src, R9 = buf, RCX = all blocks of the pass.")
		Load(Param("s"), rState)
		Load(Param("dst").Base(), rDst)
		Load(Param("src").Base(), rSrc)
		Load(Param("src").Len(), R8)
		SHRQ(U8(6), R8)
		Load(Param("buf").Base(), R9)
		Load(Param("buf").Len(), rN)
		SHRQ(U8(6), rN)
		ADDQ(R8, rN)
		JZ(LabelRef("ret"))
	} else {
		prologue()
	}

	Label("pass")
	Comment("Both batches from the State: word w in Zw and Z(16+w), the counters",
		"s.Counter+lane in Z12 and s.Counter+16+lane in Z28.")
	stream2Input()
	roundLoop("rounds", 10, lanes2DROps)

	Comment("Park words 12-15 of the second batch; feed-forward, transpose (Z28-Z31",
		"as scratch), XOR and store the first batch's blocks asked for.")
	for i := 0; i < 4; i++ {
		VMOVDQU32(lanes2B(12+i), park.Offset(64*i))
	}
	stream2FeedForward(zreg, iota16, Z28)
	transposeZ16At(zreg, [4]VecPhysical{Z28, Z29, Z30, Z31})
	stream2Store(zreg, 0, split)

	Comment("The second batch: words 12-15 back, feed-forward, transpose (Z0-Z3 as",
		"scratch), XOR and store.")
	for i := 0; i < 4; i++ {
		VMOVDQU32(park.Offset(64*i), lanes2B(12+i))
	}
	stream2FeedForward(lanes2B, iota16hi, Z0)
	transposeZ16At(lanes2B, [4]VecPhysical{Z0, Z1, Z2, Z3})
	stream2Store(lanes2B, 16, split)
	if split {
		JMP(LabelRef("rest"))
	}

	Comment("Next pass, unless this one was the last (fewer than 32 blocks left).")
	CMPQ(rN, U32(32))
	JB(LabelRef("rest"))
	ADDQ(U32(64*32), rSrc)
	ADDQ(U32(64*32), rDst)
	ADDL(U32(32), mem(rState, offCounter))
	SUBQ(U32(32), rN)
	JNZ(LabelRef("pass"))
	JMP(LabelRef("clear"))

	Label("rest")
	ADDL(ECX, mem(rState, offCounter))
	Label("clear")
	Comment("Clear the parked words from the frame, and Z16-Z31: a pass that ended",
		"in the first batch's stores leaves the second batch's state before the",
		"feed-forward there, from which the rounds can be run back to the key.")
	VPXORD(Z0, Z0, Z0)
	for i := 0; i < 4; i++ {
		VMOVDQU32(Z0, park.Offset(64*i))
	}
	for i := 16; i < 32; i++ {
		VPXORD(zreg(i), zreg(i), zreg(i))
	}
	Label("ret")
	VZEROUPPER()
	RET()
}

// stream2Input broadcasts the State at rState to both batches of
// xorLanes2AVX512: word w in Zw and Z(16+w), the first batch's counters
// s.Counter+0..15, the second's s.Counter+16..31.
func stream2Input() {
	for w := 0; w < 16; w++ {
		a, b := zreg(w), lanes2B(w)
		switch {
		case w < 4:
			VPBROADCASTD(sigma.Offset(4*w), a)
			VPBROADCASTD(sigma.Offset(4*w), b)
		case w < 12:
			VPBROADCASTD(mem(rState, offKey+4*(w-4)), a)
			VPBROADCASTD(mem(rState, offKey+4*(w-4)), b)
		case w == 12:
			VPBROADCASTD(mem(rState, offCounter), b)
			VPADDD(iota16, b, a)
			VPADDD(iota16hi, b, b)
		default:
			VPBROADCASTD(mem(rState, offNonce+4*(w-13)), a)
			VPBROADCASTD(mem(rState, offNonce+4*(w-13)), b)
		}
	}
}

// stream2FeedForward adds the input words (broadcast from the State at
// rState; the counters s.Counter + lanes, built in ctr) to the batch in
// reg(0)..reg(15).
func stream2FeedForward(reg func(int) VecPhysical, lanes Mem, ctr VecPhysical) {
	for w := 0; w < 16; w++ {
		r := reg(w)
		switch {
		case w < 4:
			VPADDD_BCST(sigma.Offset(4*w), r, r)
		case w < 12:
			VPADDD_BCST(mem(rState, offKey+4*(w-4)), r, r)
		case w == 12:
			VPBROADCASTD(mem(rState, offCounter), ctr)
			VPADDD(lanes, ctr, ctr)
			VPADDD(ctr, r, r)
		default:
			VPADDD_BCST(mem(rState, offNonce+4*(w-13)), r, r)
		}
	}
}

// stream2Store XORs src and stores to dst the transposed blocks in
// reg(0)..reg(15), blocks first..first+15 of the pass, up to the number
// left (rN): past it, to label rest. With split, from block R8 of the pass
// on, src and dst are buf (R9): RSI and RDI become R9 - 64·R8 there, so
// that block b's offset 64·b lands on buf's block b - R8.
func stream2Store(reg func(int) VecPhysical, first int, split bool) {
	for b := 0; b < 16; b++ {
		if first+b > 0 {
			CMPQ(rN, U32(first+b))
			JBE(LabelRef("rest"))
		}
		if split {
			l := newLabel("same")
			CMPQ(R8, U32(first+b))
			JNE(LabelRef(l))
			LEAQ(mem(R9, -64*(first+b)), rSrc)
			MOVQ(rSrc, rDst)
			Label(l)
		}
		VPXORD(mem(rSrc, 64*(first+b)), reg(b), reg(b))
		VMOVDQU32(reg(b), mem(rDst, 64*(first+b)))
	}
}
