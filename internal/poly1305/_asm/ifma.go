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

const (
	mask44 = 1<<44 - 1
	mask42 = 1<<42 - 1
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

// times20 sets dst = 20·src = (src << 4) + (src << 2), with t as scratch.
func times20(src, dst, t VecPhysical) {
	VPSLLQ(U8(2), src, t)
	VPSLLQ(U8(4), src, dst)
	VPADDQ(t, dst, dst)
}

// mulReduce sets out = a·b mod p lane by lane, partly reduced: out0 < 2^44,
// out1 < 2^44 + 2^9, out2 < 2^42, given a0, a1 < 2^45, a2 < 2^43 and b
// (b0, b1, b2, 20·b1, 20·b2) reduced as out. out may be a. It uses zD and
// zT.
//
// The products of each column form one chain; a2's come first and a1's last,
// in the order in which the previous reduction (plus the next message) makes
// those limbs ready. The carries form one chain too: measured on Zen 5, two
// rounds of carries in parallel (shorter latency, more shifts) were slower.
func mulReduce(a [3]VecPhysical, b [5]VecPhysical, out [3]VecPhysical) {
	d, t := zD, zT
	for _, r := range d {
		VPXORQ(r, r, r)
	}
	terms := [3][3][2]int{ // [step][column]{a index, b index}
		{{2, 3}, {2, 4}, {2, 0}},
		{{0, 0}, {0, 1}, {0, 2}},
		{{1, 4}, {1, 0}, {1, 1}},
	}
	for _, step := range terms {
		for col, tm := range step {
			VPMADD52LUQ(b[tm[1]], a[tm[0]], d[2*col])
			VPMADD52HUQ(b[tm[1]], a[tm[0]], d[2*col+1])
		}
	}
	Comment("carry: column k is lo + (hi << 8)·2^44; above 2^130 comes back times 5")
	VPSLLQ(U8(8), d[1], d[1])
	VPSLLQ(U8(8), d[3], d[3])
	VPSLLQ(U8(10), d[5], d[5])
	VPSRLQ(U8(44), d[0], t)
	VPADDQ(t, d[1], d[1])
	VPANDQ(zMask44, d[0], out[0])
	VPADDQ(d[1], d[2], d[2])
	VPSRLQ(U8(44), d[2], t)
	VPADDQ(t, d[3], d[3])
	VPANDQ(zMask44, d[2], out[1])
	VPADDQ(d[3], d[4], d[4])
	VPSRLQ(U8(42), d[4], t)
	VPADDQ(t, d[5], d[5])
	VPANDQ(zMask42, d[4], out[2])
	VPSLLQ(U8(2), d[5], t)
	VPADDQ(t, d[5], d[5])
	VPADDQ(d[5], out[0], out[0])
	VPSRLQ(U8(44), out[0], t)
	VPANDQ(zMask44, out[0], out[0])
	VPADDQ(t, out[1], out[1])
}

// absorb adds eight blocks at rMsg to h as 44-bit limbs with the 2^128 bit,
// in the lane order described above, and advances rMsg.
func absorb(h [3]VecPhysical) {
	l0, l1, l2 := zL[0], zL[1], zL[2]
	VMOVDQU64(Mem{Base: rMsg}, l0)
	VMOVDQU64(Mem{Base: rMsg, Disp: 64}, l1)
	LEAQ(Mem{Base: rMsg, Disp: 128}, rMsg)
	VPUNPCKLQDQ(l1, l0, l2) // low halves
	VPUNPCKHQDQ(l1, l0, l1) // high halves
	VPANDQ(zMask44, l2, l0)
	VPADDQ(l0, h[0], h[0])
	VPSRLQ(U8(44), l2, l2)
	VPSLLQ(U8(20), l1, l0)
	VPORQ(l0, l2, l2)
	VPANDQ(zMask44, l2, l2)
	VPADDQ(l2, h[1], h[1])
	VPSRLQ(U8(24), l1, l1)
	VPORQ(zHibit, l1, l1)
	VPADDQ(l1, h[2], h[2])
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

// hsum adds the eight lanes of z (one of Z0..Z15) into dst, with tmp (one of
// Z0..Z15) as scratch.
func hsum(z, tmp VecPhysical, dst GPPhysical) {
	VEXTRACTI64X4(U8(1), z, tmp.AsY())
	VPADDQ(tmp.AsY(), z.AsY(), z.AsY())
	VEXTRACTI128(U8(1), z.AsY(), tmp.AsX())
	VPADDQ(tmp.AsX(), z.AsX(), z.AsX())
	VPSHUFD(U8(0xEE), z.AsX(), tmp.AsX())
	VPADDQ(tmp.AsX(), z.AsX(), z.AsX())
	VMOVQ(z.AsX(), dst)
}

// limbs44 converts the 64-bit limbs h0, h1, h2 (h2 < 8) to 44-bit limbs in
// place (the third one below 2^43), with mask (holding mask44) and t.
func limbs44(h0, h1, h2, mask, t GPPhysical) {
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

// limbs64 carries the 44-bit limbs l0, l1, l2 (each below 2^60) and converts
// them to 64-bit limbs h0, h1, h2 with h2 < 8, using mask and t.
func limbs64(l0, l1, l2, h0, h1, h2, mask, t GPPhysical) {
	Comment("carry l0 → l1 → l2, and 5·(l2 >> 42) back into l0")
	MOVQ(U64(mask44), mask)
	MOVQ(l0, t)
	SHRQ(U8(44), t)
	ANDQ(mask, l0)
	ADDQ(t, l1)
	MOVQ(l1, t)
	SHRQ(U8(44), t)
	ANDQ(mask, l1)
	ADDQ(t, l2)
	MOVQ(l2, t)
	SHRQ(U8(42), t)
	MOVQ(U64(mask42), mask)
	ANDQ(mask, l2)
	LEAQ(Mem{Base: t, Index: t, Scale: 4}, t)
	ADDQ(t, l0)
	Comment("h = l0 + l1·2^44 + l2·2^88 with l1 < 2^44, l2 < 2^42 and l0 a little above 2^44")
	MOVQ(l1, h0)
	SHLQ(U8(44), h0)
	MOVQ(l1, h1)
	SHRQ(U8(20), h1)
	MOVQ(l2, t)
	SHLQ(U8(24), t)
	MOVQ(l2, h2)
	SHRQ(U8(40), h2)
	ADDQ(l0, h0)
	ADCQ(t, h1)
	ADCQ(U8(0), h2)
}

func genIFMA() {
	const name = "blocksIFMA"
	TEXT(name, NOSPLIT, signature)
	Doc("blocksIFMA absorbs len(msg)/16 blocks, eight at a time with AVX-512 IFMA",
		fmt.Sprintf("once there are at least %d, else one at a time.", ifmaMinBlocks))
	lbl := func(s string) string { return name + "_" + s }
	scalarPrologue()
	CMPQ(rN, U32(ifmaMinBlocks))
	JAE(LabelRef(lbl("vector")))
	scalarLoop(lbl("short"), rN)
	scalarEpilogue()
	RET()

	Label(lbl("vector"))
	Comment("Constants, and the powers of r (from r in 44-bit limbs).")
	MOVQ(U64(mask44), RAX)
	VPBROADCASTQ(RAX, zMask44)
	MOVQ(U64(mask42), RAX)
	VPBROADCASTQ(RAX, zMask42)
	MOVQ(rHibit, RAX)
	SHLQ(U8(40), RAX)
	VPBROADCASTQ(RAX, zHibit)
	rA := [3]GPPhysical{RAX, RDX, RCX}
	MOVQ(rR0, rA[0])
	MOVQ(rR1, rA[1])
	MOVQ(U64(0), rA[2])
	MOVQ(U64(mask44), rT1)
	limbs44(rA[0], rA[1], rA[2], rT1, rT2)
	ifmaPowers(rA)

	Comment("The first len/16 mod 8 blocks, one at a time (while the powers are",
		"computed); then RBX = steps.")
	ANDQ(U8(7), rN)
	scalarLoop(lbl("lead"), rN)
	Load(Param("msg").Len(), rN)
	SHRQ(U8(7), rN)

	Comment("h in 44-bit limbs, in lane 0 (the other lanes start at zero)")
	MOVQ(U64(mask44), rT1)
	limbs44(rH0, rH1, rH2, rT1, rT2)
	for i, h := range []GPPhysical{rH0, rH1, rH2} {
		VMOVQ(h, zH[i].AsX())
	}
	absorb(zH)

	Comment("h = (h + m)·r^8 for every step but the last")
	Label(lbl("loop"))
	DECQ(rN)
	JZ(LabelRef(lbl("last")))
	mulReduce(zH, zR8, zH)
	absorb(zH)
	JMP(LabelRef(lbl("loop")))

	Label(lbl("last"))
	Comment("Last step: each lane times its own power of r, then the sum of the lanes.")
	mulReduce(zH, zV, zH)
	l := [3]GPPhysical{RAX, RBX, RCX}
	hsum(zH[0], Z3, l[0])
	hsum(zH[1], Z4, l[1])
	hsum(zH[2], Z5, l[2])
	VZEROUPPER()
	limbs64(l[0], l[1], l[2], rH0, rH1, rH2, rT1, RDX)
	scalarEpilogue()
	RET()
}
