package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// ---------------------------------------------------------------------------
// Mid-size stitched AVX-512 AEAD kernel (messages of 1025..2047 bytes)
//
//	func midAVX512(s *State, dst, src, ad []byte, tag *[16]byte, open int) (ok int)
//
// The AEAD's whole Seal and Open of 1025..2047 bytes (aeadasm.MidAVX512)
// in one call: two keystream batches with no copy of the message through a
// buffer, the whole MAC and the tag. The ciphertext ("mac" below) is dst for
// a Seal, src for an Open; n = len(src), full = n &^ 63, tailLen = n & 63.
//
//   - on entry: *tag is read into the frame (an Open's dst may start where
//     the tag does), the lengths block is built in the frame, and the
//     additional data's partial last block is loaded through a byte mask
//     (AVX-512BW: masked-off bytes are not read, and do not fault) and
//     stored zero-padded to the frame.
//   - batch 1: xorBlocksAVX512's hybrid batch (16 zmm lanes and a scalar
//     block in general-purpose registers: hybridRounds, hybridScalarStore).
//     Lane 0, counter s.Counter, is the Poly1305 key block: r0, r1 and s
//     are taken from its register (s to the frame), nothing is stored;
//     lanes 1..15 and the scalar block encrypt src[0:1024] into dst[0:1024].
//   - between the batches: on the vector units the IFMA powers of r (r^8 in
//     every lane, the lane powers r^8..r^1); on the integer units r
//     clamped, then the additional data (whole 16-byte blocks from ad, the
//     padded last one from the frame) and the first (full/16) mod 8 blocks
//     of mac ("lead") absorbed one block at a time by stitched.go's step
//     (polyBlockOps) from h = 0, so that the IFMA steps end at the end of
//     the whole blocks.
//   - batch 2: the remaining full/64 - 16 blocks plus, when tailLen > 0,
//     the partial block (midTail: src loaded through a byte mask, the
//     ciphertext zero-padded to the frame for the MAC; a Seal stores it to
//     dst through the mask, an Open keeps its plaintext in the frame): up to
//     4 blocks in the row layout (one zmm register set, midRows), 5..8 in
//     the 8-lane ymm layout of transposedVL8 (midVL8), 9..16 in 16 zmm
//     lanes (midZ16), each emitted twice, for a Seal and for an Open. Its
//     ten double rounds are unrolled and merged with IFMA steps of mac
//     (eight blocks each, from the lead on): a Seal's first seven (they lie
//     in dst[0:1024], which batch 1 wrote), an Open's first 8, 10 or 12
//     (the fewest that the layout's lengths have; src is all there). The
//     IFMA code is poly1305_ifma.go's method (44-bit limbs,
//     eight lanes of r^8, a last step by the lane powers; the idea is
//     OpenSSL's poly1305_blocks_vpmadd52), here on Z16-Z31 with r^8 and the
//     lane powers read from the frame, starting from the integer
//     accumulator in lane 0.
//   - the remaining IFMA steps: an Open's before batch 2's stores, a Seal's
//     after them (they MAC what batch 2 wrote); then the last step, the sum
//     of the lanes, and h in 64-bit limbs (h[2] < 8).
//   - the end, on the integer units (small.go's finish): the partial
//     block's 16-byte blocks from the frame and the lengths block, then tag
//     = (h mod 2^130-5) + s. A Seal writes it to *tag and returns 1; an Open
//     compares it with the tag read on entry (XOR and OR, no early exit)
//     and only if they are equal stores the partial block's plaintext
//     (through the byte mask) and returns 1, else 0. The plaintext of the
//     whole blocks is written before the comparison: on 0 the caller clears
//     dst.
//
// s.Counter advances by 17 + the blocks of batch 2. An Open in place (dst
// == src) first copies the ciphertext to the frame and reads it there
// (midCopyInPlace): batch 1 overwrites the ciphertext that the MAC reads
// during batch 2.
//
// midSmallAVX512 (449..1024 bytes) is the same kernel with a smaller batch
// 1: transposedVL8's 8-lane ymm batch (midBatch1VL8), lane 0 the Poly1305
// key block, lanes 1..7 message blocks 0..6 (448 bytes), s.Counter + 8.
// Batch 2 (1..9 blocks, from byte 448 on) is the ymm-lane or zmm-lane
// layout above, merging three IFMA steps for a Seal (the 28 16-byte blocks
// of dst[0:448] minus a lead of 0 or 4) and 5 or 7 for an Open (ymm lanes:
// 705..960 bytes, 5..7 steps; zmm lanes: 961..1024, 7..8). With 1..4
// blocks in batch 2 (449..704 bytes) both batches are bound by the latency
// of their rounds, so batch 2's row set runs in batch 1's rounds instead
// (midMergedRows, the two instruction streams merged), and all the IFMA
// steps follow the powers. Everything else is genMidAVX512Variant's common
// code.
//
// Frame: avx512Frame for the hybrid batch, r0, r1, s1 for the integer
// steps, s, r^8 and the lane powers as five 64-byte vectors each (VPMADD52
// reads them from memory: batch 2 leaves only Z16-Z31 to the MAC), the
// tag read on entry, the lengths block, the padded partial blocks (ad;
// the message's ciphertext and an Open's plaintext), counts and pointers,
// and room for the ciphertext of an Open in place.
// The key-derived slots and the plaintext are wiped before returning.

const signatureMid512 = "func(s *[12]uint32, dst []byte, src []byte, ad []byte, tag *[16]byte, open int) (ok int)"

type midFrame struct {
	hy               avx512Frame
	mac, n2, tailLen Mem
	open             Mem // the open argument
	extra            Mem // IFMA steps after the first seven
	lead, macV       Mem // blocks of mac before the IFMA steps, and where those start
	total2           Mem // blocks of batch 2, the tail block included
	r                Mem // r0, r1, 0
	s1               Mem
	sKey             Mem // s, the key block's bytes 16..31
	tagIn            Mem // *tag as read on entry (Open: the expected tag)
	lens             Mem // len(ad), len(src): the last Poly1305 block
	adBuf            Mem // the additional data's partial last block, zero-padded
	ctTail, ptTail   Mem // the partial last block's ciphertext (zero-padded) and an Open's plaintext
	r8, pw           Mem // r^8 everywhere, the lane powers: 5 x 64 bytes each
	ctCopy           Mem // an Open in place's ciphertext (midCopyInPlace)

	off2      int // batch 2's first byte: 64 x batch 1's message blocks
	sealSteps int // the IFMA steps a Seal merges into batch 2 (they MAC dst[0:off2])
}

