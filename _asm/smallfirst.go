package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The key-first small kernels (genSmallAVX512 and genSmallAVX2 with first):
//
//	func aeadSmallKeyFirstAVX512(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)
//	func aeadSmallKeyFirstAVX2(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)
//
// are aeadSmallProldAVX512 and aeadSmallAVX2 (up to 64 bytes, a 12-byte
// nonce) with the scalar block 0 of the key-scalar kernels (smallkey.go)
// run at two double rounds per vector double round, so that r is ready
// halfway through the vector rounds, and the MAC of the input that is
// ready before them (the additional data; for Open also the ciphertext and
// the lengths) absorbed during their second half, up to two blocks per
// double round. In the key-scalar kernel the scalar block keeps pace with
// the vector one and the MAC starts after the loop, behind the vector
// chain in program order: the out-of-order window, a few hundred
// instructions, does not reach it until the rounds are nearly done. Here an Open's tag is ready about when
// the keystream is, and a Seal's MAC has only the ciphertext and the
// lengths left after the rounds. The same interleaving of a scalar MAC
// with vector rounds is what the stitched loops do for long messages
// (stitched.go; OpenSSL's chacha20_poly1305_x86_64.pl for the idea).
//
// The handoff kernels (with handoff):
//
//	func aeadSmallHandoffAVX512(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)
//	func aeadSmallHandoffAVX2(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)
//
// are the same for a Seal, whose MAC waits for the ciphertext: after the
// key block the integer units take block 1's last four double rounds from
// the vector ones (blocksHandoff), so the ciphertext comes earlier.
//
// The MAC state (h, r, s1 and the input pointer) waits in the frame while
// the keystream is XORed; its r, s1 and h, and the handoff kernels' copy
// of the rows, are cleared before returning.

// earlyMAC is the frame of a key-first kernel's MAC: the number of blocks
// ready before the rounds, and the state kept across the XOR.
type earlyMAC struct {
	n    Mem // blocks of the MAC input ready before the rounds
	st   Mem // h0, h1, h2, r0, r1, s1, the input pointer
	rows Mem // the handoff kernel's row set on its way to the scalar registers
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
	k.keyFirstHalf(earlyCT)

	Comment("Five more double rounds, each with up to two blocks of the MAC.")
	h := scalarMACStart()
	LEAQ(buf, macPtr)
	MOVQ(m.n, macCount)
	rowRoundLoopN(k.label("rounds2"), []quad{k.q}, k.qr1, k.ks.f.rounds, func() {
		macSteps(h, 2, k.label("early_mac"))
	}, 5)

	Comment("Park the MAC state; add the input to set 0.")
	m.park(h)
	for j, r := range []VecPhysical{Y8, Y9, Y10, Y11} {
		VPADDD(r, k.q[j], k.q[j])
	}
	k.ks.reload()
}

// park stores the MAC state to the frame.
func (m *earlyMAC) park(h [3]GPPhysical) {
	for i, r := range []GPPhysical{h[0], h[1], h[2], macR[0], macR[1], macR[2], macPtr} {
		MOVQ(r, m.st.Offset(8*i))
	}
}

// keyFirstHalf is the first half of blocksKeyFirst and blocksHandoff: the
// count of MAC blocks ready before the rounds (to the frame), then five
// vector double rounds with two of the scalar block 0 each, and r and s.
func (k *smallKernel) keyFirstHalf(earlyCT func()) {
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
}

