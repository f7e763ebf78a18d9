package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// laneBlocks2AVX512: 32 independent ChaCha20 blocks, the lanes of two
// LaneSets, as two 16-lane zmm batches whose rounds are interleaved
// instruction by instruction. One batch's rounds are a chain of dependent
// instructions four quarter rounds wide; where each simple vector
// instruction takes two cycles (AMD Zen 5 under bhyve, bench/README.md)
// that chain leaves half the vector ports idle, and the second batch fills
// them (32 lanes in about two thirds of the time of two LaneBlocks calls
// there: chacha20core's BenchmarkLaneBlocks2). The two batches take all
// 32 zmm registers, so the rotations are VPROLD (no scratch register), the
// feed-forward re-reads the input from memory, and the first batch's
// transposition borrows four of the second's registers, parked in the
// second batch's own output blocks until it needs them.
//
// Register map: Zw word w of lanes 0-15 (the first LaneSet), Z(16+w) word
// w of lanes 16-31 (the second); after the rounds Z28-Z31 are the first
// transposition's scratch, then Z0-Z3 the second's.

const lanes2Signature = "func(l *[2][12][16]uint32, out *[32][64]byte)"

// laneSetSize is the size of a LaneSet: 12 rows of 16 words.
const laneSetSize = 12 * 64

func genLanes2AVX512() {
	TEXT("laneBlocks2AVX512", NOSPLIT, lanes2Signature)
	Doc("laneBlocks2AVX512 writes the keystream blocks of the 32 lanes of l[0]",
		"and l[1] to out, two 16-lane zmm batches with interleaved rounds.")
	Load(Param("l"), rLanes)
	lanes2Load()
	Comment("Ten double rounds, each instruction of the first batch followed by",
		"the same one of the second.")
	MOVQ(U32(10), rRound)
	Label("lanes2_rounds")
	run(lanes2DROps())
	DECQ(rRound)
	JNZ(LabelRef("lanes2_rounds"))
	Load(Param("l"), rLanes)
	Load(Param("out"), rOut)
	lanes2Finish()
	VZEROUPPER()
	RET()
}

// lanes2B returns the register of word w of the second batch.
func lanes2B(w int) VecPhysical { return zreg(16 + w) }

// lanes2Word returns the memory of word w (4..15) of the lanes of LaneSet
// set at rLanes.
func lanes2Word(set, w int) Mem { return mem(rLanes, set*laneSetSize+64*(w-4)) }

// lanes2Load loads both batches from the LaneSets at rLanes: Zw and
// Z(16+w) hold word w of their 16 lanes.
func lanes2Load() {
	Comment("Load both batches: Zw and Z(16+w) hold word w of their 16 lanes.")
	transposedInput(zreg, false, func(w int, r VecPhysical, add bool) { laneWordOp(lanes2Word(0, w), r, add) })
	transposedInput(lanes2B, false, func(w int, r VecPhysical, add bool) { laneWordOp(lanes2Word(1, w), r, add) })
}

// lanes2DROps returns the operations of one double round of both batches,
// each operation of the first batch followed by the same one of the second.
func lanes2DROps() []func() {
	var ops []func()
	for _, qs := range [2][4][4]int{columns, diagonals} {
		for step := 0; step < 12; step++ {
			for _, q := range qs {
				ops = append(ops,
					func() { qrStep(zreg, q, step) },
					func() { qrStep(lanes2B, q, step) })
			}
		}
	}
	return ops
}

// lanes2Finish adds the input (from the LaneSets at rLanes) to both
// batches, transposes them and stores their blocks to rOut.
func lanes2Finish() {
	Comment("Park words 12-15 of the second batch in its blocks 0-3 of out, then",
		"feed-forward, transpose and store the first batch with Z28-Z31 as scratch.")
	for i := 0; i < 4; i++ {
		VMOVDQU32(lanes2B(12+i), mem(rOut, 64*(16+i)))
	}
	transposedInput(zreg, true, func(w int, r VecPhysical, add bool) { laneWordOp(lanes2Word(0, w), r, add) })
	transposeZ16At(zreg, [4]VecPhysical{Z28, Z29, Z30, Z31})
	for b := 0; b < 16; b++ {
		VMOVDQU32(zreg(b), mem(rOut, 64*b))
	}

	Comment("The second batch: words 12-15 back, feed-forward, transpose with",
		"Z0-Z3 as scratch, store.")
	for i := 0; i < 4; i++ {
		VMOVDQU32(mem(rOut, 64*(16+i)), lanes2B(12+i))
	}
	transposedInput(lanes2B, true, func(w int, r VecPhysical, add bool) { laneWordOp(lanes2Word(1, w), r, add) })
	transposeZ16At(lanes2B, [4]VecPhysical{Z0, Z1, Z2, Z3})
	for b := 0; b < 16; b++ {
		VMOVDQU32(lanes2B(b), mem(rOut, 64*(16+b)))
	}
}

// laneWordOp loads (add false) or adds (add true) the 16 lanes' word at m
// to r.
func laneWordOp(m Mem, r VecPhysical, add bool) {
	if add {
		VPADDD(m, r, r)
	} else {
		VMOVDQU32(m, r)
	}
}

// qrStep emits operation step (0..11) of the quarter round on words
// q[0..3] of a transposed batch, word w in reg(w), rotating in place with
// VPROLD: a += b; d ^= a; d <<<= 16; c += d; b ^= c; b <<<= 12; then the
// same with 8 and 7 (RFC 8439, Section 2.1).
func qrStep(reg func(int) VecPhysical, q [4]int, step int) {
	a, b, c, d := reg(q[0]), reg(q[1]), reg(q[2]), reg(q[3])
	rot := [2][2]uint8{{16, 12}, {8, 7}}[step/6]
	switch step % 6 {
	case 0:
		VPADDD(b, a, a)
	case 1:
		VPXORD(a, d, d)
	case 2:
		VPROLD(U8(rot[0]), d, d)
	case 3:
		VPADDD(d, c, c)
	case 4:
		VPXORD(c, b, b)
	case 5:
		VPROLD(U8(rot[1]), b, b)
	}
}

// genSetRunAVX512 emits setRunAVX512, LaneSet.SetRun's AVX-512 path: the
// counter and nonce words of a run of consecutive lanes (the blocks of one
// message), one masked store per row instead of one store per lane and
// word.
//
//	func setRunAVX512(l *LaneSet, mask uint16, base uint32, nonce *[3]uint32)
//
// Lane i of the mask gets counter base + i and the nonce; K1 the mask, Z0
// the counters, Z1 a nonce word.
func genSetRunAVX512() {
	TEXT("setRunAVX512", NOSPLIT, "func(l *[12][16]uint32, mask uint16, base uint32, nonce *[3]uint32)")
	Doc("setRunAVX512 sets the counter (base + lane) and the nonce words of the",
		"lanes of l in mask.")
	Load(Param("l"), RAX)
	Load(Param("mask"), RCX)
	KMOVW(ECX, K1)
	Load(Param("base"), RDX)
	VPBROADCASTD(EDX, Z0)
	VPADDD(iota16, Z0, Z0)
	VMOVDQU32(Z0, K1, mem(RAX, 64*(12-4)))
	Load(Param("nonce"), RBX)
	for i := 0; i < 3; i++ {
		VPBROADCASTD(mem(RBX, 4*i), Z1)
		VMOVDQU32(Z1, K1, mem(RAX, 64*(13-4+i)))
	}
	VZEROUPPER()
	RET()
}
