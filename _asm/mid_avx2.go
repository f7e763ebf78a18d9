package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// ---------------------------------------------------------------------------
// Stitched AVX2 AEAD for whole messages: the Poly1305 key block and the tag
// inside the kernel
//
//	func xorMACKeySealAVX2(s *State, dst, src, ad, adTail []byte, fin *[80]byte, z *[256]byte, tag *[16]byte)
//	func xorMACKeyOpenAVX2(s *State, dst, src, ad, adTail []byte, fin *[80]byte, z *[256]byte, tag *[16]byte)
//
// One call is a whole ChaCha20-Poly1305 Seal or Open (RFC 8439, Section
// 2.8) of len(src) >= 449 bytes (shorter ones take aead_generic.go's short
// path), in B = ceil((len+64)/512) batches of xorBlocksAVX2's 8-block
// transposed batch, counters s.Counter+0 onwards. Block j of the keystream
// is message block j-1, so batch i covers message bytes 512i-64 .. 512i+448.
//
//   - batch 0: block 0 is the Poly1305 key; its first 32 bytes go to the
//     frame, r is clamped from them right after. Blocks 1..7 are the first
//     448 message bytes. No MAC work (r is not known yet).
//   - then the padded additional data (ad: whole blocks, adTail: 0 or 16
//     bytes) is absorbed into h = 0 by a plain loop (short: QUIC and TLS
//     headers), which the out-of-order core overlaps with batch 1.
//   - batch i >= 1 MACs the ciphertext of batch i-1 on the integer units
//     (lag one batch): 28 blocks in batch 1 as one chain (about 15.5 cycles
//     per block of latency on Zen 5: 434 of the batch's ~530 cycles), with
//     r^16 computed by four squarings merged into batch 1's stores (in a
//     last batch 1, only for an Open whose tail needs it); 32
//     blocks in later batches, two chains of 16 joined by r^16 as in
//     stitched_avx2.go's chains, the join merged into the stores.
//   - a last batch of at most 4 blocks (at most 256 message bytes left)
//     takes xorBlocksAVX2's row layout (two sets of two blocks, one per
//     128-bit lane; a Seal's one set for at most two blocks), whose
//     rounds are shorter; the MAC work merged into them (the previous
//     batch's) then sets the batch's length. An Open's last batch after
//     batch 1 does so up to 6 blocks (384 bytes), in three sets.
//   - the tail, after the last batch: K MAC blocks, those of the last
//     batch's whole 64-byte blocks, then in fin those of the partial block
//     (the caller copies its plaintext or ciphertext in and the result out:
//     the kernel never reads or writes past the message) and the lengths.
//     From K = 16 on as two chains (the last 16 from 0, joined by r^16),
//     else one; a Seal with B = 2 always one (the squarings of r^16 would
//     be on its critical path). Then the tag, h mod 2^130-5 plus s, so that
//     no key material leaves the frame, which is wiped on return.
//
// Seal: every batch XORs its keystream into dst (the last one's partial
// block into fin) and the MAC reads dst, so Seal in place works. Open: the
// MAC reads src, and an Open in place would overwrite the ciphertext of
// batch i-1 before batch i MACs it, so each batch keeps its keystream in
// the frame (slots 24-39) and batch i, after the last MAC load of batch
// i-1's ciphertext, writes dst[batch i-1] = src[batch i-1] ^ keystream.
// Open knows its whole ciphertext up front, so it moves MAC work out of the
// tail, where nothing hides it: batch 1 also runs chain Z over the last 16
// MAC blocks (a copy in z, from 0), and the last batch's chain A also
// takes the K-16 tail blocks before them (conditional blocks, five per two
// double rounds and three after them; with B = 2 they run after the
// batch), so that what is left is two joins. With B >= 3 and an 8-lane
// last batch (7 or 8 blocks: more than rowMaxT bytes), batch 1's chain A
// also takes the first midOpenX = 5 blocks of batch 1's own ciphertext
// (six blocks per two double rounds instead of five), which the last
// batch's chain A then does not. A tail of K < 16
// blocks runs as one chain.
// The last batch runs that MAC before its stores (an Open in place), and
// the whole plaintext is written before the caller compares the tags (the
// caller zeroes it on a mismatch).
//
// Against the separate passes (KeyAndXOR with the key block and 15 blocks,
// XORKeyStream for the rest, the AVX2 Poly1305 over the whole message) this
// saves two engine calls and the Poly1305 pass over all but the tail;
// against a stitched loop of whole batches it has the key block inside and
// a lag of one batch instead of two (so Seal needs no second MAC-free
// batch) and no separate tail. x/crypto's AVX2 AEAD (chacha20poly1305_amd64.s) and OpenSSL's and
// BoringSSL's stitched x86-64 AEADs are the source of the stitching idea;
// the code is this module's.
//
// Registers: as in stitched_avx2.go: Y0-Y15 and the frame slots as in
// xorBlocksAVX2 (the row layout: Y0-Y7 the two sets, Y8-Y12 the input
// rows, Y13 and Y14 temporaries), BX = the aligned vector frame; in the rounds R8-R10 = hA,
// R11-R13 = hB (or chain Z in batch 1), DX = the MULX source, AX, CX, R14,
// DI = temporaries, R15 = the MAC pointer (chain Z loads its own from the
// frame), SI = the round counter; in Open's 8-block last batch SI = chain
// B's pointer, BP = chain A's count of blocks left and the round counter is
// in the frame (memory counters there measured about 10 ns slower at 1350
// bytes: their read-modify-write chains). Around the stores SI
// = src, DI = dst or the keystream slots, CX = the key slot or fin; the
// joins and squarings merged into them use AX, CX, DX, R8-R15. The tail
// uses R8-R13, AX, CX, R14, DI, DX, R15 and BX (the frame base is
// recomputed for the wipe).

