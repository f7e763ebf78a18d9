package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// genSmallKeyScalarAVX512 emits aeadSmallKeyScalarAVX512:
//
//	func aeadSmallKeyScalarAVX512(key *[32]byte, nonce *[12]byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)
//
// aeadSmallAVX512 (len(src) <= 64, len(ad) <= 64, a 12-byte nonce) with
// block 0, the Poly1305 key, computed a second time in general-purpose
// registers beside the vector rounds (the scalar block of xorBlockScalar,
// one double round per iteration of the vector loop, the loop counter in
// the frame). On a core whose simple vector instructions take two cycles
// (AMD Zen 5, bench/README.md) the scalar block's chain is about half the
// vector one, so the out-of-order core finishes it early and r and s exist
// before the vector rounds end: the MAC of an Open (its ciphertext is
// known from the start) then runs in the shadow of the last vector rounds
// instead of after them. A Seal's MAC still waits for the ciphertext.
//
// The vector code, the MAC and the tag are those of genSmallAVX512; only
// r and s come from the scalar words (words 0-3 and 4-7 with the input
// added) instead of the vector block 0, which is still computed (in the
// same row set as block 1, at no cost in latency) but not used. The frame
// words of the scalar block are cleared before returning.
func genSmallKeyScalarAVX512() {
	const name = "aeadSmallKeyScalarAVX512"
	TEXT(name, NOSPLIT, "func(key *[32]byte, nonce *[12]byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)")
	Doc(name+" seals (open == 0) or opens a message of at most 64 bytes",
		"with at most 64 bytes of additional data and a 12-byte nonce in one call,",
		"as aeadSmallAVX512 with the Poly1305 key block in general-purpose registers too:",
		"see _asm/smallkey.go.")
	smallName = "smallks"
	k := newSmallKernel(quad{}, nil, func() { qrLowLatency([]quad{{Y0, Y1, Y2, Y3}}, [][2]VecPhysical{{Y13, Y14}}) }, nil)
	buf := AllocLocal(64 + 192 + 16)
	f := avx512Frame{rounds: AllocLocal(8), words: AllocLocal(64)}

	Load(Param("key"), RAX)
	Load(Param("nonce"), RBX)
	Load(Param("src").Len(), RCX)

	Comment("Blocks 0 and 1 (low and high lanes of set 0), row layout; the last row",
		"is the counter and the nonce: its 12 bytes loaded under a mask and shifted",
		"up by the counter's 4.")
	VBROADCASTI128(sigma, Y8)
	VBROADCASTI128(Mem{Base: RAX}, Y9)
	VBROADCASTI128(Mem{Base: RAX, Disp: 16}, Y10)
	MOVL(U32(0xfff), EDX)
	KMOVW(EDX, K3)
	VMOVDQU8_Z(Mem{Base: RBX}, K3, X11)
	VPSLLDQ(U8(4), X11, X11)
	VINSERTI128(U8(1), X11, Y11, Y11)
	VPADDD(rowLanes, Y11, Y11)

	Comment("Off the chain: ad, zero-padded, to buf[0:64]; the mask of the message's",
		"bytes: K1; of len(ad) bytes: K2.")
	Load(Param("ad").Base(), RDX)
	Load(Param("ad").Len(), R8)
	byteMask(RCX, R9, K1)
	byteMask(R8, R9, K2)
	VMOVDQU8_Z(Mem{Base: RDX}, K2, Z16)
	LEAQ(buf, R14)
	VMOVDQU64(Z16, Mem{Base: R14})

	Comment("The scalar block 0: words 4-11 from key (RAX), 13-15 from the nonce",
		"(RBX, last), 12 = 0; words 10 and 11 start in the frame.")
	for w := 10; w < 12; w++ {
		MOVL(Mem{Base: RAX, Disp: 4 * (w - 4)}, R8L)
		MOVL(R8L, f.words.Offset(4*w))
	}
	for w := 4; w < 8; w++ {
		MOVL(Mem{Base: RAX, Disp: 4 * (w - 4)}, scalarReg[w])
	}
	MOVL(Mem{Base: RAX, Disp: 16}, scalarC[0])
	MOVL(Mem{Base: RAX, Disp: 20}, scalarC[1])
	MOVL(Mem{Base: RBX, Disp: 8}, scalarReg[15])
	MOVL(Mem{Base: RBX, Disp: 4}, scalarReg[14])
	MOVL(Mem{Base: RBX}, scalarReg[13])
	XORL(scalarReg[12], scalarReg[12])
	for w := 0; w < 4; w++ {
		MOVL(U32(sigmaWords[w]), scalarReg[w])
	}

	Comment("Ten double rounds of the row set, each with one of the scalar block.")
	k.doubleRoundsWith(k.label("rounds"), false, f.rounds, func() { run(scalarDROps(f)) })

	Comment("r and s from the scalar words 0-7 plus the input: r = words 0-3,",
		"clamped, in R8 (r0) and R9 (r1); s = words 4-7 to the frame.")
	Load(Param("key"), RAX)
	for w := 0; w < 4; w++ {
		ADDL(U32(sigmaWords[w]), scalarReg[w])
	}
	for w := 4; w < 8; w++ {
		ADDL(Mem{Base: RAX, Disp: 4 * (w - 4)}, scalarReg[w])
		MOVL(scalarReg[w], k.sKey.Offset(4*(w-4)))
	}
	SHLQ(U8(32), R9)
	ORQ(R9, R8)
	MOVL(R10L, R9L)
	SHLQ(U8(32), R11)
	ORQ(R11, R9)
	clampR(R8, R9, RAX)
	Comment("Block 1's input added (block 0's lanes are not used).")
	for j, r := range []VecPhysical{Y8, Y9, Y10, Y11} {
		VPADDD(r, k.q[j], k.q[j])
	}

	Comment("Block 1 as 64 bytes in Z4; Z6 = src ^ it under K1 (Z5: src).")
	Load(Param("dst").Base(), rDst)
	Load(Param("src").Base(), rSrc)
	Load(Param("src").Len(), RCX)
	Load(Param("ad").Len(), RDX)
	LEAQ(buf, R14)
	VPERM2I128(U8(0x31), Y1, Y0, Y4)
	VPERM2I128(U8(0x31), Y3, Y2, Y5)
	VINSERTI64X4(U8(1), Y5, Z4, Z4)
	Comment("The ciphertext (the result under K1 for Seal, src for Open) at buf[pa:],",
		"pa = len(ad) rounded up to 16; the lengths after it.")
	Load(Param("open"), RBX)
	LEAQ(Mem{Base: RDX, Disp: 15}, RAX)
	ANDQ(I8(-16), RAX)
	VMOVDQU8_Z(Mem{Base: rSrc}, K1, Z5)
	VPXORQ(Z4, Z5, Z6)
	TESTQ(RBX, RBX)
	JNZ(LabelRef(k.label("ct")))
	VMOVDQU8_Z(Z6, K1, Z5)
	Label(k.label("ct"))
	VMOVDQU64(Z5, Mem{Base: R14, Index: RAX, Scale: 1})
	h := k.lensAndMAC()
	k.finish(h, func() { VMOVDQU8(Z6, K1, Mem{Base: rDst}) })

	Comment("Clear the scalar block's words in the frame (key material).")
	XORL(EAX, EAX)
	for i := 4; i < 7; i++ {
		MOVQ(RAX, f.words.Offset(8*i))
	}
	clearY0Y15()
	RET()
}