// midVariant is one TEXT of the mid-size kernel: the 1025..2047-byte one
// (batch 1 the hybrid 17-block batch) or the 449..1024-byte one (batch 1
// the 8-lane ymm batch).
type midVariant struct {
	name       string
	doc        []string
	b1         int    // batch 1's message blocks (its key block not counted)
	sealSteps  int    // IFMA steps a Seal merges into batch 2: those in dst[0:64·b1]
	openSteps  [3]int // an Open's merged IFMA steps: rows, ymm lanes, zmm lanes
	batch1     func(f midFrame)
	b1Comment  []string
	rowsMerged bool // batch 2's row layout (1..4 blocks) runs with batch 1 (midMergedRows)
}

// stepWords names the number of merged IFMA steps in comments.
var stepWords = map[int]string{3: "three", 7: "seven"}

// The IFMA steps an Open merges into batch 2's rounds in each layout: the
// fewest its lengths have (rows: 1025..1280 bytes, 8..10 steps; ymm lanes:
// 1281..1536, 10..12; zmm lanes: 1537..2047, 12..15).
const (
	openStepsRows = 8
	openStepsVL8  = 10
	openStepsZ16  = 12
)

func genMidAVX512() {
	genMidAVX512Variant(midVariant{
		name: "midAVX512",
		doc: []string{"midAVX512 seals (open == 0) or opens 1025..2047 bytes in two batches with",
			"the Poly1305 key block, MACs the additional data and the ciphertext during",
			"and after the second batch, and writes (Seal) or checks (Open) the tag",
			"(see mid_avx512.go in _asm)."},
		b1: 16, sealSteps: 7, openSteps: [3]int{openStepsRows, openStepsVL8, openStepsZ16},
		batch1:    midBatch1Hybrid,
		b1Comment: []string{"Batch 1: first column round of columns 1-3, the same for every lane."},
	})
	// The labels of the second TEXT reuse numbers (labels are local to a
	// TEXT), so that the kernels generated after it keep their labels.
	seq := labelSeq
	defer func() { labelSeq = seq }()
	genMidAVX512Variant(midVariant{
		name: "midSmallAVX512",
		doc: []string{"midSmallAVX512 seals (open == 0) or opens 449..1024 bytes as midAVX512",
			"does, with batch 1 the 8-lane ymm batch: the Poly1305 key block and the",
			"first 448 bytes (see mid_avx512.go in _asm)."},
		b1: 7, sealSteps: 3, openSteps: [3]int{3, 5, 7},
		batch1: midBatch1VL8, rowsMerged: true,
		b1Comment: []string{"Batch 1: eight ymm lanes (transposedVL8's layout), lane 0 the",
			"Poly1305 key block, lanes 1-7 message blocks 0-6."},
	})
}

// midCopyInPlace makes an Open in place (dst == src; RBX = open) read a
// copy of its ciphertext in the frame: batch 1 writes its plaintext where
// the MAC reads the ciphertext after it. WireGuard and QUIC open packets in
// place. The copy (whole 64-byte chunks, the last partial one through a
// byte mask) holds only ciphertext; src and mac in the frame then point at
// it.
func midCopyInPlace(f midFrame) {
	Comment("An Open in place reads a copy of its ciphertext in the frame (batch 1",
		"writes its plaintext where the MAC reads the ciphertext after it).")
	TESTQ(RBX, RBX)
	JZ(LabelRef("mid_copy_done"))
	CMPQ(rSrc, rDst)
	JNE(LabelRef("mid_copy_done"))
	Load(Param("src").Len(), RCX)
	MOVQ(RCX, RDX)
	SHRQ(U8(6), RCX)
	LEAQ(f.ctCopy, R8)
	MOVQ(R8, f.hy.src)
	MOVQ(R8, f.mac)
	MOVQ(rSrc, R9)
	Label("mid_copy")
	VMOVDQU64(Mem{Base: R9}, Z0)
	VMOVDQU64(Z0, Mem{Base: R8})
	ADDQ(U8(64), R9)
	ADDQ(U8(64), R8)
	DECQ(RCX)
	JNZ(LabelRef("mid_copy"))
	ANDQ(U8(63), RDX)
	JZ(LabelRef("mid_copy_tail_done"))
	byteMask(RDX, R10, K1)
	VMOVDQU8_Z(Mem{Base: R9}, K1, Z0)
	VMOVDQU8(Z0, K1, Mem{Base: R8})
	Label("mid_copy_tail_done")
	MOVQ(f.hy.src, rSrc)
	Label("mid_copy_done")
}

