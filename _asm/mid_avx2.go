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
//     xorMACAVX2 (stitched_avx2.go), the join merged into the stores.
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
// against xorMACAVX2 it has the key block inside and a lag of one batch
// instead of two (so Seal needs no second MAC-free batch) and no separate
// tail. x/crypto's AVX2 AEAD (chacha20poly1305_amd64.s) and OpenSSL's and
// BoringSSL's stitched x86-64 AEADs are the source of the stitching idea;
// the code is this module's.
//
// Registers: as in xorMACAVX2: Y0-Y15 and the frame slots as in
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

func genMidAVX2Kernel(open bool) {
	name, pfx := "xorMACKeySealAVX2", "ms"
	if open {
		name, pfx = "xorMACKeyOpenAVX2", "mo"
	}
	lbl := func(s string) string { return pfx + "_" + s }
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
	const W = 32
	_, x, slot, spill := avx2Layout()
	// The vector frame: slots 0-23 as in xorBlocksAVX2; Open also keeps a
	// batch's keystream in slots 24-39 (ks) until the next batch has MACed
	// its ciphertext.
	nslots := 24
	if open {
		nslots = 40
	}
	vframe := AllocLocal(nslots*W + W)
	ks := func(r GPPhysical) { LEAQ(slot(24), r) }
	f := stitchedFrame{
		state: AllocLocal(8), src: AllocLocal(8), dst: AllocLocal(8), mac: AllocLocal(8),
		n: AllocLocal(8), r: AllocLocal(24), s1: AllocLocal(8), pow: AllocLocal(24),
	}
	hs := AllocLocal(24) // h during the squarings
	kf := AllocLocal(32) // the Poly1305 key: r, then s
	// The tail: its full 16-byte blocks (count, address), the final blocks
	// (1 or 2: the padded partial block if any, the lengths; count,
	// address) and the two chains' counters.
	tF16, tMain, tNF, tFin, cA, cB := AllocLocal(8), AllocLocal(8), AllocLocal(8), AllocLocal(8), AllocLocal(8), AllocLocal(8)
	tF64, tR64, tT := AllocLocal(8), AllocLocal(8), AllocLocal(8)
	// Open with a tail of 16 MAC blocks or more: the last 16 (in z) as a
	// chain of their own during batch 1: its pointer and result.
	zp, zs := AllocLocal(8), AllocLocal(24)
	fz := f
	fz.mac = zp
	// Open: the number of tail blocks left for after the last batch (K-16,
	// or 0 once a loop batch took them); the round counter of that batch
	// (SI is chain B's pointer there).
	tX, rc := AllocLocal(8), AllocLocal(8)
	// An Open's three-set row batch keeps its input rows in the spill slots
	// (16-21), which the row layout does not use.
	rowIn := slot(16)

	Comment("B = ceil((len(src)+64)/512) batches; src and dst as bases of virtual block 0.")
	Load(Param("src").Len(), RCX)
	ADDQ(U32(575), RCX)
	SHRQ(U8(9), RCX)
	MOVQ(RCX, f.n)
	Load(Param("dst").Base(), RDI)
	Load(Param("src").Base(), RSI)
	if open {
		MOVQ(RSI, f.mac)
	} else {
		MOVQ(RDI, f.mac)
	}
	SUBQ(U8(64), RDI)
	SUBQ(U8(64), RSI)
	MOVQ(RDI, f.dst)
	MOVQ(RSI, f.src)

	Comment("The tail: t = len(src) - (512(B-1) - 64) bytes: t/64 whole blocks",
		"(4t/64 MAC blocks at dst or src + len(src) - t), then in fin the",
		"partial block of t%64 bytes (ceil(t%64/16) MAC blocks) and the lengths.")
	Load(Param("src").Len(), RAX)
	MOVQ(f.n, RCX)
	SHLQ(U8(9), RCX)
	SUBQ(U32(576), RCX)
	SUBQ(RCX, RAX)
	MOVQ(RAX, tT)
	MOVQ(RAX, RDX)
	SHRQ(U8(6), RDX)
	MOVQ(RDX, tF64)
	SHLQ(U8(2), RDX)
	MOVQ(RDX, tF16)
	ANDQ(U8(63), RAX)
	MOVQ(RAX, tR64)
	ADDQ(U8(15), RAX)
	SHRQ(U8(4), RAX)
	INCQ(RAX)
	MOVQ(RAX, tNF)
	if open {
		Load(Param("src").Base(), RDX)
	} else {
		Load(Param("dst").Base(), RDX)
	}
	ADDQ(RCX, RDX)
	MOVQ(RDX, tMain)
	Load(Param("fin"), RDX)
	MOVQ(RDX, tFin)
	MOVQ(tF16, RDX)
	ADDQ(tNF, RDX)
	SUBQ(U8(16), RDX)
	MOVQ(RDX, tX)

	Comment("Align the vector frame and broadcast the input state into it.")
	Load(Param("s"), rState)
	MOVQ(rState, f.state)
	avx2BroadcastState(vframe, slot)

	dr := func() []func() { return avx2SpillDROps(x, spill) }
	// r^16: four squarings (general products: r^2 and up are not clamped).
	powOps := func() []func() { return r16Ops(f.pow) }
	chainA := func(blocks []int) []func() {
		var ops []func()
		for _, k := range blocks {
			ops = append(ops, polyBlockOps(f, avx2Tmp, avx2Ptr, avx2ChainA, k)...)
		}
		return ops
	}
	chainsAB := func(blocks []int) []func() { return avx2ChainsAB(f, blocks) }

	// Store targets (the stores use SI = src, DI = dst or ks, CX = key).
	xorStore := func(blk, half int) []func() {
		o := 64*blk + 32*half
		return []func(){
			func() { VPXOR(mem(rSrc, o), Y12, Y12) },
			func() { VMOVDQU(Y12, mem(rDst, o)) },
		}
	}
	rawStore := func(blk, half int) []func() {
		return []func(){func() { VMOVDQU(Y12, mem(rDst, 64*blk+32*half)) }}
	}
	// Batch 0: block 0's first half is the key, its second half unused.
	first := func(st func(blk, half int) []func()) func(blk, half int) []func() {
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

	// load emits the batch's counters and the state words into Y0-Y15 and
	// the frame (as xorBlocksAVX2).
	load := func() { avx2LoadBatch(f.state, x, slot, spill) }
	addState := func() { avx2AddState(x, slot, spill) }

	// finishPrev (Open) writes dst = src ^ ks for the previous batch's
	// blocks from..7 (SI and DI are the current batch's bases).
	finishPrev := func(from int) {
		Comment("Open: the previous batch's plaintext, now that its ciphertext is MACed.")
		MOVQ(f.src, rSrc)
		MOVQ(f.dst, rDst)
		ks(RCX)
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
	advance := func() {
		MOVQ(f.src, rSrc)
		MOVQ(f.dst, rDst)
		avx2NextBatch(f)
	}
	// store emits the stores of a MAC batch merged with the integer
	// operations extra (r^16 or the join): Open stores its keystream to ks;
	// Seal XORs it into dst, or, in the last batch, stores it to ks.
	store := func(b string, extra []func(), lastExtra []func()) {
		Comment("Transpose and store the 8 blocks.")
		// The last batch stores its whole blocks XORed into dst and the
		// partial one XORed into fin (Seal: its plaintext; Open: its
		// ciphertext, already MACed).
		lastStore := func() {
			MOVQ(f.src, rSrc)
			MOVQ(f.dst, rDst)
			run(midStoreOps(spill, func(blk, half int) []func() {
				return []func(){func() { lastBlockStore(Y12, blk, half, tF64, tFin) }}
			}))
		}
		CMPQ(f.n, U8(1))
		JE(LabelRef(lbl(b + "_last")))
		if open {
			ks(rDst)
			merge(midStoreOps(spill, rawStore), extra)
		} else {
			MOVQ(f.src, rSrc)
			MOVQ(f.dst, rDst)
			merge(midStoreOps(spill, xorStore), extra)
		}
		JMP(LabelRef(lbl(b + "_stored")))
		Label(lbl(b + "_last"))
		if open {
			Comment("The last batch: the join or r^16, the MAC of the tail (before the",
				"stores: an Open in place overwrites it), then the stores.")
			run(lastExtra)
			tail(true, func(x string) string { return lbl(b + "_" + x) }, f, tF16, tMain, tNF, tFin, tR64, cA, cB, zs, tX)
			lastStore()
		} else {
			Comment("The last batch: the stores, then the join or r^16.")
			lastStore()
			run(lastExtra)
		}
		Label(lbl(b + "_stored"))
	}

	// The last batch when it has at most 4 blocks (t <= 256 bytes), or an
	// Open's after batch 1 of at most 6 (t <= rowMaxT), in xorBlocksAVX2's
	// row layout: one to three sets of four rows (nsets; a Seal's takes one
	// for at most two blocks, t <= 128), two blocks per set (one per
	// 128-bit lane).
	// Its rounds are shorter
	// than the 8-block batch's (bench/README.md, "Engine per path and block
	// count"; three sets 128 ns against the 8-block batch's 155 on AMD Zen
	// 4), so the MAC work merged into them (the previous batch's, as in the
	// 8-block batch) sets its length. Two sets keep their input rows in
	// Y8-Y12 (the second set's counter row in Y12); three sets use Y0-Y11
	// and Y12-Y14 as temporaries, so their input rows live in rowIn (in
	// the wiped vector frame).
	nsets := 2
	rows3 := func() bool { return nsets == 3 }
	sets := func() []quad {
		return []quad{{Y0, Y1, Y2, Y3}, {Y4, Y5, Y6, Y7}, {Y8, Y9, Y10, Y11}}[:nsets]
	}
	in := [5]VecPhysical{Y8, Y9, Y10, Y11, Y12}
	inRow := func(i, j int) Op {
		switch {
		case rows3() && j == 3:
			return rowIn.Offset(32 * (3 + i))
		case rows3():
			return rowIn.Offset(32 * j)
		case j == 3 && i == 1:
			return in[4]
		}
		return in[j]
	}
	rowSetup := func() {
		MOVQ(f.state, rState)
		if rows3() {
			Comment("Three sets: the input rows to rowIn (constants, key, the three counter rows).")
			for j, m := range []Mem{sigma, mem(rState, offKey), mem(rState, offKey+16)} {
				VBROADCASTI128(m, Y12)
				VMOVDQU(Y12, rowIn.Offset(32*j))
			}
			VBROADCASTI128(mem(rState, offCounter), Y12)
			VPADDD(rowLanes, Y12, Y12)
			for i := 0; i < 3; i++ {
				if i > 0 {
					VPADDD(rowStep2, Y12, Y12)
				}
				VMOVDQU(Y12, rowIn.Offset(32*(3+i)))
			}
			for i, q := range sets() {
				for j := 0; j < 4; j++ {
					VMOVDQU(inRow(i, j), q[j])
				}
			}
			return
		}
		rowInputs([4]VecPhysical(in[:4]))
		VPADDD(rowStep2, in[3], in[4])
		for i, q := range sets() {
			for j := 0; j < 4; j++ {
				VMOVDQA(inRow(i, j), q[j])
			}
		}
	}
	rowDR2 := func() []func() {
		rtmp := []VecPhysical{Y13, Y14}
		if rows3() {
			rtmp = []VecPhysical{Y12, Y13, Y14}
		}
		sets := sets()
		shuf := func(a, c, d uint8) []func() {
			var ops []func()
			for _, q := range sets {
				ops = append(ops,
					func() { VPSHUFD(U8(a), q[0], q[0]) },
					func() { VPSHUFD(U8(c), q[2], q[2]) },
					func() { VPSHUFD(U8(d), q[3], q[3]) })
			}
			return ops
		}
		var ops []func()
		for k := 0; k < 2; k++ {
			ops = append(ops, avx2QROps(sets, rtmp)...)
			ops = append(ops, shuf(0x93, 0x39, 0x4e)...)
			ops = append(ops, avx2QROps(sets, rtmp)...)
			ops = append(ops, shuf(0x39, 0x93, 0x4e)...)
		}
		return ops
	}
	rowAdd := func() {
		Comment("Add the input rows.")
		for i, q := range sets() {
			for j := 0; j < 4; j++ {
				VPADDD(inRow(i, j), q[j], q[j])
			}
		}
	}
	// rowStore stores block 2i+l (rows 0-1 and 2-3 of lane l of set i):
	// whole blocks XORed into dst, the partial one into fin.
	rowStore := func() {
		MOVQ(f.src, rSrc)
		MOVQ(f.dst, rDst)
		for i, q := range sets() {
			for l, imm := range []uint8{0x20, 0x31} {
				blk := 2*i + l
				xor, fin, next := newLabel("rxor"), newLabel("rfin"), newLabel("rnext")
				VPERM2I128(U8(imm), q[1], q[0], Y13)
				VPERM2I128(U8(imm), q[3], q[2], Y14)
				CMPQ(tF64, U8(blk))
				JA(LabelRef(xor))
				JE(LabelRef(fin))
				JMP(LabelRef(next))
				Label(fin)
				MOVQ(tFin, RCX)
				VPXOR(Mem{Base: RCX}, Y13, Y13)
				VPXOR(mem(RCX, 32), Y14, Y14)
				VMOVDQU(Y13, Mem{Base: RCX})
				VMOVDQU(Y14, mem(RCX, 32))
				JMP(LabelRef(next))
				Label(xor)
				VPXOR(mem(rSrc, 64*blk), Y13, Y13)
				VPXOR(mem(rSrc, 64*blk+32), Y14, Y14)
				VMOVDQU(Y13, mem(rDst, 64*blk))
				VMOVDQU(Y14, mem(rDst, 64*blk+32))
				Label(next)
			}
		}
	}
	// rowEnd finishes a row-layout last batch: Seal stores, then joins (or
	// computes r^16), Open joins (or r^16), MACs the tail (before the
	// stores: an Open in place) and stores; then s.Counter moves past the
	// batch (8 blocks, as the other batches).
	rowEnd := func(name string, prevFrom int, extra func()) {
		rowAdd()
		if open {
			finishPrev(prevFrom)
		}
		if open {
			run([]func(){extra})
			tail(true, func(x string) string { return lbl(name + "_" + x) }, f, tF16, tMain, tNF, tFin, tR64, cA, cB, zs, tX)
			rowStore()
		} else {
			rowStore()
			run([]func(){extra})
		}
		MOVQ(f.state, rState)
		ADDL(U8(8), mem(rState, offCounter))
		if open {
			JMP(LabelRef(lbl("done")))
		} else {
			JMP(LabelRef(lbl("tail")))
		}
	}
	var b1Row func(name string)
	// rowBatch emits the row-layout last batches after the loop: label
	// row (two sets), and batch 1's (b1Row: b1r); for a Seal also row1 and
	// b1r1 (one set, for at most two blocks), for an Open row3 (three
	// sets). Each measured faster only there (bench/README.md, "AVX2 Open's
	// last batch in three row sets", "One row set for a last batch of one
	// or two blocks"): a Seal's last batch in three sets, and batch 1's,
	// whose single MAC chain sets its length, were no faster, and an Open's
	// in one set was 2-4% faster at some lengths and 1.6% slower at others.
	rowBatch := func() {
		counts := []int{2, 1}
		if open {
			counts = []int{2, 3}
		}
		for _, n := range counts {
			nsets = n
			name := map[int]string{1: "row1", 2: "row", 3: "row3"}[n]
			Label(lbl(name))
			if n == 2 && open {
				CMPQ(tT, U32(256))
				JA(LabelRef(lbl("row3")))
			} else if n == 2 {
				CMPQ(tT, U32(128))
				JBE(LabelRef(lbl("row1")))
			}
			Comment("The loop's last batch in the row layout; the previous batch's MAC as",
				"two chains of 16.")
			rowSetup()
			for _, r := range avx2ChainB {
				XORL(r.As32(), r.As32())
			}
			MOVQ(f.mac, avx2Ptr)
			MOVQ(U32(5), RSI)
			Label(lbl(name + "_rounds"))
			merge(rowDR2(), append(chainsAB([]int{0, 1, 2}), func() { LEAQ(mem(avx2Ptr, 48), avx2Ptr) }))
			DECQ(RSI)
			JNZ(LabelRef(lbl(name + "_rounds")))
			run(chainsAB([]int{0}))
			join := mulGeneralOps(avx2ChainA, avx2JoinP, R15, RAX, f.pow)
			rowEnd(name, 0, func() { run(join) })
			if n < 3 {
				b1Row(map[int]string{1: "b1r1", 2: "b1r"}[n])
			}
		}
		nsets = 2
	}

	// clamp clamps r (R8, R9: its two 64-bit halves) and stores r, s1 and
	// r^1 as the first power.
	clamp := func() {
		Comment("Clamp r (RFC 8439, Section 2.5); s1 = r1 + r1>>2; r^1 as the first power.")
		clampR(R8, R9, RDX)
		storeR(f)
	}
	// Batch 0: the key block and the first 448 bytes; no MAC work.
	load()
	MOVQ(U32(10), RSI)
	Label(lbl("b0_rounds"))
	run(dr())
	DECQ(RSI)
	JNZ(LabelRef(lbl("b0_rounds")))
	addState()
	Comment("Transpose and store: block 0's first half to key, blocks 1-7.")
	LEAQ(kf, RCX)
	if open {
		ks(rDst)
		run(midStoreOps(spill, first(rawStore)))
	} else {
		MOVQ(f.src, rSrc)
		MOVQ(f.dst, rDst)
		run(midStoreOps(spill, first(xorStore)))
	}
	MOVQ(Mem{Base: RCX}, R8)
	MOVQ(Mem{Base: RCX, Disp: 8}, R9)
	clamp()
	advance()
	absorbAD(f, lbl)
	// Batch 1: MACs batch 0's 448 bytes as one chain of 28 blocks (five
	// per two double rounds, three after the rounds).
	Label(lbl("b1"))
	Comment("A last batch of at most 4 blocks takes the row layout (rowBatch).")
	CMPQ(f.n, U8(1))
	JNE(LabelRef(lbl("b1_t")))
	CMPQ(tT, U32(256))
	JBE(LabelRef(lbl("b1r")))
	Label(lbl("b1_t"))
	load()
	MOVQ(f.mac, avx2Ptr)
	dr2 := func() []func() { return append(dr(), dr()...) }
	b1 := func(withZ bool, name string, dr2 func() []func(), perA int) {
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
			MOVQ(RCX, zp)
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
			ops = append(ops, func() { ADDQ(U8(48), zp) })
		}
		MOVQ(U32(5), RSI)
		Label(lbl(name))
		merge(dr2(), ops)
		DECQ(RSI)
		JNZ(LabelRef(lbl(name)))
		Comment("The last blocks of the chains, before any store.")
		run(chainA([]int{0, 1, 2}))
		if withZ {
			run(polyBlockOps(fz, avx2Tmp, nil, avx2ChainB, 0))
			for j := 0; j < 3; j++ {
				MOVQ(avx2ChainB[j], zs.Offset(8*j))
			}
		}
	}
	if open {
		Comment("Open, B >= 3 batches and an 8-lane last batch: chain A also takes",
			"the first midOpenX blocks of batch 1 (the last batch's chain A the fewer).")
		CMPQ(f.n, U8(2))
		JB(LabelRef(lbl("b1_nox")))
		CMPQ(tT, U32(rowMaxT))
		JBE(LabelRef(lbl("b1_nox")))
		b1(true, "b1_xrounds", dr2, midOpenPerA)
		JMP(LabelRef(lbl("b1_mac_done")))
		Label(lbl("b1_nox"))
		MOVQ(tF16, RCX)
		ADDQ(tNF, RCX)
		CMPQ(RCX, U8(16))
		JB(LabelRef(lbl("b1_noz")))
		b1(true, "b1_zrounds", dr2, 5)
		JMP(LabelRef(lbl("b1_mac_done")))
		Label(lbl("b1_noz"))
	}
	b1(false, "b1_rounds", dr2, 5)
	Label(lbl("b1_mac_done"))
	LEAQ(mem(avx2Ptr, 48), avx2Ptr)
	MOVQ(avx2Ptr, f.mac)
	addState()
	if open {
		finishPrev(1)
	}
	Comment("r^16 during the stores (h saved).")
	var save, restore []func()
	for j := 0; j < 3; j++ {
		save = append(save, func() { MOVQ(avx2ChainA[j], hs.Offset(8*j)) })
		restore = append(restore, func() { MOVQ(hs.Offset(8*j), avx2ChainA[j]) })
	}
	pow := append(append(save, powOps()...), restore...)
	// As the last batch, r^16 only if the tail needs it (K >= 16): else its
	// latency would only delay the return.
	lastPow := func() {
		if !open {
			// A Seal's tail after batch 1 takes one chain whatever K
			// (at most 33): r^16 is four squarings on the tail's critical
			// path, which the two chains do not win back (bench/README.md,
			// "AVX2 Seal: one chain after batch 1").
			MOVQ(I32(-1), tX)
			return
		}
		skip := newLabel("nopow")
		CMPQ(tX, U8(0))
		JL(LabelRef(skip))
		run(pow)
		Label(skip)
	}
	store("b1", pow, []func(){lastPow})
	b1Row = func(name string) {
		Label(lbl(name))
		if nsets == 2 && !open {
			CMPQ(tT, U32(128))
			JBE(LabelRef(lbl("b1r1")))
		}
		Comment("Batch 1 as the last batch in the row layout; batch 0's MAC as one chain",
			"(and, for Open, chain Z).")
		rowSetup()
		MOVQ(f.mac, avx2Ptr)
		if open {
			CMPQ(tX, U8(0))
			JL(LabelRef(lbl(name + "_noz")))
			b1(true, name+"_zrounds", rowDR2, 5)
			JMP(LabelRef(lbl(name + "_macd")))
			Label(lbl(name + "_noz"))
		}
		b1(false, name+"_rounds", rowDR2, 5)
		Label(lbl(name + "_macd"))
		rowEnd(name, 1, lastPow)
	}
	advance()
	if open {
		JZ(LabelRef(lbl("done")))
	} else {
		JZ(LabelRef(lbl("tail")))
	}

	// Batches 2 onwards: 32 MAC blocks as two chains of 16.
	Label(lbl("loop"))
	Comment("A last batch of at most 4 blocks takes the row layout (rowBatch); an",
		"Open's of 5 or 6 blocks too, in three sets.")
	CMPQ(f.n, U8(1))
	JNE(LabelRef(lbl("loop_t")))
	if open {
		CMPQ(tT, U32(rowMaxT))
	} else {
		CMPQ(tT, U32(256))
	}
	JBE(LabelRef(lbl("row")))
	Label(lbl("loop_t"))
	load()
	Comment("Chain B starts from 0.")
	for _, r := range avx2ChainB {
		XORL(r.As32(), r.As32())
	}
	MOVQ(f.mac, avx2Ptr)
	if open {
		Comment("Open, last batch, a tail of K >= 16 MAC blocks: chain A also takes the",
			"first K-16 tail blocks, less the midOpenX batch 1 took (BP counts them",
			"down: five per two double rounds, three after), chain B (pointer SI)",
			"the 16 after them; the last 16 are chain Z.")
		CMPQ(f.n, U8(1))
		JNE(LabelRef(lbl("loop_ab")))
		MOVQ(tX, RCX)
		CMPQ(RCX, U8(0))
		JL(LabelRef(lbl("loop_ab")))
		LEAQ(mem(RCX, 16-midOpenX), RDX)
		MOVQ(RDX, RBP)
		SHLQ(U8(4), RDX)
		ADDQ(avx2Ptr, RDX)
		MOVQ(RDX, RSI)
		MOVQ(U32(0), tX)
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
		MOVQ(U32(5), rc)
		Label(lbl("loop_xrounds"))
		merge(append(dr(), dr()...), ops)
		DECQ(rc)
		JNZ(LabelRef(lbl("loop_xrounds")))
		Comment("The last blocks of the chains, before any store.")
		for i := 0; i < midOpenCondAfter; i++ {
			condA()
		}
		run(polyBlockOps(f, avx2Tmp, RSI, avx2ChainB, 0))
		JMP(LabelRef(lbl("loop_macd")))
		Label(lbl("loop_ab"))
	}
	Comment("Five times two double rounds, with three blocks of each MAC chain.")
	MOVQ(U32(5), RSI)
	Label(lbl("loop_rounds"))
	merge(append(dr(), dr()...), append(chainsAB([]int{0, 1, 2}), func() { LEAQ(mem(avx2Ptr, 48), avx2Ptr) }))
	DECQ(RSI)
	JNZ(LabelRef(lbl("loop_rounds")))
	Comment("The last block of each chain, before any store.")
	run(chainsAB([]int{0}))
	LEAQ(mem(avx2Ptr, 512-5*48), avx2Ptr)
	MOVQ(avx2Ptr, f.mac)
	Label(lbl("loop_macd"))
	addState()
	if open {
		finishPrev(0)
	}
	Comment("Join the chains during the stores: h = hA·r^16 + hB.")
	store("loop", mulGeneralOps(avx2ChainA, avx2JoinP, R15, RAX, f.pow),
		mulGeneralOps(avx2ChainA, avx2JoinP, R15, RAX, f.pow))
	advance()
	JNZ(LabelRef(lbl("loop")))

	if !open {
		Label(lbl("tail"))
		tail(false, lbl, f, tF16, tMain, tNF, tFin, tR64, cA, cB, zs, tX)
	}
	Label(lbl("done"))
	LEAQ(vframe, rFrame)
	ADDQ(U32(W-1), rFrame)
	ANDQ(I32(-W), rFrame)
	Comment("The tag: h mod 2^130-5 (h < 2p: subtract p unless that borrows), plus s,",
		"mod 2^128 (RFC 8439, Section 2.5.1).")
	polyTag([3]GPPhysical{R8, R9, R10}, [3]GPPhysical{RAX, RCX, RDX}, kf.Offset(16))
	Load(Param("tag"), RAX)
	MOVQ(R8, Mem{Base: RAX})
	MOVQ(R9, Mem{Base: RAX, Disp: 8})
	Comment("Wipe the key material from the frame: the state slots, keystream, key, r, s1, r^16, h.")
	VPXOR(Y0, Y0, Y0)
	for i := 0; i < nslots; i++ {
		VMOVDQU(Y0, slot(i))
	}
	XORL(EAX, EAX)
	for _, m := range []Mem{f.r, f.r.Offset(8), f.s1, f.pow, f.pow.Offset(8), f.pow.Offset(16), hs, hs.Offset(8), hs.Offset(16), zs, zs.Offset(8), zs.Offset(16),
		kf, kf.Offset(8), kf.Offset(16), kf.Offset(24)} {
		MOVQ(RAX, m)
	}

	VZEROUPPER()
	RET()

	rowBatch()
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
