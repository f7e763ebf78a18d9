package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// AVX2: 26-bit limbs, four blocks per step.
//
// A number modulo p is x0 + x1·2^26 + x2·2^52 + x3·2^78 + x4·2^104 with
// 26-bit limbs (a little more between reductions). VPMULUDQ multiplies the
// low 32 bits of each 64-bit lane; with 2^130 ≡ 5 and s_j = 5·r_j:
//
//	d0 = h0·r0 + h1·s4 + h2·s3 + h3·s2 + h4·s1
//	d1 = h0·r1 + h1·r0 + h2·s4 + h3·s3 + h4·s2
//	d2 = h0·r2 + h1·r1 + h2·r0 + h3·s4 + h4·s3
//	d3 = h0·r3 + h1·r2 + h2·r1 + h3·r0 + h4·s4
//	d4 = h0·r4 + h1·r3 + h2·r2 + h3·r1 + h4·r0
//
// followed by the interleaved carry chain of Goll and Gueron ("Vectorization
// of Poly1305 message authentication code", 2015), as in OpenSSL's
// poly1305-x86_64.pl and poly1305-donna's SIMD code: limbs leave it below
// 2^26 plus a few bits, inputs below 2^28 keep every column below 2^64.
//
// Four lanes absorb four consecutive blocks with h_j = (h_j + m)·r^4; the
// last step multiplies each lane by its own power of r instead. Four blocks
// are two 32-byte loads split with VPUNPCKLQDQ/VPUNPCKHQDQ, which puts
// blocks 0, 2, 1, 3 in lanes 0..3, so the lane powers are [r^4, r^2, r^3, r].
// The first len/16 mod 4 blocks go through the scalar loop (on the integer
// units, while the vector units compute the powers), so that the vector steps
// end at the end of the message.
//
// Sixteen ymm registers do not hold the accumulator, the products and the
// multipliers, so the multipliers (five limbs and four 5· multiples, each
// broadcast or per lane) are read from tables in the stack frame.

const mask26 = 1<<26 - 1

// AVX2 register map.
var (
	yH     = [5]VecPhysical{Y0, Y1, Y2, Y3, Y4}
	yD     = [5]VecPhysical{Y5, Y6, Y7, Y8, Y9}
	yT     = [2]VecPhysical{Y10, Y11}
	yMask  = Y12 // 2^26 − 1
	yHibit = Y13 // hibit << 24: the 2^128 bit in limb 4
	yL     = [2]VecPhysical{Y14, Y15}
)

// A powTable is nine 32-byte vectors in the stack frame: limbs 0..4 of a
// multiplier, then 5· limbs 1..4.
type powTable Mem

func (t powTable) r(j int) Mem { return Mem(t).Offset(32 * j) }
func (t powTable) s(j int) Mem { return Mem(t).Offset(32 * (4 + j)) }

// store writes v (limbs) and their 5· multiples into t, with yT[0] as
// scratch.
func (t powTable) store(v [5]VecPhysical) {
	for j := 0; j < 5; j++ {
		VMOVDQU(v[j], t.r(j))
		if j > 0 {
			VPSLLQ(U8(2), v[j], yT[0])
			VPADDQ(v[j], yT[0], yT[0])
			VMOVDQU(yT[0], t.s(j))
		}
	}
}

// mulReduce26 sets h = h·t lane by lane, partly reduced, using yD and yT.
func mulReduce26(t powTable) {
	Comment("d = h·r, column by column")
	for k := 0; k < 5; k++ {
		for i := 0; i < 5; i++ {
			j := k - i
			var m Mem
			if j >= 0 {
				m = t.r(j)
			} else {
				m = t.s(j + 5)
			}
			if i == 0 {
				VPMULUDQ(m, yH[i], yD[k])
			} else {
				tt := yT[i%2]
				VPMULUDQ(m, yH[i], tt)
				VPADDQ(tt, yD[k], yD[k])
			}
		}
	}
	Comment("carry d3→d4, d0→d1, d4→d0 (times 5), d1→d2, d2→d3, d0→d1, d3→d4")
	d, h, c, c2 := yD, yH, yT[0], yT[1]
	VPSRLQ(U8(26), d[3], c)
	VPAND(yMask, d[3], h[3])
	VPADDQ(c, d[4], d[4])
	VPSRLQ(U8(26), d[0], c2)
	VPAND(yMask, d[0], h[0])
	VPADDQ(c2, d[1], d[1])
	VPSRLQ(U8(26), d[4], c)
	VPAND(yMask, d[4], h[4])
	VPSLLQ(U8(2), c, c2)
	VPADDQ(c2, c, c)
	VPADDQ(c, h[0], h[0])
	VPSRLQ(U8(26), d[1], c2)
	VPAND(yMask, d[1], h[1])
	VPADDQ(c2, d[2], d[2])
	VPSRLQ(U8(26), d[2], c2)
	VPAND(yMask, d[2], h[2])
	VPADDQ(c2, h[3], h[3])
	VPSRLQ(U8(26), h[0], c)
	VPAND(yMask, h[0], h[0])
	VPADDQ(c, h[1], h[1])
	VPSRLQ(U8(26), h[3], c2)
	VPAND(yMask, h[3], h[3])
	VPADDQ(c2, h[4], h[4])
}

