package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// AVX-512 IFMA: 44-bit limbs, eight blocks per step.
//
// A number modulo p = 2^130 − 5 is x0 + x1·2^44 + x2·2^88 with x0, x1 < 2^44
// and x2 < 2^42 when reduced (a few bits more in between). VPMADD52LUQ and
// VPMADD52HUQ add the low and the high 52 bits of the 104-bit product of the
// low 52 bits of two lanes; every limb fed to them stays below 2^52.
//
// d = a·b with 2^132 ≡ 4·5 = 20 (so b comes with s1 = 20·b1, s2 = 20·b2):
//
//	d0 = a0·b0 + a1·s2 + a2·s1
//	d1 = a0·b1 + a1·b0 + a2·s2
//	d2 = a0·b2 + a1·b1 + a2·b0
//
// Column k is lo + hi·2^52 = lo + (hi << 8)·2^44. The base-2^44 IFMA method
// is the one of OpenSSL's poly1305-x86_64.pl (poly1305_blocks_vpmadd52); the
// code here is written from the equations above.
//
// Eight lanes absorb eight consecutive blocks per step, each lane
// h_j = (h_j + m)·r^8; the last step multiplies each lane by the power of r
// that takes its block to the end of the message instead (r^8 … r^1), and the
// lanes are added up. Eight blocks are loaded as two 64-byte vectors and split
// into their low and high 64-bit halves with VPUNPCKLQDQ/VPUNPCKHQDQ, which
// puts block k in lane 2k and block k+4 in lane 2k+1 (k = 0..3), so the lane
// powers are [r^8, r^4, r^7, r^3, r^6, r^2, r^5, r^1].
//
// The first len/16 mod 8 blocks go through the scalar loop, so that the
// vector steps end at the end of the message. They cost little: the integer
// units run them while the vector units compute the powers of r, which the
// first step waits for anyway. (Padding the first step at the front with
// masked loads instead was measured slower: the vector loop is bound by the
// latency of one step, and a partly empty step costs a whole one.)
//
// Sixteen blocks per step in two sets of lanes (r^16) were measured no
// faster on Zen 5 either: there a 512-bit VPMADD52LUQ issues once per cycle
// and a 512-bit shift once per cycle, and two sets fill those ports.

// Masks of the 44- and 42-bit limbs.
const (
	ifmaMask44 = 1<<44 - 1
	ifmaMask42 = 1<<42 - 1
)

// IFMA register map. The powers are computed in the same registers, with
// Z26..Z31 and zL as scratch, before the loop starts (see ifmaPowers).
var (
	zH      = [3]VecPhysical{Z0, Z1, Z2}            // accumulator limbs
	zR8     = [5]VecPhysical{Z3, Z4, Z5, Z6, Z7}    // r^8 everywhere: r0, r1, r2, 20·r1, 20·r2
	zV      = [5]VecPhysical{Z8, Z9, Z10, Z11, Z12} // lane powers, the same layout
	zMask44 = Z13
	zMask42 = Z14
	zHibit  = Z15                                          // hibit << 40: the 2^128 bit in limb 2
	zD      = [6]VecPhysical{Z16, Z17, Z18, Z19, Z20, Z21} // column sums lo, hi
	zT      = Z22
	zL      = [3]VecPhysical{Z23, Z24, Z25}
)

// polyIFMA is the register set of blocksIFMA for the shared IFMA steps.
var polyIFMA = ifmaRegs{d: zD, t: zT, l: zL, m44: zMask44, m42: zMask42, hibit: zHibit}

// times20 sets dst = 20·src, with t as scratch.
func times20(src, dst, t VecPhysical) { run(ifmaTimes20Ops(src, dst, t)) }

