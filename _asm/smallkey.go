package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The key-scalar small kernels (genSmallAVX512 and genSmallAVX2 with
// keyScalar):
//
//	func aeadSmallKeyScalarAVX512(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)
//	func aeadSmallKeyScalarAVX2(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)
//
// are aeadSmallAVX512 and aeadSmallAVX2 (up to 64 bytes) for a 12-byte
// nonce with block 0, the Poly1305 key, computed a second time in
// general-purpose registers beside the vector rounds: the scalar block of xorBlockScalar, one double
// round in each iteration of the vector loop, whose counter moves to the
// frame (doubleRoundsWith). On a core whose simple vector instructions take
// two cycles (AMD Zen 5, bench/README.md) the scalar block's chain is about
// half the vector one, so the out-of-order core finishes it early: r and s
// come from the scalar words instead of through VMOVQ and VPEXTRQ from the
// vector block 0 at the end of the chain, and the MAC of the additional
// data (an Open's whole MAC) starts before the vector rounds end.
//
// Everything else is the vector kernel's code; block 0's vector lanes are
// still computed (in the row set of block 1, at no cost in latency) but not
// used. The rows' XChaCha20 branch stays in the code and is never taken:
// aeadasm calls these kernels with 12-byte nonces only. The scalar block's
// words in the frame are cleared before returning.

// keyScalar is the scalar block 0 of a key-scalar small kernel: its frame
// and the reload of the registers the kernel keeps across the rounds.
type keyScalar struct {
	f      avx512Frame
	reload func()
	mac    *earlyMAC // the key-first kernel's (smallfirst.go), or nil
}

func newKeyScalar(reload func()) *keyScalar {
	return &keyScalar{f: avx512Frame{rounds: AllocLocal(8), words: AllocLocal(64)}, reload: reload}
}

// load loads the scalar block 0's input words for a 12-byte nonce: 4-11
// from key, 12 = 0, 13-15 from the nonce, 10 and 11 in the frame. Every
// general-purpose register but SP and BP holds a word afterwards.
func (ks *keyScalar) load() {
	Comment("Scalar block 0: words 4-11 from key (RAX), 13-15 from the nonce (RBX,",
		"last), 12 = 0; words 10 and 11 start in the frame.")
	Load(Param("key"), RAX)
	Load(Param("nonce").Base(), RBX)
	for w := 10; w < 12; w++ {
		MOVL(Mem{Base: RAX, Disp: 4 * (w - 4)}, R8L)
		MOVL(R8L, ks.f.words.Offset(4*w))
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
}

// key sets r (clamped, R8 and R9) and s (to sKey) from the scalar words 0-7
// plus the input, as addAndKey does from the vector block 0; the kernel's
// other registers are to be reloaded after it (reload).
func (ks *keyScalar) key(sKey Mem) {
	Comment("r and s from the scalar words 0-7 plus the input: r = words 0-3,",
		"clamped, in R8 (r0) and R9 (r1); s = words 4-7 to the frame.")
	Load(Param("key"), RAX)
	for w := 0; w < 4; w++ {
		ADDL(U32(sigmaWords[w]), scalarReg[w])
	}
	for w := 4; w < 8; w++ {
		ADDL(Mem{Base: RAX, Disp: 4 * (w - 4)}, scalarReg[w])
		MOVL(scalarReg[w], sKey.Offset(4*(w-4)))
	}
	SHLQ(U8(32), R9)
	ORQ(R9, R8)
	MOVL(R10L, R9L)
	SHLQ(U8(32), R11)
	ORQ(R11, R9)
	clampR(R8, R9, RAX)
}

// clear zeroes the scalar block's words in the frame (key material).
func (ks *keyScalar) clear() {
	Comment("Clear the scalar block's words in the frame (key material).")
	XORL(EAX, EAX)
	for i := 4; i < 7; i++ {
		MOVQ(RAX, ks.f.words.Offset(8*i))
	}
	if ks.mac != nil {
		ks.mac.clear()
	}
}
