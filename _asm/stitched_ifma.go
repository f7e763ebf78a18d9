package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// ---------------------------------------------------------------------------
// Stitched AVX-512 ChaCha20 and IFMA Poly1305 (long messages, Intel)
//
//	func xorMACIFMA(s *State, dst, src, mac []byte, skip int, h *[3]uint64, r *[2]uint64)
//
// The same contract as xorMACAVX512 (stitched.go): len(src)/1024 batches of
// 16 keystream blocks XORed into dst, and the first len(src) - 1024·skip
// bytes of mac absorbed into h, batch i MACing mac[1024·(i-skip):]. The MAC
// runs in IFMA lanes (poly1305_ifma.go's method: 44-bit limbs, eight lanes
// of r^8, each lane's own power of r at the end) on Z16-Z31, merged into the
// 16-lane keystream's double rounds on Z0-Z15, as in batch 2 of the
// mid-size AVX-512 kernel (mid_avx512.go, midZ16), instead of on the
// integer units.
//
// Why: on Intel's Golden Cove cores (Sapphire and Emerald Rapids) the
// integer-unit MAC of xorMACAVX512 shares the ports of the 512-bit vector
// work: that loop takes about 880 cycles per KiB there, more than the
// keystream (about 570) and the IFMA MAC (about 285, bound by the latency of
// its steps) run one after the other. Merged, the IFMA steps' 240 or so
// vector instructions per KiB fill the keystream's issue slots while their
// latency hides behind it (bench/README.md, "The IFMA stitched loop").
//
// Per batch, eight IFMA steps of eight 16-byte blocks: the lanes hold
// h + m (the step's blocks added, the multiplication pending), and each
// step is lanes = lanes·r^8 + m. Before the first batch with MAC work the
// lanes are h in lane 0 plus the first eight blocks, so that batch runs
// seven steps; after the last batch the lanes are multiplied by their
// powers (r^8, r^4, r^7, r^3, r^6, r^2, r^5, r^1: the blocks' order in the
// lanes) and added up, and h goes back to 64-bit limbs (h[2] < 8). The
// double rounds run in a loop: the first ones with one step each, the rest
// without. A Seal's first batch (skip 1) has nothing to MAC; mac is read
// during the rounds, before the batch's stores, so an Open may run in place.
//
// Registers: Z0-Z15 the 16 lanes' state words; Z16-Z18 the IFMA lanes
// (accumulator), Z19-Z28 their temporaries (also the transposition's, after
// the rounds), Z29-Z31 the masks and the 2^128 bit; r^8 and the lane powers
// are read from the frame (VPMADD52 takes memory operands). R8 = the MAC
// pointer. The frame's r^8, lane powers and r are wiped on return.

type ifmaLoopFrame struct {
	state, src, dst, n, rounds, steps Mem
	r8, pw                            Mem // 5 x 64 bytes each
}