const signatureMid = "func(s *[12]uint32, dst []byte, src []byte, ad []byte, adTail []byte, fin *[80]byte, z *[256]byte, tag *[16]byte)"

// midMask: 64 bytes of 0xff then 64 zeros; the 64 bytes at 64-r are the
// mask of a partial block of r bytes.
var midMask Mem

// rowMaxT is the longest last batch, in message bytes, that takes the row
// layout: up to 256 in two sets, up to 384 in three (an Open's last batch
// after batch 1).
const rowMaxT = 6 * 64

func genMidAVX2() {
	genMidAVX2Kernel(false)
	genMidAVX2Kernel(true)
}

// midStoreOps returns storeAVX2's transposition of the batch (words 0-7 in
// Y0-Y7, words 8-15 in the frame) as a list of operations; target returns
// the operations that store Y12, the 32 bytes of half half (0: bytes 0-31)
// of block blk, or nil to drop them.
func midStoreOps(spill func(int) Mem, target func(blk, half int) []func()) []func() {
	y := yreg
	t := [4]VecPhysical{Y8, Y9, Y10, Y11}
	var ops []func()
	for half := 0; half < 2; half++ {
		if half == 1 {
			for i := 0; i < 8; i++ {
				ops = append(ops, func() { VMOVDQU(spill(8+i), y(i)) })
			}
		}
		ops = append(ops, unpack4Ops(y(0), y(1), y(2), y(3), t)...)
		ops = append(ops, unpack4Ops(y(4), y(5), y(6), y(7), t)...)
		for k := 0; k < 4; k++ {
			// Low lanes: block k; high lanes: block 4+k.
			for j, imm := range []uint8{0x20, 0x31} {
				st := target(4*j+k, half)
				if st == nil {
					continue
				}
				ops = append(ops, func() { VPERM2I128(U8(imm), y(4+k), y(k), Y12) })
				ops = append(ops, st...)
			}
		}
	}
	return ops
}

// midW is the width of a vector register and of a frame slot, in bytes.
const midW = 32

// genMidAVX2Kernel emits xorMACKeySealAVX2 or (open) xorMACKeyOpenAVX2,
// phase by phase: the setup, batch 0, the additional data, batch 1, the
// loop of later batches, the tag and the wipe, and, after the RET, the
// row-layout last batches the others jump to.
func genMidAVX2Kernel(open bool) {
	mk := newMidKernel(open)
	mk.entry()
	mk.batch0()
	absorbAD(mk.f, mk.lbl)
	mk.batch1()
	mk.loop()
	mk.finish()
	mk.rowBatch()
}

// midKernel holds what the phases of one mid-size AVX2 kernel
// (xorMACKeySealAVX2 or xorMACKeyOpenAVX2) share: the variant, the labels'
// prefix, the frame and the row layout's number of sets (newMidKernel
// describes the frame).
type midKernel struct {
	open bool
	pfx  string // the labels' prefix: ms (Seal), mo (Open)

	x           func(int) VecPhysical // avx2Layout's state word registers
	slot, spill func(int) Mem         // avx2Layout's frame slots
	nslots      int                   // the vector frame's slots
	vframe      Mem

	f, fz                          stitchedFrame // fz: chain Z's, its pointer zp
	hs, kf                         Mem
	tF16, tMain, tNF, tFin, cA, cB Mem
	tF64, tR64, tT                 Mem
	zp, zs                         Mem
	tX, rc                         Mem
	rowIn                          Mem

	nsets int      // the row layout's sets (1 to 3)
	pow   []func() // r^16, h saved and restored around it (batch 1)
}

// newMidKernel emits the kernel's TEXT and doc and lays out its frame.
func newMidKernel(open bool) *midKernel {
	name, pfx := "xorMACKeySealAVX2", "ms"
	if open {
		name, pfx = "xorMACKeyOpenAVX2", "mo"
	}
	TEXT(name, 0, signatureMid)
	if open {
		Doc("xorMACKeyOpenAVX2 is the AEAD Open of a mid-size message: the key block,",
			"the keystream of every batch to ks (written XORed into dst one batch later,",
			"after that batch's ciphertext is MACed into h), the last batch left in ks.")
	} else {
		Doc("xorMACKeySealAVX2 is the AEAD Seal of a mid-size message: the key block,",
			"every batch but the last XORed into dst and MACed into h during the next",
			"batch, the last batch's keystream left in ks.")
	}
	mk := &midKernel{open: open, pfx: pfx, nsets: 2}
	_, mk.x, mk.slot, mk.spill = avx2Layout()
	// The vector frame: slots 0-23 as in xorBlocksAVX2; Open also keeps a
	// batch's keystream in slots 24-39 (ks) until the next batch has MACed
	// its ciphertext.
	mk.nslots = 24
	if open {
		mk.nslots = 40
	}
	mk.vframe = AllocLocal(mk.nslots*midW + midW)
	mk.f = stitchedFrame{
		state: AllocLocal(8), src: AllocLocal(8), dst: AllocLocal(8), mac: AllocLocal(8),
		n: AllocLocal(8), r: AllocLocal(24), s1: AllocLocal(8), pow: AllocLocal(24),
	}
	mk.hs = AllocLocal(24) // h during the squarings
	mk.kf = AllocLocal(32) // the Poly1305 key: r, then s
	// The tail: its full 16-byte blocks (count, address), the final blocks
	// (1 or 2: the padded partial block if any, the lengths; count,
	// address) and the two chains' counters.
	mk.tF16, mk.tMain, mk.tNF, mk.tFin, mk.cA, mk.cB = AllocLocal(8), AllocLocal(8), AllocLocal(8), AllocLocal(8), AllocLocal(8), AllocLocal(8)
	mk.tF64, mk.tR64, mk.tT = AllocLocal(8), AllocLocal(8), AllocLocal(8)
	// Open with a tail of 16 MAC blocks or more: the last 16 (in z) as a
	// chain of their own during batch 1: its pointer and result.
	mk.zp, mk.zs = AllocLocal(8), AllocLocal(24)
	mk.fz = mk.f
	mk.fz.mac = mk.zp
	// Open: the number of tail blocks left for after the last batch (K-16,
	// or 0 once a loop batch took them); the round counter of that batch
	// (SI is chain B's pointer there).
	mk.tX, mk.rc = AllocLocal(8), AllocLocal(8)
	// An Open's three-set row batch keeps its input rows in the spill slots
	// (16-21), which the row layout does not use.
	mk.rowIn = mk.slot(16)
	return mk
}

