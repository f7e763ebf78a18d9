package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// genSmall7AVX512 emits aeadSmall7AVX512, the AVX-512 small kernel for
// messages of 193 to 448 bytes: the key block and message blocks 1 to 7
// in transposedVL8's 8-lane ymm batch (vl8Rounds), then the steps 2 to 6
// of aeadSmallAVX512 (small.go) with a chunk of 64 bytes per block. It
// does in one call what the short path does in three (XORBlocks into a
// buffer, SumAEAD, the copies and clears around them), for cores on which
// those calls' cost decides the comparison with x/crypto (AMD Zen 4:
// internal/cpuid's X86AEAD.SmallMax).
//
// The batch's inputs are broadcast word by word from a State-shaped frame
// slot (key, counter 0, nonce), which smallKernel.rows fills from key and
// nonce (and HChaCha20 for a 24-byte nonce) and which is wiped on return.
// The chunks' byte masks take all seven opmask registers, so the
// additional data, loaded before the rounds, takes K1 first. The results
// stay in Z24-Z30 until the tag is known (aeadSmall7IFMA parks them in the
// frame while its MAC takes the vector registers, then wipes that copy): a
// Seal's ciphertext and an Open's plaintext are stored only then (an
// Open's only if the tags match), through the masks.
func genSmall7AVX512() {
	genSmall7(false)
	genSmall7(true)
}

// genSmall7 emits aeadSmall7AVX512 or, with ifma set, aeadSmall7IFMA: the
// same kernel with the MAC in AVX-512 IFMA lanes (small7IFMAMAC) instead of
// one serial chain on the integer units, for CPUs with IFMA.
func genSmall7(ifma bool) {
	name := "aeadSmall7AVX512"
	if ifma {
		name = "aeadSmall7IFMA"
	}
	flags := NOSPLIT
	if ifma {
		flags = 0 // the frame holds the results while the MAC runs in Z0-Z30
	}
	TEXT(name, flags, "func(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)")
	Doc(name+" seals (open == 0) or opens a message of 193 to 448 bytes",
		"with at most 64 bytes of additional data in one call: see _asm/small7.go.")
	smallName = map[bool]string{false: "small7", true: "small7i"}[ifma]
	k := newSmallKernel(quad{}, nil, func() { qrLowLatency([]quad{{Y0, Y1, Y2, Y3}}, [][2]VecPhysical{{Y13, Y14}}) }, nil)
	buf := AllocLocal(64 + 7*64 + 16)
	st := AllocLocal(48)
	masks := []OpmaskPhysical{K1, K2, K3, K4, K5, K6, K7}

	Load(Param("key"), RAX)
	Load(Param("nonce").Base(), RBX)
	Comment("The input rows from key and nonce (smallKernel.rows), then to the",
		"frame as a State: key, counter 0 and nonce.")
	k.rows(nonce12AVX512)
	VMOVDQU(X9, st)
	VMOVDQU(X10, st.Offset(16))
	VMOVDQU(X11, st.Offset(32))

	Comment("Off the chain: ad, zero-padded, to buf[0:64] (mask K1); then the masks",
		"of the message's bytes in each 64-byte chunk: K1-K7.")
	Load(Param("src").Len(), RCX)
	LEAQ(buf, R14)
	Load(Param("ad").Base(), RBX)
	Load(Param("ad").Len(), RDX)
	emptyToFrame(RDX, R14, RBX)
	byteMask(RDX, RAX, K1)
	VMOVDQU8_Z(Mem{Base: RBX}, K1, Z16)
	VMOVDQU64(Z16, Mem{Base: R14})
	Comment("Each chunk's count, min(max(n - 64j, 0), 64), clamped both ways: BZHI",
		"reads only the low byte of its index.")
	chunkMasks := func(zero, sixtyFour GPPhysical) {
		XORL(zero.As32(), zero.As32())
		MOVL(U32(64), sixtyFour.As32())
		for j, kr := range masks {
			MOVQ(RCX, RAX)
			if j > 0 {
				SUBQ(U32(64*j), RAX)
				CMOVQLT(zero, RAX)
			}
			CMPQ(RAX, sixtyFour)
			CMOVQGT(sixtyFour, RAX)
			byteMask(RAX, R10, kr)
		}
	}
	chunkMasks(R11, R12)

	Comment("Blocks 0 to 7: ten double rounds of the 8-lane batch, and the input",
		"added.")
	LEAQ(st, rState)
	vl8Rounds(k.label("rounds"))
	for w := 0; w < 16; w++ {
		if w < 4 {
			VPADDD_BCST(sigma.Offset(4*w), yreg(w), yreg(w))
		} else {
			VPADDD(yreg(16+w), yreg(w), yreg(w))
		}
	}

	Comment("Transposed block by block: block 0 gives r (clamped, R8 and R9) and s;",
		"block b > 0, as 64 bytes, XORs chunk b-1 of src (loaded under its mask)",
		"into Z23+b, and the ciphertext (that for Seal, under the mask; src's for",
		"Open) goes to buf[pa+64(b-1):], pa = len(ad) rounded up to 16.")
	Load(Param("src").Base(), rSrc)
	Load(Param("open"), RBX)
	Load(Param("ad").Len(), RDX)
	LEAQ(Mem{Base: RDX, Disp: 15}, RAX)
	ANDQ(I8(-16), RAX)
	transposeVL8(func(blk int, halves func() (VecPhysical, VecPhysical)) {
		lo, hi := halves()
		if blk == 0 {
			VMOVQ(lo.AsX(), R8)
			VPEXTRQ(U8(1), lo.AsX(), R9)
			clampR(R8, R9, R10)
			VEXTRACTI32X4(U8(1), lo, k.sKey)
			return
		}
		j := blk - 1
		out := zreg(23 + blk)
		VINSERTI64X4(U8(1), hi, lo.AsZ(), Z22)
		VMOVDQU8_Z(Mem{Base: rSrc, Disp: 64 * j}, masks[j], Z23)
		VPXORQ(Z22, Z23, out)
		l := k.label("ct" + string(rune('0'+blk)))
		TESTQ(RBX, RBX)
		JNZ(LabelRef(l))
		VMOVDQU8_Z(out, masks[j], Z23)
		Label(l)
		VMOVDQU64(Z23, Mem{Base: R14, Index: RAX, Scale: 1, Disp: 64 * j})
	})

	Load(Param("src").Len(), RCX)
	var h [3]GPPhysical
	if ifma {
		out := AllocLocal(7 * 64)
		Comment("The results to the frame: the IFMA MAC takes Z0-Z30 and K1-K4.")
		for j := range masks {
			VMOVDQU64(zreg(24+j), out.Offset(64*j))
		}
		h = small7IFMAMAC()
		for j := range masks {
			VMOVDQU64(out.Offset(64*j), zreg(24+j))
		}
		VPXORQ(Z16, Z16, Z16)
		for j := range masks {
			VMOVDQU64(Z16, out.Offset(64*j))
		}
		Comment("The chunks' masks again (h is in R8, R9, R12).")
		Load(Param("src").Len(), RCX)
		chunkMasks(RBX, RDX)
	} else {
		h = k.lensAndMAC()
	}
	Load(Param("dst").Base(), rDst)
	k.finish(h, func() {
		for j, kr := range masks {
			VMOVDQU8(zreg(24+j), kr, Mem{Base: rDst, Disp: 64 * j})
		}
	})
	Comment("Clear the State from the frame and the vector registers.")
	VPXOR(X0, X0, X0)
	for i := 0; i < 3; i++ {
		VMOVDQU(X0, st.Offset(16*i))
	}
	for i := 16; i < 32; i++ {
		VPXORD(zreg(i), zreg(i), zreg(i))
	}
	clearY0Y15()
	RET()
}