// mulReduce sets out = a·b mod p lane by lane (see ifmaMulReduceOps); out
// may be a. It uses zD and zT.
func mulReduce(a [3]VecPhysical, b [5]VecPhysical, out [3]VecPhysical) {
	run(ifmaMulReduceOps(polyIFMA, a, [5]Op{b[0], b[1], b[2], b[3], b[4]}, out))
}

// absorb adds eight blocks at rMsg to h (see ifmaAbsorbOps) and advances
// rMsg.
func absorb(h [3]VecPhysical) {
	run(ifmaAbsorbOps(polyIFMA, h, rMsg, 0))
	LEAQ(Mem{Base: rMsg, Disp: 128}, rMsg)
}

// ifmaPowers computes, from r in 44-bit limbs in rA, r^8 in every lane of zR8
// and the lane powers in zV (both with their 20· multiples), with three
// products in sequence:
//
//	Q = r·r = r^2 everywhere
//	W = [r, r^2, r, r^2, r, r, r, r]·[r, r^2, r, r, r, r, r, r]:
//	    r^4, r^3, r^2 in lanes 1, 3, 5, and lane 7 set to r
//	V = W's odd lanes, copied to the even lanes and multiplied there by r^4
//	    (lane 1 of W); r^8 is V's lane 0
func ifmaPowers(rA [3]GPPhysical) {
	p := [5]VecPhysical{Z26, Z27, Z28, Z29, Z30}
	x := zL // later W
	q := zV // later Y
	three := func(v [5]VecPhysical) [3]VecPhysical { return [3]VecPhysical{v[0], v[1], v[2]} }
	for i := 0; i < 3; i++ {
		VPBROADCASTQ(rA[i], p[i])
	}
	times20(p[1], p[3], zT)
	times20(p[2], p[4], zT)
	mulReduce(three(p), p, three(q))
	for i, m := range []uint32{0x0A, 0x02, 0x80, 0xAA} {
		MOVL(U32(m), EAX)
		KMOVW(EAX, []OpmaskPhysical{K1, K2, K3, K4}[i])
	}
	for i := 0; i < 3; i++ {
		VPBLENDMQ(q[i], p[i], K1, x[i])
		VPBLENDMQ(q[i], p[i], K2, q[i])
	}
	times20(q[1], q[3], zT)
	times20(q[2], q[4], zT)
	mulReduce(x, q, x)

	zs := three(p)
	for i := 0; i < 3; i++ {
		VPBLENDMQ(p[i], x[i], K3, x[i])
		VPSHUFD(U8(0xEE), x[i], zs[i])
		VPBROADCASTQ(zs[i].AsX(), zR8[i])
	}
	times20(zR8[1], zR8[3], zT)
	times20(zR8[2], zR8[4], zT)
	mulReduce(zs, zR8, three(zV))
	for i := 0; i < 3; i++ {
		VPBLENDMQ(x[i], zV[i], K4, zV[i])
		VPBROADCASTQ(zV[i].AsX(), zR8[i])
	}
	times20(zV[1], zV[3], zT)
	times20(zV[2], zV[4], zT)
	times20(zR8[1], zR8[3], zT)
	times20(zR8[2], zR8[4], zT)
}

// ifmaPowersTo computes the IFMA powers of r (rA: r in 64-bit limbs, r2 =
// 0; clobbered) with ifmaPowers and stores r^8 in every lane to r8 and the
// lane powers to pw, five 64-byte vectors each, for the kernels that read
// them from memory. It uses RAX, RCX and the registers of ifmaPowers.
func ifmaPowersTo(rA [3]GPPhysical, r8, pw Mem) {
	MOVQ(U64(ifmaMask44), RAX)
	VPBROADCASTQ(RAX, zMask44)
	MOVQ(U64(ifmaMask42), RAX)
	VPBROADCASTQ(RAX, zMask42)
	ifmaTo44(rA, RAX, RCX)
	ifmaPowers(rA) // Z3-Z12 out, Z16-Z30 scratch
	for i := 0; i < 5; i++ {
		VMOVDQU64(zR8[i], r8.Offset(64*i))
		VMOVDQU64(zV[i], pw.Offset(64*i))
	}
}

