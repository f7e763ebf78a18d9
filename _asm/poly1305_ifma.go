package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// AVX-512 IFMA: 44-bit limbs, one Poly1305 accumulator per 64-bit lane. These
// are the MAC steps of the batch kernel (lanes_aead.go), which runs the tags
// of eight messages side by side.
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

// Masks of the 44- and 42-bit limbs.
const (
	ifmaMask44 = 1<<44 - 1
	ifmaMask42 = 1<<42 - 1
)

// IFMA register map.
var (
	zH      = [3]VecPhysical{Z0, Z1, Z2} // accumulator limbs
	zMask44 = Z13
	zMask42 = Z14
	zHibit  = Z15                                          // hibit << 40: the 2^128 bit in limb 2
	zD      = [6]VecPhysical{Z16, Z17, Z18, Z19, Z20, Z21} // column sums lo, hi
	zT      = Z22
	zL      = [3]VecPhysical{Z23, Z24, Z25}
)

// polyIFMA is the register set of the shared IFMA steps.
var polyIFMA = ifmaRegs{d: zD, t: zT, l: zL, m44: zMask44, m42: zMask42, hibit: zHibit}

// times20 sets dst = 20·src, with t as scratch.
func times20(src, dst, t VecPhysical) { run(ifmaTimes20Ops(src, dst, t)) }

// mulReduce sets out = a·b mod p lane by lane (see ifmaMulReduceOps); out
// may be a. It uses zD and zT.
func mulReduce(a [3]VecPhysical, b [5]VecPhysical, out [3]VecPhysical) {
	run(ifmaMulReduceOps(polyIFMA, a, [5]Op{b[0], b[1], b[2], b[3], b[4]}, out))
}

// ifmaRegs names the registers of one use of the IFMA code.
type ifmaRegs struct {
	d        [6]VecPhysical // column sums lo, hi
	t        VecPhysical
	l        [3]VecPhysical // message limbs
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

// ifmaTimes20Ops: dst = 20·src.
func ifmaTimes20Ops(src, dst, t VecPhysical) []func() {
	return []func(){
		func() { VPSLLQ(U8(2), src, t) },
		func() { VPSLLQ(U8(4), src, dst) },
		func() { VPADDQ(t, dst, dst) },
	}
}