func genMidAVX512Variant(v midVariant) {
	TEXT(v.name, 0, signatureMid512)
	Doc(v.doc...)
	f := midFrame{
		hy: avx512Frame{
			state: AllocLocal(8), src: AllocLocal(8), dst: AllocLocal(8),
			n: AllocLocal(8), rounds: AllocLocal(8), words: AllocLocal(64),
		},
		mac: AllocLocal(8), n2: AllocLocal(8), tailLen: AllocLocal(8), open: AllocLocal(8),
		extra: AllocLocal(8), total2: AllocLocal(8), lead: AllocLocal(8), macV: AllocLocal(8),
		r: AllocLocal(24), s1: AllocLocal(8),
		sKey: AllocLocal(16), tagIn: AllocLocal(16), lens: AllocLocal(16), adBuf: AllocLocal(16),
		ctTail: AllocLocal(64), ptTail: AllocLocal(64),
		r8: AllocLocal(5 * 64), pw: AllocLocal(5 * 64),
		ctCopy: AllocLocal(map[int]int{7: 1024, 16: 2048}[v.b1]), // the longest message, rounded up
		off2:   64 * v.b1, sealSteps: v.sealSteps,
	}
	vec := func(m Mem, i int) Mem { return m.Offset(64 * i) }

	Comment("Arguments to the frame; n2 = whole blocks of batch 2, tailLen = the",
		"bytes of a partial last block; the ciphertext (mac) is src for an Open,",
		"dst for a Seal.")
	Load(Param("s"), rState)
	MOVQ(rState, f.hy.state)
	Load(Param("src").Base(), rSrc)
	MOVQ(rSrc, f.hy.src)
	Load(Param("dst").Base(), rDst)
	MOVQ(rDst, f.hy.dst)
	Load(Param("src").Len(), RCX)
	MOVQ(RCX, f.lens.Offset(8))
	MOVQ(RCX, RDX)
	ANDQ(U8(63), RDX)
	MOVQ(RDX, f.tailLen)
	SHRQ(U8(6), RCX)
	SUBQ(U8(v.b1), RCX)
	MOVQ(RCX, f.n2)
	Load(Param("open"), RBX)
	MOVQ(RBX, f.open)
	MOVQ(rDst, RCX)
	TESTQ(RBX, RBX)
	CMOVQNE(rSrc, RCX)
	MOVQ(RCX, f.mac)
	midCopyInPlace(f)
	Comment("The whole blocks' 16-byte blocks: the first len/16 mod 8 (lead) one at",
		"a time on the integer units, the rest in IFMA steps of eight from macV =",
		fmt.Sprintf("mac + 16·lead: %s during batch 2's rounds, extra = len/128 - %d after.",
			stepWords[v.sealSteps], v.sealSteps))
	Load(Param("src").Len(), RCX)
	SHRQ(U8(6), RCX)
	SHLQ(U8(2), RCX)
	MOVQ(RCX, RDX)
	ANDQ(U8(7), RDX)
	MOVQ(RDX, f.lead)
	SHLQ(U8(4), RDX)
	ADDQ(f.mac, RDX)
	MOVQ(RDX, f.macV)
	SHRQ(U8(3), RCX)
	SUBQ(U8(v.sealSteps), RCX)
	MOVQ(RCX, f.extra)
	Comment("total2 = n2, plus 1 with a partial last block.")
	MOVQ(f.n2, RCX)
	XORL(EDX, EDX)
	CMPQ(f.tailLen, U8(0))
	SETNE(DL)
	ADDQ(RDX, RCX)
	MOVQ(RCX, f.total2)
	Comment("*tag before anything is written (an Open's dst may start where the tag",
		"does), the lengths block, and the additional data's partial last block,",
		"zero-padded by a masked load (AVX-512BW: the masked-off bytes are not read).")
	Load(Param("tag"), RCX)
	VMOVDQU(Mem{Base: RCX}, X0)
	VMOVDQU(X0, f.tagIn)
	Load(Param("ad").Len(), RCX)
	MOVQ(RCX, f.lens)
	MOVQ(RCX, RDX)
	ANDQ(U8(15), RDX)
	JZ(LabelRef("mid_adbuf_done"))
	ANDQ(I8(-16), RCX)
	Load(Param("ad").Base(), RBX)
	ADDQ(RCX, RBX)
	MOVQ(I32(-1), R8)
	BZHIQ(RDX, R8, R8)
	KMOVQ(R8, K5)
	VMOVDQU8_Z(Mem{Base: RBX}, K5, X0)
	VMOVDQU(X0, f.adBuf)
	Label("mid_adbuf_done")

	if v.rowsMerged {
		Comment("1..4 blocks after the first 448 bytes: those blocks' row set",
			"runs in the same rounds as batch 1 (midMergedRows); the MAC after.")
		CMPQ(f.total2, U8(4))
		JA(LabelRef("mids_batch1"))
		CMPQ(f.total2, U8(2))
		JA(LabelRef("mids_rows_z"))
		midMergedRows(f, false)
		JMP(LabelRef("mids_batch1_done"))
		Label("mids_rows_z")
		midMergedRows(f, true)
		JMP(LabelRef("mids_batch1_done"))
		Label("mids_batch1")
	}
	Comment(v.b1Comment...)
	v.batch1(f)
	if v.rowsMerged {
		Label("mids_batch1_done")
	}

	Comment("r, clamped, from the key block; s1 = r1 + r1>>2.")
	MOVQ(U64(0x0FFFFFFC0FFFFFFF), RCX)
	ANDQ(RCX, R8)
	MOVQ(U64(0x0FFFFFFC0FFFFFFC), RCX)
	ANDQ(RCX, R9)
	MOVQ(R8, f.r)
	MOVQ(R9, f.r.Offset(8))
	MOVQ(U32(0), f.r.Offset(16))
	MOVQ(R9, RCX)
	SHRQ(U8(2), RCX)
	ADDQ(R9, RCX)
	MOVQ(RCX, f.s1)

	Comment("The IFMA powers of r (poly1305_ifma.go's ifmaPowers) into the frame: r^8 in",
		"every lane, and the lane powers [r^8, r^4, r^7, r^3, r^6, r^2, r^5, r^1].")
	XORL(R10L, R10L)
	ifmaPowersTo([3]GPPhysical{R8, R9, R10}, f.r8, f.pw)

	Comment("The padded additional data, one block at a time from h = 0 (the",
		"scalar step of stitched.go), while the vector units compute the powers.")
	hA := [3]GPPhysical{R9, R10, R11}
	pf := stitchedFrame{r: f.r, s1: f.s1}
	tmp := [4]GPPhysical{RAX, RBX, RCX, R12}
	for _, r := range hA {
		XORL(r.As32(), r.As32())
	}
	Load(Param("ad").Base(), RSI)
	Load(Param("ad").Len(), R13)
	SHRQ(U8(4), R13)
	JZ(LabelRef("mid_ad_tail"))
	Label("mid_ad_loop")
	run(polyBlockOps(pf, tmp, RSI, hA, 0))
	ADDQ(U8(16), RSI)
	DECQ(R13)
	JNZ(LabelRef("mid_ad_loop"))
	Label("mid_ad_tail")
	TESTQ(U32(15), f.lens)
	JZ(LabelRef("mid_ad_done"))
	LEAQ(f.adBuf, RSI)
	run(polyBlockOps(pf, tmp, RSI, hA, 0))
	Label("mid_ad_done")
	Comment("The lead blocks of mac.")
	MOVQ(f.lead, R13)
	TESTQ(R13, R13)
	JZ(LabelRef("mid_lead_done"))
	MOVQ(f.mac, RSI)
	Label("mid_lead_loop")
	run(polyBlockOps(pf, tmp, RSI, hA, 0))
	ADDQ(U8(16), RSI)
	DECQ(R13)
	JNZ(LabelRef("mid_lead_loop"))
	Label("mid_lead_done")

	// Batch 2's registers: the keystream in Z0-Z15 (Y0-Y15); the MAC in
	// Z16-Z31, whose accumulator (Z16-Z18) and masks (Z29-Z31) stay live
	// across the stores (a Seal's last steps follow them), which use the
	// MAC's temporaries.
	g := ifmaRegs{
		d: [6]VecPhysical{Z19, Z20, Z21, Z22, Z23, Z24}, t: Z25,
		l:   [3]VecPhysical{Z26, Z27, Z28},
		m44: Z29, m42: Z30, hibit: Z31,
	}
	zH := [3]VecPhysical{Z16, Z17, Z18}
	Comment("h in 44-bit limbs in lane 0 of the IFMA accumulator; the masks.")
	ifmaTo44(hA, RAX, RCX)
	for i := 0; i < 3; i++ {
		VMOVQ(hA[i], zH[i].AsX())
	}
	g.constants()

	rMac := R8
	r8 := [5]Op{vec(f.r8, 0), vec(f.r8, 1), vec(f.r8, 2), vec(f.r8, 3), vec(f.r8, 4)}
	pw := [5]Op{vec(f.pw, 0), vec(f.pw, 1), vec(f.pw, 2), vec(f.pw, 3), vec(f.pw, 4)}
	// extraSteps emits the IFMA steps after the first merged ones (from
	// macV + 128·merged), f.extra of them, and clears f.extra.
	extraSteps := func(name string, merged int) {
		MOVQ(f.extra, R9)
		TESTQ(R9, R9)
		JZ(LabelRef(name + "_done"))
		MOVQ(f.macV, rMac)
		ADDQ(U32(128*merged), rMac)
		Label(name)
		run(ifmaMulReduceOps(g, zH, r8, zH))
		run(ifmaAbsorbOps(g, zH, rMac, 0))
		ADDQ(U32(128), rMac)
		DECQ(R9)
		JNZ(LabelRef(name))
		MOVQ(U32(0), f.extra)
		Label(name + "_done")
	}
	// The first IFMA steps from macV on, merged into batch 2's rounds.
	macOps := func(steps int) []func() {
		ops := []func(){func() { MOVQ(f.macV, rMac) }}
		ops = append(ops, ifmaAbsorbOps(g, zH, rMac, 0)...)
		for step := 1; step < steps; step++ {
			ops = append(ops, ifmaMulReduceOps(g, zH, r8, zH)...)
			ops = append(ops, ifmaAbsorbOps(g, zH, rMac, 128*step)...)
		}
		return ops
	}
	rows := func(wide bool) func(f midFrame, mac []func(), open func(string)) {
		return func(f midFrame, mac []func(), open func(string)) { midRows(f, mac, open, wide) }
	}
	layouts := []struct {
		name  string
		max   int // the most blocks of batch 2 it takes (the last: any)
		steps int // an Open's merged IFMA steps: the fewest this layout has
		emit  func(f midFrame, mac []func(), open func(string))
	}{
		{"mid_rowsy", 2, v.openSteps[0], rows(false)},
		{"mid_rows", 4, v.openSteps[0], rows(true)},
		{"mid_vl8", 8, v.openSteps[1], midVL8},
		{"mid_z16", 16, v.openSteps[2], midZ16},
	}

	Comment("Batch 2: blocks s.Counter+0 ...: up to four in the row layout (one",
		"zmm register set, a block per 128-bit lane; its ymm halves for one or",
		"two), up to eight in eight",
		"transposed ymm lanes, else in 16 zmm lanes; each for a Seal ("+stepWords[v.sealSteps],
		fmt.Sprintf("IFMA steps merged into the rounds: they MAC dst[0:%d]) and for an", f.off2),
		"Open (more: src is all there).")
	MOVQ(f.hy.state, rState)
	first := 0
	if v.rowsMerged {
		Comment("Merged rows: all the IFMA steps of mac now (everything is written).")
		CMPQ(f.total2, U8(4))
		JA(LabelRef("mid_vl8"))
		run(macOps(1))
		ADDQ(U8(v.sealSteps-1), f.extra)
		extraSteps("mids_mac", 1)
		JMP(LabelRef("mid_rows_done"))
		first = 2
	}
	for i, l := range layouts {
		if i < first {
			continue
		}
		if i > first || v.rowsMerged {
			Label(l.name)
		}
		if i < len(layouts)-1 {
			CMPQ(f.total2, U8(l.max))
			JA(LabelRef(layouts[i+1].name))
		}
		CMPQ(f.open, U8(0))
		JNE(LabelRef(l.name + "_o"))
		l.emit(f, macOps(v.sealSteps), func(string) {})
		JMP(LabelRef("mid_rows_done"))

		Label(l.name + "_o")
		Comment("Open: more IFMA steps merged (extra counts the rest, run before",
			"the stores).")
		if l.steps > v.sealSteps {
			SUBQ(U8(l.steps-v.sealSteps), f.extra)
		}
		l.emit(f, macOps(l.steps), func(name string) {
			extraSteps(name, l.steps)
		})
		if i < len(layouts)-1 {
			JMP(LabelRef("mid_rows_done"))
		}
	}
	Label("mid_rows_done")
	MOVQ(f.hy.state, rState)
	MOVQ(f.total2, RCX)
	ADDL(ECX, mem(rState, offCounter))

	Comment("The rest of mac (a Seal's, now written), then each lane times its",
		"own power of r, the sum of the lanes, and h in 64-bit limbs.")
	extraSteps("mid_mac_seal", v.sealSteps)
	Label("mid_mac_last")
	run(ifmaMulReduceOps(g, zH, pw, zH))
	lsum := [3]GPPhysical{R9, R10, R11}
	h := [3]GPPhysical{R12, R13, R14}
	for i := 0; i < 3; i++ {
		run(ifmaHsumOps(zH[i], g.l[i], lsum[i]))
	}
	run(ifmaTo64Ops(lsum, h, R15, RBX))

	Comment("The partial block's 16-byte blocks (ciphertext, zero-padded) and the",
		"lengths, one at a time (stitched.go's step).")
	tmp = [4]GPPhysical{RAX, RBX, RCX, R15}
	MOVQ(f.tailLen, RDI)
	ADDQ(U8(15), RDI)
	SHRQ(U8(4), RDI)
	JZ(LabelRef("mid_ct_done"))
	LEAQ(f.ctTail, RSI)
	Label("mid_ct_loop")
	run(polyBlockOps(pf, tmp, RSI, h, 0))
	ADDQ(U8(16), RSI)
	DECQ(RDI)
	JNZ(LabelRef("mid_ct_loop"))
	Label("mid_ct_done")
	LEAQ(f.lens, RSI)
	run(polyBlockOps(pf, tmp, RSI, h, 0))

	Comment("tag = (h mod 2^130-5) + s mod 2^128 (small.go's finish): h < 2p",
		"here, so subtract p once if that does not borrow (CMOV: no branch on h).")
	polyTag(h, [3]GPPhysical{RAX, RBX, RCX}, f.sKey)
	CMPQ(f.open, U8(0))
	JNE(LabelRef("mid_verify"))
	Comment("Seal: write the tag.")
	Load(Param("tag"), RAX)
	MOVQ(h[0], Mem{Base: RAX})
	MOVQ(h[1], Mem{Base: RAX, Disp: 8})
	MOVL(U32(1), EBX)
	JMP(LabelRef("mid_done"))
	Comment("Open: compare with the tag read on entry (XOR and OR, no early exit);",
		"only if they are equal store the partial block's plaintext.")
	Label("mid_verify")
	XORQ(f.tagIn, h[0])
	XORQ(f.tagIn.Offset(8), h[1])
	XORL(EBX, EBX)
	ORQ(h[0], h[1])
	JNZ(LabelRef("mid_done"))
	MOVQ(f.tailLen, RCX)
	TESTQ(RCX, RCX)
	JZ(LabelRef("mid_ok"))
	MOVQ(I32(-1), RAX)
	BZHIQ(RCX, RAX, RAX)
	KMOVQ(RAX, K5)
	VMOVDQU64(f.ptTail, Z0)
	Load(Param("src").Len(), RAX)
	ANDQ(I8(-64), RAX)
	ADDQ(f.hy.dst, RAX)
	VMOVDQU8(Z0, K5, Mem{Base: RAX})
	Label("mid_ok")
	MOVL(U32(1), EBX)
	Label("mid_done")
	Store(RBX, ReturnIndex(0))

	Comment("Wipe r, s1, s, the powers (key-derived) and an Open's plaintext from",
		"the frame.")
	VPXORD(Z0, Z0, Z0)
	for i := 0; i < 5; i++ {
		VMOVDQU64(Z0, vec(f.r8, i))
		VMOVDQU64(Z0, vec(f.pw, i))
	}
	VMOVDQU64(Z0, f.ptTail)
	VMOVDQU(X0, f.sKey)
	for _, m := range []Mem{f.r, f.r.Offset(8), f.s1} {
		MOVQ(U32(0), m)
	}
	VZEROUPPER()
	RET()
}