func genStitchedIFMA() {
	TEXT("xorMACIFMA", 0, signatureMAC)
	Doc("xorMACIFMA XORs len(src)/1024 batches of 16 keystream blocks into dst and",
		"absorbs the first len(src) bytes of mac into the Poly1305 accumulator h",
		"(with r) in AVX-512 IFMA lanes, stitched into the vector code.")
	f := ifmaLoopFrame{
		state: AllocLocal(8), src: AllocLocal(8), dst: AllocLocal(8),
		n: AllocLocal(8), rounds: AllocLocal(8), steps: AllocLocal(8),
		r8: AllocLocal(5 * 64), pw: AllocLocal(5 * 64),
	}
	vec := func(m Mem, i int) Mem { return m.Offset(64 * i) }
	g := ifmaRegs{
		d: [6]VecPhysical{Z19, Z20, Z21, Z22, Z23, Z24}, t: Z25,
		l:   [3]VecPhysical{Z26, Z27, Z28},
		m44: Z29, m42: Z30, hibit: Z31,
	}
	zH := [3]VecPhysical{Z16, Z17, Z18}
	rMac := R8
	r8 := [5]Op{vec(f.r8, 0), vec(f.r8, 1), vec(f.r8, 2), vec(f.r8, 3), vec(f.r8, 4)}
	pw := [5]Op{vec(f.pw, 0), vec(f.pw, 1), vec(f.pw, 2), vec(f.pw, 3), vec(f.pw, 4)}

	Comment("Batches (none: return), pointers, the state.")
	Load(Param("src").Len(), RCX)
	SHRQ(U8(10), RCX)
	JZ(LabelRef("ifma_ret"))
	MOVQ(RCX, f.n)
	Load(Param("dst").Base(), rDst)
	MOVQ(rDst, f.dst)
	Load(Param("src").Base(), rSrc)
	MOVQ(rSrc, f.src)
	Load(Param("mac").Base(), rMac)
	Load(Param("s"), rState)
	MOVQ(rState, f.state)

	// batch emits one batch: the keystream of 16 blocks from the State's
	// counter, withMAC: its first f.steps double rounds each with an IFMA
	// step (lanes = lanes·r^8 + the next eight blocks at rMac), then XORed
	// into src and stored to dst; the counter and pointers advance and f.n
	// is decremented (the flags are its).
	batch := func(name string, withMAC bool) {
		Label(name)
		MOVQ(f.state, rState)
		z := zreg
		loadStateZ16()
		rest := 10
		if withMAC {
			Comment("Double rounds with an IFMA step each.")
			MOVQ(f.steps, RCX)
			MOVQ(RCX, f.rounds)
			Label(name + "_mac")
			step := append(ifmaMulReduceOps(g, zH, r8, zH), ifmaAbsorbOps(g, zH, rMac, 0)...)
			step = append(step, func() { ADDQ(U32(128), rMac) })
			merge(zmmDROps(), step)
			DECQ(f.rounds)
			JNZ(LabelRef(name + "_mac"))
			Comment("The other double rounds.")
			MOVQ(U32(10), RCX)
			SUBQ(f.steps, RCX)
			MOVQ(RCX, f.rounds)
			MOVQ(U32(8), f.steps)
		} else {
			MOVQ(U32(rest), f.rounds)
		}
		Label(name + "_rounds")
		run(zmmDROps())
		DECQ(f.rounds)
		JNZ(LabelRef(name + "_rounds"))

		Comment("Add the input state, transpose, XOR and store.")
		MOVQ(f.state, rState)
		addInputZ16(Z23)
		transposeZ16([4]VecPhysical{Z19, Z20, Z21, Z22})
		MOVQ(f.src, rSrc)
		MOVQ(f.dst, rDst)
		for b := 0; b < 16; b++ {
			VPXORD(mem(rSrc, 64*b), z(b), z(b))
			VMOVDQU32(z(b), mem(rDst, 64*b))
		}
		ADDQ(U32(stitchedBatch), rSrc)
		ADDQ(U32(stitchedBatch), rDst)
		MOVQ(rSrc, f.src)
		MOVQ(rDst, f.dst)
		ADDL(U8(16), mem(rState, offCounter))
		DECQ(f.n)
	}

	Comment("No MAC work (a Seal of one batch): the keystream only.")
	Load(Param("mac").Len(), RCX)
	TESTQ(RCX, RCX)
	JNZ(LabelRef("ifma_powers"))
	batch("ifma_plain", false)
	JNZ(LabelRef("ifma_plain"))
	JMP(LabelRef("ifma_clear"))

	Label("ifma_powers")
	Comment("The IFMA powers of r (ifmaPowers) into the frame: r^8 in every lane, and",
		"the lane powers; then the masks.")
	{
		Load(Param("r"), RBX)
		rA := [3]GPPhysical{R9, R10, R11}
		MOVQ(Mem{Base: RBX}, rA[0])
		MOVQ(Mem{Base: RBX, Disp: 8}, rA[1])
		XORL(rA[2].As32(), rA[2].As32())
		ifmaPowersTo(rA, f.r8, f.pw)
		g.constants()
	}

	Load(Param("skip"), RCX)
	TESTQ(RCX, RCX)
	JZ(LabelRef("ifma_first"))
	Comment("Seal: the first batch, whose ciphertext the next one MACs.")
	batch("ifma_seal0", false)

	Label("ifma_first")
	Comment("h in 44-bit limbs in lane 0, plus the first eight blocks of mac.")
	Load(Param("h"), RBX)
	hA := [3]GPPhysical{R9, R10, R11}
	for j := 0; j < 3; j++ {
		MOVQ(Mem{Base: RBX, Disp: 8 * j}, hA[j])
	}
	ifmaTo44(hA, RAX, RCX)
	for i := 0; i < 3; i++ {
		VMOVQ(hA[i], zH[i].AsX())
	}
	run(ifmaAbsorbOps(g, zH, rMac, 0))
	ADDQ(U32(128), rMac)
	MOVQ(U32(7), f.steps)
	batch("ifma_loop", true)
	JNZ(LabelRef("ifma_loop"))

	Comment("The lanes times their powers, their sum, h in 64-bit limbs.")
	run(ifmaMulReduceOps(g, zH, pw, zH))
	l := [3]GPPhysical{RAX, RBX, RCX}
	run(ifmaHsumOps(zH[0], Z3, l[0]))
	run(ifmaHsumOps(zH[1], Z4, l[1]))
	run(ifmaHsumOps(zH[2], Z5, l[2]))
	run(ifmaTo64Ops(l, hA, RDX, R12))
	Load(Param("h"), RAX)
	for j := 0; j < 3; j++ {
		MOVQ(hA[j], Mem{Base: RAX, Disp: 8 * j})
	}

	Comment("Wipe r^8 and the lane powers (key-derived) from the frame.")
	VPXORD(Z0, Z0, Z0)
	for i := 0; i < 5; i++ {
		VMOVDQU64(Z0, vec(f.r8, i))
		VMOVDQU64(Z0, vec(f.pw, i))
	}
	Label("ifma_clear")
	VZEROUPPER()
	Label("ifma_ret")
	RET()
}