// absorb4 adds four blocks at rMsg to h as 26-bit limbs with the 2^128 bit,
// and advances rMsg.
func absorb4() {
	a, b := yL[0], yL[1]
	lo, hi, t := yD[0], yD[1], yD[2]
	VMOVDQU(Mem{Base: rMsg}, a)
	VMOVDQU(Mem{Base: rMsg, Disp: 32}, b)
	LEAQ(Mem{Base: rMsg, Disp: 64}, rMsg)
	VPUNPCKLQDQ(b, a, lo)
	VPUNPCKHQDQ(b, a, hi)
	VPAND(yMask, lo, t)
	VPADDQ(t, yH[0], yH[0])
	VPSRLQ(U8(26), lo, t)
	VPAND(yMask, t, t)
	VPADDQ(t, yH[1], yH[1])
	VPSRLQ(U8(52), lo, lo)
	VPSLLQ(U8(12), hi, t)
	VPOR(t, lo, lo)
	VPAND(yMask, lo, lo)
	VPADDQ(lo, yH[2], yH[2])
	VPSRLQ(U8(14), hi, t)
	VPAND(yMask, t, t)
	VPADDQ(t, yH[3], yH[3])
	VPSRLQ(U8(40), hi, hi)
	VPOR(yHibit, hi, hi)
	VPADDQ(hi, yH[4], yH[4])
}

// limbs26 converts the 64-bit limbs h0, h1, h2 (h2 < 8) into 26-bit limbs
// l[0..4] (l4 below 2^27), with mask holding mask26.
func limbs26(h0, h1, h2 GPPhysical, l [5]GPPhysical, mask GPPhysical) {
	MOVQ(h0, l[0])
	ANDQ(mask, l[0])
	MOVQ(h0, l[1])
	SHRQ(U8(26), l[1])
	ANDQ(mask, l[1])
	MOVQ(h1, l[2])
	SHLQ(U8(12), l[2])
	SHRQ(U8(52), h0)
	ORQ(h0, l[2])
	ANDQ(mask, l[2])
	MOVQ(h1, l[3])
	SHRQ(U8(14), l[3])
	ANDQ(mask, l[3])
	MOVQ(h1, l[4])
	SHRQ(U8(40), l[4])
	SHLQ(U8(24), h2)
	ORQ(h2, l[4])
}

// hsum4 adds the four lanes of y into dst, with tmp as scratch.
func hsum4(y, tmp VecPhysical, dst GPPhysical) {
	VEXTRACTI128(U8(1), y, tmp.AsX())
	VPADDQ(tmp.AsX(), y.AsX(), y.AsX())
	VPSHUFD(U8(0xEE), y.AsX(), tmp.AsX())
	VPADDQ(tmp.AsX(), y.AsX(), y.AsX())
	VMOVQ(y.AsX(), dst)
}