// ifmaRegs names the registers of one use of the IFMA code.
type ifmaRegs struct {
	d        [6]VecPhysical // column sums lo, hi
	t        VecPhysical
	l        [3]VecPhysical // message limbs (absorb)
	m44, m42 VecPhysical    // masks
	hibit    VecPhysical    // 1 << 40 in every lane: the 2^128 bit in limb 2
}

// constants loads g's masks and 2^128 bit into their registers (RAX is
// scratch).
func (g ifmaRegs) constants() {
	MOVQ(U64(ifmaMask44), RAX)
	VPBROADCASTQ(RAX, g.m44)
	MOVQ(U64(ifmaMask42), RAX)
	VPBROADCASTQ(RAX, g.m42)
	MOVQ(U64(1<<40), RAX)
	VPBROADCASTQ(RAX, g.hibit)
}

// ifmaMulReduceOps returns the operations of out = a·b mod 2^130-5 lane by lane
// in 44-bit limbs, partly reduced : b is r0, r1, r2, 20·r1, 20·r2, in
// registers or 64-byte memory operands.
func ifmaMulReduceOps(g ifmaRegs, a [3]VecPhysical, b [5]Op, out [3]VecPhysical) []func() {
	d, t := g.d, g.t
	var ops []func()
	for _, r := range d {
		ops = append(ops, func() { VPXORQ(r, r, r) })
	}
	terms := [3][3][2]int{ // [step][column]{a index, b index}
		{{2, 3}, {2, 4}, {2, 0}},
		{{0, 0}, {0, 1}, {0, 2}},
		{{1, 4}, {1, 0}, {1, 1}},
	}
	for _, step := range terms {
		for col, tm := range step {
			ops = append(ops,
				func() { VPMADD52LUQ(b[tm[1]], a[tm[0]], d[2*col]) },
				func() { VPMADD52HUQ(b[tm[1]], a[tm[0]], d[2*col+1]) })
		}
	}
	return append(ops,
		func() { VPSLLQ(U8(8), d[1], d[1]) },
		func() { VPSLLQ(U8(8), d[3], d[3]) },
		func() { VPSLLQ(U8(10), d[5], d[5]) },
		func() { VPSRLQ(U8(44), d[0], t) },
		func() { VPADDQ(t, d[1], d[1]) },
		func() { VPANDQ(g.m44, d[0], out[0]) },
		func() { VPADDQ(d[1], d[2], d[2]) },
		func() { VPSRLQ(U8(44), d[2], t) },
		func() { VPADDQ(t, d[3], d[3]) },
		func() { VPANDQ(g.m44, d[2], out[1]) },
		func() { VPADDQ(d[3], d[4], d[4]) },
		func() { VPSRLQ(U8(42), d[4], t) },
		func() { VPADDQ(t, d[5], d[5]) },
		func() { VPANDQ(g.m42, d[4], out[2]) },
		func() { VPSLLQ(U8(2), d[5], t) },
		func() { VPADDQ(t, d[5], d[5]) },
		func() { VPADDQ(d[5], out[0], out[0]) },
		func() { VPSRLQ(U8(44), out[0], t) },
		func() { VPANDQ(g.m44, out[0], out[0]) },
		func() { VPADDQ(t, out[1], out[1]) },
	)
}

