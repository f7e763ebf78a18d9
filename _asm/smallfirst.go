package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The key-first small kernel (genSmallAVX512 with first):
//
//	func aeadSmallKeyFirstAVX512(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)
//
// is aeadSmallProldAVX512 (up to 64 bytes, a 12-byte nonce) with the
// scalar block 0 of the key-scalar kernels (smallkey.go) run at two double
// rounds per vector double round, so that r is ready halfway through the
// vector rounds, and the MAC of the input that is ready before them (the
// additional data; for Open also the ciphertext and the lengths) absorbed
// during their second half, up to two blocks per double round. In the
// key-scalar kernel the scalar block keeps pace with the vector one and
// the MAC starts after the loop, behind the vector chain in program order:
// the out-of-order window, a few hundred instructions, does not reach it
// until the rounds are nearly done. Here an Open's tag is ready about when
// the keystream is, and a Seal's MAC has only the ciphertext and the
// lengths left after the rounds. The same interleaving of a scalar MAC
// with vector rounds is what the stitched loops do for long messages
// (stitched.go; OpenSSL's chacha20_poly1305_x86_64.pl for the idea).
//
// The MAC state (h, r, s1 and the input pointer) waits in the frame while
// the keystream is XORed; its r, s1 and h are cleared before returning.

// earlyMAC is the frame of a key-first kernel's MAC: the number of blocks
// ready before the rounds, and the state kept across the XOR.
type earlyMAC struct {
	n  Mem // blocks of the MAC input ready before the rounds
	st Mem // h0, h1, h2, r0, r1, s1, the input pointer
}

// The registers of the MAC during and after the rounds: r0, r1, s1, the
// temporaries of polyStepOps, the input pointer and the blocks left.
var (
	macR     = [3]GPPhysical{R13, RSI, RCX}
	macTmp   = [4]GPPhysical{RAX, RBX, R10, R11}
	macPtr   = R14
	macCount = R15
)

// macSteps emits up to n MAC block steps of the input at macPtr while
// macCount is not zero (a public count: the branch depends on lengths).
func macSteps(h [3]GPPhysical, n int, skip string) {
	TESTQ(macCount, macCount)
	JZ(LabelRef(skip))
	for i := 0; i < n; i++ {
		run(polyStepOps(macR[0], macR[1], macR[2], macTmp, macPtr, h, 0))
		ADDQ(U8(16), macPtr)
		DECQ(macCount)
		if i+1 < n {
			JZ(LabelRef(skip))
		}
	}
	Label(skip)
}

// blocksKeyFirst runs the rounds of a key-first kernel (one row set) and
// the MAC of what is ready before them, and adds the input to set 0. On
// entry RCX = len(src), RDX = len(ad), R14 = buf with ad at buf[0:64];
// reload restores the kernel's registers after
// the rounds; earlyCT stores an Open's ciphertext, zero-padded to 64
// bytes, at R14 + RAX (RAX = pa).
func (k *smallKernel) blocksKeyFirst(buf Mem, earlyCT func()) {
	m := k.ks.mac
	Comment("The MAC input ready before the rounds: ad's pa/16 blocks (pa = len(ad)",
		"rounded up to 16); for Open also the ciphertext at buf[pa:] and the",
		"lengths, every block.")
	LEAQ(Mem{Base: RDX, Disp: 15}, RAX)
	ANDQ(I8(-16), RAX)
	MOVQ(RAX, R15)
	SHRQ(U8(4), R15)
	Load(Param("open"), RBX)
	TESTQ(RBX, RBX)
	JZ(LabelRef(k.label("early")))
	earlyCT()
	lens()
	Label(k.label("early"))
	MOVQ(R15, m.n)

	k.ks.load()
	Comment("Five double rounds of the row set, each with two of the scalar block 0.")
	VMOVDQA(Y8, Y0)
	VMOVDQA(Y9, Y1)
	VMOVDQA(Y10, Y2)
	VMOVDQA(Y11, Y3)
	sets := []quad{k.q}
	rowRoundLoopN(k.label("rounds"), sets, k.qr1, k.ks.f.rounds, func() {
		run(scalarDROps(k.ks.f))
		run(scalarDROps(k.ks.f))
	}, 5)
	k.ks.key(k.sKey)

	Comment("Five more double rounds, each with up to two blocks of the MAC.")
	h := scalarMACStart()
	LEAQ(buf, macPtr)
	MOVQ(m.n, macCount)
	rowRoundLoopN(k.label("rounds2"), sets, k.qr1, k.ks.f.rounds, func() {
		macSteps(h, 2, k.label("early_mac"))
	}, 5)

	Comment("Park the MAC state; add the input to set 0.")
	for i, r := range []GPPhysical{h[0], h[1], h[2], macR[0], macR[1], macR[2], macPtr} {
		MOVQ(r, m.st.Offset(8*i))
	}
	for j, r := range []VecPhysical{Y8, Y9, Y10, Y11} {
		VPADDD(r, k.q[j], k.q[j])
	}
	k.ks.reload()
}

// macRest absorbs the rest of a key-first kernel's MAC input after the
// ciphertext is at R14 + RAX (RAX = pa, RCX = len(src), RDX = len(ad)):
// the lengths, then every block from the parked pointer on. It returns h.
func (k *smallKernel) macRest() [3]GPPhysical {
	m := k.ks.mac
	lens()
	Comment("The blocks left: all of them less those absorbed during the rounds.")
	MOVQ(m.st.Offset(48), RAX)
	SUBQ(R14, RAX)
	SHRQ(U8(4), RAX)
	SUBQ(RAX, macCount)
	h := [3]GPPhysical{R8, R9, R12}
	for i, r := range []GPPhysical{h[0], h[1], h[2], macR[0], macR[1], macR[2], macPtr} {
		MOVQ(m.st.Offset(8*i), r)
	}
	Label(k.label("rest"))
	TESTQ(macCount, macCount)
	JZ(LabelRef(k.label("rest_done")))
	run(polyStepOps(macR[0], macR[1], macR[2], macTmp, macPtr, h, 0))
	ADDQ(U8(16), macPtr)
	DECQ(macCount)
	JMP(LabelRef(k.label("rest")))
	Label(k.label("rest_done"))
	return h
}

// clearMAC zeroes the parked h, r and s1 (key material).
func (m *earlyMAC) clear() {
	Comment("Clear the parked MAC state (r is key material).")
	XORL(EAX, EAX)
	for i := 0; i < 6; i++ {
		MOVQ(RAX, m.st.Offset(8*i))
	}
}
