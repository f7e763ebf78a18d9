package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// ---------------------------------------------------------------------------
// The AEAD of a short message in one call (AVX-512, AVX2)
//
//	func aeadSmallAVX512(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)
//	func aeadSmallAVX2(key *[32]byte, nonce []byte, blk *[64]byte, mac *[144]byte, adLen, n int, tag *[16]byte, open int) (ok int)
//
// For messages of at most 64 bytes the AEAD is one ChaCha20 block pair and a
// few Poly1305 blocks, and every step is on one dependency chain: block 0's
// 20 rounds (about 240 cycles on Zen 5 in the row layout of rowAVX512), then
// r and s, then the MAC of the padded additional data, the ciphertext and
// the lengths (about 13 cycles per 16 bytes), then the tag. Separate calls
// for the keystream and the MAC (a 64-byte Seal: XORBlocks, SumAEAD) added
// some 30 ns of buffer copies, clears and call set-up around that chain
// (bench/README.md); this function does the whole chain in one call, for
// len(src) <= 64 and len(ad) <= 64:
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
//  4. The MAC input laid out in a 144-byte frame buffer: ad and the
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
// The frame's copies of r and s and the vector registers are cleared before
// returning; the frame buffer holds only ad and the ciphertext.
//
// aeadSmallAVX2 is the same for CPUs without AVX-512 (AVX2 and BMI2), where
// no masked byte loads exist: the caller copies the message into blk and
// ad into mac (both zeroed), the kernel ANDs the result with a mask of n
// bytes from midMask (so no keystream byte past the message reaches memory),
// writes it back to blk (Open: only if the tag matches) and builds the MAC
// input in mac; the rounds are the AVX2 row code's (vecISA.qr).

func genSmall() {
	genSmallAVX512()
	genSmallAVX2(midMask) // 64 bytes of 0xff, then 64 zeros (genMidAVX2)
	genHChaCha20("AVX512", func() { qrLowLatency([]quad{{Y0, Y1, Y2, Y3}}, [][2]VecPhysical{{Y13, Y14}}) })
	v := vecISA{name: "AVX2", width: 32, avx: true}
	genHChaCha20("AVX2", func() { v.qr([]quad{{Y0, Y1, Y2, Y3}}, []VecPhysical{Y13}) })
}

// genHChaCha20 emits hChaCha20<isa>(out *[32]byte, key *[32]byte, nonce
// *[16]byte): HChaCha20 (draft-irtf-cfrg-xchacha-03, Section 2.2) in the row
// layout of the small kernels, for XChaCha20 calls that do not go through
// them: about 70 ns on Zen 5 with the AVX-512VL rounds against 86 for the
// portable code. The output is stored as two 16-byte rows (no feed-forward:
// rows 0 and 3).
func genHChaCha20(isa string, qr func()) {
	TEXT("hChaCha20"+isa, NOSPLIT, "func(out *[32]byte, key *[32]byte, nonce *[16]byte)")
	Doc("hChaCha20" + isa + " computes HChaCha20 of key and nonce into out: see _asm/small.go.")
	smallName = "hchacha" + isa
	k := &smallKernel{q: quad{Y0, Y1, Y2, Y3}, qr: qr}
	Load(Param("key"), RAX)
	Load(Param("nonce"), RBX)
	VBROADCASTI128(sigma, Y8)
	VBROADCASTI128(Mem{Base: RAX}, Y9)
	VBROADCASTI128(Mem{Base: RAX, Disp: 16}, Y10)
	VBROADCASTI128(Mem{Base: RBX}, Y11)
	k.doubleRounds(k.label("rounds"))
	Load(Param("out"), RAX)
	VMOVDQU(X0, Mem{Base: RAX})
	VMOVDQU(X3, Mem{Base: RAX, Disp: 16})
	VZEROALL()
	RET()
}

// smallKernel is what the two kernels share: the frame and the emitters of
// the common steps.
type smallKernel struct {
	f    fusedFrame
	sKey Mem
	q    quad
	qr   func() // one round on q
}

func newSmallKernel(qr func()) *smallKernel {
	return &smallKernel{
		f:    fusedFrame{r: AllocLocal(24), s1: AllocLocal(8)},
		sKey: AllocLocal(16),
		q:    quad{Y0, Y1, Y2, Y3},
		qr:   qr,
	}
}

// rows loads the input rows into Y8-Y11 from key (RAX) and nonce (RBX,
// 12 or 24 bytes), the 24-byte case through HChaCha20; nonce12 loads the
// 12-byte nonce's row into X11 as [0, n0, n1, n2] with DX free.
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
	k.doubleRounds(k.label("hrounds"))
	VMOVDQA(Y0, Y9)
	VMOVDQA(Y3, Y10)
	VMOVQ(Mem{Base: RBX, Disp: 16}, X11)
	VPSLLDQ(U8(8), X11, X11)

	Label(k.label("row3"))
	VINSERTI128(U8(1), X11, Y11, Y11)
	VPADDD(rowLanes, Y11, Y11)
}

