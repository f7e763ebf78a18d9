package main

import (
	"strconv"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// ---------------------------------------------------------------------------
// The AEAD of a short message in one call (AVX-512, AVX2)
//
//	func aeadSmallAVX512(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)
//	func aeadSmallAVX2(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)
//
// (the declarations are in internal/aeadasm/small_amd64.go)
//
// For messages of at most 64 bytes the AEAD is one ChaCha20 block pair and a
// few Poly1305 blocks, and every step is on one dependency chain: block 0's
// 20 rounds in the row layout of rowAVX512, then r and s, then the MAC of
// the padded additional data, the ciphertext and the lengths, then the tag.
// Separate calls for the keystream and the MAC (a 64-byte Seal: XORBlocks,
// SumAEAD) add buffer copies, clears and call set-up around that chain, so
// this function does the whole chain in one call, for len(src) <= 64 and
// len(ad) <= 64 (bench/README.md, "ChaCha20-Poly1305 by message length").
// From 65 to 192 bytes it adds a second row set (blocks 2 and 3)
// interleaved with the first: the two chains share the
// rounds' latency, which beats XORBlocks and SumAEAD from 65 to 192 bytes
// (the same section):
//
//  1. Blocks 0 and 1 in one ymm row set (qrLowLatency): block 0 in the
//     low 128-bit lanes, block 1 in the high ones. The rows come from key
//     and nonce themselves: a State filled word by word just before would
//     make the first 16-byte loads wait for four 4-byte stores to reach the
//     cache (no store-to-load forwarding across stores), at the head of the
//     chain. A 24-byte nonce is XChaCha20's (draft-irtf-cfrg-xchacha-03):
//     HChaCha20 of key and its first 16 bytes runs first, in the same
//     registers, and its output rows become the key rows, with the last 8
//     nonce bytes after 8 zero bytes as the last row.
//  2. r (clamped) and s from block 0 (RFC 8439, Section 2.6).
//  3. src XORed with block 1, src and ad loaded through byte masks
//     (AVX-512BW masked loads neither read nor fault on the bytes past a
//     slice's end).
//  4. The MAC input laid out in a frame buffer: ad and the
//     ciphertext (Seal: the result; Open: src), each zero-padded by its
//     masked load and stored whole (a masked store could not forward its
//     data to the MAC's loads), then the two lengths.
//  5. The MAC, whole 16-byte blocks with the 2^128 bit, through the scalar
//     Poly1305 block step of the stitched loops (polyBlockOps), and the tag
//     (h mod p) + s (RFC 8439, Section 2.5.1).
//  6. Seal: the ciphertext to dst and the tag to tag, ok = 1. Open: the
//     computed tag compared with tag (XOR and OR of its two words, no
//     early exit); only if they are equal is the plaintext stored to dst,
//     ok = 1; otherwise dst is not touched, ok = 0.
//
// r stays in general-purpose registers (as in the other kernels, which
// leave key-derived values there); the frame's copy of s and the vector
// registers are cleared before returning; the frame buffer holds only ad
// and the ciphertext.
//
// aeadSmallAVX2 is the same for CPUs without AVX-512 (AVX2 and BMI2), where
// no masked byte loads exist: the kernel copies the message into blk and
// ad into mac, two zeroed frame buffers (smallBufs: exactly the slices'
// bytes, in overlapping moves of a size class, as memmove does; copies the
// caller made measured 2-7% slower from 200 bytes on), ANDs the result
// with a mask of n bytes from midMask (so no keystream byte past the
// message reaches memory), builds the MAC input in mac, and copies the
// result from blk to dst (Open: only if the tag matches); then it wipes
// blk. The rounds are the AVX2 row code's (vecISA.qr).

func genSmall() {
	genSmallAVX512()
	genSmallAVX2All(midMask) // midMask: 64 bytes of 0xff, then 64 zeros
}

// genSmallAVX2All emits aeadSmallAVX2, one function for every message of
// up to 448 bytes: by length, two row sets (up to 192 bytes,
// smallAVX2Body), three (up to 320) or four (smallRowsAVX2Body), each with
// its own frame slots, behind one entry.
func genSmallAVX2All(maskTail Mem) {
	TEXT("aeadSmallAVX2", 0, "func(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)")
	Doc("aeadSmallAVX2 seals (open == 0) or opens a message of at most 448 bytes",
		"with at most 64 bytes of additional data in one call: see _asm/small.go.")
	Comment("Two row sets up to 192 bytes, three up to 320, four above.")
	Load(Param("src").Len(), RCX)
	CMPQ(RCX, U32(5*64))
	JA(LabelRef("small2_sets4"))
	CMPQ(RCX, U32(3*64))
	JA(LabelRef("small2_sets3"))
	smallAVX2Body(maskTail)
	Label("small2_sets3")
	smallRowsAVX2Body(3, maskTail)
	Label("small2_sets4")
	smallRowsAVX2Body(4, maskTail)
}

// smallKernel is what the two kernels share: the frame and the emitters of
// the common steps. Set 0 (q: blocks 0 and 1) always runs; set 1 (q2:
// blocks 2 and 3, last row in in3b) only for messages over 64 bytes.
type smallKernel struct {
	sKey Mem
	q    quad
	q2   quad
	in3b VecPhysical
	qr1  func() // one round on q
	qr2  func() // one round on q and q2
}

func newSmallKernel(q2 quad, in3b VecPhysical, qr1, qr2 func()) *smallKernel {
	return &smallKernel{
		sKey: AllocLocal(16),
		q:    quad{Y0, Y1, Y2, Y3},
		q2:   q2,
		in3b: in3b,
		qr1:  qr1,
		qr2:  qr2,
	}
}

// rows loads the input rows into Y8-Y11 from key (RAX) and nonce (RBX,
// 12 or 24 bytes), the 24-byte case through HChaCha20; nonce12 loads the
// 12-byte nonce's row into X11 as [0, n0, n1, n2] with DX free. in3b gets
// set 1's last row (counters 2 and 3).
func (k *smallKernel) rows(nonce12 func()) {
	VBROADCASTI128(sigma, Y8)
	VBROADCASTI128(Mem{Base: RAX}, Y9)
	VBROADCASTI128(Mem{Base: RAX, Disp: 16}, Y10)
	Load(Param("nonce").Len(), RDX)
	CMPQ(RDX, U8(24))
	JEQ(LabelRef(k.label("x")))
	nonce12()
	JMP(LabelRef(k.label("row3")))

	Comment("XChaCha20: HChaCha20 (20 rounds, no feed-forward) of key and nonce[0:16];",
		"rows 0 and 3 are the subkey, nonce[16:24] the end of the last row.")
	Label(k.label("x"))
	VBROADCASTI128(Mem{Base: RBX}, Y11)
	k.doubleRounds(k.label("hrounds"), false)
	VMOVDQA(Y0, Y9)
	VMOVDQA(Y3, Y10)
	VMOVQ(Mem{Base: RBX, Disp: 16}, X11)
	VPSLLDQ(U8(8), X11, X11)

	Label(k.label("row3"))
	VINSERTI128(U8(1), X11, Y11, Y11)
	VPADDD(rowLanes, Y11, Y11)
	if k.in3b != nil {
		VPADDD(rowStep2, Y11, k.in3b)
	}
}

var smallName string

func (k *smallKernel) label(s string) string { return smallName + "_" + s }

// doubleRounds copies the input rows to the working rows of set 0 (and set
// 1 if two) and runs ten double rounds.
func (k *smallKernel) doubleRounds(name string, two bool) { k.doubleRoundsWith(name, two, Mem{}, nil) }

// doubleRoundsWith is doubleRounds with extra emitted into each double
// round's loop body (an independent instruction stream, such as a scalar
// block's double round) and the round counter at counter in the frame,
// which leaves R13 to extra; without extra the counter is R13.
func (k *smallKernel) doubleRoundsWith(name string, two bool, counter Mem, extra func()) {
	sets := []quad{k.q}
	ins := [][4]VecPhysical{{Y8, Y9, Y10, Y11}}
	qr := k.qr1
	if two {
		sets = append(sets, k.q2)
		ins = append(ins, [4]VecPhysical{Y8, Y9, Y10, k.in3b})
		qr = k.qr2
	}
	for i, q := range sets {
		for j := range q {
			if ins[i][j].PhysicalIndex() >= 16 || q[j].PhysicalIndex() >= 16 {
				VMOVDQA64(ins[i][j], q[j]) // EVEX: Y16-Y31
			} else {
				VMOVDQA(ins[i][j], q[j])
			}
		}
	}
	rowRoundLoop(name, sets, qr, counter, extra)
}

// rowRoundLoop runs ten double rounds of the row sets sets (qr: one round of
// all of them), with extra and its counter as in doubleRoundsWith.
func rowRoundLoop(name string, sets []quad, qr func(), counter Mem, extra func()) {
	rowRoundLoopN(name, sets, qr, counter, extra, 10)
}

// rowRoundLoopN is rowRoundLoop for n double rounds.
func rowRoundLoopN(name string, sets []quad, qr func(), counter Mem, extra func(), n int) {
	if extra != nil {
		MOVQ(U32(n), counter)
	} else {
		MOVL(U32(n), R13L)
	}
	Label(name)
	qr()
	for _, q := range sets {
		VPSHUFD(U8(0x93), q[0], q[0])
		VPSHUFD(U8(0x39), q[2], q[2])
		VPSHUFD(U8(0x4e), q[3], q[3])
	}
	qr()
	for _, q := range sets {
		VPSHUFD(U8(0x39), q[0], q[0])
		VPSHUFD(U8(0x93), q[2], q[2])
		VPSHUFD(U8(0x4e), q[3], q[3])
	}
	if extra != nil {
		extra()
		DECQ(counter)
	} else {
		DECL(R13L)
	}
	JNZ(LabelRef(name))
}

// blocks runs the main rounds (set 1 too if len(src), in RCX, is over 64),
// adds the input and sets r, s1 and s from block 0. Block 1 is in the high
// lanes of set 0, blocks 2 and 3 in set 1.
func (k *smallKernel) blocks() {
	if k.in3b == nil {
		k.rounds(k.label("rounds"), false)
		k.addAndKey()
		return
	}
	CMPQ(RCX, U8(64))
	JA(LabelRef(k.label("two")))
	k.rounds(k.label("rounds"), false)
	JMP(LabelRef(k.label("added")))
	Label(k.label("two"))
	k.rounds(k.label("rounds2"), true)
	for j, r := range []VecPhysical{Y8, Y9, Y10, k.in3b} {
		VPADDD(r, k.q2[j], k.q2[j])
	}
	Label(k.label("added"))
	k.addAndKey()
}

// rounds runs the ten double rounds of set 0 (and set 1 if two).
func (k *smallKernel) rounds(name string, two bool) { k.doubleRounds(name, two) }

// addAndKey adds the input to set 0 and sets r, s1 and s from block 0.
func (k *smallKernel) addAndKey() {
	for j, r := range []VecPhysical{Y8, Y9, Y10, Y11} {
		VPADDD(r, k.q[j], k.q[j])
	}
	Comment("r = block 0's bytes 0-15, clamped, in R8 (r0) and R9 (r1) until the MAC",
		"takes them; s = bytes 16-31.")
	VMOVQ(X0, R8)
	VPEXTRQ(U8(1), X0, R9)
	clampR(R8, R9, RAX)
	VMOVDQU(X1, k.sKey)
}

// clampR clamps r = (r0, r1) as RFC 8439, Section 2.5.1, with tmp.
func clampR(r0, r1, tmp GPPhysical) {
	MOVQ(U64(0x0FFFFFFC0FFFFFFF), tmp)
	ANDQ(tmp, r0)
	MOVQ(U64(0x0FFFFFFC0FFFFFFC), tmp)
	ANDQ(tmp, r1)
}

// emptyToFrame points each base at frame (a mapped address) when n is 0:
// an empty slice may be nil, and a masked load or store of no bytes at an
// unmapped address still costs a microcode assist (Seal of 64 bytes with
// nil additional data: 218 against 118 ns on AMD Zen 4). The length is
// public, and CMOV keeps the code branch-free anyway.
func emptyToFrame(n, frame GPPhysical, bases ...GPPhysical) {
	TESTQ(n, n)
	for _, b := range bases {
		CMOVQEQ(frame, b)
	}
}

// byteMask sets k to the mask of the low n bytes of a 64-byte register
// (n <= 64), with tmp: BZHI of all ones.
func byteMask(n, tmp GPPhysical, k OpmaskPhysical) {
	MOVQ(I32(-1), tmp)
	BZHIQ(n, tmp, tmp)
	KMOVQ(tmp, k)
}

// lensAndMAC stores the lengths (RDX = len(ad), RCX = len(src)) after the
// padded ad and ciphertext in the MAC input at R14 (the ciphertext already
// at R14 + RAX, RAX = pa) and absorbs it: h in R8, R9, R12.
func (k *smallKernel) lensAndMAC() [3]GPPhysical {
	lens()

	Comment("Poly1305 of (pa+pc)/16 + 1 blocks: h = (h + m)·r per block, with r0,",
		"r1 and s1 = r1 + r1>>2 in R13, SI and CX (in registers, the first block's",
		"products need not wait for r to go through memory).")
	h := scalarMACStart()
	Label(k.label("blocks"))
	run(polyStepOps(R13, RSI, RCX, [4]GPPhysical{RAX, RBX, R10, R11}, R14, h, 0))
	ADDQ(U8(16), R14)
	DECQ(R15)
	JNZ(LabelRef(k.label("blocks")))
	return h
}

// scalarMACStart moves r (R8, R9) to R13 and SI with s1 = r1 + r1>>2 in CX,
// the operands of the small kernels' block steps, and returns h = 0 in R8,
// R9, R12.
func scalarMACStart() [3]GPPhysical {
	MOVQ(R8, R13)
	MOVQ(R9, RSI)
	MOVQ(R9, RCX)
	SHRQ(U8(2), RCX)
	ADDQ(R9, RCX)
	h := [3]GPPhysical{R8, R9, R12}
	for _, r := range h {
		XORL(r.As32(), r.As32())
	}
	return h
}

// lens stores the lengths (RDX = len(ad), RCX = len(src)) after the padded
// ad and ciphertext in the MAC input at R14 (the ciphertext at R14 + RAX,
// RAX = pa) and sets R15 to the number of 16-byte blocks, lengths
// included.
func lens() {
	LEAQ(Mem{Base: RCX, Disp: 15}, RBX)
	ANDQ(I8(-16), RBX)
	ADDQ(RAX, RBX)
	MOVQ(RDX, Mem{Base: R14, Index: RBX, Scale: 1})
	MOVQ(RCX, Mem{Base: R14, Index: RBX, Scale: 1, Disp: 8})
	LEAQ(Mem{Base: RBX, Disp: 16}, R15)
	SHRQ(U8(4), R15)
}

// clearY0Y15 zeroes Y0-Y15 (zero idioms, which the core handles at
// register renaming) and their upper halves (VZEROUPPER): measured 2 ns
// faster per 64-byte Open on this Zen 5 than one VZEROALL.
func clearY0Y15() {
	for i := 0; i < 16; i++ {
		VPXOR(yreg(i), yreg(i), yreg(i))
	}
	VZEROUPPER()
}

// polyTag sets h[0], h[1] to the Poly1305 tag (h mod 2^130-5) + s mod
// 2^128 (RFC 8439, Section 2.5.1) for an accumulator h < 2p (three 64-bit
// limbs, as the block step leaves it) and s at sKey (16 bytes): p is
// subtracted once unless that borrows, selected by CMOV, so no branch
// depends on h. t are three temporaries.
func polyTag(h, t [3]GPPhysical, sKey Mem) {
	MOVQ(h[0], t[0])
	MOVQ(h[1], t[1])
	MOVQ(h[2], t[2])
	SUBQ(I8(-5), t[0])
	SBBQ(I8(-1), t[1])
	SBBQ(U8(3), t[2])
	CMOVQCC(t[0], h[0])
	CMOVQCC(t[1], h[1])
	ADDQ(sKey, h[0])
	ADCQ(sKey.Offset(8), h[1])
}

// finish computes the tag from h, and for Seal stores it and the output
// (store), for Open compares it with *tag and stores the output only if
// they are equal; it returns ok and clears the key material.
func (k *smallKernel) finish(h [3]GPPhysical, store func()) {
	Comment("tag = (h mod 2^130-5) + s mod 2^128: h < 2p here, so subtract p once",
		"if that does not borrow (CMOV: no branch on h).")
	polyTag(h, [3]GPPhysical{RAX, RBX, RCX}, k.sKey)
	Load(Param("tag"), RAX)
	Load(Param("open"), RBX)
	TESTQ(RBX, RBX)
	JNZ(LabelRef(k.label("verify")))
	MOVQ(h[0], Mem{Base: RAX})
	MOVQ(h[1], Mem{Base: RAX, Disp: 8})
	JMP(LabelRef(k.label("store")))
	Label(k.label("verify"))
	XORQ(Mem{Base: RAX}, h[0])
	XORQ(Mem{Base: RAX, Disp: 8}, h[1])
	ORQ(h[0], h[1])
	MOVQ(U32(0), RBX)
	JNZ(LabelRef(k.label("done")))
	Label(k.label("store"))
	store()
	MOVQ(U32(1), RBX)
	Label(k.label("done"))
	Store(RBX, ReturnIndex(0))

	Comment("Clear s from the frame.")
	XORL(EAX, EAX)
	MOVQ(RAX, k.sKey)
	MOVQ(RAX, k.sKey.Offset(8))
}

// genSmallAVX512 emits aeadSmallAVX512: one row set up to 64 bytes, two
// up to 192 (the second set's work behind branches on the length). The
// rounds are qrAVX512's (x ^= y; x <<<= r by VPROLD): on a core where
// VPROLD takes one cycle a shift pair only adds work for the shift ports
// (bench/README.md, "The small kernels on Intel").
func genSmallAVX512() {
	name := "aeadSmallAVX512"
	smallName = "small512"
	TEXT(name, NOSPLIT, "func(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)")
	Doc(name+" seals (open == 0) or opens a message of at most 192 bytes",
		"with at most 64 bytes of additional data in one call: see _asm/small.go.")
	set1 := quad{Y18, Y19, Y20, Y21}
	qr1 := func() { qrAVX512([]quad{{Y0, Y1, Y2, Y3}}) }
	qr2 := func() { qrAVX512([]quad{{Y0, Y1, Y2, Y3}, set1}) }
	k := newSmallKernel(set1, Y22, qr1, qr2)
	buf := AllocLocal(64 + 192 + 16)

	Load(Param("key"), RAX)
	Load(Param("nonce").Base(), RBX)
	Load(Param("dst").Base(), rDst)
	Load(Param("src").Base(), rSrc)
	Load(Param("src").Len(), RCX)

	Comment("Blocks 0 and 1 (low and high lanes of set 0) and, for messages over 64",
		"bytes, 2 and 3 (set 1), row layout; the last row is the counter and the",
		"nonce: the nonce's 12 bytes loaded under a mask and shifted up by the",
		"counter's 4.")
	k.rows(nonce12AVX512)

	Comment("Off the chain: ad, zero-padded, to buf[0:64]; the masks of the message's",
		"bytes in each 64-byte block: K1 (and K4, K5); of len(ad) bytes: K2.")
	LEAQ(buf, R14)
	Load(Param("ad").Base(), RBX)
	Load(Param("ad").Len(), RDX)
	emptyToFrame(RDX, R14, RBX)
	emptyToFrame(RCX, R14, rSrc, rDst)
	byteMask(RCX, RAX, K1)
	XORL(R11L, R11L)
	for i, kr := range []OpmaskPhysical{K4, K5} {
		MOVQ(RCX, RAX)
		SUBQ(U8(64*(i+1)), RAX)
		CMOVQLT(R11, RAX)
		byteMask(RAX, R10, kr)
	}
	byteMask(RDX, RAX, K2)
	VMOVDQU8_Z(Mem{Base: RBX}, K2, Z16)
	VMOVDQU64(Z16, Mem{Base: R14})

	k.blocks()
	Comment("Blocks 1, 2, 3 as 64 bytes in Z4, Z25, Z26; Z6, Z29, Z31 = src ^ them",
		"under K1, K4, K5 (Z5, Z28, Z30: src).")
	VPERM2I128(U8(0x31), Y1, Y0, Y4)
	VPERM2I128(U8(0x31), Y3, Y2, Y5)
	VINSERTI64X4(U8(1), Y5, Z4, Z4)
	type chunk struct {
		k      OpmaskPhysical
		ks, in VecPhysical
		out    VecPhysical
		offset int
	}
	chunks := []chunk{{K1, Z4, Z5, Z6, 0}, {K4, Z25, Z28, Z29, 64}, {K5, Z26, Z30, Z31, 128}}
	Comment("The ciphertext (the results under the masks for Seal, src for Open) at",
		"buf[pa:], pa = len(ad) rounded up to 16, then the lengths at buf[pa+pc:],",
		"pc = len(src) rounded up to 16. Blocks 2 and 3 only for messages over 64",
		"bytes (their masks are empty otherwise, and their lanes were not computed).")
	Load(Param("open"), RBX)
	LEAQ(Mem{Base: RDX, Disp: 15}, RAX)
	ANDQ(I8(-16), RAX)
	for i, c := range chunks {
		if i == 1 {
			CMPQ(RCX, U8(64))
			JBE(LabelRef(k.label("mac")))
			VSHUFI64X2(U8(0), Y19, Y18, Y25)
			VSHUFI64X2(U8(0), Y21, Y20, Y26)
			VINSERTI64X4(U8(1), Y26, Z25, Z25)
			VSHUFI64X2(U8(3), Y19, Y18, Y26)
			VSHUFI64X2(U8(3), Y21, Y20, Y27)
			VINSERTI64X4(U8(1), Y27, Z26, Z26)
		}
		VMOVDQU8_Z(Mem{Base: rSrc, Disp: c.offset}, c.k, c.in)
		VPXORQ(c.ks, c.in, c.out)
		l := k.label("ct" + string(rune('1'+i)))
		TESTQ(RBX, RBX)
		JNZ(LabelRef(l))
		VMOVDQU8_Z(c.out, c.k, c.in)
		Label(l)
		VMOVDQU64(c.in, Mem{Base: R14, Index: RAX, Scale: 1, Disp: c.offset})
	}
	Label(k.label("mac"))
	k.finish(k.lensAndMAC(), func() {
		for i, c := range chunks {
			if i == 1 {
				Load(Param("src").Len(), RCX)
				CMPQ(RCX, U8(64))
				JBE(LabelRef(k.label("stored")))
			}
			VMOVDQU8(c.out, c.k, Mem{Base: rDst, Disp: c.offset})
		}
		Label(k.label("stored"))
	})
	Comment("Clear the vector registers: Y0-Y15 (clearY0Y15) and, after a second row",
		"set, the EVEX ones it used (Z16 holds only ad).")
	Load(Param("src").Len(), RCX)
	CMPQ(RCX, U8(64))
	JBE(LabelRef(k.label("clear")))
	for i := 18; i < 32; i++ {
		VPXORD(zreg(i), zreg(i), zreg(i))
	}
	Label(k.label("clear"))
	clearY0Y15()
	RET()
}

// smallAVX2Body emits aeadSmallAVX2's code for messages of up to 192
// bytes: two ymm row sets (blocks 0 to 3), the second one only for
// messages over 64 bytes.
func smallAVX2Body(maskTail Mem) {
	max := 192
	smallName = "small2"
	v := vecISA{name: "AVX2", width: 32, avx: true}
	set1 := quad{Y4, Y5, Y6, Y7}
	k := newSmallKernel(set1, Y12,
		func() { v.qr([]quad{{Y0, Y1, Y2, Y3}}, []VecPhysical{Y13}) },
		func() { v.qr([]quad{{Y0, Y1, Y2, Y3}, set1}, []VecPhysical{Y13, Y14}) })
	b := newSmallBufs(max)
	b.copyIn()

	Load(Param("key"), RAX)
	Load(Param("nonce").Base(), RBX)
	Load(Param("src").Len(), RCX)
	Comment("Blocks 0 and 1 (set 0) and, for messages over 64 bytes, 2 and 3 (set",
		"1), row layout; the last row is the counter and the nonce's 12 bytes.")
	k.rows(nonce12AVX2)
	k.blocks()

	Comment("Keystream blocks 1, 2, 3 in Y8:Y9, Y10:Y11, Y12:Y13; each becomes",
		"(blk ^ block) & the mask of its bytes of the message, and the ciphertext",
		"(that for Seal, blk for Open) goes to mac[pa:], pa = adLen rounded up to 16.")
	VPERM2I128(U8(0x31), Y1, Y0, Y8)
	VPERM2I128(U8(0x31), Y3, Y2, Y9)
	VPERM2I128(U8(0x20), Y5, Y4, Y10)
	VPERM2I128(U8(0x20), Y7, Y6, Y11)
	VPERM2I128(U8(0x31), Y5, Y4, Y12)
	VPERM2I128(U8(0x31), Y7, Y6, Y13)
	b.loadBlockArgs()
	ks := [][2]VecPhysical{{Y8, Y9}, {Y10, Y11}, {Y12, Y13}}
	for j, kk := range ks {
		xorBlockAVX2(j, kk, [2]VecPhysical{Y14, Y15}, maskTail, false)
	}
	MOVQ(R15, RAX)
	k.finish(k.lensAndMAC(), func() {
		for j, kk := range ks {
			VMOVDQU(kk[0], Mem{Base: rDst, Disp: 64 * j})
			VMOVDQU(kk[1], Mem{Base: rDst, Disp: 64*j + 32})
		}
		b.copyOut()
	})
	b.wipe()
	clearY0Y15()
	RET()
}

// smallRowsAVX2Body emits aeadSmallAVX2's code for messages of 193 to 320
// bytes (nsets 3) and of 321 to 448 (nsets 4): blocks 0 to 5 (or 7) in three (four) ymm row sets, as x/crypto's
// AVX2 code computes up to 320 (and 512) bytes of keystream
// (chacha20poly1305_amd64.s: seal320AVX2, and the first batch of
// sealAVX2), for cores whose double-pumped ymm units make the 8-lane batch
// of the short path cost as much as eight blocks (AMD Zen 1). The sets'
// input rows (the key rows, and each set's counter row) wait in the frame,
// which is wiped on return. Three sets take twelve registers and their
// rotations three more; four take all sixteen, and their rotations by 12
// and 7 borrow the last set's row d, which no step of that half of the
// round reads, through a frame slot (as x/crypto's sealAVX2 borrows one of
// its rows). The results go to blk as they are computed, also in Open:
// they are copied to dst only if the tag matched, and blk is wiped.
func smallRowsAVX2Body(nsets int, maskTail Mem) {
	blocks := 2*nsets - 1
	smallName = "small" + string(rune('0'+blocks))
	v := vecISA{name: "AVX2", width: 32, avx: true}
	sets := []quad{{Y0, Y1, Y2, Y3}, {Y4, Y5, Y6, Y7}, {Y8, Y9, Y10, Y11}, {Y12, Y13, Y14, Y15}}[:nsets]
	k := newSmallKernel(sets[1], Y12, func() { v.qr(sets[:1], []VecPhysical{Y13}) }, nil)
	slots := 3 + nsets
	if nsets == 4 {
		slots++ // the borrowed row
	}
	in := AllocLocal(32 * slots)
	slot := func(i int) Mem { return in.Offset(32 * i) }
	spill := slot(3 + nsets)
	b := newSmallBufs(64 * blocks)
	b.copyIn()

	Load(Param("key"), RAX)
	Load(Param("nonce").Base(), RBX)
	Comment("Blocks 2i and 2i+1 in set i, row layout; the last row is the counter and",
		"the nonce's 12 bytes.")
	k.rows(nonce12AVX2)
	Comment("Input rows 0-2 to slots 0-2, the sets' last rows to the slots after them,",
		"and all to the sets.")
	for i := 3; i <= nsets; i++ {
		VPADDD(rowStep2, yreg(9+i), yreg(10+i))
	}
	VMOVDQU(Y8, slot(0))
	VMOVDQU(Y9, slot(1))
	VMOVDQU(Y10, slot(2))
	VMOVDQU(Y11, slot(3))
	for i := 1; i < nsets; i++ {
		VMOVDQU(yreg(11+i), slot(3+i))
	}
	for j := range 4 {
		VMOVDQA(yreg(8+j), sets[0][j])
		if j < 3 {
			VMOVDQA(yreg(8+j), sets[1][j])
		}
	}
	VMOVDQA(Y12, Y7)
	VMOVDQA(Y13, Y11) // set 2's rows 0-2 are Y8-Y10 already
	if nsets == 4 {
		VMOVDQA(Y14, Y15)
		VMOVDQA(Y8, Y12)
		VMOVDQA(Y9, Y13)
		VMOVDQA(Y10, Y14)
	}
	qr := func() { v.qr(sets, []VecPhysical{Y12, Y13, Y14}) }
	if nsets == 4 {
		qr = func() { qrBorrow(v, sets, spill) }
	}
	rowRoundLoop(k.label("rounds"), sets, qr, Mem{}, nil)
	rowSlots(sets, slot, 3, func(m Mem, r VecPhysical) { VPADDD(m, r, r) })
	Comment("r = block 0's bytes 0-15, clamped, in R8 (r0) and R9 (r1) until the MAC",
		"takes them; s = bytes 16-31.")
	VMOVQ(X0, R8)
	VPEXTRQ(U8(1), X0, R9)
	clampR(R8, R9, RAX)
	VMOVDQU(X1, k.sKey)

	Comment("Keystream blocks 1 onwards, each into Y12:Y13 (three sets; temporaries",
		"Y14, Y15) or into two registers of its set that the blocks after it do not",
		"read, or Y0 and Y2, which block 1 freed (four sets; temporaries Y1, Y3); each",
		"becomes (blk ^ block) & the mask of its bytes of the message, back to blk, and",
		"the ciphertext (that for Seal, blk's for Open) goes to mac[pa:], pa = adLen",
		"rounded up to 16.")
	Load(Param("src").Len(), RCX)
	b.loadBlockArgs()
	for b := 1; b <= blocks; b++ {
		q := sets[b/2]
		kk, t, imm := [2]VecPhysical{Y0, Y2}, [2]VecPhysical{Y1, Y3}, U8(0x20)
		if b%2 == 1 {
			kk, imm = [2]VecPhysical{q[0], q[2]}, U8(0x31)
		}
		if nsets == 3 {
			kk, t = [2]VecPhysical{Y12, Y13}, [2]VecPhysical{Y14, Y15}
		}
		VPERM2I128(imm, q[1], q[0], kk[0])
		VPERM2I128(imm, q[3], q[2], kk[1])
		xorBlockAVX2(b-1, kk, t, maskTail, true)
	}
	MOVQ(R15, RAX)
	h := k.lensAndMAC()
	k.finish(h, b.copyOut)
	b.wipe()
	Comment("Clear the input rows (and the borrowed row) from the frame.")
	VPXOR(Y0, Y0, Y0)
	for i := 0; i < slots; i++ {
		VMOVDQU(Y0, slot(i))
	}
	clearY0Y15()
	RET()
}

// rowSlots calls f with each row of the row sets and its input slot: rows
// 0-2 of every set share slots 0-2; set i's counter row is in slot
// ctr+i.
func rowSlots(sets []quad, slot func(int) Mem, ctr int, f func(Mem, VecPhysical)) {
	for i, q := range sets {
		for j, r := range q {
			if j < 3 {
				f(slot(j), r)
			} else {
				f(slot(ctr+i), r)
			}
		}
	}
}

// qrBorrow is vecISA.qr for four row sets and no free register: the
// rotations of row b by 12 and 7 (two shifts and an XOR each) use the last
// set's row d as their temporary, one set after another, with d in the
// frame slot spill meanwhile.
func qrBorrow(v vecISA, sets []quad, spill Mem) {
	t := sets[len(sets)-1][3]
	for _, r := range [2][2]int{{16, 12}, {8, 7}} {
		mask := rol16
		if r[0] == 8 {
			mask = rol8
		}
		for _, q := range sets {
			v.add(q[1], q[0])
		}
		for _, q := range sets {
			v.xor(q[0], q[3])
		}
		for _, q := range sets {
			v.shufb(mask, q[3])
		}
		for _, q := range sets {
			v.add(q[3], q[2])
		}
		for _, q := range sets {
			v.xor(q[2], q[1])
		}
		VMOVDQU(t, spill)
		for _, q := range sets {
			VPSLLD(U8(r[1]), q[1], t)
			VPSRLD(U8(32-r[1]), q[1], q[1])
			VPXOR(t, q[1], q[1])
		}
		VMOVDQU(spill, t)
	}
}

// nonce12AVX512 loads the 12-byte nonce at RBX into X11 as [0, n0, n1, n2]
// under a byte mask (K3), without reading past it (smallKernel.rows).
func nonce12AVX512() {
	MOVL(U32(0xfff), EDX)
	KMOVW(EDX, K3)
	VMOVDQU8_Z(Mem{Base: RBX}, K3, X11)
	VPSLLDQ(U8(4), X11, X11)
}

// nonce12AVX2 loads the 12-byte nonce at RBX into X11 as [0, n0, n1, n2]
// without reading past it (smallKernel.rows).
func nonce12AVX2() {
	VMOVQ(Mem{Base: RBX}, X11)
	VPINSRD(U8(2), Mem{Base: RBX, Disp: 8}, X11, X11)
	VPSLLDQ(U8(4), X11, X11)
}

// smallBufs is the frame staging of the AVX2 small kernels, which have no
// masked byte loads: blk holds the message (zero past it to a whole 64-byte
// block), mac the MAC input (the additional data, zero-padded to 16 bytes,
// then the ciphertext and the lengths). Copies in and out take exactly the
// slices' bytes, so nothing past them is read or written: the same scheme
// as memmove's, pairs of overlapping loads and stores of a size class, then
// 32-byte chunks (branches on the lengths, which are public).
type smallBufs struct {
	blk, mac Mem
	max      int
}

func newSmallBufs(max int) smallBufs {
	return smallBufs{blk: AllocLocal(max), mac: AllocLocal(SmallADMax + max + 16), max: max}
}

// SmallADMax mirrors internal/aeadasm's limit on the additional data.
const SmallADMax = 64

// copyIn zeroes blk and the additional data's 64 bytes of mac and copies
// src and ad into them. It uses AX, CX, SI, DI and Y15.
func (b smallBufs) copyIn() {
	Comment("Zero blk and mac[0:64]; copy src to blk and ad to mac (smallBufs).")
	VPXOR(Y15, Y15, Y15)
	for i := 0; i < b.max; i += 32 {
		VMOVDQU(Y15, b.blk.Offset(i))
	}
	VMOVDQU(Y15, b.mac)
	VMOVDQU(Y15, b.mac.Offset(32))
	Load(Param("src").Base(), RSI)
	Load(Param("src").Len(), RCX)
	LEAQ(b.blk, RDI)
	copyBytes(RDI, RSI, RCX, RAX, Y15, "in")
	Load(Param("ad").Base(), RSI)
	Load(Param("ad").Len(), RCX)
	LEAQ(b.mac, RDI)
	copyBytes(RDI, RSI, RCX, RAX, Y15, "ad")
}

// copyOut copies len(src) bytes of blk to dst. It uses AX, CX, SI, DI and
// Y15.
func (b smallBufs) copyOut() {
	Load(Param("dst").Base(), RDI)
	Load(Param("src").Len(), RCX)
	LEAQ(b.blk, RSI)
	copyBytes(RDI, RSI, RCX, RAX, Y15, "out")
}

// wipe zeroes blk, which held plaintext (a Seal's input, an Open's
// output); mac holds only additional data and ciphertext.
func (b smallBufs) wipe() {
	VPXOR(Y15, Y15, Y15)
	for i := 0; i < b.max; i += 32 {
		VMOVDQU(Y15, b.blk.Offset(i))
	}
}

// loadBlockArgs loads what xorBlockAVX2 reads: blk, mac, len(ad), open,
// pa = len(ad) rounded up to 16, and the constants 0 and 64.
func (b smallBufs) loadBlockArgs() {
	LEAQ(b.blk, rDst)
	LEAQ(b.mac, R14)
	Load(Param("ad").Len(), RDX)
	Load(Param("open"), RBX)
	LEAQ(Mem{Base: RDX, Disp: 15}, R15)
	ANDQ(I8(-16), R15)
	XORL(R10L, R10L)
	MOVL(U32(64), R11L)
}

// copyBytes copies n bytes from src to dst (which do not overlap), reading
// and writing no byte outside them: from 32 bytes on, the last 32 and then
// 32-byte chunks down to offset 0 (they overlap the last one); below that a
// pair of overlapping 16-, 8-, 4- or 1-byte moves (and the middle byte of
// three). It uses n and t as scratch, and y.
func copyBytes(dst, src, n, t GPPhysical, y VecPhysical, name string) {
	l := func(s string) string { return smallName + "_copy" + name + s }
	x := y.AsX()
	at := func(base GPPhysical, disp int) Mem { return Mem{Base: base, Index: n, Scale: 1, Disp: disp} }
	CMPQ(n, U8(32))
	JB(LabelRef(l("16")))
	Label(l("32"))
	VMOVDQU(at(src, -32), y)
	VMOVDQU(y, at(dst, -32))
	SUBQ(U8(32), n)
	CMPQ(n, U8(32))
	JA(LabelRef(l("32")))
	VMOVDQU(Mem{Base: src}, y)
	VMOVDQU(y, Mem{Base: dst})
	JMP(LabelRef(l("done")))
	// The pairs of 16, 8 and 4 bytes: the first and the last of that size.
	classes := []struct {
		size int
		move func(from, to Op)
	}{
		{16, func(from, to Op) { VMOVDQU(from, x); VMOVDQU(x, to) }},
		{8, func(from, to Op) { MOVQ(from, t); MOVQ(t, to) }},
		{4, func(from, to Op) { MOVL(from, t.As32()); MOVL(t.As32(), to) }},
	}
	for i, c := range classes {
		next := "1"
		if i+1 < len(classes) {
			next = strconv.Itoa(classes[i+1].size)
		}
		Label(l(strconv.Itoa(c.size)))
		CMPQ(n, U8(c.size))
		JB(LabelRef(l(next)))
		c.move(Mem{Base: src}, Mem{Base: dst})
		c.move(at(src, -c.size), at(dst, -c.size))
		JMP(LabelRef(l("done")))
	}
	Label(l("1"))
	TESTQ(n, n)
	JZ(LabelRef(l("done")))
	MOVBLZX(Mem{Base: src}, t.As32())
	MOVB(t.As8(), Mem{Base: dst})
	MOVBLZX(at(src, -1), t.As32())
	MOVB(t.As8(), at(dst, -1))
	CMPQ(n, U8(3))
	JB(LabelRef(l("done")))
	MOVBLZX(Mem{Base: src, Disp: 1}, t.As32())
	MOVB(t.As8(), Mem{Base: dst, Disp: 1})
	Label(l("done"))
}

// xorBlockAVX2 emits, for the AVX2 small kernels, message block j+1's
// bytes of blk (rDst) XORed with its keystream kk and ANDed with the mask
// of its min(max(n - 64j, 0), 64) bytes of the message (RCX = n, R10 = 0,
// R11 = 64), and stores the ciphertext (kk for Seal, blk's bytes for Open;
// RBX = open) to the MAC input at R14 + R15 + 64j; with toBlk the result
// is also stored back to blk. It uses RAX, RSI and the temporaries t.
func xorBlockAVX2(j int, kk, t [2]VecPhysical, maskTail Mem, toBlk bool) {
	Comment("Block " + string(rune('1'+j)) + ": its bytes of the message, min(max(n - 64j, 0), 64), pick the mask.")
	MOVQ(RCX, RAX)
	switch {
	case j >= 4:
		SUBQ(U32(64*j), RAX)
		CMOVQLT(R10, RAX)
	case j > 0:
		SUBQ(U8(64*j), RAX)
		CMOVQLT(R10, RAX)
	}
	CMPQ(RAX, U8(64))
	CMOVQGT(R11, RAX)
	NEGQ(RAX)
	LEAQ(Mem{Base: RAX, Disp: 64}, RAX)
	LEAQ(maskTail, RSI)
	ADDQ(RSI, RAX)
	VMOVDQU(Mem{Base: rDst, Disp: 64 * j}, t[0])
	VMOVDQU(Mem{Base: rDst, Disp: 64*j + 32}, t[1])
	VPXOR(t[0], kk[0], kk[0])
	VPXOR(t[1], kk[1], kk[1])
	VPAND(Mem{Base: RAX}, kk[0], kk[0])
	VPAND(Mem{Base: RAX, Disp: 32}, kk[1], kk[1])
	if toBlk {
		VMOVDQU(kk[0], Mem{Base: rDst, Disp: 64 * j})
		VMOVDQU(kk[1], Mem{Base: rDst, Disp: 64*j + 32})
	}
	ct := smallName + "_ct" + string(rune('1'+j))
	TESTQ(RBX, RBX)
	JNZ(LabelRef(ct))
	VMOVDQA(kk[0], t[0])
	VMOVDQA(kk[1], t[1])
	Label(ct)
	VMOVDQU(t[0], Mem{Base: R14, Index: R15, Scale: 1, Disp: 64 * j})
	VMOVDQU(t[1], Mem{Base: R14, Index: R15, Scale: 1, Disp: 64*j + 32})
}