func genPolyAVX2() {
	const name = "blocksAVX2"
	TEXT(name, 0, polySignature)
	Doc("blocksAVX2 absorbs len(msg)/16 blocks, four at a time with AVX2",
		fmt.Sprintf("once there are at least %d, else one at a time.", avx2MinBlocks))
	frame := AllocLocal(3 * 9 * 32)
	tabB, tabV, tabR4 := powTable(frame), powTable(frame.Offset(9*32)), powTable(frame.Offset(18*32))
	lbl := func(s string) string { return name + "_" + s }
	scalarPrologue()
	CMPQ(rBlocks, U32(avx2MinBlocks))
	JAE(LabelRef(lbl("vector")))
	scalarLoop(lbl("short"), rBlocks)
	scalarEpilogue()
	RET()

	Label(lbl("vector"))
	Comment("Powers of r: P = r everywhere (in tabB), Q = P·P = r^2,",
		"V = [r^2, r, r^2, r]·[r^2, r, r, r] with lane 3 set to r = [r^4, r^2, r^3, r],",
		"r^4 = V's lane 0.")
	MOVQ(U64(mask26), rT1)
	VMOVQ(rT1, yMask.AsX())
	VPBROADCASTQ(yMask.AsX(), yMask)
	Comment("r in 26-bit limbs, leaving r0, r1 and s1 for the scalar loop")
	MOVQ(rR0, RAX)
	ANDQ(rT1, RAX)
	MOVQ(rR0, RDX)
	SHRQ(U8(26), RDX)
	ANDQ(rT1, RDX)
	MOVQ(rR0, RCX)
	SHRQ(U8(52), RCX)
	MOVQ(rR1, RDI)
	SHLQ(U8(12), RDI)
	ORQ(RDI, RCX)
	ANDQ(rT1, RCX)
	for j, g := range []GPPhysical{RAX, RDX, RCX} {
		VMOVQ(g, yH[j].AsX())
		VPBROADCASTQ(yH[j].AsX(), yH[j])
	}
	MOVQ(rR1, RAX)
	SHRQ(U8(14), RAX)
	ANDQ(rT1, RAX)
	MOVQ(rR1, RDX)
	SHRQ(U8(40), RDX)
	for j, g := range []GPPhysical{RAX, RDX} {
		VMOVQ(g, yH[3+j].AsX())
		VPBROADCASTQ(yH[3+j].AsX(), yH[3+j])
	}
	tabB.store(yH)
	mulReduce26(tabB)
	Comment("A = [Q, P, Q, P] in h, B = [Q, P, P, P] in tabB")
	for j := 0; j < 5; j++ {
		VMOVDQU(tabB.r(j), yL[0])
		VPBLENDD(U8(0xCC), yL[0], yH[j], yD[j]) // lanes 1, 3 from P: A
		VPBLENDD(U8(0xFC), yL[0], yH[j], yH[j]) // lanes 1..3 from P: B
		VMOVDQU(yL[0], tabR4.r(j))              // P, kept for lane 3 of V
	}
	tabB.store(yH)
	for j := 0; j < 5; j++ {
		VMOVDQA(yD[j], yH[j])
	}
	mulReduce26(tabB)
	for j := 0; j < 5; j++ {
		VPBLENDD(U8(0xC0), tabR4.r(j), yH[j], yH[j])
	}
	tabV.store(yH)
	for j := 0; j < 5; j++ {
		VPERMQ(U8(0x00), yH[j], yH[j])
	}
	tabR4.store(yH)

	Comment("The first len/16 mod 4 blocks, one at a time (while the powers are",
		"computed); then RBX = steps.")
	ANDQ(U8(3), rBlocks)
	scalarLoop(lbl("lead"), rBlocks)
	Load(Param("msg").Len(), rBlocks)
	SHRQ(U8(6), rBlocks)

	Comment("h in 26-bit limbs, in lane 0")
	MOVQ(U64(mask26), rT1)
	lh := [5]GPPhysical{RAX, RDX, RCX, RDI, R12}
	limbs26(rH0, rH1, rH2, lh, rT1)
	for j := 0; j < 5; j++ {
		VMOVQ(lh[j], yH[j].AsX())
	}
	MOVQ(rHibit, RAX)
	SHLQ(U8(24), RAX)
	VMOVQ(RAX, yHibit.AsX())
	VPBROADCASTQ(yHibit.AsX(), yHibit)
	absorb4()

	Comment("h = (h + m)·r^4 for every step but the last")
	Label(lbl("loop"))
	DECQ(rBlocks)
	JZ(LabelRef(lbl("last")))
	mulReduce26(tabR4)
	absorb4()
	JMP(LabelRef(lbl("loop")))

	Label(lbl("last"))
	Comment("Last step: each lane times its own power of r, then the sum of the lanes.")
	mulReduce26(tabV)
	ls := [5]GPPhysical{RAX, RBX, RCX, RDX, R11}
	for j := 0; j < 5; j++ {
		hsum4(yH[j], yD[j], ls[j])
	}
	Comment("Wipe the powers of r (key material) from the stack frame.")
	VPXOR(yD[0], yD[0], yD[0])
	for i := 0; i < 3*9; i++ {
		VMOVDQU(yD[0], frame.Offset(i*32))
	}
	VZEROUPPER()
	limbs64from26(ls, rH0, rH1, rH2, rT1, R12)
	scalarEpilogue()
	RET()
}

// limbs64from26 carries the 26-bit limbs l (each below 2^32) and converts
// them to 64-bit limbs h0, h1, h2 with h2 < 8, using mask and t.
func limbs64from26(l [5]GPPhysical, h0, h1, h2, mask, t GPPhysical) {
	Comment("carry l0 → l1 → l2 → l3 → l4, 5·(l4 >> 26) into l0, and l0 → l1")
	MOVQ(U64(mask26), mask)
	for j := 0; j < 4; j++ {
		MOVQ(l[j], t)
		SHRQ(U8(26), t)
		ANDQ(mask, l[j])
		ADDQ(t, l[j+1])
	}
	MOVQ(l[4], t)
	SHRQ(U8(26), t)
	ANDQ(mask, l[4])
	LEAQ(Mem{Base: t, Index: t, Scale: 4}, t)
	ADDQ(t, l[0])
	MOVQ(l[0], t)
	SHRQ(U8(26), t)
	ANDQ(mask, l[0])
	ADDQ(t, l[1])
	Comment("h = l0 + l1·2^26 + l2·2^52 + l3·2^78 + l4·2^104 (l1 may be 2^26)")
	SHLQ(U8(26), l[1])
	ADDQ(l[1], l[0]) // l0 + l1·2^26 < 2^54
	MOVQ(l[2], h0)
	SHLQ(U8(52), h0)
	SHRQ(U8(12), l[2]) // l2's bits above 2^64
	MOVQ(l[3], h1)
	SHLQ(U8(14), h1)
	ADDQ(l[2], h1) // < 2^41
	MOVQ(l[4], t)
	SHLQ(U8(40), t)
	MOVQ(l[4], h2)
	SHRQ(U8(24), h2)
	ADDQ(l[0], h0)
	ADCQ(t, h1)
	ADCQ(U8(0), h2)
}