// midBatch1Hybrid emits batch 1 of midAVX512: xorBlocksAVX512's hybrid
// batch of 17 blocks, lane 0 the Poly1305 key block (r0, r1 left in R8,
// R9, s in the frame), lanes 1-15 and the scalar block message blocks
// 0-15; s.Counter advances by 17.
func midBatch1Hybrid(f midFrame) {
	pre := precomputeColumns()
	hybridRounds(f.hy, pre, "mid_rounds17")
	hybridScalarStore(f.hy, 64*15)
	Comment("Lane 0 is the Poly1305 key block, lanes 1-15 message blocks 0-14.")
	addTranspose, _ := finishOps()
	run(addTranspose)
	VMOVQ(X0, R8)
	VPEXTRQ(U8(1), X0, R9)
	for b := 1; b < 16; b++ {
		VPXORD(mem(rSrc, 64*(b-1)), zreg(b), zreg(b))
		VMOVDQU32(zreg(b), mem(rDst, 64*(b-1)))
	}
	Comment("s = the key block's bytes 16..31.")
	VEXTRACTI32X4(U8(1), Z0, X0)
	VMOVDQU(X0, f.sKey)
	ADDL(U8(17), mem(rState, offCounter))
	Comment("Wipe the scalar block's words (key material) from the frame.")
	for i := 0; i < 8; i++ {
		MOVQ(U32(0), f.hy.words.Offset(8*i))
	}

}

