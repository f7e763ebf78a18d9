package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The LaneBlocks functions: up to 16 independent ChaCha20 blocks, each
// with its own key, counter and nonce, given word by word (a LaneSet: row j
// of 16 words is state word 4+j of the 16 lanes). That is already the
// layout of a transposed batch, so each state word of 8 or 16 lanes loads
// with one instruction; only the constants are broadcast. The rounds, the
// final transposition and the stores are those of the keystream's
// transposed batches (main.go), with a key per lane where those have one
// key and consecutive counters. For a few lanes the row layout is shorter
// in latency: there the words of four lanes are transposed into rows first
// (laneRows).
//
// Every path writes all the lanes of its batch (4, 8 or 16 blocks, or 2 or
// 4 for the AVX2 row code) into out, whatever n: LaneBlocks allows it.
// Only n picks the path; no branch or address depends on the data.

// laneSignature is the signature avo type-checks; the Go declarations use
// *LaneSet, which has the layout of [12][16]uint32.
const laneSignature = "func(l *[12][16]uint32, out *[16][64]byte, n int)"

// Registers of the LaneBlocks functions (rRound counts double rounds,
// rFrame is the AVX2 frame).
var (
	rLanes = RAX // *LaneSet: row w-4 of 64 bytes is word w of the 16 lanes
	rOut   = RDI // *[16][64]byte
)

// laneArgs loads the arguments: l to rLanes, out to rOut, n to rN.
func laneArgs() {
	Load(Param("l"), rLanes)
	Load(Param("out"), rOut)
	Load(Param("n"), rN)
}

// laneWord returns the memory of state word w (4..15) of the lanes at
// rLanes (lanes 0-15, or 8-15 once the AVX2 code has advanced rLanes).
func laneWord(w int) Mem { return mem(rLanes, 64*(w-4)) }

// laneInputAVX512 loads (add false) or adds (add true) the input of the
// lanes to reg(0)..reg(15), zmm or ymm registers: the constants broadcast
// from sigma, words 4-15 from the LaneSet (lanes 0..7 or 0..15 after the
// register width). The feed-forward re-reads the input from memory, so no
// register holds it through the rounds.
func laneInputAVX512(reg func(int) VecPhysical, add bool) {
	transposedInput(reg, add, func(w int, r VecPhysical, add bool) {
		if add {
			VPADDD(laneWord(w), r, r)
		} else {
			VMOVDQU32(laneWord(w), r)
		}
	})
}

// transposedInput loads (add false) or adds (add true) the input of a
// transposed batch to reg(0)..reg(15): the constants broadcast from sigma,
// and words 4-15 as word emits them.
func transposedInput(reg func(int) VecPhysical, add bool, word func(w int, r VecPhysical, add bool)) {
	for w := 0; w < 16; w++ {
		r := reg(w)
		switch {
		case w < 4 && add:
			VPADDD_BCST(sigma.Offset(4*w), r, r)
		case w < 4:
			VPBROADCASTD(sigma.Offset(4*w), r)
		default:
			word(w, r, add)
		}
	}
}

// xreg returns Xi.
func xreg(i int) VecPhysical {
	return [...]VecPhysical{X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15}[i]
}

// laneRows loads words 4-15 of the first four lanes at rLanes and
// transposes them into the rows of the row layout: afterwards X(4+4r+k)
// holds row r+1 (words 4+4r..7+4r) of lane k; X0-X3 are scratch.
func laneRows() {
	for w := 4; w < 16; w++ {
		VMOVDQU(laneWord(w), xreg(w))
	}
	for g := 1; g < 4; g++ {
		unpack4(xreg(4*g), xreg(4*g+1), xreg(4*g+2), xreg(4*g+3), [4]VecPhysical{X0, X1, X2, X3})
	}
}