// lbl returns the kernel's label s.
func (mk *midKernel) lbl(s string) string { return mk.pfx + "_" + s }

// ks sets r to the address of the keystream slots (24-39, Open only).
func (mk *midKernel) ks(r GPPhysical) { LEAQ(mk.slot(24), r) }

// dr returns the operations of a double round of the 8-block batch.
func (mk *midKernel) dr() []func() { return avx2SpillDROps(mk.x, mk.spill) }

// dr2 returns the operations of two double rounds of the 8-block batch.
func (mk *midKernel) dr2() []func() { return append(mk.dr(), mk.dr()...) }

// powOps returns the operations of r^16.
// r^16: four squarings (general products: r^2 and up are not clamped).
func (mk *midKernel) powOps() []func() { return r16Ops(mk.f.pow) }

// chainA returns the operations of chain A's blocks (of the MAC pointer).
func (mk *midKernel) chainA(blocks []int) []func() {
	var ops []func()
	for _, k := range blocks {
		ops = append(ops, polyBlockOps(mk.f, avx2Tmp, avx2Ptr, avx2ChainA, k)...)
	}
	return ops
}

// chainsAB returns the operations of chains A and B's blocks.
func (mk *midKernel) chainsAB(blocks []int) []func() { return avx2ChainsAB(mk.f, blocks) }

// load emits the batch's counters and the state words into Y0-Y15 and
// the frame (as xorBlocksAVX2).
func (mk *midKernel) load() { avx2LoadBatch(mk.f.state, mk.x, mk.slot, mk.spill) }

// addState emits the feed-forward of the 8-block batch.
func (mk *midKernel) addState() { avx2AddState(mk.x, mk.slot, mk.spill) }

// tailMAC emits tail, the MAC of the tail, with the kernel's frame and
// the labels of lbl.
func (mk *midKernel) tailMAC(lbl func(string) string) {
	tail(mk.open, lbl, mk.f, mk.tF16, mk.tMain, mk.tNF, mk.tFin, mk.tR64, mk.cA, mk.cB, mk.zs, mk.tX)
}

// entry emits the setup: the batch count B, src and dst as bases of
// virtual block 0 (and the MAC pointer: dst for a Seal, src for an Open),
// the tail's parameters, and the input state broadcast into the aligned
// vector frame.
func (mk *midKernel) entry() {
	f := mk.f
	Comment("B = ceil((len(src)+64)/512) batches; src and dst as bases of virtual block 0.")
	Load(Param("src").Len(), RCX)
	ADDQ(U32(575), RCX)
	SHRQ(U8(9), RCX)
	MOVQ(RCX, f.n)
	Load(Param("dst").Base(), RDI)
	Load(Param("src").Base(), RSI)
	if mk.open {
		MOVQ(RSI, f.mac)
	} else {
		MOVQ(RDI, f.mac)
	}
	SUBQ(U8(64), RDI)
	SUBQ(U8(64), RSI)
	MOVQ(RDI, f.dst)
	MOVQ(RSI, f.src)

	mk.tailParams()

	Comment("Align the vector frame and broadcast the input state into it.")
	Load(Param("s"), rState)
	MOVQ(rState, f.state)
	avx2BroadcastState(mk.vframe, mk.slot)
}

// tailParams emits the tail's parameters, from f.n and the lengths: tT,
// tF64, tF16, tR64, tNF, tMain, tFin, and tX = tF16 + tNF - 16 (K-16).
func (mk *midKernel) tailParams() {
	Comment("The tail: t = len(src) - (512(B-1) - 64) bytes: t/64 whole blocks",
		"(4t/64 MAC blocks at dst or src + len(src) - t), then in fin the",
		"partial block of t%64 bytes (ceil(t%64/16) MAC blocks) and the lengths.")
	Load(Param("src").Len(), RAX)
	MOVQ(mk.f.n, RCX)
	SHLQ(U8(9), RCX)
	SUBQ(U32(576), RCX)
	SUBQ(RCX, RAX)
	MOVQ(RAX, mk.tT)
	MOVQ(RAX, RDX)
	SHRQ(U8(6), RDX)
	MOVQ(RDX, mk.tF64)
	SHLQ(U8(2), RDX)
	MOVQ(RDX, mk.tF16)
	ANDQ(U8(63), RAX)
	MOVQ(RAX, mk.tR64)
	ADDQ(U8(15), RAX)
	SHRQ(U8(4), RAX)
	INCQ(RAX)
	MOVQ(RAX, mk.tNF)
	if mk.open {
		Load(Param("src").Base(), RDX)
	} else {
		Load(Param("dst").Base(), RDX)
	}
	ADDQ(RCX, RDX)
	MOVQ(RDX, mk.tMain)
	Load(Param("fin"), RDX)
	MOVQ(RDX, mk.tFin)
	MOVQ(mk.tF16, RDX)
	ADDQ(mk.tNF, RDX)
	SUBQ(U8(16), RDX)
	MOVQ(RDX, mk.tX)
}