// ifmaAbsorbOps returns the operations that add the eight blocks at ptr+off to
// h as 44-bit limbs with the 2^128 bit: block k in lane 2k, block k+4 in
// lane 2k+1 (ifma.go, absorb).
func ifmaAbsorbOps(g ifmaRegs, h [3]VecPhysical, ptr GPPhysical, off int) []func() {
	l0, l1, l2 := g.l[0], g.l[1], g.l[2]
	return []func(){
		func() { VMOVDQU64(mem(ptr, off), l0) },
		func() { VMOVDQU64(mem(ptr, off+64), l1) },
		func() { VPUNPCKLQDQ(l1, l0, l2) },
		func() { VPUNPCKHQDQ(l1, l0, l1) },
		func() { VPANDQ(g.m44, l2, l0) },
		func() { VPADDQ(l0, h[0], h[0]) },
		func() { VPSRLQ(U8(44), l2, l2) },
		func() { VPSLLQ(U8(20), l1, l0) },
		func() { VPORQ(l0, l2, l2) },
		func() { VPANDQ(g.m44, l2, l2) },
		func() { VPADDQ(l2, h[1], h[1]) },
		func() { VPSRLQ(U8(24), l1, l1) },
		func() { VPORQ(g.hibit, l1, l1) },
		func() { VPADDQ(l1, h[2], h[2]) },
	}
}

// ifmaTimes20Ops: dst = 20·src.
func ifmaTimes20Ops(src, dst, t VecPhysical) []func() {
	return []func(){
		func() { VPSLLQ(U8(2), src, t) },
		func() { VPSLLQ(U8(4), src, dst) },
		func() { VPADDQ(t, dst, dst) },
	}
}

// ifmaHsumOps adds the eight 64-bit lanes of z into dst, with tmp as scratch
// (EVEX forms: any of the 32 registers).
func ifmaHsumOps(z, tmp VecPhysical, dst GPPhysical) []func() {
	return []func(){
		func() { VEXTRACTI64X4(U8(1), z, tmp.AsY()) },
		func() { VPADDQ(tmp.AsY(), z.AsY(), z.AsY()) },
		func() {
			if z.PhysicalIndex() < 16 && tmp.PhysicalIndex() < 16 {
				VEXTRACTI128(U8(1), z.AsY(), tmp.AsX()) // the shorter VEX form
			} else {
				VEXTRACTI32X4(U8(1), z.AsY(), tmp.AsX())
			}
		},
		func() { VPADDQ(tmp.AsX(), z.AsX(), z.AsX()) },
		func() { VPSHUFD(U8(0xEE), z.AsX(), tmp.AsX()) },
		func() { VPADDQ(tmp.AsX(), z.AsX(), z.AsX()) },
		func() { VMOVQ(z.AsX(), dst) },
	}
}

// ifmaTo44 converts h0, h1, h2 (64-bit limbs, h2 < 8) to 44-bit limbs in place
// (ifma.go, limbs44), with mask and t.
func ifmaTo44(h [3]GPPhysical, mask, t GPPhysical) {
	h0, h1, h2 := h[0], h[1], h[2]
	MOVQ(U64(ifmaMask44), mask)
	SHLQ(U8(40), h2)
	MOVQ(h1, t)
	SHRQ(U8(24), t)
	ORQ(t, h2)
	SHLQ(U8(20), h1)
	MOVQ(h0, t)
	SHRQ(U8(44), t)
	ORQ(t, h1)
	ANDQ(mask, h1)
	ANDQ(mask, h0)
}