// small7IFMAMAC is lensAndMAC with the MAC in IFMA lanes (poly1305_ifma.go's
// steps, as blocksIFMA runs them): the powers of r, then N mod 8 blocks on
// the integer units from h = 0 (which the core overlaps with the powers),
// then N/8 steps of eight blocks (14 <= N <= 37 here), the lanes summed and
// h back in 64-bit limbs in R8, R9, R12. r is in R8, R9 (clamped); the MAC
// input at R14, with RAX = pa, RCX = len(src), RDX = len(ad) for lens. The
// powers stay in Z3-Z12 until the kernel clears the vector registers.
func small7IFMAMAC() [3]GPPhysical {
	lens()
	Comment("The IFMA powers of r (Z3-Z12; K1-K4 and Z16-Z30 scratch) from r in 44-bit",
		"limbs, and the constants.")
	rA := [3]GPPhysical{RDI, R10, R11}
	MOVQ(R8, RDI)
	MOVQ(R9, R10)
	XORL(R11L, R11L)
	polyIFMA.constants()
	ifmaTo44(rA, RAX, RBX)
	ifmaPowers(rA)

	Comment("N mod 8 blocks one at a time from h = 0 (r0, r1, s1 in R13, SI, CX).")
	h := scalarMACStart()
	MOVQ(R15, RDI)
	ANDQ(U8(7), RDI)
	JZ(LabelRef(smallName + "_leaddone"))
	Label(smallName + "_lead")
	run(polyStepOps(R13, RSI, RCX, [4]GPPhysical{RAX, RBX, R10, R11}, R14, h, 0))
	ADDQ(U8(16), R14)
	DECQ(RDI)
	JNZ(LabelRef(smallName + "_lead"))
	Label(smallName + "_leaddone")

	Comment("h in 44-bit limbs in lane 0; N/8 steps of eight blocks, the last one by",
		"the lane powers; the lanes summed, h in 64-bit limbs.")
	ifmaTo44(h, RAX, RBX)
	for i, r := range h {
		VMOVQ(r, zH[i].AsX())
	}
	MOVQ(R14, rMsg)
	SHRQ(U8(3), R15)
	absorb(zH)
	Label(smallName + "_steps")
	DECQ(R15)
	JZ(LabelRef(smallName + "_last"))
	mulReduce(zH, zR8, zH)
	absorb(zH)
	JMP(LabelRef(smallName + "_steps"))
	Label(smallName + "_last")
	mulReduce(zH, zV, zH)
	l := [3]GPPhysical{RAX, RBX, RCX}
	run(ifmaHsumOps(zH[0], Z3, l[0]))
	run(ifmaHsumOps(zH[1], Z4, l[1]))
	run(ifmaHsumOps(zH[2], Z5, l[2]))
	run(ifmaTo64Ops(l, h, R10, RDX))
	return h
}