// Store targets (the stores use SI = src, DI = dst or ks, CX = key).

// midXORStore XORs Y12 with src into dst.
func midXORStore(blk, half int) []func() {
	o := 64*blk + 32*half
	return []func(){
		func() { VPXOR(mem(rSrc, o), Y12, Y12) },
		func() { VMOVDQU(Y12, mem(rDst, o)) },
	}
}

// midRawStore stores Y12 to DI (Open: the keystream slots).
func midRawStore(blk, half int) []func() {
	return []func(){func() { VMOVDQU(Y12, mem(rDst, 64*blk+32*half)) }}
}

// midKeyFirst wraps the store target st for batch 0.
// Batch 0: block 0's first half is the key, its second half unused.
func midKeyFirst(st func(blk, half int) []func()) func(blk, half int) []func() {
	return func(blk, half int) []func() {
		if blk == 0 {
			if half == 0 {
				return []func(){func() { VMOVDQU(Y12, Mem{Base: RCX}) }}
			}
			return nil
		}
		return st(blk, half)
	}
}

// finishPrev (Open) writes dst = src ^ ks for the previous batch's
// blocks from..7 (SI and DI are the current batch's bases).
func (mk *midKernel) finishPrev(from int) {
	Comment("Open: the previous batch's plaintext, now that its ciphertext is MACed.")
	MOVQ(mk.f.src, rSrc)
	MOVQ(mk.f.dst, rDst)
	mk.ks(RCX)
	ys := []VecPhysical{Y12, Y13, Y14, Y15}
	for i, o := 0, 64*from; o < 512; i, o = i+1, o+32 {
		yy := ys[i%4]
		VMOVDQU(mem(RCX, o), yy)
		VPXOR(mem(rSrc, o-512), yy, yy)
		VMOVDQU(yy, mem(rDst, o-512))
	}
}

// advance moves src and dst on by one batch and the counter by 8, and
// decrements the batch count (its flags end the batch).
func (mk *midKernel) advance() {
	MOVQ(mk.f.src, rSrc)
	MOVQ(mk.f.dst, rDst)
	avx2NextBatch(mk.f)
}

// store emits the stores of a MAC batch merged with the integer
// operations extra (r^16 or the join): Open stores its keystream to ks;
// Seal XORs it into dst, or, in the last batch, stores it to ks.
func (mk *midKernel) store(b string, extra []func(), lastExtra []func()) {
	lbl := mk.lbl
	Comment("Transpose and store the 8 blocks.")
	CMPQ(mk.f.n, U8(1))
	JE(LabelRef(lbl(b + "_last")))
	if mk.open {
		mk.ks(rDst)
		merge(midStoreOps(mk.spill, midRawStore), extra)
	} else {
		MOVQ(mk.f.src, rSrc)
		MOVQ(mk.f.dst, rDst)
		merge(midStoreOps(mk.spill, midXORStore), extra)
	}
	JMP(LabelRef(lbl(b + "_stored")))
	Label(lbl(b + "_last"))
	if mk.open {
		Comment("The last batch: the join or r^16, the MAC of the tail (before the",
			"stores: an Open in place overwrites it), then the stores.")
		run(lastExtra)
		mk.tailMAC(func(x string) string { return lbl(b + "_" + x) })
		mk.lastStore()
	} else {
		Comment("The last batch: the stores, then the join or r^16.")
		mk.lastStore()
		run(lastExtra)
	}
	Label(lbl(b + "_stored"))
}

// lastStore emits the stores of the last 8-block batch.
// The last batch stores its whole blocks XORed into dst and the
// partial one XORed into fin (Seal: its plaintext; Open: its
// ciphertext, already MACed).
func (mk *midKernel) lastStore() {
	MOVQ(mk.f.src, rSrc)
	MOVQ(mk.f.dst, rDst)
	run(midStoreOps(mk.spill, func(blk, half int) []func() {
		return []func(){func() { lastBlockStore(Y12, blk, half, mk.tF64, mk.tFin) }}
	}))
}

// clamp clamps r (R8, R9: its two 64-bit halves) and stores r, s1 and
// r^1 as the first power.
func (mk *midKernel) clamp() {
	Comment("Clamp r (RFC 8439, Section 2.5); s1 = r1 + r1>>2; r^1 as the first power.")
	clampR(R8, R9, RDX)
	storeR(mk.f)
}