var smallName string

func (k *smallKernel) label(s string) string { return smallName + "_" + s }

// doubleRounds copies Y8-Y11 to the working rows and runs ten double
// rounds.
func (k *smallKernel) doubleRounds(name string) {
	for j, r := range []VecPhysical{Y8, Y9, Y10, Y11} {
		VMOVDQA(r, k.q[j])
	}
	MOVL(U32(10), R13L)
	Label(name)
	k.qr()
	VPSHUFD(U8(0x93), Y0, Y0)
	VPSHUFD(U8(0x39), Y2, Y2)
	VPSHUFD(U8(0x4e), Y3, Y3)
	k.qr()
	VPSHUFD(U8(0x39), Y0, Y0)
	VPSHUFD(U8(0x93), Y2, Y2)
	VPSHUFD(U8(0x4e), Y3, Y3)
	DECL(R13L)
	JNZ(LabelRef(name))
}

// blocks runs the main rounds, adds the input, sets r, s1 and s from block
// 0 and leaves block 1 in Y4 (bytes 0-31) and Y5 (32-63).
func (k *smallKernel) blocks() {
	k.doubleRounds(k.label("rounds"))
	for j, r := range []VecPhysical{Y8, Y9, Y10, Y11} {
		VPADDD(r, k.q[j], k.q[j])
	}
	Comment("r = block 0's bytes 0-15, clamped; s = bytes 16-31; s1 = r1 + r1>>2.")
	VMOVQ(X0, R8)
	VPEXTRQ(U8(1), X0, R9)
	MOVQ(U64(0x0FFFFFFC0FFFFFFF), RAX)
	ANDQ(RAX, R8)
	MOVQ(U64(0x0FFFFFFC0FFFFFFC), RAX)
	ANDQ(RAX, R9)
	MOVQ(R8, k.f.r)
	MOVQ(R9, k.f.r.Offset(8))
	MOVQ(R9, RAX)
	SHRQ(U8(2), RAX)
	ADDQ(R9, RAX)
	MOVQ(RAX, k.f.s1)
	VMOVDQU(X1, k.sKey)
	VPERM2I128(U8(0x31), Y1, Y0, Y4)
	VPERM2I128(U8(0x31), Y3, Y2, Y5)
}

// lensAndMAC stores the lengths (RDX = len(ad), RCX = len(src)) after the
// padded ad and ciphertext in the MAC input at R14 (the ciphertext already
// at R14 + RAX, RAX = pa) and absorbs it: h in R8, R9, R12.
func (k *smallKernel) lensAndMAC() [3]GPPhysical {
	LEAQ(Mem{Base: RCX, Disp: 15}, RBX)
	ANDQ(I8(-16), RBX)
	ADDQ(RAX, RBX)
	MOVQ(RDX, Mem{Base: R14, Index: RBX, Scale: 1})
	MOVQ(RCX, Mem{Base: R14, Index: RBX, Scale: 1, Disp: 8})
	LEAQ(Mem{Base: RBX, Disp: 16}, R15)
	SHRQ(U8(4), R15)

	Comment("Poly1305 of (pa+pc)/16 + 1 blocks: h = (h + m)·r per block.")
	h := [3]GPPhysical{R8, R9, R12}
	for _, r := range h {
		XORL(r.As32(), r.As32())
	}
	Label(k.label("blocks"))
	run(polyBlockOps(k.f, [4]GPPhysical{RAX, RBX, R10, R11}, R14, h, 0))
	ADDQ(U8(16), R14)
	DECQ(R15)
	JNZ(LabelRef(k.label("blocks")))
	return h
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

	Comment("Clear r, s1 and s from the frame and the vector registers.")
	XORL(EAX, EAX)
	for _, m := range []Mem{k.f.r, k.f.r.Offset(8), k.f.s1, k.sKey, k.sKey.Offset(8)} {
		MOVQ(RAX, m)
	}
}

