package main

import (
	"slices"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// ---------------------------------------------------------------------------
// Stitched AVX-512 ChaCha20 and scalar Poly1305 (the AEAD's long messages)
//
//	func xorMACAVX512(s *State, dst, src, mac []byte, skip int, h *[3]uint64, r *[2]uint64)
//
// XORs len(src)/1024 batches of 16 keystream blocks into dst, as
// xorBlocksAVX512 does (per-lane counters modulo 2^32, s.Counter advanced),
// and absorbs the first len(src) - 1024·skip bytes of mac (skip is 0 or 1),
// as full 16-byte Poly1305 blocks with the 2^128 bit, into the accumulator h
// (64-bit limbs, h[2] < 8 on entry, h[2] <= 4 on return) with the clamped
// multiplier r: batch i MACs mac[1024·(i-skip):]. The AEAD passes mac = the
// ciphertext: for Open (skip 0) the batch being decrypted, for Seal (skip 1)
// the one encrypted by the previous batch.
//
// Why: the 16-lane batch keeps the vector units busy (about 680 cycles per
// KiB on this Zen 5 without the 17th block of xorBlocksAVX512) and leaves
// the integer units idle, which is where x/crypto's stitched AVX2 AEAD (and
// OpenSSL's and BoringSSL's stitched x86-64 AEADs, the source of the idea)
// run the MAC. One scalar Poly1305 chain is bound by the latency of its
// multiply and reduce, about 15.5 cycles per 16-byte block (1 cycle per
// byte), slower than the keystream's 10.6 cycles per 16 bytes, so each
// batch's 64 MAC blocks run as independent chains:
//
//	chain A: hA = Horner(h, blocks  0..21)  (22 blocks, from the running h)
//	chain B: hB = Horner(0, blocks 22..42)  (21 blocks)
//	chain C: hC = Horner(0, blocks 43..63)  (21 blocks)
//	h'      = (hA·r^21 + hB)·r^21 + hC      (mod 2^130-5)
//
// which is the same polynomial, (h+m0)·r^64 + m1·r^63 + ... + m63·r. The
// chains use the block step of the scalar Poly1305 code (clamped r, 64-bit
// limbs, the reduction folded into the product: poly1305.go),
// with MULX so that the products take r from memory, and 5·c computed by
// one LEA. The joins are general 3x3-limb products by r^21 (not clamped),
// two per batch; r^21 is computed once per call (six products, about 55 ns
// on their own): by Open up front, by Seal merged into its first batch,
// which has no MAC work and is unrolled for the purpose (in front of the
// batch, the out-of-order window hid little of it). Two interleaved lanes
// with r^2 instead would need the general product for every block.
//
// Each double round of the vector lanes carries two blocks of each chain,
// so the ten double rounds absorb 60 of the 64 blocks; the other four (two
// of A, one each of B and C) run right after, before any store of the
// batch, so that an Open in place (dst == mac) reads every ciphertext block
// before it is overwritten. The joins run while the lanes are transposed
// and stored; chain A of the next batch waits for them.
//
// Registers: Z0-Z31 as in xorBlocksAVX512's 16-lane batch (Z20-Z31 the
// counter-free first column round, computed once per call). In the double
// rounds every general-purpose register but SP and BP is taken: R8-R10 =
// hA, R11-R13 = hB, R14, R15, SI = hC, DX = the MULX source, AX, BX, CX, DI =
// temporaries (AX first loads the MAC pointer from the frame). Around the
// stores AX = *State, SI = src, DI = dst and the joins use DX, R8-R15, BX,
// CX. The frame holds the pointers and counts, r0, r1, s1 = r1 + r1>>2,
// r^21 and hC during the first join; the key-derived slots are wiped on
// return.

// The signature avo type-checks; the Go declaration uses *State.
const signatureMAC = "func(s *[12]uint32, dst []byte, src []byte, mac []byte, skip int, h *[3]uint64, r *[2]uint64)"

type stitchedFrame struct {
	state, src, dst, mac, n, rounds Mem
	r                               Mem // r0, r1, 0: r as a three-limb operand
	s1                              Mem
	pow                             Mem // r^21, three 64-bit limbs, partly reduced
	hC                              Mem // chain C during the first join
}

// A chain: its first block in the batch and its accumulator's registers.
type chain struct {
	first int
	h     [3]GPPhysical
}

var (
	chains = [3]chain{
		{0, [3]GPPhysical{R8, R9, R10}},
		{22, [3]GPPhysical{R11, R12, R13}},
		{43, [3]GPPhysical{R14, R15, RSI}},
	}
	perDR     = [3]int{2, 2, 2} // blocks of each chain per double round
	tailCount = [3]int{2, 1, 1} // and after the ten double rounds
	fTmp      = [4]GPPhysical{RAX, RBX, RCX, RDI}
	// r^21 from r: square (false) or multiply by r (true).
	powSteps = []bool{false, false, true, false, false, true}
)

const stitchedBatch = 1024

// polyBlockOps returns the operations that absorb block k of the current
// batch position (at the frame's MAC pointer + 16k, with the 2^128 bit)
// into h: h = (h + m)·r, partly reduced. It is blocksScalar's step (see
// poly1305.go scalarLoop for the math) with MULX:
// d0 = h0·r0 + h1·s1, d1 = h0·r1 + h1·r0 + h2·s1, d2 = h2·r0, then
// h = d mod 2^130 + 5·(d >> 130). Flags live from an ADD to its ADCs; the
// vector instructions merged in between do not touch them.
//
// The MAC pointer is in register ptr, or in the frame (ptr == nil), then
// loaded into the first temporary.
func polyBlockOps(f stitchedFrame, tmp [4]GPPhysical, ptr GPPhysical, h [3]GPPhysical, k int) []func() {
	var ops []func()
	if ptr == nil {
		ptr = tmp[0]
		ops = append(ops, func() { MOVQ(f.mac, tmp[0]) })
	}
	return append(ops, polyStepOps(f.r, f.r.Offset(8), f.s1, tmp, ptr, h, k)...)
}

// polyStepOps is polyBlockOps' step with r0, r1 and s1 as operands
// (registers or memory) and the MAC pointer in ptr.
func polyStepOps(r0, r1, s1 Op, tmp [4]GPPhysical, ptr GPPhysical, h [3]GPPhysical, k int) []func() {
	h0, h1, h2 := h[0], h[1], h[2]
	t0, t1, t2, t3 := tmp[0], tmp[1], tmp[2], tmp[3]
	return append([]func(){},
		func() { ADDQ(mem(ptr, 16*k), h0) },
		func() { ADCQ(mem(ptr, 16*k+8), h1) },
		func() { ADCQ(U8(1), h2) },
		func() { MOVQ(h0, RDX) },
		func() { MULXQ(r0, t0, t1) }, // t1:t0 = h0·r0
		func() { MULXQ(r1, h0, t2) }, // t2:h0 = h0·r1
		func() { MOVQ(h1, RDX) },     //
		func() { MULXQ(s1, t3, h1) }, // h1·s1
		func() { ADDQ(t3, t0) },
		func() { ADCQ(h1, t1) },
		func() { MULXQ(r0, t3, h1) }, // h1·r0
		func() { ADDQ(t3, h0) },
		func() { ADCQ(h1, t2) },
		func() { MOVQ(h2, t3) },
		func() { IMULQ(s1, t3) }, // h2·s1 (h2 < 8: 64 bits)
		func() { IMULQ(r0, h2) }, // d2 = h2·r0
		func() { ADDQ(t3, h0) },
		func() { ADCQ(U8(0), t2) },
		func() { ADDQ(t1, h0) }, // carry d0's high word into d1, d1's into d2
		func() { ADCQ(h2, t2) },
		// d = t0 + h0·2^64 + t2·2^128; fold the bits at 2^130 and up.
		// With c = t2 >> 2: h = (t0, h0, t2 & 3) + 5·c.
		func() { MOVQ(h0, h1) },
		func() { MOVQ(t0, h0) },
		func() { MOVQ(t2, h2) },
		func() { SHRQ(U8(2), t2) },
		func() { ANDQ(U8(3), h2) },
		func() { LEAQ(Mem{Base: t2, Index: t2, Scale: 4}, t2) },
		func() { ADDQ(t2, h0) },
		func() { ADCQ(U8(0), h1) },
		func() { ADCQ(U8(0), h2) },
	)
}

// mulGeneralOps returns the operations of a = a·R + p mod 2^130-5 for a
// general (not clamped) R in memory, three 64-bit limbs with R2 <= 4, and
// a2 <= 7: the schoolbook 3x3 product accumulated into p (p0..p2 hold the
// addend, below 2^131, on entry; p3 and p4 are cleared here), then the fold
// of the bits at 2^130 and up (times 5) done twice, leaving a2 <= 4. lo and
// hi are temporaries; DX is the MULX source. a·R + p < 2^262, so p4 < 2^6
// and the column sums fit the five words.
func mulGeneralOps(a [3]GPPhysical, p [5]GPPhysical, lo, hi GPPhysical, R Mem) []func() {
	ops := []func(){
		func() { XORL(p[3].As32(), p[3].As32()) },
		func() { XORL(p[4].As32(), p[4].As32()) },
	}
	for i := 0; i < 3; i++ {
		ops = append(ops, func() { MOVQ(a[i], RDX) })
		for j := 0; j < 3; j++ {
			k := i + j
			ops = append(ops, func() { MULXQ(R.Offset(8*j), lo, hi) })
			if k == 4 {
				// a2·R2 < 2^6: the high word is zero.
				ops = append(ops, func() { ADDQ(lo, p[4]) })
				continue
			}
			ops = append(ops, func() { ADDQ(lo, p[k]) }, func() { ADCQ(hi, p[k+1]) })
			for m := k + 2; m < 5; m++ {
				ops = append(ops, func() { ADCQ(U8(0), p[m]) })
			}
		}
	}
	// a = p mod 2^130 + 4·(p >> 130) + (p >> 130).
	ops = append(ops,
		func() { MOVQ(p[0], a[0]) },
		func() { MOVQ(p[1], a[1]) },
		func() { MOVQ(p[2], a[2]) },
		func() { ANDQ(U8(3), a[2]) },
		func() { ANDQ(I8(-4), p[2]) },
		func() { ADDQ(p[2], a[0]) },
		func() { ADCQ(p[3], a[1]) },
		func() { ADCQ(p[4], a[2]) },
		func() { SHRQ(U8(2), p[3], p[2]) },
		func() { SHRQ(U8(2), p[4], p[3]) },
		func() { SHRQ(U8(2), p[4]) },
		func() { ADDQ(p[2], a[0]) },
		func() { ADCQ(p[3], a[1]) },
		func() { ADCQ(p[4], a[2]) },
		// a2 < 2^7 here; fold once more: a += 5·(a2 >> 2), a2 &= 3.
		func() { MOVQ(a[2], lo) },
		func() { SHRQ(U8(2), lo) },
		func() { ANDQ(U8(3), a[2]) },
		func() { LEAQ(Mem{Base: lo, Index: lo, Scale: 4}, hi) },
		func() { ADDQ(hi, a[0]) },
		func() { ADCQ(U8(0), a[1]) },
		func() { ADCQ(U8(0), a[2]) },
	)
	return ops
}

// polyGroupOps returns the operations that absorb blocks i..i+count-1 of
// each chain's part of the batch, relative to the MAC pointer in the frame,
// chain by chain alternating, and then advance the pointer by 16·count.
func polyGroupOps(f stitchedFrame, counts [3]int) []func() {
	var ops []func()
	for i := 0; i < slices.Max(counts[:]); i++ {
		for c, ch := range chains {
			if i < counts[c] {
				ops = append(ops, polyBlockOps(f, fTmp, nil, ch.h, ch.first+i)...)
			}
		}
	}
	return ops
}

// finishOps returns vecFinish's operations for a full 16-block batch, in
// two parts: adding the input state and transposing (no memory written),
// then XORing and storing the 16 blocks (rSrc and rDst loaded by then).
func finishOps() (addTranspose, store []func()) {
	z := zreg
	for i := 0; i < 4; i++ {
		addTranspose = append(addTranspose, func() { VPADDD_BCST(sigma.Offset(4*i), z(i), z(i)) })
	}
	for i := 4; i < 12; i++ {
		addTranspose = append(addTranspose, func() { VPADDD_BCST(mem(rState, offKey+4*(i-4)), z(i), z(i)) })
	}
	addTranspose = append(addTranspose,
		func() { VPBROADCASTD(mem(rState, offCounter), Z16) },
		func() { VPADDD(iota16, Z16, Z16) },
		func() { VPADDD(Z16, Z12, Z12) })
	for i := 13; i < 16; i++ {
		addTranspose = append(addTranspose, func() { VPADDD_BCST(mem(rState, offNonce+4*(i-13)), z(i), z(i)) })
	}
	t := [4]VecPhysical{Z16, Z17, Z18, Z19}
	for g := 0; g < 4; g++ {
		a, b, c, d := z(4*g), z(4*g+1), z(4*g+2), z(4*g+3)
		addTranspose = append(addTranspose, unpack4Ops(a, b, c, d, t)...)
	}
	for k := 0; k < 4; k++ {
		a, b, c, d := z(k), z(4+k), z(8+k), z(12+k)
		addTranspose = append(addTranspose,
			func() { VSHUFI32X4(U8(0x44), b, a, t[0]) },
			func() { VSHUFI32X4(U8(0xee), b, a, t[1]) },
			func() { VSHUFI32X4(U8(0x44), d, c, t[2]) },
			func() { VSHUFI32X4(U8(0xee), d, c, t[3]) },
			func() { VSHUFI32X4(U8(0x88), t[2], t[0], a) },
			func() { VSHUFI32X4(U8(0xdd), t[2], t[0], b) },
			func() { VSHUFI32X4(U8(0x88), t[3], t[1], c) },
			func() { VSHUFI32X4(U8(0xdd), t[3], t[1], d) })
	}
	for b := 0; b < 16; b++ {
		store = append(store,
			func() { VPXORD(mem(rSrc, 64*b), z(b), z(b)) },
			func() { VMOVDQU32(z(b), mem(rDst, 64*b)) })
	}
	return addTranspose, store
}

// The joins' registers: a = the product and result, p0..p2 = the addend,
// p3, p4 and two temporaries.
var (
	joinA  = chains[0].h
	joinP  = [5]GPPhysical{R11, R12, R13, RBX, RCX}
	joinLo = R14
	joinHi = R15
)

// stitchedArgs loads the arguments of a stitched loop into its frame: the
// batch count (len(src) >> shift; none: jump to ret), the pointers, r (as
// three limbs, also as the first power) and s1 = r1 + r1>>2.
func stitchedArgs(f stitchedFrame, shift int, ret string) {
	Load(Param("src").Len(), RCX)
	SHRQ(U8(shift), RCX)
	JZ(LabelRef(ret))
	MOVQ(RCX, f.n)
	Load(Param("dst").Base(), RDI)
	MOVQ(RDI, f.dst)
	Load(Param("src").Base(), RSI)
	MOVQ(RSI, f.src)
	Load(Param("mac").Base(), RDX)
	MOVQ(RDX, f.mac)
	Load(Param("r"), RAX)
	MOVQ(Mem{Base: RAX}, RBX)
	MOVQ(RBX, f.r)
	MOVQ(Mem{Base: RAX, Disp: 8}, RCX)
	MOVQ(RCX, f.r.Offset(8))
	MOVQ(U32(0), f.r.Offset(16))
	MOVQ(RCX, RDX)
	SHRQ(U8(2), RDX)
	ADDQ(RCX, RDX)
	MOVQ(RDX, f.s1)
	MOVQ(RBX, f.pow)
	MOVQ(RCX, f.pow.Offset(8))
	MOVQ(U32(0), f.pow.Offset(16))
}

func genStitched() {
	TEXT("xorMACAVX512", NOSPLIT, signatureMAC)
	Doc("xorMACAVX512 XORs len(src)/1024 batches of 16 keystream blocks into dst and",
		"absorbs the first len(src) bytes of mac into the Poly1305 accumulator h",
		"(with r) on the integer units, stitched into the vector code.")
	f := stitchedFrame{
		state: AllocLocal(8), src: AllocLocal(8), dst: AllocLocal(8), mac: AllocLocal(8),
		n: AllocLocal(8), rounds: AllocLocal(8),
		r: AllocLocal(24), s1: AllocLocal(8), pow: AllocLocal(24), hC: AllocLocal(24),
	}

	stitchedArgs(f, 10, "mac_ret")

	Load(Param("s"), rState)
	MOVQ(rState, f.state)

	// r^21 = ((r^2)^2·r)^2^2·r, general products (r^2 and up are not
	// clamped). Then the first column round of columns 1-3, which does not
	// involve the counter and is the same for every block (Z20-Z31).
	powOps := func() []func() {
		var pow []func()
		for _, byR := range powSteps {
			by := f.pow
			if byR {
				by = f.r
			}
			for j := 0; j < 3; j++ {
				pow = append(pow,
					func() { MOVQ(f.pow.Offset(8*j), joinA[j]) },
					func() { XORL(joinP[j].As32(), joinP[j].As32()) })
			}
			pow = append(pow, mulGeneralOps(joinA, joinP, joinLo, joinHi, by)...)
			for j := 0; j < 3; j++ {
				pow = append(pow, func() { MOVQ(joinA[j], f.pow.Offset(8*j)) })
			}
		}
		return pow
	}
	pre := precomputeColumns()

	loadH := func() {
		Load(Param("h"), RAX)
		for j := 0; j < 3; j++ {
			MOVQ(Mem{Base: RAX, Disp: 8 * j}, chains[0].h[j])
		}
	}
	firstDiag := func() []func() { return firstDiagOps(pre) }
	dr := zmmDROps
	// Two blocks of each chain per double round, then the MAC pointer
	// moves on by 32.
	step := 16 * perDR[0]
	group := func() []func() {
		return append(polyGroupOps(f, perDR), func() { ADDQ(U8(step), f.mac) })
	}

	// batch emits one batch: with the MAC, or without it (Seal's first
	// batch, whose ciphertext the next batch MACs). It ends with the flags
	// of the decrement of the batch count.
	batch := func(withMAC bool, name string) {
		poly := func() []func() {
			if withMAC {
				return group()
			}
			return nil
		}
		Label(name)
		MOVQ(f.state, rState)
		if withMAC {
			Comment("Vector lanes: column 0 of the first column round. Chains B and C start from 0.")
		}
		vecColumn0()
		if withMAC {
			for _, c := range chains[1:] {
				for _, r := range c.h {
					XORL(r.As32(), r.As32())
				}
			}
			Comment("First diagonal round; two blocks of each MAC chain per double round.")
		}
		if withMAC {
			merge(firstDiag(), poly())
			MOVQ(U32(9), f.rounds)
			Label(name + "_rounds")
			merge(dr(), poly())
			DECQ(f.rounds)
			JNZ(LabelRef(name + "_rounds"))
		} else {
			Comment("Ten double rounds, unrolled, with r^21 computed in between.")
			vec := firstDiag()
			for i := 0; i < 9; i++ {
				vec = append(vec, dr()...)
			}
			merge(vec, powOps())
		}

		if withMAC {
			Comment("The last blocks of the chains (A: 2, B and C: 1), before any store.")
			run(polyGroupOps(f, tailCount))
			ADDQ(U32(stitchedBatch-10*step), f.mac)
			for j := 0; j < 3; j++ {
				MOVQ(chains[2].h[j], f.hC.Offset(8*j))
			}
			Comment("Add the input state, transpose and store the batch; join the chains:",
				"h = (hA·r^21 + hB)·r^21 + hC.")
		}
		addTranspose, store := finishOps()
		vec := []func(){func() { MOVQ(f.state, rState) }}
		vec = append(vec, addTranspose...)
		vec = append(vec, func() { MOVQ(f.src, rSrc) }, func() { MOVQ(f.dst, rDst) })
		vec = append(vec, store...)
		if withMAC {
			join := mulGeneralOps(joinA, joinP, joinLo, joinHi, f.pow)
			for j := 0; j < 3; j++ {
				join = append(join, func() { MOVQ(f.hC.Offset(8*j), joinP[j]) })
			}
			join = append(join, mulGeneralOps(joinA, joinP, joinLo, joinHi, f.pow)...)
			merge(vec, join)
		} else {
			run(vec)
		}
		ADDQ(U32(stitchedBatch), rSrc)
		ADDQ(U32(stitchedBatch), rDst)
		MOVQ(rSrc, f.src)
		MOVQ(rDst, f.dst)
		ADDL(U8(16), mem(rState, offCounter))
		DECQ(f.n)
	}

	Load(Param("skip"), RCX)
	TESTQ(RCX, RCX)
	JNZ(LabelRef("mac_first"))
	Comment("Open: r^21 first.")
	run(powOps())
	loadH()
	JMP(LabelRef("mac_loop"))

	Comment("Seal: the first batch's ciphertext is MACed during the second; the",
		"integer units compute r^21 meanwhile.")
	batch(false, "mac_first")
	loadH()
	JZ(LabelRef("mac_done"))
	batch(true, "mac_loop")
	JNZ(LabelRef("mac_loop"))

	Label("mac_done")
	Load(Param("h"), RAX)
	for j := 0; j < 3; j++ {
		MOVQ(chains[0].h[j], Mem{Base: RAX, Disp: 8 * j})
	}
	Comment("Wipe r, s1, r^21 and chain C (key-derived) from the frame.")
	XORL(EAX, EAX)
	for _, m := range []Mem{f.r, f.r.Offset(8), f.s1, f.pow, f.pow.Offset(8), f.pow.Offset(16), f.hC, f.hC.Offset(8), f.hC.Offset(16)} {
		MOVQ(RAX, m)
	}
	VZEROUPPER()
	Label("mac_ret")
	RET()
}