// batch0 emits batch 0 (r is not known yet): its keystream, block 0's
// first half to kf, from which r is clamped.
func (mk *midKernel) batch0() {
	// Batch 0: the key block and the first 448 bytes; no MAC work.
	mk.load()
	MOVQ(U32(10), RSI)
	Label(mk.lbl("b0_rounds"))
	run(mk.dr())
	DECQ(RSI)
	JNZ(LabelRef(mk.lbl("b0_rounds")))
	mk.addState()
	Comment("Transpose and store: block 0's first half to key, blocks 1-7.")
	LEAQ(mk.kf, RCX)
	if mk.open {
		mk.ks(rDst)
		run(midStoreOps(mk.spill, midKeyFirst(midRawStore)))
	} else {
		MOVQ(mk.f.src, rSrc)
		MOVQ(mk.f.dst, rDst)
		run(midStoreOps(mk.spill, midKeyFirst(midXORStore)))
	}
	MOVQ(Mem{Base: RCX}, R8)
	MOVQ(Mem{Base: RCX, Disp: 8}, R9)
	mk.clamp()
	mk.advance()
}

// batch1 emits batch 1 (label b1) as an 8-block batch, with r^16 merged
// into its stores; as a last batch of at most 4 blocks it jumps to the row
// layout (b1r, b1Row).
func (mk *midKernel) batch1() {
	f, lbl := mk.f, mk.lbl
	// Batch 1: MACs batch 0's 448 bytes as one chain of 28 blocks (five
	// per two double rounds, three after the rounds).
	Label(lbl("b1"))
	Comment("A last batch of at most 4 blocks takes the row layout (rowBatch).")
	CMPQ(f.n, U8(1))
	JNE(LabelRef(lbl("b1_t")))
	CMPQ(mk.tT, U32(256))
	JBE(LabelRef(lbl("b1r")))
	Label(lbl("b1_t"))
	mk.load()
	MOVQ(f.mac, avx2Ptr)
	if mk.open {
		Comment("Open, B >= 3 batches and an 8-lane last batch: chain A also takes",
			"the first midOpenX blocks of batch 1 (the last batch's chain A the fewer).")
		CMPQ(f.n, U8(2))
		JB(LabelRef(lbl("b1_nox")))
		CMPQ(mk.tT, U32(rowMaxT))
		JBE(LabelRef(lbl("b1_nox")))
		mk.b1MAC(true, "b1_xrounds", mk.dr2, midOpenPerA)
		JMP(LabelRef(lbl("b1_mac_done")))
		Label(lbl("b1_nox"))
		MOVQ(mk.tF16, RCX)
		ADDQ(mk.tNF, RCX)
		CMPQ(RCX, U8(16))
		JB(LabelRef(lbl("b1_noz")))
		mk.b1MAC(true, "b1_zrounds", mk.dr2, 5)
		JMP(LabelRef(lbl("b1_mac_done")))
		Label(lbl("b1_noz"))
	}
	mk.b1MAC(false, "b1_rounds", mk.dr2, 5)
	Label(lbl("b1_mac_done"))
	LEAQ(mem(avx2Ptr, 48), avx2Ptr)
	MOVQ(avx2Ptr, f.mac)
	mk.addState()
	if mk.open {
		mk.finishPrev(1)
	}
	Comment("r^16 during the stores (h saved).")
	var save, restore []func()
	for j := 0; j < 3; j++ {
		save = append(save, func() { MOVQ(avx2ChainA[j], mk.hs.Offset(8*j)) })
		restore = append(restore, func() { MOVQ(mk.hs.Offset(8*j), avx2ChainA[j]) })
	}
	mk.pow = append(append(save, mk.powOps()...), restore...)
	mk.store("b1", mk.pow, []func(){mk.lastPow})
	mk.advance()
	if mk.open {
		JZ(LabelRef(lbl("done")))
	} else {
		JZ(LabelRef(lbl("tail")))
	}
}

// b1MAC emits batch 1's MAC loop (label name): five times two double
// rounds (dr2: the 8-block batch's or the row layout's) merged with perA
// blocks of chain A and, withZ (Open), three of chain Z, then the chains'
// last blocks.
func (mk *midKernel) b1MAC(withZ bool, name string, dr2 func() []func(), perA int) {
	f, fz, lbl := mk.f, mk.fz, mk.lbl
	// The integer operations of two double rounds: perA blocks of A
	// (five: batch 0's 28 blocks with three after the rounds) and
	// (withZ) three of Z, whole blocks alternating (they share the
	// temporaries).
	var ops []func()
	if withZ {
		Comment("Open: chain Z, the last 16 MAC blocks of the message (in z), from 0.")
		for _, r := range avx2ChainB {
			XORL(r.As32(), r.As32())
		}
		Load(Param("z"), RCX)
		MOVQ(RCX, mk.zp)
	}
	for k := 0; k < max(perA, 3); k++ {
		if k < perA {
			ops = append(ops, polyBlockOps(f, avx2Tmp, avx2Ptr, avx2ChainA, k)...)
		}
		if withZ && k < 3 {
			ops = append(ops, polyBlockOps(fz, avx2Tmp, nil, avx2ChainB, k)...)
		}
	}
	ops = append(ops, func() { LEAQ(mem(avx2Ptr, 16*perA), avx2Ptr) })
	if withZ {
		ops = append(ops, func() { ADDQ(U8(48), mk.zp) })
	}
	MOVQ(U32(5), RSI)
	Label(lbl(name))
	merge(dr2(), ops)
	DECQ(RSI)
	JNZ(LabelRef(lbl(name)))
	Comment("The last blocks of the chains, before any store.")
	run(mk.chainA([]int{0, 1, 2}))
	if withZ {
		run(polyBlockOps(fz, avx2Tmp, nil, avx2ChainB, 0))
		for j := 0; j < 3; j++ {
			MOVQ(avx2ChainB[j], mk.zs.Offset(8*j))
		}
	}
}