// midBatch1VL8 emits batch 1 of midSmallAVX512: transposedVL8's 8-lane ymm
// batch (the first double round reading the broadcast inputs in Y20-Y31 in
// place, the other nine in a loop), lane 0 the Poly1305 key block (r0, r1
// left in R8, R9, s in the frame), lanes 1-7 message blocks 0-6; s.Counter
// advances by 8. rState, rSrc and rDst are loaded.
func midBatch1VL8(f midFrame) {
	y := yreg
	vl8Rounds("mids_rounds")

	Comment("Add the input state and transpose: lane l of register 4g+k holds",
		"words 4g..4g+3 of block 4l+k.")
	for w := 0; w < 16; w++ {
		if w < 4 {
			VPADDD_BCST(sigma.Offset(4*w), y(w), y(w))
		} else {
			VPADDD(y(16+w), y(w), y(w))
		}
	}
	midVL8KeyAndStores(f)
	ADDL(U8(8), mem(rState, offCounter))
}

// midMergedRows emits batch 1 of midSmallAVX512 when batch 2 has 1..4
// blocks (449..704 bytes): both batches are bound by the latency of their
// rounds (about 110 and 70 ns), so they run in the same unrolled ten double
// rounds, merged: transposedVL8's 8 ymm lanes in Y0-Y15 (the key block and
// message blocks 0-6; the counters kept in Y16) and batch 2's row set
// (midRows' layout, blocks 8..11 after the state's counter) in Z20-Z22,
// Z25 with its inputs in Z26-Z29. Then batch 1's stores and r, s as
// midBatch1VL8 leaves them, and batch 2's stores as midRows does them
// (midTail for a partial block). s.Counter advances by 8 here.
//
// With wide false (batch 2 has one or two blocks) the row set's rounds run
// on its ymm halves, Y20-Y22, Y25 (which clear the upper halves): on cores
// that split each 512-bit instruction in two (AMD Zen 4) they cost half, and
// elsewhere the same; the adds and stores after stay 512 bits wide, on
// lanes the stores then skip.
func midMergedRows(f midFrame, wide bool) {
	y := yreg
	for w := 0; w < 16; w++ {
		switch {
		case w < 4:
			VPBROADCASTD(sigma.Offset(4*w), y(w))
		case w < 12:
			VPBROADCASTD(mem(rState, offKey+4*(w-4)), y(w))
		case w == 12:
			VPBROADCASTD(mem(rState, offCounter), Y16)
			VPADDD(iota16, Y16, Y16)
			VMOVDQA64(Y16, Y12)
		default:
			VPBROADCASTD(mem(rState, offNonce+4*(w-13)), y(w))
		}
	}
	ADDL(U8(8), mem(rState, offCounter))
	// Not Y23, Y24: midVL8KeyAndStores's temporaries.
	q := quad{Z20, Z21, Z22, Z25}
	in := [4]VecPhysical{Z26, Z27, Z28, Z29}
	VBROADCASTI32X4(sigma, in[0])
	VBROADCASTI32X4(mem(rState, offKey), in[1])
	VBROADCASTI32X4(mem(rState, offKey+16), in[2])
	VBROADCASTI32X4(mem(rState, offCounter), in[3])
	VPADDD(rowLanes, in[3], in[3])
	for i := range q {
		VMOVDQA64(in[i], q[i])
	}
	var vops, rops []func()
	qr := q // the row set's registers in the rounds
	if !wide {
		qr = quad{Y20, Y21, Y22, Y25}
	}
	for i := 0; i < 10; i++ {
		l := new(wordLocs)
		for w := range l {
			l[w] = y(w)
		}
		vops = append(vops, l.qrOps(columns[:])...)
		vops = append(vops, l.qrOps(diagonals[:])...)
		rops = append(rops, rowDoubleRoundOps(qr)...)
	}
	Comment("Ten double rounds of both batches (unrolled, merged).")
	merge(vops, rops)

	Comment("Batch 1: add the input state and transpose: lane l of register 4g+k",
		"holds words 4g..4g+3 of block 4l+k.")
	for w := 0; w < 16; w++ {
		switch {
		case w < 4:
			VPADDD_BCST(sigma.Offset(4*w), y(w), y(w))
		case w < 12:
			VPADDD_BCST(mem(rState, offKey+4*(w-4)), y(w), y(w))
		case w == 12:
			VPADDD(Y16, y(12), y(12))
		default:
			VPADDD_BCST(mem(rState, offNonce+4*(w-13)), y(w), y(w))
		}
	}
	midVL8KeyAndStores(f)

	Comment("Batch 2: add the input, put the blocks back together, XOR and store.")
	for i := range q {
		VPADDD(in[i], q[i], q[i])
	}
	MOVQ(f.hy.src, rSrc)
	MOVQ(f.hy.dst, rDst)
	ADDQ(U32(f.off2), rSrc)
	ADDQ(U32(f.off2), rDst)
	MOVQ(f.n2, RCX)
	MOVQ(f.tailLen, RDX)
	t := [4]VecPhysical{Z30, Z31, Z23, Z24} // not Z26: midTail's
	midRowStore(f, q, t)
}

