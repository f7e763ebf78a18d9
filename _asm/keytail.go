package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// ---------------------------------------------------------------------------
// The Poly1305 key block and a short tail's keystream in one call
//
//	func keyTailAVX512(s *State, out *[256]byte, rows *[16]uint32)
//
// The stitched Seal and Open (stitched_amd64.go) need the Poly1305 key
// block (counter 0) before their loop and, for a message that does not end
// on a whole batch, the keystream of the few blocks after it. Each alone is
// one latency-bound call of the row code, about as long as a 16-lane batch
// of the loop on some cores; two row sets side by side cost about what one
// does. So these compute four blocks of s's key, blocks 0-1 in one ymm row
// set and 2-3 in another, row 3 of block b (its counter and nonce words)
// taken from rows[4b:4b+4], so that the four counters need not follow each
// other, and store the keystream to out. s.Counter is neither read nor
// changed. It rotates with VPROLD (qrAVX512's rounds).
// The vector registers are cleared before returning (key material).
func genKeyTail() {
	name := "keyTailAVX512"
	TEXT(name, NOSPLIT, "func(s *[12]uint32, out *[256]byte, rows *[16]uint32)")
	Doc(name+" stores the keystream of four blocks of s's key to out, row 3 of",
		"block b (counter and nonce) from rows[4b:4b+4], in two ymm row sets (AVX-512VL).")
	keyTailArgs("rows")
	sets := []quad{{Y0, Y1, Y2, Y3}, {Y4, Y5, Y6, Y7}}
	tmp := []VecPhysical{Y13, Y14}
	// The input rows: constants and key broadcast to both 128-bit lanes,
	// then the two sets' rows 3 from rows (EVEX moves reach Y16-Y20).
	r := [5]VecPhysical{Y16, Y17, Y18, Y19, Y20}
	Comment(fmt.Sprintf("%s: constants, %s/%s: key, %s/%s: rows 3 of blocks 0-1 and 2-3.", r[0].Asm(), r[1].Asm(), r[2].Asm(), r[3].Asm(), r[4].Asm()))
	for j, m := range []Mem{sigma, mem(rState, offKey), mem(rState, offKey+16)} {
		VBROADCASTI32X4(m, r[j])
	}
	VMOVDQU32(mem(rSrc, 0), r[3])
	VMOVDQU32(mem(rSrc, 32), r[4])
	in := setInputs([3]VecPhysical{r[0], r[1], r[2]}, r[3], r[4])
	evexRows.rowRounds("keytail512", sets, in, qrAVX512)
	Comment("Lane l of set i is block 2i+l.")
	for i, q := range sets {
		rowBlocksY(i, q, tmp, func(blk int, halves func() (VecPhysical, VecPhysical)) {
			lo, hi := halves()
			VMOVDQU(lo, mem(rDst, 64*blk))
			VMOVDQU(hi, mem(rDst, 64*blk+32))
		})
	}
	for _, r := range []VecPhysical{Y16, Y17, Y18, Y19, Y20} {
		VPXORD(r, r, r)
	}
	clearY0Y15()
	RET()
	genKeyTailLanes()
}

// genKeyTailLanes emits keyTail8AVX512 and keyTail16AVX512, keyTailAVX512
// for longer tails, in the transposed layouts of the keystream path:
//
//	func keyTail8AVX512(s *State, out *[512]byte, ctr *[16]uint32)
//	func keyTail16AVX512(s *State, out *[1024]byte, ctr *[16]uint32)
//
// eight ymm lanes (transposedVL8's batch) or 16 zmm lanes, lane l's
// counter ctr[l], the nonce s's; the keystream, block l at out[64l:], is
// stored, not XORed. One batch for the key block and up to 7 or 15 tail
// blocks costs about what the tail's batch alone does.
func genKeyTailLanes() {
	TEXT("keyTail8AVX512", NOSPLIT, "func(s *[12]uint32, out *[512]byte, ctr *[16]uint32)")
	Doc("keyTail8AVX512 stores the keystream of eight blocks of s's key and nonce to",
		"out, block l's counter ctr[l], in eight ymm lanes.")
	keyTailArgs("ctr")
	vl8RoundsFrom("kt8_rounds", mem(rSrc, 0))
	Comment("Add the input (Y20-Y31 hold words 4-15, the counters in Y28), transpose, store.")
	addInputVL8()
	transposeVL8(func(blk int, halves func() (VecPhysical, VecPhysical)) {
		lo, hi := halves()
		VMOVDQU32(lo, mem(rDst, 64*blk))
		VMOVDQU32(hi, mem(rDst, 64*blk+32))
	})
	clearRegsAVX512()
	RET()

	TEXT("keyTail16AVX512", NOSPLIT, "func(s *[12]uint32, out *[1024]byte, ctr *[16]uint32)")
	Doc("keyTail16AVX512 stores the keystream of 16 blocks of s's key and nonce to",
		"out, block l's counter ctr[l], in 16 zmm lanes.")
	keyTailArgs("ctr")
	z := zreg
	loadStateZ16()
	VMOVDQU32(mem(rSrc, 0), Z12)
	roundLoop("kt16_rounds", 10, zmmDROps)
	Comment("Add the input state (the counters from ctr), transpose, store.")
	for w := 0; w < 16; w++ {
		switch {
		case w < 4:
			VPADDD_BCST(sigma.Offset(4*w), z(w), z(w))
		case w < 12:
			VPADDD_BCST(mem(rState, offKey+4*(w-4)), z(w), z(w))
		case w == 12:
			VPADDD(mem(rSrc, 0), Z12, Z12)
		default:
			VPADDD_BCST(mem(rState, offNonce+4*(w-13)), z(w), z(w))
		}
	}
	transposeZ16([4]VecPhysical{Z16, Z17, Z18, Z19})
	for blk := 0; blk < 16; blk++ {
		VMOVDQU32(z(blk), mem(rDst, 64*blk))
	}
	clearRegsAVX512()
	RET()
}

// keyTailArgs loads the keyTail functions' arguments: s to rState, out to
// rDst, the counters (param) to rSrc.
func keyTailArgs(param string) {
	Load(Param("s"), rState)
	Load(Param("out"), rDst)
	Load(Param(param), rSrc)
}

// clearRegsAVX512 clears Z0-Z31 (key material and keystream) and the upper
// halves before a return.
func clearRegsAVX512() {
	for i := 0; i < 32; i++ {
		VPXORD(zreg(i).AsY(), zreg(i).AsY(), zreg(i).AsY())
	}
	VZEROUPPER()
}