// lastPow emits r^16 for batch 1 as the last batch (a Seal's sets tX to
// -1 instead: one tail chain).
// As the last batch, r^16 only if the tail needs it (K >= 16): else its
// latency would only delay the return.
func (mk *midKernel) lastPow() {
	if !mk.open {
		// A Seal's tail after batch 1 takes one chain whatever K
		// (at most 33): r^16 is four squarings on the tail's critical
		// path, which the two chains do not win back (bench/README.md,
		// "AVX2 Seal: one chain after batch 1").
		MOVQ(I32(-1), mk.tX)
		return
	}
	skip := newLabel("nopow")
	CMPQ(mk.tX, U8(0))
	JL(LabelRef(skip))
	run(mk.pow)
	Label(skip)
}

// loop emits the loop of the later batches (label loop), the chains
// joined during the stores; a last batch of the row layout's size jumps to
// label row (rowBatch).
func (mk *midKernel) loop() {
	f, lbl := mk.f, mk.lbl
	// Batches 2 onwards: 32 MAC blocks as two chains of 16.
	Label(lbl("loop"))
	Comment("A last batch of at most 4 blocks takes the row layout (rowBatch); an",
		"Open's of 5 or 6 blocks too, in three sets.")
	CMPQ(f.n, U8(1))
	JNE(LabelRef(lbl("loop_t")))
	if mk.open {
		CMPQ(mk.tT, U32(rowMaxT))
	} else {
		CMPQ(mk.tT, U32(256))
	}
	JBE(LabelRef(lbl("row")))
	Label(lbl("loop_t"))
	mk.load()
	Comment("Chain B starts from 0.")
	for _, r := range avx2ChainB {
		XORL(r.As32(), r.As32())
	}
	MOVQ(f.mac, avx2Ptr)
	if mk.open {
		mk.loopOpenLast()
	}
	Comment("Five times two double rounds, with three blocks of each MAC chain.")
	MOVQ(U32(5), RSI)
	Label(lbl("loop_rounds"))
	merge(mk.dr2(), append(mk.chainsAB([]int{0, 1, 2}), func() { LEAQ(mem(avx2Ptr, 48), avx2Ptr) }))
	DECQ(RSI)
	JNZ(LabelRef(lbl("loop_rounds")))
	Comment("The last block of each chain, before any store.")
	run(mk.chainsAB([]int{0}))
	LEAQ(mem(avx2Ptr, 512-5*48), avx2Ptr)
	MOVQ(avx2Ptr, f.mac)
	Label(lbl("loop_macd"))
	mk.addState()
	if mk.open {
		mk.finishPrev(0)
	}
	Comment("Join the chains during the stores: h = hA·r^16 + hB.")
	mk.store("loop", mulGeneralOps(avx2ChainA, avx2JoinP, R15, RAX, f.pow),
		mulGeneralOps(avx2ChainA, avx2JoinP, R15, RAX, f.pow))
	mk.advance()
	JNZ(LabelRef(lbl("loop")))
}

// loopOpenLast emits an Open's 8-block last batch with a tail of K >= 16
// MAC blocks: its rounds run chain A over tail blocks (as many as are
// left: conditional blocks) and chain B over the 16 before chain Z's, and
// it goes on at loop_macd; any other batch goes on at loop_ab.
func (mk *midKernel) loopOpenLast() {
	f, lbl := mk.f, mk.lbl
	Comment("Open, last batch, a tail of K >= 16 MAC blocks: chain A also takes the",
		"first K-16 tail blocks, less the midOpenX batch 1 took (BP counts them",
		"down: five per two double rounds, three after), chain B (pointer SI)",
		"the 16 after them; the last 16 are chain Z.")
	CMPQ(f.n, U8(1))
	JNE(LabelRef(lbl("loop_ab")))
	MOVQ(mk.tX, RCX)
	CMPQ(RCX, U8(0))
	JL(LabelRef(lbl("loop_ab")))
	LEAQ(mem(RCX, 16-midOpenX), RDX)
	MOVQ(RDX, RBP)
	SHLQ(U8(4), RDX)
	ADDQ(avx2Ptr, RDX)
	MOVQ(RDX, RSI)
	MOVQ(U32(0), mk.tX)
	condA := func() {
		skip := newLabel("skipA")
		TESTQ(RBP, RBP)
		JZ(LabelRef(skip))
		run(polyBlockOps(f, avx2Tmp, avx2Ptr, avx2ChainA, 0))
		ADDQ(U8(16), avx2Ptr)
		DECQ(RBP)
		Label(skip)
	}
	var ops []func()
	for k, q := 0, 0; k < 3; k++ {
		for ; q < midOpenCondA*(k+1)/3; q++ {
			ops = append(ops, condA)
		}
		ops = append(ops, polyBlockOps(f, avx2Tmp, RSI, avx2ChainB, k)...)
	}
	ops = append(ops, func() { ADDQ(U8(48), RSI) })
	MOVQ(U32(5), mk.rc)
	Label(lbl("loop_xrounds"))
	merge(mk.dr2(), ops)
	DECQ(mk.rc)
	JNZ(LabelRef(lbl("loop_xrounds")))
	Comment("The last blocks of the chains, before any store.")
	for i := 0; i < midOpenCondAfter; i++ {
		condA()
	}
	run(polyBlockOps(f, avx2Tmp, RSI, avx2ChainB, 0))
	JMP(LabelRef(lbl("loop_macd")))
	Label(lbl("loop_ab"))
}