// midVL8KeyAndStores transposes batch 1's 8 ymm lanes (the input added),
// leaves r0, r1 of the key block in R8, R9 and s in the frame, and stores
// message blocks 0-6 (src and dst in rSrc, rDst).
func midVL8KeyAndStores(f midFrame) {
	y := yreg
	t := [4]VecPhysical{Y16, Y17, Y18, Y19}
	for g := 0; g < 4; g++ {
		unpack4(y(4*g), y(4*g+1), y(4*g+2), y(4*g+3), t)
	}
	Comment("Block 0 is the key block: r0, r1 from Y0's low lane, s from Y4's.")
	VMOVQ(X0, R8)
	VPEXTRQ(U8(1), X0, R9)
	VMOVDQU(X4, f.sKey)
	Comment("Blocks 1-7: message blocks 0-6, all whole (n > 448).")
	for k := 0; k < 4; k++ {
		for j, imm := range []uint8{0x00, 0x03} {
			blk := 4*j + k
			if blk == 0 {
				continue
			}
			VSHUFI64X2(U8(imm), y(4+k), y(k), Y23)
			VSHUFI64X2(U8(imm), y(12+k), y(8+k), Y24)
			VPXORD(mem(rSrc, 64*(blk-1)), Y23, Y23)
			VPXORD(mem(rSrc, 64*(blk-1)+32), Y24, Y24)
			VMOVDQU32(Y23, mem(rDst, 64*(blk-1)))
			VMOVDQU32(Y24, mem(rDst, 64*(blk-1)+32))
		}
	}
}

// rowDoubleRoundOps returns the operations of one double round on the row
// set q: a column round, the rows rotated into diagonals, a diagonal round,
// and the rows rotated back.
func rowDoubleRoundOps(q quad) []func() {
	qs := []quad{q}
	ops := rowQROps(qs)
	ops = append(ops,
		func() { VPSHUFD(U8(0x93), q[0], q[0]) },
		func() { VPSHUFD(U8(0x39), q[2], q[2]) },
		func() { VPSHUFD(U8(0x4e), q[3], q[3]) })
	ops = append(ops, rowQROps(qs)...)
	return append(ops,
		func() { VPSHUFD(U8(0x39), q[0], q[0]) },
		func() { VPSHUFD(U8(0x93), q[2], q[2]) },
		func() { VPSHUFD(U8(0x4e), q[3], q[3]) })
}