// ifmaTo64Ops returns the operations that carry the 44-bit limbs l (each below
// 2^60) and convert them to 64-bit limbs h with h2 < 8 (ifma.go, limbs64).
func ifmaTo64Ops(l, h [3]GPPhysical, mask, t GPPhysical) []func() {
	l0, l1, l2 := l[0], l[1], l[2]
	h0, h1, h2 := h[0], h[1], h[2]
	return []func(){
		func() { MOVQ(U64(ifmaMask44), mask) },
		func() { MOVQ(l0, t) },
		func() { SHRQ(U8(44), t) },
		func() { ANDQ(mask, l0) },
		func() { ADDQ(t, l1) },
		func() { MOVQ(l1, t) },
		func() { SHRQ(U8(44), t) },
		func() { ANDQ(mask, l1) },
		func() { ADDQ(t, l2) },
		func() { MOVQ(l2, t) },
		func() { SHRQ(U8(42), t) },
		func() { MOVQ(U64(ifmaMask42), mask) },
		func() { ANDQ(mask, l2) },
		func() { LEAQ(Mem{Base: t, Index: t, Scale: 4}, t) },
		func() { ADDQ(t, l0) },
		func() { MOVQ(l1, h0) },
		func() { SHLQ(U8(44), h0) },
		func() { MOVQ(l1, h1) },
		func() { SHRQ(U8(20), h1) },
		func() { MOVQ(l2, t) },
		func() { SHLQ(U8(24), t) },
		func() { MOVQ(l2, h2) },
		func() { SHRQ(U8(40), h2) },
		func() { ADDQ(l0, h0) },
		func() { ADCQ(t, h1) },
		func() { ADCQ(U8(0), h2) },
	}
}

func genPolyIFMA() {
	const name = "blocksIFMA"
	TEXT(name, NOSPLIT, polySignature)
	Doc("blocksIFMA absorbs len(msg)/16 blocks, eight at a time with AVX-512 IFMA",
		fmt.Sprintf("once there are at least %d, else one at a time.", ifmaMinBlocks))
	lbl := func(s string) string { return name + "_" + s }
	scalarPrologue()
	CMPQ(rBlocks, U32(ifmaMinBlocks))
	JAE(LabelRef(lbl("vector")))
	scalarLoop(lbl("short"), rBlocks)
	scalarEpilogue()
	RET()

	Label(lbl("vector"))
	Comment("Constants, and the powers of r (from r in 44-bit limbs).")
	MOVQ(U64(ifmaMask44), RAX)
	VPBROADCASTQ(RAX, zMask44)
	MOVQ(U64(ifmaMask42), RAX)
	VPBROADCASTQ(RAX, zMask42)
	MOVQ(rHibit, RAX)
	SHLQ(U8(40), RAX)
	VPBROADCASTQ(RAX, zHibit)
	rA := [3]GPPhysical{RAX, RDX, RCX}
	MOVQ(rR0, rA[0])
	MOVQ(rR1, rA[1])
	MOVQ(U64(0), rA[2])
	ifmaTo44(rA, rT1, rT2)
	ifmaPowers(rA)

	Comment("The first len/16 mod 8 blocks, one at a time (while the powers are",
		"computed); then RBX = steps.")
	ANDQ(U8(7), rBlocks)
	scalarLoop(lbl("lead"), rBlocks)
	Load(Param("msg").Len(), rBlocks)
	SHRQ(U8(7), rBlocks)

	Comment("h in 44-bit limbs, in lane 0 (the other lanes start at zero)")
	ifmaTo44([3]GPPhysical{rH0, rH1, rH2}, rT1, rT2)
	for i, h := range []GPPhysical{rH0, rH1, rH2} {
		VMOVQ(h, zH[i].AsX())
	}
	absorb(zH)

	Comment("h = (h + m)·r^8 for every step but the last")
	Label(lbl("loop"))
	DECQ(rBlocks)
	JZ(LabelRef(lbl("last")))
	mulReduce(zH, zR8, zH)
	absorb(zH)
	JMP(LabelRef(lbl("loop")))

	Label(lbl("last"))
	Comment("Last step: each lane times its own power of r, then the sum of the lanes.")
	mulReduce(zH, zV, zH)
	l := [3]GPPhysical{RAX, RBX, RCX}
	run(ifmaHsumOps(zH[0], Z3, l[0]))
	run(ifmaHsumOps(zH[1], Z4, l[1]))
	run(ifmaHsumOps(zH[2], Z5, l[2]))
	VZEROUPPER()
	run(ifmaTo64Ops(l, [3]GPPhysical{rH0, rH1, rH2}, rT1, RDX))
	scalarEpilogue()
	RET()
}
