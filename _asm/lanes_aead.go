package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The batch kernels sealLanesAVX512 and openLanesAVX512 (package
// internal/aeadasm, lanes_amd64.go): up to eight whole ChaCha20-Poly1305
// messages of one key, each of at most 64 bytes of text and 64 of additional
// data, in one call. One 16-lane zmm batch computes every message's two
// blocks (lanes 0-7 the Poly1305 key blocks, counter 0; lanes 8-15 the text
// blocks, counter 1); the Poly1305 keys come out of the transposed words
// without a transposition; the texts are XORed and stored with byte masks,
// in message order; and the eight MACs run side by side, one message per
// 64-bit IFMA lane, over the additional data, the ciphertext and the lengths.
// A lane whose message has fewer blocks than the longest one keeps its
// accumulator through the steps it lacks (a merge mask), so messages of
// every length share the steps. The output texts go to Lanes.Out and the
// tags to Lanes.Tags, where the caller copies (Seal) or compares (Open) them.
//
// What makes it pay is that nothing of a message's processing runs alone:
// the keystream blocks of eight messages share one batch's latency, their
// MAC steps share one chain's, and the Go code around them only checks
// arguments and lays out pointers. The grouping of independent messages in
// vector lanes is the multi-buffer technique of Intel's ipsec-mb; the code
// is written from RFC 8439 and the IFMA equations of poly1305_ifma.go.
//
// The Lanes layout, offsets in bytes (the Go struct in lanes_amd64.go must
// match; a test checks the offsets):
const (
	lanesNonce = 0   // [3][8]uint32: nonce word j of message i at 32j + 4i
	lanesIn    = 96  // [8]*byte: the text (plaintext of a Seal, ciphertext of an Open)
	lanesAD    = 160 // [8]*byte: the additional data
	lanesN     = 224 // [8]uint64: text lengths, 0..64
	lanesADLen = 288 // [8]uint64: additional data lengths, 0..64
	lanesTags  = 352 // [8][16]byte: the tags, out
	lanesOut   = 480 // [8][64]byte: the output texts, zero-padded, out
)

const lanesSignature = "func(key *[32]byte, l *[124]uint64, count int, adBlocks int, ctBlocks int)"

// genLanesAEAD emits sealLanesAVX512 and openLanesAVX512.
//
// Register map. General: RAX key, RBX l, RCX count, RDX the double rounds
// then scratch, R8 adBlocks, R9 ctBlocks, R10 and R11 a message's length
// and byte mask, RSI and RDI its input and output. Vector: Z0-Z15 the
// state words (Zw word w of the 16 lanes), after the transposition the
// blocks (Zb block b: b < 8 the key blocks, 8 + i message i's keystream);
// Z16-Z19 the transposition's scratch, then Z16 and Z17 a message's text
// and additional data; Z26-Z29 the messages' r and s halves (r low, r high,
// s low, s high: 64-bit lane i message i). In the MAC: Z0-Z2 the
// accumulators, Z3-Z7 r0, r1, r2, 20·r1, 20·r2, Z8 the text lengths, Z9 the
// additional data lengths, Z10 the step's byte threshold (16·step), Z11
// sixteen, Z13-Z15 the IFMA masks and 2^128 bit, Z16-Z25 the IFMA scratch
// (polyIFMA), K1 the lanes that have a block in the step.
//
// Frame: an Open's ciphertexts (zero-padded to 64 bytes) at 64·i (a Seal's
// are its output, l.Out), the additional data at 512 + 64·i; the MAC's steps
// read 16-byte blocks from there. Both are public, so nothing is wiped.
func genLanesAEAD() {
	for _, open := range []bool{false, true} {
		name := map[bool]string{false: "sealLanesAVX512", true: "openLanesAVX512"}[open]
		TEXT(name, 0, lanesSignature)
		what := map[bool]string{false: "seals", true: "opens"}[open]
		Doc(fmt.Sprintf("%s %s the count (1..8) messages of l under key: their", name, what),
			"output texts to l.Out and their tags to l.Tags.")
		genLanesAEADBody(name, open)
	}
}

// lanesKernel holds what the phases of one batch kernel (sealLanesAVX512
// or openLanesAVX512) share: its name (the labels' prefix), the registers
// of its parameters and of its MAC, and its frame (see genLanesAEAD for
// the register map and the frame).
type lanesKernel struct {
	name                              string
	open                              bool
	key, l, count, adBlocks, ctBlocks GPPhysical
	frame                             Mem
	g                                 ifmaRegs
	r                                 [5]VecPhysical // r0, r1, r2, 20·r1, 20·r2
	nLen, adLen, thr, sixteen         VecPhysical
}

// genLanesAEADBody emits the body of the batch kernel name: the keystream
// batch, the Poly1305 keys, the texts, the eight MACs and the tags.
func genLanesAEADBody(name string, open bool) {
	k := &lanesKernel{
		name: name, open: open,
		key: RAX, l: RBX, count: RCX, adBlocks: R8, ctBlocks: R9,
		g:    polyIFMA,
		r:    [5]VecPhysical{Z3, Z4, Z5, Z6, Z7},
		nLen: Z8, adLen: Z9, thr: Z10, sixteen: Z11,
	}
	Load(Param("key"), k.key)
	Load(Param("l"), k.l)
	Load(Param("count"), k.count)
	Load(Param("adBlocks"), k.adBlocks)
	Load(Param("ctBlocks"), k.ctBlocks)
	k.frame = AllocLocal(1024)

	k.keystream()
	k.polyKeys()
	k.texts()
	k.macSetup()
	k.macBlocks()
	k.reduce()
	k.storeTags()
	VZEROUPPER()
	RET()
}

// ctRow is byte off of message i's zero-padded ciphertext in the frame (an
// Open's; a Seal's is its output, outRow).
func (k *lanesKernel) ctRow(i, off int) Mem { return k.frame.Offset(64*i + off) }

// outRow is byte off of message i's output text, in l.Out.
func (k *lanesKernel) outRow(i, off int) Mem { return mem(k.l, lanesOut+64*i+off) }

// adRow is byte off of message i's zero-padded additional data in the
// frame.
func (k *lanesKernel) adRow(i, off int) Mem { return k.frame.Offset(512 + 64*i + off) }

// keyWord is state word w (4..11) of the key.
func (k *lanesKernel) keyWord(w int) Mem { return mem(k.key, 4*(w-4)) }

// lab returns the kernel's label s.
func (k *lanesKernel) lab(s string) string { return k.name + "_" + s }

// keystream emits the 16-lane zmm batch: its input, the ten double rounds
// and the feed-forward, which leave state word w of the 16 lanes in Zw.
func (k *lanesKernel) keystream() {
	Comment("The 16 lanes' input: constants and key broadcast, counters 0 (lanes",
		"0-7) and 1 (lanes 8-15), each message's nonce in lanes i and 8 + i.")
	k.input(false)
	roundLoop(k.lab("rounds"), 10, zmmDROps)
	Comment("Feed-forward.")
	k.input(true)
}

// input loads (add false) or adds (add true, the feed-forward) the 16
// lanes' input words: the constants and the key broadcast, the counters,
// message i's nonce in lanes i and 8 + i.
func (k *lanesKernel) input(add bool) {
	transposedInput(zreg, add, func(w int, z VecPhysical, add bool) {
		switch {
		case w < 12 && add:
			VPADDD_BCST(k.keyWord(w), z, z)
		case w < 12:
			VPBROADCASTD(k.keyWord(w), z)
		case w == 12 && add:
			VPADDD(lanesCtr, z, z)
		case w == 12:
			VMOVDQU32(lanesCtr, z)
		case add:
			VBROADCASTI64X4(mem(k.l, lanesNonce+32*(w-13)), Z16)
			VPADDD(Z16, z, z)
		default:
			VBROADCASTI64X4(mem(k.l, lanesNonce+32*(w-13)), z)
		}
	})
}

// polyKeys emits the Poly1305 keys, taken from the transposed words before
// the transposition: r clamped in Z26 and Z27, s in Z28 and Z29 (64-bit
// lane i message i's).
func (k *lanesKernel) polyKeys() {
	Comment("Poly1305 keys from words 0-7 of lanes 0-7, widened to 64-bit lanes:",
		"r clamped (RFC 8439, Section 2.5) and s.")
	MOVQ(U64(0x0FFFFFFC0FFFFFFF), RDX)
	VPBROADCASTQ(RDX, Z30)
	MOVQ(U64(0x0FFFFFFC0FFFFFFC), RDX)
	VPBROADCASTQ(RDX, Z31)
	for i, dst := range []VecPhysical{Z26, Z27, Z28, Z29} {
		VPMOVZXDQ(yreg(2*i), dst)
		VPMOVZXDQ(yreg(2*i+1), Z16)
		VPSLLQ(U8(32), Z16, Z16)
		VPORQ(Z16, dst, dst)
		if i < 2 {
			VPANDQ([]VecPhysical{Z30, Z31}[i], dst, dst)
		}
	}
}

// texts emits the transposition into blocks and the messages' texts: each
// of the count messages' output text XORed and stored under the byte mask
// of its length, its additional data (and an Open's ciphertext) copied to
// the frame for the MAC. It ends at label mac.
func (k *lanesKernel) texts() {
	Comment("Transpose: Zb holds block b.")
	transposeZ16([4]VecPhysical{Z16, Z17, Z18, Z19})

	Comment("Message by message: load the text and the additional data under byte",
		"masks of their lengths, write the output text zero-padded, keep the",
		"additional data and an Open's ciphertext, zero-padded, in the frame.")
	for i := 0; i < 8; i++ {
		if i > 0 {
			CMPQ(k.count, U32(i))
			JLE(LabelRef(k.lab("mac")))
		}
		ks := zreg(8 + i)
		lengthMask(mem(k.l, lanesN+8*i), K1)
		MOVQ(mem(k.l, lanesIn+8*i), RSI)
		VMOVDQU8_Z(Mem{Base: RSI}, K1, Z16)
		if k.open {
			VMOVDQU64(Z16, k.ctRow(i, 0))
		}
		VPXORD(Z16, ks, ks)
		VMOVDQU8_Z(ks, K1, ks)
		VMOVDQU64(ks, k.outRow(i, 0))
		lengthMask(mem(k.l, lanesADLen+8*i), K2)
		MOVQ(mem(k.l, lanesAD+8*i), RSI)
		VMOVDQU8_Z(Mem{Base: RSI}, K2, Z17)
		VMOVDQU64(Z17, k.adRow(i, 0))
	}
}

// macSetup emits, at label mac, the start of the eight MACs: the IFMA
// constants, r in 44-bit limbs (and 20·r1, 20·r2), h = 0, the text and
// additional data lengths and the constant sixteen.
func (k *lanesKernel) macSetup() {
	Label(k.lab("mac"))
	Comment("The MAC: r in 44-bit limbs, h = 0, the lengths.")
	g := k.g
	g.constants()
	h := zH
	r := k.r
	VPANDQ(g.m44, Z26, r[0])
	VPSRLQ(U8(44), Z26, r[1])
	VPSLLQ(U8(20), Z27, Z16)
	VPORQ(Z16, r[1], r[1])
	VPANDQ(g.m44, r[1], r[1])
	VPSRLQ(U8(24), Z27, r[2])
	times20(r[1], r[3], g.t)
	times20(r[2], r[4], g.t)
	for _, z := range h {
		VPXORQ(z, z, z)
	}
	VMOVDQU64(mem(k.l, lanesN), k.nLen)
	VMOVDQU64(mem(k.l, lanesADLen), k.adLen)
	MOVQ(U64(16), RDX)
	VPBROADCASTQ(RDX, k.sixteen)
}

// macBlocks emits the MAC's steps: the additional data's blocks and the
// ciphertext's, each loop skipped if no message has any, then every
// message's lengths block.
func (k *lanesKernel) macBlocks() {
	Comment("The additional data's blocks, if any message has some.")
	TESTQ(k.adBlocks, k.adBlocks)
	JZ(LabelRef(k.lab("ct")))
	k.blocks(k.lab("ad_loop"), k.adBlocks, k.adRow, k.adLen)
	Label(k.lab("ct"))
	Comment("The ciphertext's blocks, if any message has some.")
	TESTQ(k.ctBlocks, k.ctBlocks)
	JZ(LabelRef(k.lab("lengths")))
	if k.open {
		k.blocks(k.lab("ct_loop"), k.ctBlocks, k.ctRow, k.nLen)
	} else {
		k.blocks(k.lab("ct_loop"), k.ctBlocks, k.outRow, k.nLen)
	}
	Label(k.lab("lengths"))
	Comment("The lengths block of every message.")
	k.step(k.adLen, k.nLen, false)
}

// step absorbs the blocks lo, hi (64-bit lane i message i's) into the
// lanes in K1 (all lanes if masked is false) and multiplies by r.
func (k *lanesKernel) step(lo, hi VecPhysical, masked bool) {
	g, h, r := k.g, zH, k.r
	l0, l1, l2 := g.l[0], g.l[1], g.l[2]
	add := func(m, acc VecPhysical) {
		if masked {
			VPADDQ(m, acc, K1, acc)
		} else {
			VPADDQ(m, acc, acc)
		}
	}
	VPANDQ(g.m44, lo, l0)
	add(l0, h[0])
	VPSRLQ(U8(44), lo, l2)
	VPSLLQ(U8(20), hi, l0)
	VPORQ(l0, l2, l2)
	VPANDQ(g.m44, l2, l2)
	add(l2, h[1])
	VPSRLQ(U8(24), hi, l1)
	VPORQ(g.hibit, l1, l1)
	add(l1, h[2])
	if !masked {
		mulReduce(h, r, h)
		return
	}
	mulReduce(h, r, g.l)
	for j := range h {
		VMOVDQA64(g.l[j], K1, h[j])
	}
}

// blocks emits the loop over n (a register, > 0 on entry) steps of
// the rows at row, whose lengths are lens: step k takes block k of
// every message (rows 0, 2, 4, 6 in the 128-bit lanes of one register
// and 1, 3, 5, 7 of another, so that after the unpacking 64-bit lane i
// is message i's), in the lanes whose length exceeds 16·k.
func (k *lanesKernel) blocks(label string, n GPPhysical, row func(i, off int) Mem, lens VecPhysical) {
	thr := k.thr
	VPXORQ(thr, thr, thr)
	XORQ(RDX, RDX)
	Label(label)
	for half, a := range []VecPhysical{Z16, Z17} {
		idx := func(slot int) Mem {
			m := row(2*slot+half, 0)
			m.Index, m.Scale = RDX, 1
			return m
		}
		VMOVDQU64(idx(0), a.AsX())
		for slot := 1; slot < 4; slot++ {
			VINSERTI32X4(U8(slot), idx(slot), a, a)
		}
	}
	VPCMPUQ(U8(6), thr, lens, K1) // lens > thr
	VPUNPCKLQDQ(Z17, Z16, Z18)
	VPUNPCKHQDQ(Z17, Z16, Z19)
	k.step(Z18, Z19, true)
	VPADDQ(k.sixteen, thr, thr)
	ADDQ(U8(16), RDX)
	DECQ(n)
	JNZ(LabelRef(label))
}

// reduce emits the full reduction of h mod 2^130 - 5: two carry passes
// (the top bits folded in times five), then h - p where h + 5 reaches
// 2^130.
func (k *lanesKernel) reduce() {
	g, h := k.g, zH
	Comment("Finish: reduce h fully mod 2^130 - 5, add s mod 2^128.")
	t := g.t
	carry := func(from, to VecPhysical, bits int, mask VecPhysical) {
		VPSRLQ(U8(bits), from, t)
		VPANDQ(mask, from, from)
		VPADDQ(t, to, to)
	}
	carry(h[0], h[1], 44, g.m44)
	carry(h[1], h[2], 44, g.m44)
	VPSRLQ(U8(42), h[2], t)
	VPANDQ(g.m42, h[2], h[2])
	VPADDQ(t, h[0], h[0])
	VPSLLQ(U8(2), t, t)
	VPADDQ(t, h[0], h[0])
	carry(h[0], h[1], 44, g.m44)
	carry(h[1], h[2], 44, g.m44)
	Comment("h + 5 in Z18-Z20; where it reaches 2^130 (K2), h - p is h + 5 - 2^130.")
	gg := [3]VecPhysical{Z18, Z19, Z20}
	MOVQ(U64(5), RDX)
	VPBROADCASTQ(RDX, gg[0])
	VPADDQ(h[0], gg[0], gg[0])
	VPSRLQ(U8(44), gg[0], t)
	VPANDQ(g.m44, gg[0], gg[0])
	VPADDQ(t, h[1], gg[1])
	VPSRLQ(U8(44), gg[1], t)
	VPANDQ(g.m44, gg[1], gg[1])
	VPADDQ(t, h[2], gg[2])
	VPSRLQ(U8(42), gg[2], t)
	VPTESTMQ(t, t, K2)
	VPANDQ(g.m42, gg[2], gg[2])
	for j := range h {
		VMOVDQA64(gg[j], K2, h[j])
	}
}

// storeTags emits the tags: h (fully reduced) to 128 bits plus s, mod
// 2^128, its halves interleaved into the eight tags, stored to l.Tags.
func (k *lanesKernel) storeTags() {
	h, t := zH, k.g.t
	Comment("To 128 bits (lo Z18, hi Z19), plus s with the carry (K3).")
	lo, hi := Z18, Z19
	VPSLLQ(U8(44), h[1], lo)
	VPORQ(h[0], lo, lo)
	VPSRLQ(U8(20), h[1], hi)
	VPSLLQ(U8(24), h[2], t)
	VPORQ(t, hi, hi)
	VPADDQ(Z28, lo, lo)
	VPCMPUQ(U8(1), Z28, lo, K3) // lo < s low: a carry
	VPADDQ(Z29, hi, hi)
	MOVQ(U64(1), RDX)
	VPBROADCASTQ(RDX, t)
	VPADDQ(t, hi, K3, hi)
	Comment("Interleave the halves into the eight tags and store them.")
	VMOVDQU64(tagPerm, Z20)
	VMOVDQU64(tagPerm.Offset(64), Z21)
	VPERMI2Q(hi, lo, Z20)
	VPERMI2Q(hi, lo, Z21)
	VMOVDQU64(Z20, mem(k.l, lanesTags))
	VMOVDQU64(Z21, mem(k.l, lanesTags+64))
}

// lengthMask sets k to the byte mask of the length (0..64) at m: its low
// length bits (R10 and R11 are scratch).
func lengthMask(m Mem, k OpmaskPhysical) {
	MOVQ(m, R10)
	MOVQ(I64(-1), R11)
	BZHIQ(R10, R11, R11)
	KMOVQ(R11, k)
}
