package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// genBlockScalar emits xorBlockScalar: one keystream block (counter
// s.Counter) computed in general-purpose registers, XORed from src into dst,
// and s.Counter advanced by one; for len(src) == 64 only.
//
// It is the scalar block of the AVX-512 hybrid batch on its own (the
// registers of scalarReg and scalarC, words 8-11 taking turns in two of
// them, as in Linux's scalar ARM ChaCha20), for cores whose vector unit
// takes two cycles per simple integer instruction: there a lone block in
// the row layout waits about 26 cycles per round on its chain, the scalar
// block about 12-14 (four independent quarter rounds of one-cycle
// operations), and cores with one-cycle vector operations are level
// (internal/cpuid's X86ChaCha20.BlockScalar; bench/README.md has the
// timings). The same technique is OpenSSL's integer-only ChaCha20_ctr32
// (crypto/chacha/asm/chacha-x86_64.pl), which keeps two words of the third
// row in memory.
//
// Register use: scalarReg and scalarC hold the state; the pointers live in
// the frame. The frame's copy of words 8-12 is cleared before returning;
// the general-purpose registers are left holding keystream words, as the
// other kernels leave key-derived values there.
func genBlockScalar() {
	TEXT("xorBlockScalar", NOSPLIT, signature)
	Doc("xorBlockScalar XORs one keystream block into dst in general-purpose registers: see _asm/scalar.go.")
	prologue()
	f := avx512Frame{
		state: AllocLocal(8), src: AllocLocal(8), dst: AllocLocal(8),
		rounds: AllocLocal(8), words: AllocLocal(64),
	}
	MOVQ(rState, f.state)
	MOVQ(rSrc, f.src)
	MOVQ(rDst, f.dst)

	Comment("The input words, counter s.Counter.")
	scalarLoad(f, 0)

	Comment("Ten double rounds.")
	MOVQ(U32(10), f.rounds)
	Label("scalar_rounds")
	run(scalarDROps(f))
	DECQ(f.rounds)
	JNZ(LabelRef("scalar_rounds"))

	scalarStore(f, 0, 0)
	ADDL(U8(1), mem(rState, offCounter))

	Comment("Wipe the words in the frame (key material).")
	for i := 4; i < 7; i++ {
		MOVQ(U32(0), f.words.Offset(8*i))
	}
	Label("ret")
	RET()
}