// genLanesAVX512 emits laneBlocksAVX512: the row layout on one zmm set for
// 1..4 lanes, one 8-lane ymm pass (AVX-512VL) for 5..8, one 16-lane zmm
// pass for 9..16.
//
// Register map of the passes: Zw (Yw) state word w of the lanes; Z16-Z19
// (Y16-Y21) the transposition's scratch. Of the row code: Z0-Z3 the rows
// of lanes 0-3 (lane l in 128-bit lane l), Z16-Z19 their input, Z20-Z23
// scratch.
func genLanesAVX512() {
	TEXT("laneBlocksAVX512", NOSPLIT, laneSignature)
	Doc("laneBlocksAVX512 writes the keystream blocks of the lanes of l to out with",
		"AVX-512F: 16 lanes in zmm registers, or for n <= 8 the 8 lanes of ymm",
		"registers (AVX-512VL), whose operations more execution ports take on Intel,",
		"or for n <= 4 the row layout, shortest in latency.")
	laneArgs()
	CMPQ(rN, U32(4))
	JBE(LabelRef("lanes4"))
	CMPQ(rN, U32(8))
	JBE(LabelRef("lanes8"))

	Comment("16 lanes: Zw holds word w of every lane.")
	laneInputAVX512(zreg, false)
	roundLoop("lanes16_rounds", 10, zmmDROps)
	Comment("Feed-forward, transpose (Zb: block b) and store.")
	laneInputAVX512(zreg, true)
	transposeZ16([4]VecPhysical{Z16, Z17, Z18, Z19})
	for b := 0; b < 16; b++ {
		VMOVDQU32(zreg(b), mem(rOut, 64*b))
	}
	VZEROUPPER()
	RET()

	Label("lanes8")
	Comment("8 lanes: Yw holds word w of lanes 0-7.")
	laneInputAVX512(yreg, false)
	roundLoop("lanes8_rounds", 10, func() []func() { return drOps(yreg) })
	Comment("Feed-forward, transpose and store.")
	laneInputAVX512(yreg, true)
	transposeVL8(func(blk int, halves func() (VecPhysical, VecPhysical)) {
		lo, hi := halves()
		VMOVDQU32(lo, mem(rOut, 64*blk))
		VMOVDQU32(hi, mem(rOut, 64*blk+32))
	})
	VZEROUPPER()
	RET()

	Label("lanes4")
	Comment("1..4 lanes: the row layout, lane l's rows in 128-bit lane l of Z0-Z3.")
	laneRows()
	VBROADCASTI32X4(sigma, Z16)
	for r := 0; r < 3; r++ {
		dst := zreg(17 + r)
		VINSERTI32X4(U8(1), xreg(4+4*r+1), zreg(4+4*r), dst)
		VINSERTI32X4(U8(2), xreg(4+4*r+2), dst, dst)
		VINSERTI32X4(U8(3), xreg(4+4*r+3), dst, dst)
	}
	q := quad{Z0, Z1, Z2, Z3}
	in := quad{Z16, Z17, Z18, Z19}
	zmmRows.rowRounds("lanes4", []quad{q}, func(_, j int) Op { return in[j] }, qrAVX512)
	rowBlocksZ(q, [4]VecPhysical{Z20, Z21, Z22, Z23}, func(blk int, r VecPhysical) {
		VMOVDQU32(r, mem(rOut, 64*blk))
	})
	VZEROUPPER()
	RET()
}