// finish emits a Seal's tail (label tail), then, at label done, the tag
// and the wipe of the key material from the frame, and the return.
func (mk *midKernel) finish() {
	f, lbl := mk.f, mk.lbl
	if !mk.open {
		Label(lbl("tail"))
		mk.tailMAC(lbl)
	}
	Label(lbl("done"))
	LEAQ(mk.vframe, rFrame)
	ADDQ(U32(midW-1), rFrame)
	ANDQ(I32(-midW), rFrame)
	Comment("The tag: h mod 2^130-5 (h < 2p: subtract p unless that borrows), plus s,",
		"mod 2^128 (RFC 8439, Section 2.5.1).")
	polyTag([3]GPPhysical{R8, R9, R10}, [3]GPPhysical{RAX, RCX, RDX}, mk.kf.Offset(16))
	Load(Param("tag"), RAX)
	MOVQ(R8, Mem{Base: RAX})
	MOVQ(R9, Mem{Base: RAX, Disp: 8})
	Comment("Wipe the key material from the frame: the state slots, keystream, key, r, s1, r^16, h.")
	VPXOR(Y0, Y0, Y0)
	for i := 0; i < mk.nslots; i++ {
		VMOVDQU(Y0, mk.slot(i))
	}
	XORL(EAX, EAX)
	hs, zs, kf := mk.hs, mk.zs, mk.kf
	for _, m := range []Mem{f.r, f.r.Offset(8), f.s1, f.pow, f.pow.Offset(8), f.pow.Offset(16), hs, hs.Offset(8), hs.Offset(16), zs, zs.Offset(8), zs.Offset(16),
		kf, kf.Offset(8), kf.Offset(16), kf.Offset(24)} {
		MOVQ(RAX, m)
	}

	VZEROUPPER()
	RET()
}

// lastBlockStore stores half half of block blk of a last batch, in y: a
// whole block (blk < tF64, the count of whole blocks) XORed with src (SI)
// into dst (DI), the partial one (blk == tF64) XORed into the 64 bytes at
// tFin, the blocks after it nowhere. It uses CX.
func lastBlockStore(y VecPhysical, blk, half int, tF64, tFin Mem) {
	o := 64*blk + 32*half
	xor, next := newLabel("xor"), newLabel("next")
	CMPQ(tF64, U8(blk))
	JA(LabelRef(xor))
	JB(LabelRef(next))
	MOVQ(tFin, RCX)
	VPXOR(mem(RCX, 32*half), y, y)
	VMOVDQU(y, mem(RCX, 32*half))
	JMP(LabelRef(next))
	Label(xor)
	VPXOR(mem(rSrc, o), y, y)
	VMOVDQU(y, mem(rDst, o))
	Label(next)
}

// storeR stores the clamped r (R8, R9: its two 64-bit halves) to f.r and
// f.pow (r^1, the first power, as three limbs) and s1 = r1 + r1>>2 to
// f.s1, with DX.
func storeR(f stitchedFrame) {
	MOVQ(R8, f.r)
	MOVQ(R8, f.pow)
	MOVQ(R9, f.r.Offset(8))
	MOVQ(R9, f.pow.Offset(8))
	MOVQ(U32(0), f.r.Offset(16))
	MOVQ(U32(0), f.pow.Offset(16))
	MOVQ(R9, RDX)
	SHRQ(U8(2), RDX)
	ADDQ(R9, RDX)
	MOVQ(RDX, f.s1)
}

// absorbAD sets h (avx2ChainA) to the MAC of the padded additional data:
// its whole 16-byte blocks (parameter ad), then the padded tail (adTail,
// 0 or 16 bytes), block by block (short: QUIC and TLS headers).
func absorbAD(f stitchedFrame, lbl func(string) string) {
	Comment("h = the padded additional data: whole blocks, then the padded tail.")
	for _, r := range avx2ChainA {
		XORL(r.As32(), r.As32())
	}
	for _, p := range []string{"ad", "adTail"} {
		Load(Param(p).Base(), avx2Ptr)
		Load(Param(p).Len(), RSI)
		SHRQ(U8(4), RSI)
		JZ(LabelRef(lbl(p + "_done")))
		Label(lbl(p + "_loop"))
		run(polyBlockOps(f, avx2Tmp, avx2Ptr, avx2ChainA, 0))
		ADDQ(U8(16), avx2Ptr)
		DECQ(RSI)
		JNZ(LabelRef(lbl(p + "_loop")))
		Label(lbl(p + "_done"))
	}
}