// blocksHandoff is blocksKeyFirst for a Seal (the handoff kernel): after
// the first half, one more vector double round, the MAC of the blocks
// ready (ad's), and then block 1's last four double rounds in
// general-purpose registers, where each takes about half the cycles of a
// vector one on a core whose simple vector instructions take two. Block
// 1's keystream comes back as qwords built from pairs of words in the
// lanes of X4-X7 (bytes 0-15, 16-31, 32-47, 48-63), which join puts
// together. The row set goes to the scalar registers through a 128-byte
// frame slot (earlyMAC's rows).
func (k *smallKernel) blocksHandoff(buf Mem, earlyCT, join func()) {
	m := k.ks.mac
	rows := m.rows
	k.keyFirstHalf(earlyCT)

	Comment("Double round 6 of the row set; the MAC of the blocks ready meanwhile.")
	rowRoundLoopN(k.label("rounds2"), []quad{k.q}, k.qr1, k.ks.f.rounds, nil, 1)
	h := scalarMACStart()
	LEAQ(buf, macPtr)
	MOVQ(m.n, macCount)
	k.macLoop(h, "early_mac")
	m.park(h)

	Comment("Block 1 (the high lanes of the rows) to the scalar registers: words",
		"10 and 11 to the frame, 8 and 9 to SI and DI, the rest as scalarReg.")
	for j := 0; j < 4; j++ {
		VMOVDQU(k.q[j], rows.Offset(32*j))
	}
	word := func(w int) Mem { return rows.Offset(32*(w/4) + 16 + 4*(w%4)) }
	for w := 10; w < 12; w++ {
		MOVL(word(w), EAX)
		MOVL(EAX, k.ks.f.words.Offset(4*w))
	}
	for w := 0; w < 16; w++ {
		switch r, ok := scalarReg[w]; {
		case ok:
			MOVL(word(w), r)
		case w == 8 || w == 9:
			MOVL(word(w), scalarC[w-8])
		}
	}
	Comment("Its last four double rounds.")
	for i := 0; i < 4; i++ {
		run(scalarDROps(k.ks.f))
	}

	Comment("Add the input (block 1: counter 1) and pair the words into qwords:",
		"R8, R10, R12, R14, SI, R13, AX, CX hold qwords 0-7.")
	pair := func(lo, hi GPPhysical) {
		SHLQ(U8(32), hi.As64())
		ORQ(hi.As64(), lo.As64())
	}
	for w := 0; w < 4; w++ {
		ADDL(U32(sigmaWords[w]), scalarReg[w])
	}
	pair(R8L, R9L)
	pair(R10L, R11L)
	Load(Param("key"), R9)
	Load(Param("nonce").Base(), R11)
	for w := 4; w < 8; w++ {
		ADDL(Mem{Base: R9, Disp: 4 * (w - 4)}, scalarReg[w])
	}
	pair(R12L, R13L)
	pair(R14L, R15L)
	ADDL(Mem{Base: R9, Disp: 16}, ESI)
	ADDL(Mem{Base: R9, Disp: 20}, EDI)
	pair(ESI, EDI)
	MOVL(k.ks.f.words.Offset(40), R13L)
	MOVL(k.ks.f.words.Offset(44), R15L)
	ADDL(Mem{Base: R9, Disp: 24}, R13L)
	ADDL(Mem{Base: R9, Disp: 28}, R15L)
	pair(R13L, R15L)
	INCL(EAX)
	for w := 13; w < 16; w++ {
		ADDL(Mem{Base: R11, Disp: 4 * (w - 13)}, scalarReg[w])
	}
	pair(EAX, EBX)
	pair(ECX, EDX)
	Comment("The qwords into Z4.")
	for i, q := range [][2]GPPhysical{{R8, R10}, {R12, R14}, {RSI, R13}, {RAX, RCX}} {
		x := xreg(4 + i)
		VMOVQ(q[0], x)
		VPINSRQ(U8(1), q[1], x, x)
	}
	join()
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
	k.macLoop(h, "rest")
	return h
}

// macLoop emits the MAC block steps of the input at macPtr while macCount
// is not zero.
func (k *smallKernel) macLoop(h [3]GPPhysical, name string) {
	Label(k.label(name))
	TESTQ(macCount, macCount)
	JZ(LabelRef(k.label(name + "_done")))
	run(polyStepOps(macR[0], macR[1], macR[2], macTmp, macPtr, h, 0))
	ADDQ(U8(16), macPtr)
	DECQ(macCount)
	JMP(LabelRef(k.label(name)))
	Label(k.label(name + "_done"))
}

// clearMAC zeroes the parked h, r and s1 (key material).
func (m *earlyMAC) clear() {
	Comment("Clear the parked MAC state (r is key material).")
	XORL(EAX, EAX)
	for i := 0; i < 6; i++ {
		MOVQ(RAX, m.st.Offset(8*i))
	}
	if m.rows.Base != nil {
		for i := 0; i < 128; i += 8 {
			MOVQ(RAX, m.rows.Offset(i))
		}
	}
}