// genLanesAVX2 emits laneBlocksAVX2: groups of 8 lanes, lanes 0-7 and, for
// n > 8, lanes 8-15, each computed after the count of its lanes asked for:
// the row layout on one ymm set (two lanes) for 1..2, on two sets for 3..4
// (latency), else the transposed 8-lane batch of xorBlocksAVX2
// (vecISA.transposedCore, words 10 and 11 or 8 and 9 in the frame).
//
// Register map: the transposed batch, Y0-Y15 the state words (Y8-Y11 as
// transposedCore uses them); the row code, Y0-Y3 and Y4-Y7 the two sets
// (lanes 2i and 2i+1 in set i), Y8-Y11 the input of set 0, Y13 and Y14
// scratch. rFrame is the 32-byte aligned frame: slots 0-3 the constants
// broadcast (AVX2 has no broadcasting addition), slots 4-6 rows 1-3 of the
// input of row set 1, slots 16-23 words 8-15 of the transposed batch when
// not in registers (cleared on return: key material).
func genLanesAVX2() {
	v := vecISA{
		name: "AVX2", width: 32, avx: true,
		regs: [16]VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15},
	}
	TEXT("laneBlocksAVX2", 0, laneSignature)
	Doc("laneBlocksAVX2 writes the keystream blocks of the lanes of l to out with",
		"AVX2, 8 lanes per group.")
	laneArgs()
	slot := func(i int) Mem { return mem(rFrame, 32*i) }
	spill := func(w int) Mem { return slot(16 + w - 8) }

	Comment("Align the frame and broadcast the constants into it.")
	frame := AllocLocal(24*32 + 32)
	LEAQ(frame, rFrame)
	ADDQ(U32(31), rFrame)
	ANDQ(I32(-32), rFrame)
	for w := 0; w < 4; w++ {
		VPBROADCASTD(sigma.Offset(4*w), Y0)
		VMOVDQU(Y0, slot(w))
	}

	Comment("One group: lanes 0-7 (rLanes at row offset 0, rOut at block 0) or 8-15.")
	Label("lanes_group")
	CMPQ(rN, U32(2))
	JBE(LabelRef("lanes_row1"))
	CMPQ(rN, U32(4))
	JBE(LabelRef("lanes_row2"))
	in := func(w int) Mem {
		if w < 4 {
			return slot(w)
		}
		return laneWord(w)
	}
	v.transposedCore(in, spill, -1, "lanes_rounds")
	Comment("Transpose and store the group's 8 blocks.")
	v.storeAVX2(spill, func(blk, off int, block func() VecPhysical) {
		VMOVDQU(block(), mem(rOut, 64*blk+off))
	})
	Label("lanes_next")
	CMPQ(rN, U32(8))
	JBE(LabelRef("lanes_done"))
	Comment("Lanes 8-15: words 32 bytes further in each row, blocks 8-15 of out.")
	ADDQ(U32(32), rLanes)
	ADDQ(U32(8*64), rOut)
	SUBQ(U32(8), rN)
	JMP(LabelRef("lanes_group"))

	for sets := 1; sets <= 2; sets++ {
		name := fmt.Sprintf("lanes_row%d", sets)
		Label(name)
		Comment(fmt.Sprintf("%d..%d lanes: the row layout on %d ymm sets.", 2*sets-1, 2*sets, sets))
		laneRows()
		// Set i, row r+1 (r = 0..2): lane 2i's row from X(4+4r+2i) in
		// the low 128 bits, lane 2i+1's from the next register in the high
		// ones. Set 1's input goes to the frame first, then set 0's to
		// Y9-Y11 in the order that overwrites no row still to be read.
		if sets == 2 {
			for r := 0; r < 3; r++ {
				VINSERTI128(U8(1), xreg(4+4*r+3), yreg(4+4*r+2), Y0)
				VMOVDQU(Y0, slot(4+r))
			}
		}
		for r := 2; r >= 0; r-- {
			VINSERTI128(U8(1), xreg(4+4*r+1), yreg(4+4*r), yreg(9+r))
		}
		VBROADCASTI128(sigma, Y8)
		rowIn := func(i, j int) Op {
			switch {
			case j == 0:
				return Y8
			case i == 0:
				return yreg(8 + j)
			}
			return slot(3 + j)
		}
		qs := []quad{{Y0, Y1, Y2, Y3}, {Y4, Y5, Y6, Y7}}[:sets]
		tmp := []VecPhysical{Y13, Y14}
		v.rowRounds(name, qs, rowIn, func(qs []quad) { v.qr(qs, tmp) })
		for i, q := range qs {
			rowBlocksY(i, q, tmp, func(blk int, halves func() (VecPhysical, VecPhysical)) {
				lo, hi := halves()
				VMOVDQU(lo, mem(rOut, 64*blk))
				VMOVDQU(hi, mem(rOut, 64*blk+32))
			})
		}
		JMP(LabelRef("lanes_next"))
	}

	Label("lanes_done")
	v.clearFrame()
	VZEROUPPER()
	RET()
}