// rowQROps returns the operations of one quarter round on each quad (rows
// a, b, c, d of a row set), interleaved as qrAVX512 emits them.
func rowQROps(qs []quad) []func() {
	var ops []func()
	step := func(f func(q quad)) {
		for _, q := range qs {
			ops = append(ops, func() { f(q) })
		}
	}
	for _, r := range [2][2]int{{16, 12}, {8, 7}} {
		step(func(q quad) { VPADDD(q[1], q[0], q[0]) })
		step(func(q quad) { VPXORD(q[0], q[3], q[3]) })
		step(func(q quad) { VPROLD(U8(r[0]), q[3], q[3]) })
		step(func(q quad) { VPADDD(q[3], q[2], q[2]) })
		step(func(q quad) { VPXORD(q[2], q[1], q[1]) })
		step(func(q quad) { VPROLD(U8(r[1]), q[1], q[1]) })
	}
	return ops
}

// midRows emits batch 2 for 1..4 blocks in the row layout with one zmm
// register set (rows in Z0-Z3, a block per 128-bit lane; the inputs in
// Z8-Z11, each 16-byte row broadcast to the four lanes), its ten double rounds unrolled and merged
// with mac (the MAC operations, on Z16-Z31), then open (an Open's remaining
// MAC steps), and the stores of the blocks asked for: block b of the batch
// to dst + 1024 + 64·b while b < n2, block n2 to tail when tail is not nil.
//
// With wide false (one or two blocks) the rounds run on the registers' ymm
// halves, as midMergedRows' do: half the cost on cores that split each
// 512-bit instruction in two (AMD Zen 4), the same elsewhere.
func midRows(f midFrame, mac []func(), open func(string), wide bool) {
	q := quad{Z0, Z1, Z2, Z3}
	qr := q // the rounds' registers
	name := "mid_rows1"
	if !wide {
		qr = quad{Y0, Y1, Y2, Y3}
		name = "mid_rows1y"
	}
	VBROADCASTI32X4(sigma, Z8)
	VBROADCASTI32X4(mem(rState, offKey), Z9)
	VBROADCASTI32X4(mem(rState, offKey+16), Z10)
	VBROADCASTI32X4(mem(rState, offCounter), Z11)
	VPADDD(rowLanes, Z11, Z11)
	VMOVDQA64(Z8, q[0])
	VMOVDQA64(Z9, q[1])
	VMOVDQA64(Z10, q[2])
	VMOVDQA64(Z11, q[3])
	var vops []func()
	for i := 0; i < 10; i++ {
		vops = append(vops, rowDoubleRoundOps(qr)...)
	}
	Comment(fmt.Sprintf("Ten double rounds (unrolled), with the first %s IFMA steps of mac.", stepWords[f.sealSteps]))
	merge(vops, mac)
	open(name + "_open")

	Comment("Add the input, put the blocks back together, XOR and store.")
	VPADDD(Z8, q[0], q[0])
	VPADDD(Z9, q[1], q[1])
	VPADDD(Z10, q[2], q[2])
	VPADDD(Z11, q[3], q[3])
	MOVQ(f.hy.src, rSrc)
	MOVQ(f.hy.dst, rDst)
	ADDQ(U32(f.off2), rSrc)
	ADDQ(U32(f.off2), rDst)
	MOVQ(f.n2, RCX)
	MOVQ(f.tailLen, RDX)
	t := [4]VecPhysical{Z13, Z14, Z15, Z8}
	midRowStore(f, q, t)
}

// midVL8 emits batch 2 as transposedVL8's 8-lane ymm batch (state words in
// Y0-Y15, every input broadcast from memory so that Z16-Z31 are left to
// the MAC), its ten double rounds unrolled and merged with mac, then open,
// and the stores as midRows does them.
func midVL8(f midFrame, mac []func(), open func(string)) {
	y := yreg
	for w := 0; w < 16; w++ {
		switch {
		case w < 4:
			VPBROADCASTD(sigma.Offset(4*w), y(w))
		case w < 12:
			VPBROADCASTD(mem(rState, offKey+4*(w-4)), y(w))
		case w == 12:
			VPBROADCASTD(mem(rState, offCounter), y(12))
			VPADDD(iota16, y(12), y(12))
		default:
			VPBROADCASTD(mem(rState, offNonce+4*(w-13)), y(w))
		}
	}
	var vops []func()
	for i := 0; i < 10; i++ {
		l := new(wordLocs)
		for w := range l {
			l[w] = y(w)
		}
		vops = append(vops, l.qrOps(columns[:])...)
		vops = append(vops, l.qrOps(diagonals[:])...)
	}
	Comment(fmt.Sprintf("Ten double rounds (unrolled), with the first %s IFMA steps of mac.", stepWords[f.sealSteps]))
	merge(vops, mac)
	open("mid_vl8_open")

	Comment("Add the input state, transpose, XOR and store.")
	for w := 0; w < 16; w++ {
		switch {
		case w < 4:
			VPADDD_BCST(sigma.Offset(4*w), y(w), y(w))
		case w < 12:
			VPADDD_BCST(mem(rState, offKey+4*(w-4)), y(w), y(w))
		case w == 12:
			VPBROADCASTD(mem(rState, offCounter), Y25)
			VPADDD(iota16, Y25, Y25)
			VPADDD(Y25, y(12), y(12))
		default:
			VPADDD_BCST(mem(rState, offNonce+4*(w-13)), y(w), y(w))
		}
	}
	t := [4]VecPhysical{Y19, Y20, Y21, Y22}
	for gr := 0; gr < 4; gr++ {
		unpack4(y(4*gr), y(4*gr+1), y(4*gr+2), y(4*gr+3), t)
	}
	MOVQ(f.hy.src, rSrc)
	MOVQ(f.hy.dst, rDst)
	ADDQ(U32(f.off2), rSrc)
	ADDQ(U32(f.off2), rDst)
	MOVQ(f.n2, RCX)
	MOVQ(f.tailLen, RDX)
	// Lane l of register 4g+k: words 4g..4g+3 of block 4l+k.
	for k := 0; k < 4; k++ {
		for j, imm := range []uint8{0x00, 0x03} {
			blk := 4*j + k
			full, next := newLabel("mid_full"), newLabel("mid_next")
			CMPQ(RCX, U32(blk))
			JA(LabelRef(full))
			JB(LabelRef(next))
			TESTQ(RDX, RDX)
			JZ(LabelRef(next))
			VSHUFI64X2(U8(imm), y(4+k), y(k), Y23)
			VSHUFI64X2(U8(imm), y(12+k), y(8+k), Y24)
			VINSERTI64X4(U8(1), Y24, Z23, Z23)
			midTail(f, Z23, 64*blk, next)
			JMP(LabelRef(next))
			Label(full)
			VSHUFI64X2(U8(imm), y(4+k), y(k), Y23)
			VSHUFI64X2(U8(imm), y(12+k), y(8+k), Y24)
			VPXORD(mem(rSrc, 64*blk), Y23, Y23)
			VPXORD(mem(rSrc, 64*blk+32), Y24, Y24)
			VMOVDQU32(Y23, mem(rDst, 64*blk))
			VMOVDQU32(Y24, mem(rDst, 64*blk+32))
			Label(next)
		}
	}
}

