package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// ---------------------------------------------------------------------------
// Open of a short message with the key block first (AVX2)
//
//	func openFirstAVX2(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte) (ok int)
//
// An Open knows its whole MAC input (the additional data and the
// ciphertext) before any keystream exists; only r and s wait for the
// keystream, in block 0. So this kernel computes blocks 0 to 3 first, in
// two ymm row sets (two chains of ten double rounds side by side, bound by
// latency), and then runs the Poly1305 chain (bound by latency too, some
// 13 cycles a block) on the integer units while the vector units compute
// the blocks after 3 in one to three more row sets: three block steps ride
// at the end of each double round, the steps left over run after them. The
// small kernels (small.go) instead run all their row sets first and the
// whole MAC after. x/crypto's AVX2 Open (chacha20poly1305_amd64.s, from 321
// bytes: openAVX2 and its openAVX2Tail paths) is the source of the idea;
// the code is this module's. Up to 320 bytes the three-set small kernel is
// as fast (bench/README.md), so the route takes this one from 321 bytes.
//
//  1. The MAC input is laid out in the frame first (mac: ad zero-padded to
//     16 bytes, the ciphertext zero-padded to 16 bytes, the two lengths),
//     with smallBufs' exact copies (no masked loads in AVX2), which the
//     core overlaps with the rounds.
//  2. Blocks 0 to 3 (counters 0 to 3), row layout; r (clamped, R13 and
//     SI, with s1 = r1 + r1>>2 in CX) and s from block 0; blocks 1 to 3
//     to ks[0:192].
//  3. Blocks 4 to 5, 7 or 9 (one, two or three row sets: up to 320, 448 or
//     576 bytes), the MAC steps riding along; their keystream to
//     ks[192:]; then the remaining MAC steps.
//  4. The tag, compared with *tag (XOR and OR of its two words). Only if
//     they are equal is the plaintext, ciphertext ^ ks, written to dst
//     (exactly len(src) bytes; dst may be src: the XOR reads the copy in
//     mac): ok = 1. Otherwise dst is not touched.
//
// len(src) <= 576 and len(ad) <= 64. The frame's key rows, s and ks
// (keystream, then plaintext) are wiped before returning; mac holds only
// additional data and ciphertext.
func genOpenFirstAVX2() {
	TEXT("openFirstAVX2", 0, "func(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte) (ok int)")
	Doc("openFirstAVX2 opens a message of at most 576 bytes with at most 64 bytes",
		"of additional data, the key block first: see _asm/openfirst.go.")
	smallName = "first"
	v := vecISA{name: "AVX2", width: 32, avx: true}
	set0 := quad{Y0, Y1, Y2, Y3}
	k := newSmallKernel(quad{}, nil, func() { v.qr([]quad{set0}, []VecPhysical{Y13}) }, nil)
	const maxLen = 9 * 64
	mac := AllocLocal(SmallADMax + maxLen + 16)
	ks := AllocLocal(maxLen)
	in := AllocLocal(32 * 9)
	slot := func(i int) Mem { return in.Offset(32 * i) }
	rounds := AllocLocal(8)

	Comment("The MAC input in mac: zeroed, then ad at 0 and the ciphertext at pa =",
		"len(ad) rounded up to 16, then the lengths at pa + pc, pc = len(src)",
		"rounded up to 16. R15 = the number of 16-byte blocks, (pa+pc)/16 + 1.")
	VPXOR(Y15, Y15, Y15)
	for i := 0; i < SmallADMax+maxLen+16; i += 32 {
		VMOVDQU(Y15, mac.Offset(i))
	}
	Load(Param("ad").Base(), RSI)
	Load(Param("ad").Len(), RCX)
	LEAQ(mac, RDI)
	copyBytes(RDI, RSI, RCX, RAX, Y15, "ad")
	Load(Param("ad").Len(), RDX)
	LEAQ(Mem{Base: RDX, Disp: 15}, R14)
	ANDQ(I8(-16), R14)
	Load(Param("src").Base(), RSI)
	Load(Param("src").Len(), RCX)
	LEAQ(Mem{Base: RDI, Index: R14, Scale: 1}, RDI)
	copyBytes(RDI, RSI, RCX, RAX, Y15, "ct")
	Load(Param("src").Len(), RCX)
	LEAQ(Mem{Base: RCX, Disp: 15}, RBX)
	ANDQ(I8(-16), RBX)
	ADDQ(R14, RBX)
	LEAQ(mac, R14)
	MOVQ(RDX, Mem{Base: R14, Index: RBX, Scale: 1})
	MOVQ(RCX, Mem{Base: R14, Index: RBX, Scale: 1, Disp: 8})
	LEAQ(Mem{Base: RBX, Disp: 16}, R15)
	SHRQ(U8(4), R15)

	Load(Param("key"), RAX)
	Load(Param("nonce").Base(), RBX)
	Comment("Input rows (smallKernel.rows): rows 0-2 to slots 0-2, the counter rows",
		"of blocks 0-1, 2-3, ..., 8-9 to slots 3-7.")
	k.rows(nonce12AVX2)
	VMOVDQU(Y8, slot(0))
	VMOVDQU(Y9, slot(1))
	VMOVDQU(Y10, slot(2))
	VMOVDQU(Y11, slot(3))
	VMOVDQA(Y11, Y12)
	for i := 4; i < 8; i++ {
		VPADDD(rowStep2, Y12, Y12)
		VMOVDQU(Y12, slot(i))
	}

	Comment("Blocks 0 to 3: ten double rounds of two row sets (a chain as long as",
		"one set's), the input added.")
	set1 := quad{Y4, Y5, Y6, Y7}
	for j, r := range []VecPhysical{Y8, Y9, Y10, Y11} {
		VMOVDQA(r, set0[j])
		if j < 3 {
			VMOVDQA(r, set1[j])
		}
	}
	VMOVDQU(slot(4), Y7)
	first := []quad{set0, set1}
	rowRoundLoop(k.label("rounds0"), first, func() { v.qr(first, []VecPhysical{Y13, Y14}) }, Mem{}, nil)
	rowSlots(first, slot, 3, func(m Mem, r VecPhysical) { VPADDD(m, r, r) })
	Comment("r = block 0's bytes 0-15, clamped (R13, SI; CX = s1 = r1 + r1>>2); s =",
		"bytes 16-31; blocks 1 to 3 to ks[0:192]. h = 0 (R8, R9, R12).")
	VMOVQ(X0, R13)
	VPEXTRQ(U8(1), X0, RSI)
	clampR(R13, RSI, RAX)
	MOVQ(RSI, RCX)
	SHRQ(U8(2), RCX)
	ADDQ(RSI, RCX)
	VMOVDQU(X1, k.sKey)
	keystream := func(q quad, imm uint8, blk int, t [2]VecPhysical) {
		VPERM2I128(U8(imm), q[1], q[0], t[0])
		VPERM2I128(U8(imm), q[3], q[2], t[1])
		VMOVDQU(t[0], ks.Offset(64*(blk-1)))
		VMOVDQU(t[1], ks.Offset(64*(blk-1)+32))
	}
	t := [2]VecPhysical{Y12, Y13}
	keystream(set0, 0x31, 1, t)
	keystream(set1, 0x20, 2, t)
	keystream(set1, 0x31, 3, t)
	h := [3]GPPhysical{R8, R9, R12}
	for _, r := range h {
		XORL(r.As32(), r.As32())
	}
	step := func() {
		run(polyStepOps(R13, RSI, RCX, [4]GPPhysical{RAX, RBX, R10, R11}, R14, h, 0))
		ADDQ(U8(16), R14)
		DECQ(R15)
	}

	Comment("Blocks 4 onwards, as many row sets as the message needs (one up to",
		"320 bytes, two up to 448, three up to 576), three MAC steps per double",
		"round while blocks are left (R15; R14 = the next one).")
	Load(Param("src").Len(), RDX)
	CMPQ(RDX, U32(3*64))
	JBE(LabelRef(k.label("mac")))
	CMPQ(RDX, U32(5*64))
	JBE(LabelRef(k.label("sets1")))
	CMPQ(RDX, U32(7*64))
	JBE(LabelRef(k.label("sets2")))
	n := 0
	for nsets := 3; nsets >= 1; nsets-- {
		Label(k.label("sets" + string(rune('0'+nsets))))
		sets := []quad{{Y0, Y1, Y2, Y3}, {Y4, Y5, Y6, Y7}, {Y8, Y9, Y10, Y11}}[:nsets]
		rowSlots(sets, slot, 5, func(m Mem, r VecPhysical) { VMOVDQU(m, r) })
		tmp := []VecPhysical{Y12, Y13, Y14}[:nsets]
		rowRoundLoop(k.label("rounds"+string(rune('0'+nsets))), sets, func() { v.qr(sets, tmp) }, rounds, func() {
			for i := 0; i < 3; i++ {
				skip := k.label("skip") + string(rune('a'+n))
				n++
				TESTQ(R15, R15)
				JZ(LabelRef(skip))
				step()
				Label(skip)
			}
		})
		rowSlots(sets, slot, 5, func(m Mem, r VecPhysical) { VPADDD(m, r, r) })
		for i, q := range sets {
			keystream(q, 0x20, 4+2*i, t)
			keystream(q, 0x31, 5+2*i, t)
		}
		if nsets > 1 {
			JMP(LabelRef(k.label("mac")))
		}
	}

	Comment("The MAC steps left.")
	Label(k.label("mac"))
	TESTQ(R15, R15)
	JZ(LabelRef(k.label("macdone")))
	Label(k.label("macloop"))
	step()
	JNZ(LabelRef(k.label("macloop")))
	Label(k.label("macdone"))

	Comment("tag = (h mod 2^130-5) + s mod 2^128, compared with *tag; only if they",
		"are equal: ks ^= the ciphertext (mac[pa:]), then len(src) bytes of it to dst.")
	polyTag(h, [3]GPPhysical{RAX, RBX, RCX}, k.sKey)
	Load(Param("tag"), RAX)
	XORQ(Mem{Base: RAX}, h[0])
	XORQ(Mem{Base: RAX, Disp: 8}, h[1])
	ORQ(h[0], h[1])
	MOVL(U32(0), EBX)
	JNZ(LabelRef(k.label("done")))
	Load(Param("ad").Len(), RDX)
	LEAQ(Mem{Base: RDX, Disp: 15}, RDX)
	ANDQ(I8(-16), RDX)
	LEAQ(mac, R14)
	ADDQ(RDX, R14)
	for i := 0; i < maxLen; i += 32 {
		VMOVDQU(ks.Offset(i), Y0)
		VPXOR(Mem{Base: R14, Disp: i}, Y0, Y0)
		VMOVDQU(Y0, ks.Offset(i))
	}
	Load(Param("dst").Base(), RDI)
	Load(Param("src").Len(), RCX)
	LEAQ(ks, RSI)
	copyBytes(RDI, RSI, RCX, RAX, Y15, "out")
	MOVL(U32(1), EBX)
	Label(k.label("done"))
	Store(RBX, ReturnIndex(0))

	Comment("Clear s, the key rows and ks (keystream or plaintext) from the frame,",
		"and the vector registers.")
	XORL(EAX, EAX)
	MOVQ(RAX, k.sKey)
	MOVQ(RAX, k.sKey.Offset(8))
	VPXOR(Y0, Y0, Y0)
	for i := 0; i < 9; i++ {
		VMOVDQU(Y0, slot(i))
	}
	for i := 0; i < maxLen; i += 32 {
		VMOVDQU(Y0, ks.Offset(i))
	}
	clearY0Y15()
	RET()
}