// tail emits the MAC of the tail (after the last batch; h in R8-R10): the
// 4·(t/64) blocks of its whole 64-byte blocks (Seal: in dst, Open: in src),
// then the ceil(t%64/16) blocks of the partial one in fin and the lengths
// (moved from fin[64:80] to right after them). With tX >= 0 (16 blocks or
// more, and r^16 computed), as two chains: A = Horner(h, all but the last
// 16 blocks), B = Horner(0, the last 16), h = hA·r^16 + hB; else one
// chain. Seal first zeroes fin past the ciphertext (fin held the
// plaintext, then the XOR added the keystream to all 64 bytes).
func tail(open bool, lbl func(string) string, f stitchedFrame, tF16, tMain, tNF, tFin, tR64, cA, cB, zs, tX Mem) {
	MOVQ(tFin, RAX)
	if !open {
		Comment("Seal: zero fin past the partial block's t%64 bytes of ciphertext.")
		LEAQ(midMask, RCX)
		ADDQ(U8(64), RCX)
		SUBQ(tR64, RCX)
		VMOVDQU(Mem{Base: RCX}, Y12)
		VMOVDQU(mem(RCX, 32), Y13)
		VPAND(Mem{Base: RAX}, Y12, Y12)
		VPAND(mem(RAX, 32), Y13, Y13)
		VMOVDQU(Y12, Mem{Base: RAX})
		VMOVDQU(Y13, mem(RAX, 32))
	}
	Comment("The lengths right after the partial block's MAC blocks.")
	MOVQ(tNF, RCX)
	SHLQ(U8(4), RCX)
	VMOVDQU(mem(RAX, 64), X12)
	VMOVDQU(X12, Mem{Base: RAX, Index: RCX, Scale: 1, Disp: -16})
	blockA := func(ptr GPPhysical) { run(polyBlockOps(f, avx2Tmp, ptr, avx2ChainA, 0)) }
	blockB := func(ptr GPPhysical) { run(polyBlockOps(f, avx2Tmp, ptr, avx2ChainB, 0)) }
	CMPQ(tX, U8(0))
	JL(LabelRef(lbl("t1")))
	MOVQ(tF16, RCX)
	ADDQ(tNF, RCX)

	if open {
		Comment("Open: chain A over the first K-16 blocks (unless the last batch took",
			"them: tX = 0); the last 16 are chain Z.")
		MOVQ(tX, RCX)
		TESTQ(RCX, RCX)
		JZ(LabelRef(lbl("tz_join")))
		MOVQ(tMain, avx2Ptr)
		MOVQ(RCX, RSI)
		Label(lbl("tz_loop"))
		blockA(avx2Ptr)
		ADDQ(U8(16), avx2Ptr)
		DECQ(RSI)
		JNZ(LabelRef(lbl("tz_loop")))
		Label(lbl("tz_join"))
		Comment("h = hA·r^16 + hZ.")
		for j := 0; j < 3; j++ {
			MOVQ(zs.Offset(8*j), avx2JoinP[j])
		}
		run(mulGeneralOps(avx2ChainA, avx2JoinP, R15, RAX, f.pow))
		JMP(LabelRef(lbl("t_done")))
	} else {
		Comment("Two chains: A over the first K-16 blocks, B over the last 16.")
		SUBQ(U8(16), RCX)
		MOVQ(RCX, cA)
		MOVQ(U32(16), RDX)
		SUBQ(tNF, RDX)
		MOVQ(RDX, cB)
		MOVQ(tMain, avx2Ptr)
		MOVQ(tF16, RBX)
		SUBQ(RDX, RBX)
		SHLQ(U8(4), RBX)
		ADDQ(avx2Ptr, RBX)
		for _, r := range avx2ChainB {
			XORL(r.As32(), r.As32())
		}
		Label(lbl("t2_loop"))
		CMPQ(cA, U8(0))
		JE(LabelRef(lbl("t2_noA")))
		blockA(avx2Ptr)
		ADDQ(U8(16), avx2Ptr)
		DECQ(cA)
		Label(lbl("t2_noA"))
		CMPQ(cB, U8(0))
		JE(LabelRef(lbl("t2_noB")))
		blockB(RBX)
		ADDQ(U8(16), RBX)
		DECQ(cB)
		Label(lbl("t2_noB"))
		MOVQ(cA, RCX)
		ORQ(cB, RCX)
		JNZ(LabelRef(lbl("t2_loop")))
		MOVQ(tFin, RBX)
		MOVQ(tNF, RSI)
		Label(lbl("t2_fin"))
		blockB(RBX)
		ADDQ(U8(16), RBX)
		DECQ(RSI)
		JNZ(LabelRef(lbl("t2_fin")))
		Comment("h = hA·r^16 + hB.")
		run(mulGeneralOps(avx2ChainA, avx2JoinP, R15, RAX, f.pow))
		JMP(LabelRef(lbl("t_done")))
	}

	Comment("One chain.")
	Label(lbl("t1"))
	MOVQ(tMain, avx2Ptr)
	MOVQ(tF16, RSI)
	TESTQ(RSI, RSI)
	JZ(LabelRef(lbl("t1_fin")))
	Label(lbl("t1_loop"))
	blockA(avx2Ptr)
	ADDQ(U8(16), avx2Ptr)
	DECQ(RSI)
	JNZ(LabelRef(lbl("t1_loop")))
	Label(lbl("t1_fin"))
	MOVQ(tFin, avx2Ptr)
	MOVQ(tNF, RSI)
	Label(lbl("t1_fin_loop"))
	blockA(avx2Ptr)
	ADDQ(U8(16), avx2Ptr)
	DECQ(RSI)
	JNZ(LabelRef(lbl("t1_fin_loop")))
	Label(lbl("t_done"))
}

// Open with B >= 3 batches and an 8-block last batch (t > 256 bytes, so
// 17 <= K <= 33): batch 1's chain A takes midOpenPerA blocks per two double
// rounds (three after them), so midOpenX blocks of batch 1's own ciphertext
// besides batch 0's 28 (they are still ciphertext: batch 1's plaintext is
// written in the next batch), and the last batch's chain A, K-midOpenX
// blocks (at most 33-midOpenX), takes up to midOpenCondA per two double
// rounds and the rest, up to midOpenCondAfter, after them.
const (
	midOpenPerA      = 6
	midOpenX         = 5*midOpenPerA + 3 - 28
	midOpenCondA     = 5
	midOpenCondAfter = 33 - midOpenX - 5*midOpenCondA
)