// midZ16 emits batch 2 for 9..16 blocks: 16 zmm lanes (state word w in
// Zw, no precomputed column round), its ten double rounds unrolled and
// merged with mac, then open, and the stores as midRows does them. The
// transposition's temporaries are the MAC's (Z19-Z23), free between steps,
// since the accumulator and masks stay live for a Seal's last steps.
func midZ16(f midFrame, mac []func(), open func(string)) {
	z := zreg
	loadStateZ16()
	var vops []func()
	for i := 0; i < 10; i++ {
		vops = append(vops, zmmDROps()...)
	}
	Comment(fmt.Sprintf("Ten double rounds (unrolled), with the first %s IFMA steps of mac.", stepWords[f.sealSteps]))
	merge(vops, mac)
	open("mid_z16_open")

	Comment("Add the input state, transpose (as vecFinish), XOR and store.")
	addInputZ16(Z23)
	transposeZ16([4]VecPhysical{Z19, Z20, Z21, Z22})
	MOVQ(f.hy.src, rSrc)
	MOVQ(f.hy.dst, rDst)
	ADDQ(U32(f.off2), rSrc)
	ADDQ(U32(f.off2), rDst)
	MOVQ(f.n2, RCX)
	MOVQ(f.tailLen, RDX)
	for blk := 0; blk < 16; blk++ {
		r := z(blk)
		midStoreBlock(f, r, blk)
	}
}

// midTail emits the store of the partial last block (tailLen = RDX bytes,
// 1..63) at rSrc+off, rDst+off, with r its keystream block (a zmm
// register): src is read through a byte mask (AVX-512BW masked loads do not
// read the masked-off bytes), and the ciphertext, zero-padded, goes to the
// frame for the MAC after the batch. A Seal stores its ciphertext to dst
// through the mask; an Open keeps its plaintext in the frame until the tag
// has been checked. It uses RBX, K5 and Z26 (a MAC temporary, free between
// IFMA steps); next is the label after the block's code.
func midTail(f midFrame, r VecPhysical, off int, next string) {
	open := newLabel("mid_tail_open")
	MOVQ(I32(-1), RBX)
	BZHIQ(RDX, RBX, RBX)
	KMOVQ(RBX, K5)
	VMOVDQU8_Z(mem(rSrc, off), K5, Z26)
	VPXORD(Z26, r, r)
	VMOVDQU8_Z(r, K5, r)
	CMPQ(f.open, U8(0))
	JNE(LabelRef(open))
	VMOVDQU64(r, f.ctTail)
	VMOVDQU8(r, K5, mem(rDst, off))
	JMP(LabelRef(next))
	Label(open)
	VMOVDQU64(Z26, f.ctTail)
	VMOVDQU64(r, f.ptTail)
}

// midRowStore stores the blocks of a zmm row set (rows q, lane l block l):
// the first RCX whole blocks XORed with src, then, if RDX (the partial
// block's length) is not 0, the partial one through midTail; t are four
// scratch registers.
func midRowStore(f midFrame, q quad, t [4]VecPhysical) {
	a, b, c, d := q[0], q[1], q[2], q[3]
	// Lane l of the four rows is block l.
	VSHUFI32X4(U8(0x44), b, a, t[0])
	VSHUFI32X4(U8(0x44), d, c, t[1])
	VSHUFI32X4(U8(0x88), t[1], t[0], t[2])
	VSHUFI32X4(U8(0xdd), t[1], t[0], t[3])
	VSHUFI32X4(U8(0xee), b, a, t[0])
	VSHUFI32X4(U8(0xee), d, c, t[1])
	VSHUFI32X4(U8(0x88), t[1], t[0], a)
	VSHUFI32X4(U8(0xdd), t[1], t[0], b)
	for blk, r := range []VecPhysical{t[2], t[3], a, b} {
		midStoreBlock(f, r, blk)
	}
}

// midStoreBlock stores keystream block blk (in r) of the second batch: XORed
// with src into dst if it is one of the first RCX whole blocks, through
// midTail if it is the partial one (RDX bytes, not 0), else not at all.
func midStoreBlock(f midFrame, r VecPhysical, blk int) {
	full, next := newLabel("mid_full"), newLabel("mid_next")
	CMPQ(RCX, U32(blk))
	JA(LabelRef(full))
	JB(LabelRef(next))
	TESTQ(RDX, RDX)
	JZ(LabelRef(next))
	midTail(f, r, 64*blk, next)
	JMP(LabelRef(next))
	Label(full)
	VPXORD(mem(rSrc, 64*blk), r, r)
	VMOVDQU32(r, mem(rDst, 64*blk))
	Label(next)
}