func genSmallAVX512() {
	TEXT("aeadSmallAVX512", NOSPLIT, "func(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)")
	Doc("aeadSmallAVX512 seals (open == 0) or opens a message of at most 64 bytes",
		"with at most 64 bytes of additional data in one call: see _asm/small.go.")
	smallName = "small512"
	k := newSmallKernel(func() { qrLowLatency([]quad{{Y0, Y1, Y2, Y3}}, [][2]VecPhysical{{Y13, Y14}}) })
	buf := AllocLocal(144)

	Load(Param("key"), RAX)
	Load(Param("nonce").Base(), RBX)
	Load(Param("dst").Base(), rDst)
	Load(Param("src").Base(), rSrc)
	Load(Param("src").Len(), RCX)

	Comment("Blocks 0 (low lanes) and 1 (high lanes), row layout; the last row is",
		"the counter and the nonce: the nonce's 12 bytes loaded under a mask and",
		"shifted up by the counter's 4.")
	k.rows(func() {
		MOVL(U32(0xfff), EDX)
		KMOVW(EDX, K3)
		VMOVDQU8_Z(Mem{Base: RBX}, K3, X11)
		VPSLLDQ(U8(4), X11, X11)
	})

	Comment("Off the chain: ad, zero-padded, to buf[0:64]; the masks of",
		"len(src) bytes in K1 and len(ad) bytes in K2.")
	LEAQ(buf, R14)
	Load(Param("ad").Base(), RBX)
	Load(Param("ad").Len(), RDX)
	MOVQ(I32(-1), RAX)
	BZHIQ(RCX, RAX, RAX)
	KMOVQ(RAX, K1)
	MOVQ(I32(-1), RAX)
	BZHIQ(RDX, RAX, RAX)
	KMOVQ(RAX, K2)
	VMOVDQU8_Z(Mem{Base: RBX}, K2, Z16)
	VMOVDQU64(Z16, Mem{Base: R14})

	k.blocks()
	Comment("Block 1 as 64 bytes in Z4; Z6 = src ^ Z4 under K1.")
	VINSERTI64X4(U8(1), Y5, Z4, Z4)
	VMOVDQU8_Z(Mem{Base: rSrc}, K1, Z5)
	VPXORQ(Z4, Z5, Z6)

	Comment("The ciphertext (Z6 under K1 for Seal, Z5 for Open) at buf[pa:], pa =",
		"len(ad) rounded up to 16, then the lengths at buf[pa+pc:], pc = len(src)",
		"rounded up to 16.")
	Load(Param("open"), RAX)
	TESTQ(RAX, RAX)
	JNZ(LabelRef("small512_ct"))
	VMOVDQU8_Z(Z6, K1, Z5)
	Label("small512_ct")
	LEAQ(Mem{Base: RDX, Disp: 15}, RAX)
	ANDQ(I8(-16), RAX)
	VMOVDQU64(Z5, Mem{Base: R14, Index: RAX, Scale: 1})
	h := k.lensAndMAC()
	k.finish(h, func() { VMOVDQU8(Z6, K1, Mem{Base: rDst}) })
	VPXORD(Z16, Z16, Z16)
	VZEROALL()
	RET()
}

func genSmallAVX2(maskTail Mem) {
	TEXT("aeadSmallAVX2", NOSPLIT, "func(key *[32]byte, nonce []byte, blk *[64]byte, mac *[144]byte, adLen, n int, tag *[16]byte, open int) (ok int)")
	Doc("aeadSmallAVX2 seals (open == 0) or opens a message of at most 64 bytes",
		"in blk, with ad in mac, in one call: see _asm/small.go.")
	smallName = "small2"
	v := vecISA{name: "AVX2", width: 32, avx: true}
	k := newSmallKernel(func() { v.qr([]quad{{Y0, Y1, Y2, Y3}}, []VecPhysical{Y13}) })

	Load(Param("key"), RAX)
	Load(Param("nonce").Base(), RBX)
	Comment("Blocks 0 (low lanes) and 1 (high lanes), row layout; the last row is",
		"the counter (0) and the nonce's 12 bytes.")
	k.rows(func() {
		VMOVQ(Mem{Base: RBX}, X11)
		VPINSRD(U8(2), Mem{Base: RBX, Disp: 8}, X11, X11)
		VPSLLDQ(U8(4), X11, X11)
	})
	k.blocks()

	Comment("Y4:Y5 = (blk ^ block 1) & mask of n bytes; the ciphertext (that for",
		"Seal, blk for Open) at mac[pa:], pa = adLen rounded up to 16.")
	Load(Param("blk"), rDst)
	Load(Param("mac"), R14)
	Load(Param("adLen"), RDX)
	Load(Param("n"), RCX)
	LEAQ(maskTail.Offset(64), RAX)
	SUBQ(RCX, RAX)
	VMOVDQU(Mem{Base: rDst}, Y6)
	VMOVDQU(Mem{Base: rDst, Disp: 32}, Y7)
	VPXOR(Y6, Y4, Y4)
	VPXOR(Y7, Y5, Y5)
	VPAND(Mem{Base: RAX}, Y4, Y4)
	VPAND(Mem{Base: RAX, Disp: 32}, Y5, Y5)
	LEAQ(Mem{Base: RDX, Disp: 15}, RAX)
	ANDQ(I8(-16), RAX)
	Load(Param("open"), RBX)
	TESTQ(RBX, RBX)
	JNZ(LabelRef("small2_ct"))
	VMOVDQA(Y4, Y6)
	VMOVDQA(Y5, Y7)
	Label("small2_ct")
	VMOVDQU(Y6, Mem{Base: R14, Index: RAX, Scale: 1})
	VMOVDQU(Y7, Mem{Base: R14, Index: RAX, Scale: 1, Disp: 32})
	h := k.lensAndMAC()
	k.finish(h, func() {
		VMOVDQU(Y4, Mem{Base: rDst})
		VMOVDQU(Y5, Mem{Base: rDst, Disp: 32})
	})
	VZEROALL()
	RET()
}
