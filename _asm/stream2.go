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
// Register map: Zw word w of blocks 0-15 of the pass, Z(16+w) word w of
// blocks 16-31; RAX the State, RSI src, RDI dst, RCX blocks left, RDX the
// double-round counter.
func genXORLanes2AVX512() {
	TEXT("xorLanes2AVX512", NOSPLIT, signature)
	Doc("xorLanes2AVX512 XORs len(src)/64 keystream blocks into dst with AVX-512F,",
		"32 blocks per pass in two interleaved 16-lane batches.")
	park := AllocLocal(4 * 64)
	prologue()

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
	stream2Store(zreg, 0)

	Comment("The second batch: words 12-15 back, feed-forward, transpose (Z0-Z3 as",
		"scratch), XOR and store.")
	for i := 0; i < 4; i++ {
		VMOVDQU32(park.Offset(64*i), lanes2B(12+i))
	}
	stream2FeedForward(lanes2B, iota16hi, Z0)
	transposeZ16At(lanes2B, [4]VecPhysical{Z0, Z1, Z2, Z3})
	stream2Store(lanes2B, 16)

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
	Comment("Clear the parked words (keystream state) from the frame.")
	VPXORD(Z0, Z0, Z0)
	for i := 0; i < 4; i++ {
		VMOVDQU32(Z0, park.Offset(64*i))
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
// left (rN): past it, to label rest.
func stream2Store(reg func(int) VecPhysical, first int) {
	for b := 0; b < 16; b++ {
		if first+b > 0 {
			CMPQ(rN, U32(first+b))
			JBE(LabelRef("rest"))
		}
		VPXORD(mem(rSrc, 64*(first+b)), reg(b), reg(b))
		VMOVDQU32(reg(b), mem(rDst, 64*(first+b)))
	}
}
