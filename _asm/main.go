// Command _asm generates every amd64 assembly file of chachakit with avo
// (github.com/mmcloughlin/avo). It is a module of its own, so that avo is
// not a dependency of chachakit.
//
// Each run writes one file, named by -gen (see families below):
//
//	-gen cpuid      internal/cpuid/cpuid_amd64.s          the CPUID instruction
//	-gen poly1305   internal/poly1305/poly1305_amd64.s    Poly1305 block functions
//	-gen chacha20   internal/chacha20core/chacha20_amd64.s keystream, lanes
//	-gen small      internal/aeadasm/small_amd64.s        AEAD kernels of short messages
//	-gen midavx2    internal/aeadasm/mid_avx2_amd64.s     mid-size AVX2 AEAD kernels
//	-gen lanesaead  internal/aeadasm/lanes_amd64.s        aead.Batch's kernels
//	-gen stitched   internal/aeadasm/stitched_amd64.s     the long-message AEAD loops
//
// Each package's go:generate line runs it, for example
//
//	go run -C ../../_asm . -gen chacha20 -out ../internal/chacha20core/chacha20_amd64.s -pkg chacha20core
//
// and `GOOS=linux GOARCH=amd64 go generate ./...` at the module root
// regenerates them all; CI checks that the result is byte for byte the
// committed files. Every generated file has the build constraint
// gc && !purego. The Go declarations of the functions are in the packages,
// beside the .s files.
//
// # The keystream (-gen chacha20)
//
// The three main keystream functions, one per instruction set, have the
// signature
//
//	func xorBlocksXXX(s *State, dst, src []byte)
//
// They XOR len(src)/64 keystream blocks, starting at block s.Counter, into
// dst and advance s.Counter by that many blocks (wrapping modulo 2^32).
//
// Each function has the same shape: wide batches while many blocks are
// left, then one batch of fewer lanes for the rest:
//
//	blocks left   AVX512                        AVX2                SSSE3
//	large         17: 16 zmm lanes + 1 scalar   8: transposed ymm   4: transposed xmm
//	              (while >= 17 left)            (while > 4 left)    (while > 2 left)
//	9..16         16: transposed zmm            -                   -
//	5..8          8: transposed ymm (VL)        -                   -
//	3..4          4: row layout, 1 zmm set      4: row, 2 ymm sets  -
//	1..2          2: row layout, 1 ymm set,     2: row, 1 ymm set   2: row, 2 xmm sets
//	              low-latency rounds (VL)                           1: row, 1 xmm set
//
// The transposed batch keeps state word i of L consecutive blocks in vector
// register i (one block per 32-bit lane), so that the quarter rounds need no
// shuffles; a final transposition turns the lanes back into blocks. This is
// the layout of OpenSSL's ChaCha20_4x, _8x and _16x
// (crypto/chacha/asm/chacha-x86_64.pl). With 16 vector registers (AVX2,
// SSSE3) words 8-11 take turns: two of them in registers, two in the stack
// frame, swapped between pairs of quarter rounds, the scheme of Linux's
// scalar ARM ChaCha (arch/arm/crypto/chacha-scalar-core.S). The AVX-512
// batch also runs a 17th block on the otherwise idle integer units, with
// the same swapping for its 16 words in 14 general-purpose registers.
//
// The row layout keeps one block in each 128-bit lane: four registers hold
// the four rows of the 4x4 state matrix, a column round is one vector
// quarter round, and lane shuffles move the diagonals into columns. It costs
// more instructions per block but its latency for one to a few blocks is
// the shortest, which is what 64- to 512-byte messages (QUIC, TLS) need.
// Unlike the usual formulation (Bernstein's, and x/crypto's AVX2 AEAD code),
// the diagonalisation here rotates rows a, c and d and leaves row b in place:
// b is the last value a quarter round produces and the first one the next
// one consumes, so shuffling it would put a shuffle on the critical path of
// every round.
//
// A batch that computes more blocks than the caller asked for (the
// transposed batch at the end of a message, or a row batch) writes only the
// blocks asked for and reads only the matching source bytes. Extra lanes of
// the counter wrap modulo 2^32 like the rest, but they are never written.
//
// The same file holds the AVX-512 row code the route of package
// chacha20core picks by length (VPROLD rounds for one or two blocks) and per
// core (two zmm row sets for five to eight blocks).
// laneBlocksAVX512 and laneBlocksAVX2 (lanes.go) compute LaneBlocks: up to
// 16 independent blocks, each with its own key, counter and nonce, in the
// transposed or row layout after their number.
//
// The AEAD's long-message loops (-gen stitched) run ChaCha20 on the vector
// units with Poly1305 on the integer units: xorMACAVX512 (stitched.go: the
// 16-lane AVX-512 batch, the MAC in place of the 17th block); with AVX2
// only, the mid-size kernels (mid_avx2.go) take every length from 449
// bytes. The files of the other
// kernels (small.go, mid_avx2.go, lanes_aead.go, ...) each
// begin with a header that gives their Go signatures and what they compute.
package main

import (
	"flag"
	"fmt"
	"os"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Offsets in State.
const (
	offKey     = 0
	offCounter = 32
	offNonce   = 36
)

// The signature avo type-checks; the Go declaration in chacha20_amd64.go
// uses *State, which has the same size and layout as [12]uint32.
const signature = "func(s *[12]uint32, dst []byte, src []byte)"

var (
	sigma    Mem // "expand 32-byte k", the first row
	iota16   Mem // 0, 1, ..., 15: per-lane counter offsets of a transposed batch
	rowLanes Mem // {0,0,0,0, 1,0,0,0, 2,0,0,0, 3,0,0,0}: per-lane counter offsets of a row batch
	rowStep2 Mem // {2,0,0,0} x2: second ymm row set
	rowStep1 Mem // {1,0,0,0}: second xmm row set
	rowStep4 Mem // {4,0,0,0} x4: second zmm row set
	rol16    Mem // PSHUFB mask rotating each 32-bit lane left by 16
	rol8     Mem // PSHUFB mask rotating each 32-bit lane left by 8
	lanesCtr Mem // 0 in lanes 0-7, 1 in lanes 8-15: the batch kernels' counters
	tagPerm  Mem // VPERMI2Q indexes interleaving eight tags' low and high halves
)

// The files this generator writes, one per -gen value: CPUID for package
// cpuid, XORBytes of package xorbytes, the Poly1305 block functions of
// package poly1305, the keystream paths of package
// chacha20core, and one file per family of the AEAD kernels of package
// aeadasm (lanesaead: the batch kernel). Each runs from the go:generate line
// of its package.
var families = map[string]func(){
	"cpuid":    genCPUID,
	"poly1305": genPoly1305,
	"chacha20": func() {
		constants("sigma", "iota16", "rowLanes", "rowStep2", "rowStep1", "rowStep4", "rol16", "rol8")
		genAVX512()
		genRowsProldAVX512()
		genRowsZ2AVX512()
		genAVX2()
		genSSSE3()
		genLanesAVX512()
		genLanesAVX2()
	},
	"small": func() {
		constants("sigma", "iota16", "rowLanes", "rowStep2", "rol16", "rol8", "midMask")
		genSmall()
		genOpenFirstAVX2()
	},
	"midavx2":   func() { constants("sigma", "iota16", "rowLanes", "rowStep2", "rol16", "rol8", "midMask"); genMidAVX2() },
	"lanesaead": func() { constants("sigma", "lanesCtr", "tagPerm"); genLanesAEAD() },
	"stitched": func() {
		constants("sigma", "iota16", "rol16", "rol8")
		genStitched()
		genKeyTail()
	},
}

var gen = flag.String("gen", "", "the file to generate: cpuid, xorbytes, poly1305, chacha20, small, midavx2, lanesaead or stitched")

func main() {
	flag.Parse()
	f, ok := families[*gen]
	if !ok {
		fmt.Fprintln(os.Stderr, "_asm: unknown -gen", *gen)
		os.Exit(2)
	}
	ConstraintExpr("gc,!purego")
	f()
	Generate()
}

// The read-only tables of the ChaCha20 code, by name: sigma, "expand
// 32-byte k"; iota16, the lane offsets of a transposed batch; rowLanes,
// rowStep2 and rowStep1, the counter offsets of the row batches; rol16 and
// rol8, PSHUFB masks rotating each 32-bit lane left by 16 and 8; midMask, 64
// bytes of 0xff then 64 zeros (the 64 bytes at 64-r mask a partial block of
// r bytes); lanesCtr and tagPerm, the batch kernel's block counters and the
// VPERMI2Q indexes that interleave its tags' halves.
var tables = map[string]func(){
	"sigma": func() {
		for i, w := range []uint32{0x61707865, 0x3320646e, 0x79622d32, 0x6b206574} {
			DATA(4*i, U32(w))
		}
	},
	"iota16": func() {
		for i := 0; i < 16; i++ {
			DATA(4*i, U32(uint32(i)))
		}
	},
	"rowLanes": func() {
		for i := 0; i < 16; i++ {
			v := uint32(0)
			if i%4 == 0 {
				v = uint32(i / 4)
			}
			DATA(4*i, U32(v))
		}
	},
	"rowStep2": func() { rowStep(2, 2) },
	"rowStep1": func() { rowStep(1, 1) },
	"rowStep4": func() { rowStep(4, 4) },
	"rol16":    func() { rotMask(16) },
	"rol8":     func() { rotMask(8) },
	"lanesCtr": func() {
		for i := 0; i < 16; i++ {
			DATA(4*i, U32(uint32(i/8)))
		}
	},
	"tagPerm": func() {
		for i, v := range []uint64{0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15} {
			DATA(8*i, U64(v))
		}
	},
	"midMask": func() {
		for i := 0; i < 128; i++ {
			b := uint8(0)
			if i < 64 {
				b = 0xff
			}
			DATA(i, U8(b))
		}
	},
}

// rowStep emits n 16-byte lanes whose first word is v.
func rowStep(n, v int) {
	for i := 0; i < 4*n; i++ {
		w := uint32(0)
		if i%4 == 0 {
			w = uint32(v)
		}
		DATA(4*i, U32(w))
	}
}

// rotMask emits a PSHUFB mask for a rotation left by r bits of each 32-bit
// lane: byte i of the result is byte mask[i] of the source.
func rotMask(r int) {
	for i := 0; i < 32; i++ {
		lane := i &^ 3
		DATA(i, U8(uint8(lane+(i-r/8+4)%4)))
	}
}

// constants points the table variables at their symbols and emits, into
// the file being generated, the tables named (the ones its functions use;
// a table used but not emitted fails to assemble).
func constants(names ...string) {
	for name, m := range map[string]*Mem{
		"sigma": &sigma, "iota16": &iota16, "rowLanes": &rowLanes, "rowStep2": &rowStep2,
		"rowStep1": &rowStep1, "rowStep4": &rowStep4, "rol16": &rol16, "rol8": &rol8, "midMask": &midMask,
		"lanesCtr": &lanesCtr, "tagPerm": &tagPerm,
	} {
		*m = NewDataAddr(NewStaticSymbol(name), 0)
	}
	for _, name := range names {
		GLOBL(name, RODATA|NOPTR)
		tables[name]()
	}
}

// A quad names the four state words one quarter round works on.
type quad [4]VecPhysical

// Column and diagonal quarter rounds of RFC 8439, Section 2.2, as indexes
// into the 16 state words.
var (
	columns   = [4][4]int{{0, 4, 8, 12}, {1, 5, 9, 13}, {2, 6, 10, 14}, {3, 7, 11, 15}}
	diagonals = [4][4]int{{0, 5, 10, 15}, {1, 6, 11, 12}, {2, 7, 8, 13}, {3, 4, 9, 14}}
)

var labelSeq int

// newLabel returns a fresh label name.
func newLabel(prefix string) string {
	labelSeq++
	return fmt.Sprintf("%s_%d", prefix, labelSeq)
}

// mem returns the memory operand base+disp.
func mem(base GPPhysical, disp int) Mem { return Mem{Base: base, Disp: disp} }

// Registers shared by the three functions.
var (
	rState = RAX // *State
	rDst   = RDI
	rSrc   = RSI
	rN     = RCX // blocks left
	rRound = RDX // double-round counter
	rFrame = RBX // 16- or 32-byte aligned base of the stack frame (AVX2, SSSE3)
)

// prologue loads the arguments and returns early for an empty input.
func prologue() {
	Load(Param("s"), rState)
	Load(Param("dst").Base(), rDst)
	Load(Param("src").Base(), rSrc)
	Load(Param("src").Len(), rN)
	SHRQ(U8(6), rN)
	JZ(LabelRef("ret"))
}

// nextBatch emits the end of an L-block batch: to label partial if fewer
// than L blocks were left, else past the batch's blocks, and back to label
// loop while more than T are left.
func nextBatch(L, T int, partial, loop string) {
	CMPQ(rN, U32(L))
	JB(LabelRef(partial))
	ADDQ(U32(64*L), rSrc)
	ADDQ(U32(64*L), rDst)
	ADDL(U32(L), mem(rState, offCounter))
	SUBQ(U32(L), rN)
	CMPQ(rN, U32(T))
	JA(LabelRef(loop))
}

// skipUnless emits a jump over the store of block b (to label skip) unless
// more than b blocks are asked for. Paths never run with fewer than rmin
// blocks, so nothing is emitted for b < rmin.
func skipUnless(b, rmin int, skip string) {
	if b >= rmin {
		CMPQ(rN, U32(b))
		JBE(LabelRef(skip))
	}
}

// ---------------------------------------------------------------------------
// AVX-512

// qrInPlace emits quarter rounds on word quadruples held in the registers
// given by locs, in place.
func qrInPlace(qs [][4]int, locs wordLocs) {
	var quads []quad
	for _, q := range qs {
		quads = append(quads, quad{locs[q[0]], locs[q[1]], locs[q[2]], locs[q[3]]})
	}
	qrAVX512(quads)
}

// qrAVX512 emits one quarter round on each quad, interleaved instruction by
// instruction; VPROLD rotates in one instruction and needs no temporary.
func qrAVX512(qs []quad) {
	for _, r := range [2]uint8{16, 8} {
		r2 := map[uint8]uint8{16: 12, 8: 7}[r]
		for _, step := range []func(q quad){
			func(q quad) { VPADDD(q[1], q[0], q[0]) },
			func(q quad) { VPXORD(q[0], q[3], q[3]) },
			func(q quad) { VPROLD(U8(r), q[3], q[3]) },
			func(q quad) { VPADDD(q[3], q[2], q[2]) },
			func(q quad) { VPXORD(q[2], q[1], q[1]) },
			func(q quad) { VPROLD(U8(r2), q[1], q[1]) },
		} {
			for _, q := range qs {
				step(q)
			}
		}
	}
}

// yreg returns Yi (Y16-Y31 need AVX-512VL encodings).
func yreg(i int) VecPhysical {
	return [...]VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15,
		Y16, Y17, Y18, Y19, Y20, Y21, Y22, Y23, Y24, Y25, Y26, Y27, Y28, Y29, Y30, Y31}[i]
}

// zreg returns Zi.
func zreg(i int) VecPhysical {
	return [...]VecPhysical{Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15,
		Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27, Z28, Z29, Z30, Z31}[i]
}

// wordLocs tracks, for each of the 16 state words of a transposed batch,
// the register holding its current value: the word's own register Zw, or a
// register of precomputed values that must not be overwritten. Operations
// read a word from wherever it is and write it to Zw, so the first write
// to a word also does the copy out of the precomputed register.
type wordLocs [16]VecPhysical

func (l *wordLocs) add(w, src int) { h := l.home(w); VPADDD(l[src], l[w], h); l[w] = h }
func (l *wordLocs) xor(w, src int) { h := l.home(w); VPXORD(l[src], l[w], h); l[w] = h }
func (l *wordLocs) rol(w, r int)   { h := l.home(w); VPROLD(U8(r), l[w], h); l[w] = h }

// home returns word w's own register, Zw or Yw (AVX-512VL code) after the
// width of its current location.
func (l *wordLocs) home(w int) VecPhysical {
	if l[w].Size() == 32 {
		return yreg(w)
	}
	return zreg(w)
}

// qrOps returns the operations of quarter rounds on the given word
// quadruples, interleaved. They resolve the words' locations when run, so
// they must run in order; operations of other computations (the scalar
// block) may run in between.
func (l *wordLocs) qrOps(qs [][4]int) []func() {
	// ops[i] lists the twelve operations of quarter round i.
	ops := make([][]func(), len(qs))
	for i, q := range qs {
		for _, r := range [2][2]int{{16, 12}, {8, 7}} {
			ops[i] = append(ops[i],
				func() { l.add(q[0], q[1]) },
				func() { l.xor(q[3], q[0]) },
				func() { l.rol(q[3], r[0]) },
				func() { l.add(q[2], q[3]) },
				func() { l.xor(q[1], q[2]) },
				func() { l.rol(q[1], r[1]) })
		}
	}
	// Quarter rounds 2 and 3 run one operation behind 0 and 1: measured
	// on Zen 5, this order is about 4% faster than lockstep (the scheduler
	// finds a ready operation more often).
	const lag = 1
	var out []func()
	for t := 0; t < 12+lag; t++ {
		for i := range ops {
			k := t
			if i >= 2 {
				k = t - lag
			}
			if k >= 0 && k < 12 {
				out = append(out, ops[i][k])
			}
		}
	}
	return out
}

// qr emits quarter rounds on the given word quadruples, interleaved.
func (l *wordLocs) qr(qs [][4]int) { run(l.qrOps(qs)) }

func run(ops []func()) {
	for _, f := range ops {
		f()
	}
}

// merge runs two independent instruction streams, interleaved in
// proportion to their lengths, each in its own order.
func merge(a, b []func()) {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		// Emit from a while it is not ahead of b in relative progress.
		if j >= len(b) || (i < len(a) && i*len(b) <= j*len(a)) {
			a[i]()
			i++
		} else {
			b[j]()
			j++
		}
	}
}

// qrLowLatency emits one quarter round on each quad with a shorter
// dependency chain than qrAVX512, for the row code, whose few blocks are
// bound by latency rather than throughput. A rotation takes two cycles on
// some CPUs (AMD Zen 5), so "x ^= y; x <<<= r" costs three on the chain.
// Rotation is linear over XOR: (x ^ y) <<< r = (x <<< r) ^ (y << r) ^
// (y >> (32-r)), where x <<< r is computed off the chain (x is ready
// early), the two shifts of y in parallel, and one VPTERNLOGD XORs the
// three: two cycles after y. Per round that is 12 cycles instead of 16, at
// the price of two more instructions per rotation. tmp holds two scratch
// registers per quad.
func qrLowLatency(qs []quad, tmp [][2]VecPhysical) {
	step := func(f func(i int, q quad)) {
		for i, q := range qs {
			f(i, q)
		}
	}
	// x = (x ^ y) <<< r, with y just computed.
	xorRot := func(x, y VecPhysical, t [2]VecPhysical, r int) {
		VPSLLD(U8(r), y, t[1])
		VPSRLD(U8(32-r), y, x)
		VPTERNLOGD(U8(0x96), t[0], t[1], x)
	}
	for _, r := range [2][2]int{{16, 12}, {8, 7}} {
		step(func(i int, q quad) { VPROLD(U8(r[0]), q[3], tmp[i][0]) })
		step(func(_ int, q quad) { VPADDD(q[1], q[0], q[0]) })
		step(func(i int, q quad) { xorRot(q[3], q[0], tmp[i], r[0]) })
		step(func(i int, q quad) { VPROLD(U8(r[1]), q[1], tmp[i][0]) })
		step(func(_ int, q quad) { VPADDD(q[3], q[2], q[2]) })
		step(func(i int, q quad) { xorRot(q[1], q[2], tmp[i], r[1]) })
	}
}

// The scalar block of the hybrid batch: 16 words in 14 general-purpose
// registers, two words of the third row in the stack frame (the same
// swapping scheme as the AVX2 and SSSE3 code).
var (
	scalarReg = map[int]GPPhysical{
		0: R8L, 1: R9L, 2: R10L, 3: R11L, 4: R12L, 5: R13L, 6: R14L, 7: R15L,
		12: EAX, 13: EBX, 14: ECX, 15: EDX,
	}
	scalarC = [2]GPPhysical{ESI, EDI} // words 8 and 9, or 10 and 11
)

// avx512Frame is the stack frame of xorBlocksAVX512 (hybrid loop only).
type avx512Frame struct {
	state, src, dst, n, rounds Mem // saved registers and the round counter
	words                      Mem // 16 x 4 bytes: scalar words not in registers
}

// scalarDROps returns the operations of one double round of the scalar
// block.
func scalarDROps(f avx512Frame) []func() {
	word := func(w int) Mem { return f.words.Offset(4 * w) }
	reg := func(w int, c [2]int) GPPhysical {
		if r, ok := scalarReg[w]; ok {
			return r
		}
		if w == c[0] {
			return scalarC[0]
		}
		return scalarC[1]
	}
	pair := func(qs [2][4]int, c [2]int) []func() {
		var ops [2][]func()
		for i, q := range qs {
			a, b, cc, d := reg(q[0], c), reg(q[1], c), reg(q[2], c), reg(q[3], c)
			for _, r := range [2][2]int{{16, 12}, {8, 7}} {
				ops[i] = append(ops[i],
					func() { ADDL(b, a) },
					func() { XORL(a, d) },
					func() { ROLL(U8(r[0]), d) },
					func() { ADDL(d, cc) },
					func() { XORL(cc, b) },
					func() { ROLL(U8(r[1]), b) })
			}
		}
		var out []func()
		for k := range ops[0] {
			out = append(out, ops[0][k], ops[1][k])
		}
		return out
	}
	swap := func(out, in [2]int) []func() {
		return []func(){
			func() { MOVL(scalarC[0], word(out[0])) },
			func() { MOVL(scalarC[1], word(out[1])) },
			func() { MOVL(word(in[0]), scalarC[0]) },
			func() { MOVL(word(in[1]), scalarC[1]) },
		}
	}
	var ops []func()
	ops = append(ops, pair([2][4]int{columns[0], columns[1]}, [2]int{8, 9})...)
	ops = append(ops, swap([2]int{8, 9}, [2]int{10, 11})...)
	ops = append(ops, pair([2][4]int{columns[2], columns[3]}, [2]int{10, 11})...)
	ops = append(ops, pair([2][4]int{diagonals[0], diagonals[1]}, [2]int{10, 11})...)
	ops = append(ops, swap([2]int{10, 11}, [2]int{8, 9})...)
	ops = append(ops, pair([2][4]int{diagonals[2], diagonals[3]}, [2]int{8, 9})...)
	return ops
}

// precomputeColumns emits the first column round of columns 1-3 of a
// transposed AVX-512 batch, which does not involve the counter and is the
// same for every block of a call, into Z20-Z31 (word w of column c, row i in
// Z(20+3i+c-1)), and returns where each of those words is.
func precomputeColumns() wordLocs {
	var pre wordLocs
	for c := 1; c < 4; c++ {
		for i, w := range columns[c] {
			r := zreg(20 + 3*i + (c - 1))
			pre[w] = r
			switch i {
			case 0:
				VPBROADCASTD(sigma.Offset(4*c), r)
			case 1, 2:
				VPBROADCASTD(mem(rState, offKey+4*(w-4)), r)
			case 3:
				VPBROADCASTD(mem(rState, offNonce+4*(w-13)), r)
			}
		}
	}
	qrInPlace([][4]int{columns[1], columns[2], columns[3]}, pre)
	return pre
}

// firstDiagOps returns the operations of the first diagonal round of a
// 16-lane batch: words of column 0 in Z0, Z4, Z8, Z12, the others where
// precomputeColumns left them.
func firstDiagOps(pre wordLocs) []func() {
	locs := pre
	for _, w := range columns[0] {
		locs[w] = zreg(w)
	}
	return locs.qrOps(diagonals[:])
}

// zmmDROps returns the operations of one double round of a 16-lane batch,
// state word w in Zw.
func zmmDROps() []func() { return drOps(zreg) }

// drOps returns the operations of one double round of a transposed batch,
// state word w in reg(w) (Zw or Yw).
func drOps(reg func(int) VecPhysical) []func() {
	l := new(wordLocs)
	for w := range l {
		l[w] = reg(w)
	}
	return append(l.qrOps(columns[:]), l.qrOps(diagonals[:])...)
}

// roundLoop emits a loop, at label, of count runs of the operations ops
// returns (a double round), counted in rRound.
func roundLoop(label string, count int, ops func() []func()) {
	MOVQ(U32(count), rRound)
	Label(label)
	run(ops())
	DECQ(rRound)
	JNZ(LabelRef(label))
}

// vecColumn0 emits column 0 of the first column round of a transposed
// batch (the only quarter round of that round that involves the counter)
// from the State in memory.
func vecColumn0() {
	VPBROADCASTD(mem(rState, offCounter), Z12)
	VPADDD(iota16, Z12, Z12)
	VPBROADCASTD(mem(rState, offKey), Z4)
	VPADDD_BCST(sigma, Z4, Z0)
	VPXORD(Z0, Z12, Z12)
	VPROLD(U8(16), Z12, Z12)
	VPADDD_BCST(mem(rState, offKey+16), Z12, Z8)
	VPXORD(Z8, Z4, Z4)
	VPROLD(U8(12), Z4, Z4)
	VPADDD(Z4, Z0, Z0)
	VPXORD(Z0, Z12, Z12)
	VPROLD(U8(8), Z12, Z12)
	VPADDD(Z12, Z8, Z8)
	VPXORD(Z8, Z4, Z4)
	VPROLD(U8(7), Z4, Z4)
}

// loadStateZ16 broadcasts the State at rState to the 16 lanes of a
// transposed zmm batch, word w in Zw, lane i's counter s.Counter+i.
func loadStateZ16() {
	for w := 0; w < 16; w++ {
		switch {
		case w < 4:
			VPBROADCASTD(sigma.Offset(4*w), zreg(w))
		case w < 12:
			VPBROADCASTD(mem(rState, offKey+4*(w-4)), zreg(w))
		case w == 12:
			VPBROADCASTD(mem(rState, offCounter), Z12)
			VPADDD(iota16, Z12, Z12)
		default:
			VPBROADCASTD(mem(rState, offNonce+4*(w-13)), zreg(w))
		}
	}
}

// addInputZ16 adds the input state (the State at rState, lane i's counter
// s.Counter+i) to the 16 words of a 16-lane batch in Z0-Z15, with ctr as
// scratch for the counters.
func addInputZ16(ctr VecPhysical) {
	z := zreg
	for i := 0; i < 4; i++ {
		VPADDD_BCST(sigma.Offset(4*i), z(i), z(i))
	}
	for i := 4; i < 12; i++ {
		VPADDD_BCST(mem(rState, offKey+4*(i-4)), z(i), z(i))
	}
	VPBROADCASTD(mem(rState, offCounter), ctr)
	VPADDD(iota16, ctr, ctr)
	VPADDD(ctr, Z12, Z12)
	for i := 13; i < 16; i++ {
		VPADDD_BCST(mem(rState, offNonce+4*(i-13)), z(i), z(i))
	}
}

// transposeZ16 transposes a 16-lane batch in Z0-Z15 (state word w of lane
// l in lane l of Zw) so that Zb holds block b, with t as scratch.
func transposeZ16(t [4]VecPhysical) {
	z := zreg
	for g := 0; g < 4; g++ {
		// Within each 128-bit lane l: words 4g..4g+3 of blocks 4l+k land in
		// register 4g+k.
		unpack4(z(4*g), z(4*g+1), z(4*g+2), z(4*g+3), t)
	}
	for k := 0; k < 4; k++ {
		// Lane l of registers k, 4+k, 8+k, 12+k: the four quarters of
		// block 4l+k.
		a, b, c, d := z(k), z(4+k), z(8+k), z(12+k)
		VSHUFI32X4(U8(0x44), b, a, t[0])
		VSHUFI32X4(U8(0xee), b, a, t[1])
		VSHUFI32X4(U8(0x44), d, c, t[2])
		VSHUFI32X4(U8(0xee), d, c, t[3])
		VSHUFI32X4(U8(0x88), t[2], t[0], a)
		VSHUFI32X4(U8(0xdd), t[2], t[0], b)
		VSHUFI32X4(U8(0x88), t[3], t[1], c)
		VSHUFI32X4(U8(0xdd), t[3], t[1], d)
	}
}

// vecFinish adds the input state, transposes, and XORs and stores the
// blocks asked for (all 16 if rmin > 16).
func vecFinish(rmin int, partial string) {
	z := zreg
	Comment("Add the input state.")
	addInputZ16(Z16)

	Comment("Transpose: afterwards Zb holds block b.")
	transposeZ16([4]VecPhysical{Z16, Z17, Z18, Z19})

	Comment("XOR and store the blocks asked for.")
	for b := 0; b < 16; b++ {
		skipUnless(b, rmin, partial)
		VPXORD(mem(rSrc, 64*b), z(b), z(b))
		VMOVDQU32(z(b), mem(rDst, 64*b))
	}
}

func genAVX512() {
	TEXT("xorBlocksAVX512", NOSPLIT, signature)
	Doc("xorBlocksAVX512 XORs len(src)/64 keystream blocks into dst with AVX-512F,",
		"17 blocks per batch (16 in vector registers, 1 in general-purpose registers).")
	prologue()
	const L, T = 16, 8

	CMPQ(rN, U32(T))
	JBE(LabelRef("small"))

	// Z0-Z15: state words; Z16-Z19: temporaries of the transposition;
	// Z20-Z31: words 1-3, 5-7, 9-11 and 13-15 after the first column
	// round, which does not involve the counter (column 0) and is the same
	// for every block of the call: computed once, as x/crypto's generic
	// code does. The input words for the final addition are broadcast from
	// memory (the State and sigma) by the additions themselves.
	Comment("First column round of columns 1-3, the same for every block.")
	pre := precomputeColumns()
	firstDiag := func() []func() { return firstDiagOps(pre) }
	dr := zmmDROps

	// The vector units bound the 16-lane batch (Zen 5 issues two 512-bit
	// operations per cycle); the integer units are idle. While at least 17
	// blocks are left, a 17th block is computed in general-purpose
	// registers between the vector instructions, for about 6% more
	// throughput. The integer registers then hold the scalar block's
	// words: the pointers and counts live in the frame.
	f := avx512Frame{
		state: AllocLocal(8), src: AllocLocal(8), dst: AllocLocal(8),
		n: AllocLocal(8), rounds: AllocLocal(8), words: AllocLocal(64),
	}
	CMPQ(rN, U32(L+1))
	JB(LabelRef("loop16"))
	MOVQ(rState, f.state)
	MOVQ(rSrc, f.src)
	MOVQ(rDst, f.dst)
	MOVQ(rN, f.n)

	Label("loop17")
	hybridRounds(f, pre, "rounds17")
	hybridScalarStore(f, 64*L)
	MOVQ(f.n, rN)

	vecFinish(L+1, "")
	ADDQ(U32(64*(L+1)), rSrc)
	ADDQ(U32(64*(L+1)), rDst)
	ADDL(U32(L+1), mem(rState, offCounter))
	SUBQ(U32(L+1), rN)
	MOVQ(rSrc, f.src)
	MOVQ(rDst, f.dst)
	MOVQ(rN, f.n)
	CMPQ(rN, U32(L+1))
	JAE(LabelRef("loop17"))
	Comment("Wipe the scalar block's words (key material) from the frame.")
	for i := 0; i < 8; i++ {
		MOVQ(U32(0), f.words.Offset(8*i))
	}
	CMPQ(rN, U32(T))
	JBE(LabelRef("small"))

	Comment("9 to 16 blocks: vector lanes only.")
	Label("loop16")
	vecColumn0()
	Comment("First diagonal round, reading the precomputed words.")
	run(firstDiag())
	Comment("Nine more double rounds.")
	roundLoop("rounds16", 9, dr)
	vecFinish(T+1, "partial16")
	nextBatch(L, T, "partial16", "loop16")
	JMP(LabelRef("small"))

	Label("partial16")
	JMP(LabelRef("tail_done"))

	rowAVX512()

	vecReturn()
}

// hybridRounds emits the rounds of the hybrid batch: the 16 vector lanes
// (counters s.Counter+0 ... s.Counter+15, column 0 of the first column round
// computed here, the other columns read from pre) and the scalar block
// (counter s.Counter+16) in general-purpose registers, interleaved. It loads
// rState from the frame; afterwards every general-purpose register but SP
// and BP holds scalar words (hybridScalarStore finishes them).
func hybridRounds(f avx512Frame, pre wordLocs, rounds string) {
	firstDiag := func() []func() { return firstDiagOps(pre) }
	dr := zmmDROps
	MOVQ(f.state, rState)
	Comment("Vector lanes: column 0 of the first column round, counters s.Counter+0 ... s.Counter+15.")
	vecColumn0()
	Comment("Scalar block: counter s.Counter+16.")
	scalarLoad(f)

	Comment("First diagonal round of the vector lanes, first double round of the scalar block.")
	merge(firstDiag(), scalarDROps(f))
	Comment("Nine more double rounds.")
	MOVQ(U32(9), f.rounds)
	Label(rounds)
	merge(dr(), scalarDROps(f))
	DECQ(f.rounds)
	JNZ(LabelRef(rounds))
}

// sigmaWords: "expand 32-byte k" as four words.
var sigmaWords = [4]uint32{0x61707865, 0x3320646e, 0x79622d32, 0x6b206574}

// scalarLoad loads the hybrid batch's scalar block's input words (counter
// s.Counter+16) from the State at rState into scalarReg, scalarC and the
// frame (words 10 and 11); rState itself becomes word 12, last.
func scalarLoad(f avx512Frame) {
	for w := 0; w < 4; w++ {
		MOVL(U32(sigmaWords[w]), scalarReg[w])
	}
	for w := 4; w < 8; w++ {
		MOVL(mem(rState, offKey+4*(w-4)), scalarReg[w])
	}
	MOVL(mem(rState, offKey+16), scalarC[0])
	MOVL(mem(rState, offKey+20), scalarC[1])
	for w := 10; w < 12; w++ {
		MOVL(mem(rState, offKey+4*(w-4)), EBX)
		MOVL(EBX, f.words.Offset(4*w))
	}
	for w := 13; w < 16; w++ {
		MOVL(mem(rState, offNonce+4*(w-13)), scalarReg[w])
	}
	MOVL(mem(rState, offCounter), EAX) // last: rState is scalar word 12
	ADDL(U8(16), EAX)
}

// hybridScalarStore emits the end of the hybrid batch's scalar block
// (counter s.Counter+16): it adds the input, XORs src+off and stores to
// dst+off. It reloads rState, rSrc and rDst from the frame.
func hybridScalarStore(f avx512Frame, off int) {
	Comment("Scalar block: add the input, XOR and store as block 16.")
	MOVL(scalarC[0], f.words.Offset(4*8))
	MOVL(scalarC[1], f.words.Offset(4*9))
	MOVL(EAX, f.words.Offset(4*12))
	MOVQ(f.state, rState)
	MOVQ(f.src, rSrc)
	MOVQ(f.dst, rDst)
	for w := 0; w < 16; w++ {
		r, ok := scalarReg[w]
		if !ok || w == 12 {
			r = R8L // free again: word 0 is done
			MOVL(f.words.Offset(4*w), r)
		}
		switch {
		case w < 4:
			ADDL(U32(sigmaWords[w]), r)
		case w < 12:
			ADDL(mem(rState, offKey+4*(w-4)), r)
		case w == 12:
			ADDL(mem(rState, offCounter), r)
			ADDL(U8(16), r)
		default:
			ADDL(mem(rState, offNonce+4*(w-13)), r)
		}
		XORL(mem(rSrc, off+4*w), r)
		MOVL(r, mem(rDst, off+4*w))
	}
}

// genRowsProldAVX512 emits xorRowsProldAVX512: xorBlocksAVX512's code for
// one or two blocks (the ymm row set of rowAVX512) with VPROLD rotations
// instead of qrLowLatency's shift pairs, which compete for the shift ports.
// Package chacha20core's dispatcher takes it for every call of one or two
// blocks on the AVX512 path; the row code inside xorBlocksAVX512 computes
// the tails of longer calls.
func genRowsProldAVX512() {
	TEXT("xorRowsProldAVX512", NOSPLIT, signature)
	Doc("xorRowsProldAVX512 XORs len(src)/64 keystream blocks, one or two, into dst",
		"as xorBlocksAVX512 does, with VPROLD rotations.")
	prologue()
	vl := vecISA{name: "AVX512VL", width: 32, avx: true, vl: true, prold: true,
		regs: [16]VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15}}
	vl.rowSetup()
	vl.rowBody(1, "rowy", []quad{{Y0, Y1, Y2, Y3}}, []VecPhysical{Y13, Y14})
	vecReturn()
}

// genRowsZ2AVX512 emits xorRowsZ2AVX512, the keystream of five to eight
// blocks in two zmm row sets (four blocks each) interleaved: two chains of
// the latency-bound row code instead of the 8-lane ymm transposed batch
// (transposedVL8), which the pair beats where it was measured (package
// chacha20core's rowsZ2). Only set 1's stores are conditional.
func genRowsZ2AVX512() {
	TEXT("xorRowsZ2AVX512", NOSPLIT, signature)
	Doc("xorRowsZ2AVX512 XORs len(src)/64 keystream blocks, five to eight, into dst",
		"as xorBlocksAVX512 does, in two zmm row sets.")
	prologue()
	Comment("Z16: constants, Z17/Z18: key, Z19/Z20: counter and nonce of sets 0 and 1",
		"(counters +0..+3 and +4..+7).")
	zmmRowInputs()
	VPADDD(rowStep4, Z19, Z20)
	sets := []quad{{Z0, Z1, Z2, Z3}, {Z4, Z5, Z6, Z7}}
	in := setInputs([3]VecPhysical{Z16, Z17, Z18}, Z19, Z20)
	zmmRows.rowRounds("rowz2", sets, in, qrAVX512)
	tmp := [4]VecPhysical{Z21, Z22, Z23, Z24}
	for i, q := range sets {
		rowBlocksZ(q, tmp, func(blk int, r VecPhysical) {
			skipUnless(4*i+blk, 5, "tail_done")
			VPXORD(mem(rSrc, 64*(4*i+blk)), r, r)
			VMOVDQU32(r, mem(rDst, 64*(4*i+blk)))
		})
	}
	vecReturn()
}

// vecReturn emits the end of the AVX-512 keystream functions: label
// tail_done advances s.Counter by the blocks asked for (RCX), label ret
// leaves.
func vecReturn() {
	Label("tail_done")
	ADDL(ECX, mem(rState, offCounter))
	Label("ret")
	VZEROUPPER()
	RET()
}

// setInputs returns rowRounds' inputs for row sets that share their first
// three rows (rows, the constants and the key) and each have their own
// counter and nonce row (last[i] for set i).
func setInputs(rows [3]VecPhysical, last ...VecPhysical) func(i, j int) Op {
	return func(i, j int) Op {
		if j == 3 {
			return last[i]
		}
		return rows[j]
	}
}

// evexRows is the row code's instruction set on ymm registers with EVEX
// moves (rowRounds: VMOVDQA64 reaches Y16-Y31).
var evexRows = vecISA{name: "AVX512VL", width: 32, avx: true, vl: true, evex: true}

// rowAVX512 emits the code for 1..8 blocks: the row layout with one ymm
// register set (two blocks) for 1..2 blocks or one zmm set (four blocks) for
// 3..4, and a transposed batch of 8 blocks in ymm registers for 5..8.
func rowAVX512() {
	Label("small")
	TESTQ(rN, rN)
	JZ(LabelRef("ret"))

	// One or two blocks: one ymm register set. Rotations by VPROLD and
	// VPTERNLOGD on ymm need AVX-512VL. A zmm set would cost the same
	// latency, but on CPUs that execute 512-bit operations as two 256-bit
	// halves (AMD Zen 4/5) the shifts of qrLowLatency then saturate the
	// shift units and the chain stretches.
	CMPQ(rN, U32(2))
	JA(LabelRef("rowz"))
	vl := vecISA{name: "AVX512VL", width: 32, avx: true, vl: true,
		regs: [16]VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15}}
	vl.rowSetup()
	vl.rowBody(1, "rowy", []quad{{Y0, Y1, Y2, Y3}}, []VecPhysical{Y13, Y14})

	Label("rowz")
	CMPQ(rN, U32(4))
	JA(LabelRef("vl8"))

	// Three or four blocks: one zmm register set (zmmRowInputs).
	zmmRowInputs()
	rowBody(3, "row1", quad{Z0, Z1, Z2, Z3}, Z19, [4]VecPhysical{Z21, Z22, Z23, Z24})

	Label("vl8")
	transposedVL8()
}

// zmmRowInputs loads the input rows of a zmm row set from the State at
// rState: Z16 the constants, Z17 and Z18 the key, Z19 the counter and nonce,
// each 16-byte row broadcast to the four 128-bit lanes, with the counters
// +0..+3 in them.
func zmmRowInputs() {
	VBROADCASTI32X4(sigma, Z16)
	VBROADCASTI32X4(mem(rState, offKey), Z17)
	VBROADCASTI32X4(mem(rState, offKey+16), Z18)
	VBROADCASTI32X4(mem(rState, offCounter), Z19)
	VPADDD(rowLanes, Z19, Z19)
}

// vl8Rounds emits the ten double rounds of an 8-lane ymm batch from the
// State at rState, lane i's counter s.Counter+i (transposedVL8's layout):
// Y0-Y15 the state words; Y16-Y19 free for temporaries; Y20-Y31 words 4-15
// broadcast to the 8 lanes (Y28: the counters), kept for the final
// addition; the constants are broadcast from memory. The loop is at label.
func vl8Rounds(label string) { vl8RoundsFrom(label, nil) }

// vl8RoundsFrom is vl8Rounds with lane l's counter read from counters
// (eight words) instead of s.Counter+l, unless counters is nil.
func vl8RoundsFrom(label string, counters Op) {
	y := yreg
	for w := 4; w < 16; w++ {
		switch {
		case w < 12:
			VPBROADCASTD(mem(rState, offKey+4*(w-4)), y(16+w))
		case w == 12 && counters != nil:
			VMOVDQU32(counters, y(28))
		case w == 12:
			VPBROADCASTD(mem(rState, offCounter), y(28))
			VPADDD(iota16, y(28), y(28))
		default:
			VPBROADCASTD(mem(rState, offNonce+4*(w-13)), y(16+w))
		}
	}
	for w := 0; w < 4; w++ {
		VPBROADCASTD(sigma.Offset(4*w), y(w))
	}
	var l wordLocs
	for w := range l {
		l[w] = y(w)
		if w >= 4 {
			l[w] = y(16 + w) // the first write copies into Yw
		}
	}
	// The first double round reads the inputs in place; the loop the rest.
	l.qr(columns[:])
	l.qr(diagonals[:])
	roundLoop(label, 9, func() []func() { return drOps(y) })
}

// transposedVL8 emits a transposed batch of 8 blocks in ymm registers for
// 5..8 blocks: with AVX-512VL all 32 registers and VPROLD are available, so
// no word is spilled. It is latency-bound (four quarter-round chains) and,
// measured on Zen 5, takes about 83% of the time of the row layout with two
// zmm sets (whose shuffles and 512-bit operations, two per cycle there, make
// it throughput-bound), and about 6% more than one zmm set for 3..4 blocks.
func transposedVL8() {
	vl8Rounds("vl8_rounds")
	addInputVL8()
	transposeVL8(func(blk int, halves func() (VecPhysical, VecPhysical)) {
		skip := newLabel("skip")
		skipUnless(blk, 5, skip)
		lo, hi := halves()
		VPXORD(mem(rSrc, 64*blk), lo, lo)
		VPXORD(mem(rSrc, 64*blk+32), hi, hi)
		VMOVDQU32(lo, mem(rDst, 64*blk))
		VMOVDQU32(hi, mem(rDst, 64*blk+32))
		Label(skip)
	})
	JMP(LabelRef("tail_done"))
}

// addInputVL8 adds the input to an 8-lane ymm batch after vl8Rounds:
// words 0-3 from sigma, 4-15 from Y20-Y31, where vl8Rounds keeps them.
func addInputVL8() {
	y := yreg
	for w := 0; w < 16; w++ {
		if w < 4 {
			VPADDD_BCST(sigma.Offset(4*w), y(w), y(w))
		} else {
			VPADDD(y(16+w), y(w), y(w))
		}
	}
}

// transposeVL8 transposes an 8-lane ymm batch in Y0-Y15 (state word w of
// lane l in lane l of Yw) with Y16-Y21 as scratch and calls store for each
// block in turn; halves emits the two lane shuffles that gather the block
// and returns its bytes 0-31 and 32-63 (in Y20 and Y21, until the next
// call).
func transposeVL8(store func(blk int, halves func() (VecPhysical, VecPhysical))) {
	y := yreg
	t := [4]VecPhysical{Y16, Y17, Y18, Y19}
	for g := 0; g < 4; g++ {
		unpack4(y(4*g), y(4*g+1), y(4*g+2), y(4*g+3), t)
	}
	// Lane l of register 4g+k: words 4g..4g+3 of block 4l+k.
	for k := 0; k < 4; k++ {
		// VSHUFI64X2 (EVEX) picks one 128-bit lane of each source, as
		// VPERM2I128 (VEX: Y0-Y15 only) would.
		for j, imm := range []uint8{0x00, 0x03} {
			store(4*j+k, func() (VecPhysical, VecPhysical) {
				VSHUFI64X2(U8(imm), y(4+k), y(k), Y20)
				VSHUFI64X2(U8(imm), y(12+k), y(8+k), Y21)
				return Y20, Y21
			})
		}
	}
}

// rowBody emits the row layout on one zmm register set (four blocks) and
// the stores of rmin to 4 blocks.
func rowBody(rmin int, name string, q quad, ctr VecPhysical, tmp [4]VecPhysical) {
	in := quad{Z16, Z17, Z18, ctr}
	// qrLowLatency would shorten the chain, but its extra shifts saturate
	// the shift units on zmm registers (Zen 5): VPROLD is faster here.
	zmmRows.rowRounds(name, []quad{q}, func(_, j int) Op { return in[j] }, qrAVX512)
	rowBlocksZ(q, tmp, func(blk int, r VecPhysical) {
		skipUnless(blk, rmin, "tail_done")
		VPXORD(mem(rSrc, 64*blk), r, r)
		VMOVDQU32(r, mem(rDst, 64*blk))
	})
	JMP(LabelRef("tail_done"))
}

// zmmRows is the row code's instruction set on zmm registers (rowRounds:
// VMOVDQA64, VPADDD, VPSHUFD).
var zmmRows = vecISA{name: "AVX512", width: 64, avx: true}

// rowBlocksZ turns a zmm row set q (lane l of the four rows: block l) into
// blocks, with tmp as scratch, and calls store for each block in turn with
// the register holding it (which the next blocks' shuffles do not read).
func rowBlocksZ(q quad, tmp [4]VecPhysical, store func(blk int, r VecPhysical)) {
	a, b, c, d := q[0], q[1], q[2], q[3]
	VSHUFI32X4(U8(0x44), b, a, tmp[0])
	VSHUFI32X4(U8(0x44), d, c, tmp[1])
	VSHUFI32X4(U8(0x88), tmp[1], tmp[0], tmp[2])
	store(0, tmp[2])
	VSHUFI32X4(U8(0xdd), tmp[1], tmp[0], tmp[3])
	store(1, tmp[3])
	VSHUFI32X4(U8(0xee), b, a, tmp[0])
	VSHUFI32X4(U8(0xee), d, c, tmp[1])
	VSHUFI32X4(U8(0x88), tmp[1], tmp[0], a)
	store(2, a)
	VSHUFI32X4(U8(0xdd), tmp[1], tmp[0], b)
	store(3, b)
}

// oneBlock emits the store of a single block from a row set in registers
// 0-3: its rows are the low 128-bit lanes, stored directly without the lane
// shuffles (VEX-encoded, which clears the upper lanes: only for the last
// block of a call).
func oneBlock(name string) {
	CMPQ(rN, U32(1))
	JNE(LabelRef(name + "_lanes"))
	for j, r := range []VecPhysical{X0, X1, X2, X3} {
		VPXOR(mem(rSrc, 16*j), r, r)
		VMOVDQU(r, mem(rDst, 16*j))
	}
	JMP(LabelRef("tail_done"))
	Label(name + "_lanes")
}

// ---------------------------------------------------------------------------
// AVX2 and SSSE3 share the transposed-batch structure: 16 state words, 16
// vector registers, so words x10 and x11 (or x8 and x9) live in the stack
// frame while the other half of the third row is in registers.

// vecISA abstracts the instructions that differ between the VEX (AVX2, ymm)
// and legacy (SSSE3, xmm) encodings.
type vecISA struct {
	name  string
	width int // bytes per register: 32 or 16
	regs  [16]VecPhysical
	avx   bool
	vl    bool // AVX-512VL: ymm rotations and VPTERNLOGD (row code only)
	prold bool // with vl: VPROLD rotations (qrAVX512) instead of qrLowLatency's
	evex  bool // moves with VMOVDQA64, which reaches Y16-Y31 (row code only)
}

// mov copies a register or loads/stores a (possibly unaligned) vector
// (zmm: registers only).
func (v vecISA) mov(src, dst Op) {
	if v.width == 64 || v.evex {
		VMOVDQA64(src, dst)
	} else if v.avx {
		VMOVDQU(src, dst)
	} else {
		MOVOU(src, dst)
	}
}

// add: dst += src.
func (v vecISA) add(src Op, dst VecPhysical) {
	if v.avx {
		VPADDD(src, dst, dst)
	} else {
		PADDL(src, dst)
	}
}

// xor: dst ^= src.
func (v vecISA) xor(src Op, dst VecPhysical) {
	if v.avx {
		VPXOR(src, dst, dst)
	} else {
		PXOR(src, dst)
	}
}

// shufb: dst = PSHUFB(dst, mask).
func (v vecISA) shufb(mask Mem, dst VecPhysical) {
	if v.avx {
		VPSHUFB(mask, dst, dst)
	} else {
		PSHUFB(mask, dst)
	}
}

// pshufd: dst = PSHUFD(dst, imm) within each 128-bit lane.
func (v vecISA) pshufd(imm uint8, dst VecPhysical) {
	if v.avx {
		VPSHUFD(U8(imm), dst, dst)
	} else {
		PSHUFD(U8(imm), dst, dst)
	}
}

// qr emits one quarter round on each quad, interleaved; tmp holds one
// scratch register per quad for the shift-based rotations by 12 and 7 (16
// and 8 are byte shuffles).
func (v vecISA) qr(qs []quad, tmp []VecPhysical) {
	step := func(f func(i int, q quad)) {
		for i, q := range qs {
			f(i, q)
		}
	}
	for _, r := range [2][2]int{{16, 12}, {8, 7}} {
		mask := rol16
		if r[0] == 8 {
			mask = rol8
		}
		step(func(_ int, q quad) { v.add(q[1], q[0]) })
		step(func(_ int, q quad) { v.xor(q[0], q[3]) })
		step(func(_ int, q quad) { v.shufb(mask, q[3]) })
		step(func(_ int, q quad) { v.add(q[3], q[2]) })
		step(func(_ int, q quad) { v.xor(q[2], q[1]) })
		if v.avx {
			step(func(i int, q quad) { VPSLLD(U8(r[1]), q[1], tmp[i]) })
			step(func(_ int, q quad) { VPSRLD(U8(32-r[1]), q[1], q[1]) })
		} else {
			step(func(i int, q quad) { MOVO(q[1], tmp[i]) })
			step(func(i int, q quad) { PSLLL(U8(r[1]), tmp[i]) })
			step(func(_ int, q quad) { PSRLL(U8(32-r[1]), q[1]) })
		}
		step(func(i int, q quad) { v.xor(tmp[i], q[1]) })
	}
}

// transposed emits the L-block batch loop of the AVX2 or SSSE3 function.
//
// Frame (rFrame-relative, one vector per slot): slots 0-15 hold the input
// state broadcast to all lanes (slot 12: the counters of the batch), slots
// 16-23 hold words 8-15 whenever they are not in registers.
func (v vecISA) transposed() {
	L := v.width / 4 // blocks per batch
	T := L / 2       // fewer blocks than this go to the row code
	W := v.width
	x := func(i int) VecPhysical { return v.regs[i] }
	slot := func(i int) Mem { return mem(rFrame, W*i) }
	spill := func(word int) Mem { return slot(16 + word - 8) }

	CMPQ(rN, U32(T))
	JBE(LabelRef("small"))

	Comment("Align the frame and broadcast the input state into it.")
	frame := AllocLocal(24*W + W)
	LEAQ(frame, rFrame)
	ADDQ(U32(W-1), rFrame)
	ANDQ(I32(-W), rFrame)
	if v.avx {
		broadcastState(slot)
	} else {
		for j, src := range []Mem{sigma, mem(rState, offKey), mem(rState, offKey+16), mem(rState, offCounter)} {
			MOVOU(src, X1)
			for i := 0; i < 4; i++ {
				if j == 3 && i == 0 {
					continue // the counter, per batch
				}
				PSHUFD(U8(uint8(0x55*i)), X1, X0)
				MOVO(X0, slot(4*j+i))
			}
		}
	}

	loop := fmt.Sprintf("loop%d", L)
	Label(loop)
	Comment(fmt.Sprintf("Counters s.Counter+0 ... s.Counter+%d, one per lane.", L-1))
	if v.avx {
		VPBROADCASTD(mem(rState, offCounter), x(12))
		VPADDD(iota16, x(12), x(12))
	} else {
		MOVOU(mem(rState, offCounter), x(12))
		PSHUFD(U8(0), x(12), x(12))
		PADDL(iota16, x(12))
	}
	v.mov(x(12), slot(12))
	v.transposedCore(slot, spill, 12, fmt.Sprintf("rounds%d", L))

	Comment("Transpose, XOR and store the blocks asked for.")
	if v.avx {
		v.storeAVX2(spill, xorStoreAVX2(T+1))
	} else {
		v.storeSSSE3(T+1, spill)
	}

	nextBatch(L, T, "partial", loop)
	v.clearFrame()
	JMP(LabelRef("small"))

	Label("partial")
	v.clearFrame()
	JMP(LabelRef("tail_done"))
}

// transposedCore emits the rounds of a transposed batch in registers 0-15
// (state word i of the batch's blocks in register i): it loads word i from
// in(i), except word skip, which the caller has loaded (-1: none), and
// words 10 and 11 on to their spill slots; runs the ten double rounds, the
// loop at label rounds; and adds in(i) to each word. Afterwards words 0-7
// are in registers 0-7 and words 8-15 in their spill slots.
func (v vecISA) transposedCore(in, spill func(int) Mem, skip int, rounds string) {
	x := func(i int) VecPhysical { return v.regs[i] }
	for i := 0; i < 16; i++ {
		switch i {
		case 10, 11:
			v.mov(in(i), x(i))
			v.mov(x(i), spill(i))
		case skip:
		default:
			v.mov(in(i), x(i))
		}
	}
	// Registers 8 and 9 hold words 8 and 9 or 10 and 11; 10 and 11 are
	// temporaries.
	c0, c1 := x(8), x(9)
	tmp := []VecPhysical{x(10), x(11)}
	q := func(w [4]int, c VecPhysical) quad { return quad{x(w[0]), x(w[1]), c, x(w[3])} }
	swap := func(out0, out1, in0, in1 int) {
		v.mov(c0, spill(out0))
		v.mov(c1, spill(out1))
		v.mov(spill(in0), c0)
		v.mov(spill(in1), c1)
	}

	MOVQ(U32(10), rRound)
	Label(rounds)
	v.qr([]quad{q(columns[0], c0), q(columns[1], c1)}, tmp)
	swap(8, 9, 10, 11)
	v.qr([]quad{q(columns[2], c0), q(columns[3], c1)}, tmp)
	v.qr([]quad{q(diagonals[0], c0), q(diagonals[1], c1)}, tmp)
	swap(10, 11, 8, 9)
	v.qr([]quad{q(diagonals[2], c0), q(diagonals[3], c1)}, tmp)
	DECQ(rRound)
	JNZ(LabelRef(rounds))

	Comment("Add the input state; words 8-15 go to the frame.")
	for i := 0; i < 16; i++ {
		switch i {
		case 10, 11:
			v.mov(spill(i), x(i))
			v.add(in(i), x(i))
			v.mov(x(i), spill(i))
		default:
			v.add(in(i), x(i))
			if i >= 8 {
				v.mov(x(i), spill(i))
			}
		}
	}
}

// clearFrame zeroes the 24 frame slots: they hold key material.
func (v vecISA) clearFrame() {
	z := v.regs[0]
	v.xor(z, z)
	for i := 0; i < 24; i++ {
		v.mov(z, mem(rFrame, v.width*i))
	}
}

// unpack4 transposes the 4x4 matrix of 32-bit words in each 128-bit lane
// of a, b, c, d (three-operand VEX or EVEX form, four temporaries). When the
// inputs are four consecutive state words of the batch's blocks (one block
// per 32-bit lane), lane l of output register k holds those four words of
// block 4l+k.
func unpack4(a, b, c, d VecPhysical, t [4]VecPhysical) { run(unpack4Ops(a, b, c, d, t)) }

// unpack4Ops is unpack4 as a list of operations.
func unpack4Ops(a, b, c, d VecPhysical, t [4]VecPhysical) []func() {
	return []func(){
		func() { VPUNPCKLDQ(b, a, t[0]) },
		func() { VPUNPCKHDQ(b, a, t[1]) },
		func() { VPUNPCKLDQ(d, c, t[2]) },
		func() { VPUNPCKHDQ(d, c, t[3]) },
		func() { VPUNPCKLQDQ(t[2], t[0], a) },
		func() { VPUNPCKHQDQ(t[2], t[0], b) },
		func() { VPUNPCKLQDQ(t[3], t[1], c) },
		func() { VPUNPCKHQDQ(t[3], t[1], d) },
	}
}

// storeAVX2 transposes the 8-block batch in two halves, words 0-7
// (registers Y0-Y7) for bytes 0-31 of each block, then words 8-15 (from the
// frame) for bytes 32-63, and calls store for each block and half in turn
// (off: 0 or 32); block emits the lane permutation that gathers those 32
// bytes and returns the register (Y12) holding them.
func (v vecISA) storeAVX2(spill func(int) Mem, store func(blk, off int, block func() VecPhysical)) {
	y := func(i int) VecPhysical { return v.regs[i] }
	t := [4]VecPhysical{Y8, Y9, Y10, Y11}
	for half := 0; half < 2; half++ {
		if half == 1 {
			for i := 0; i < 8; i++ {
				VMOVDQU(spill(8+i), y(i))
			}
		}
		unpack4(y(0), y(1), y(2), y(3), t)
		unpack4(y(4), y(5), y(6), y(7), t)
		for k := 0; k < 4; k++ {
			// Low lanes: block k; high lanes: block 4+k.
			for j, imm := range []uint8{0x20, 0x31} {
				store(4*j+k, 32*half, func() VecPhysical {
					VPERM2I128(U8(imm), y(4+k), y(k), Y12)
					return Y12
				})
			}
		}
	}
}

// xorStoreAVX2 returns storeAVX2's store for the keystream: it XORs the
// bytes of src into the block's bytes and writes them to dst, for the blocks
// asked for (paths run with rmin blocks or more).
func xorStoreAVX2(rmin int) func(blk, off int, block func() VecPhysical) {
	return func(blk, off int, block func() VecPhysical) {
		skip := newLabel("skip")
		skipUnless(blk, rmin, skip)
		r := block()
		VPXOR(mem(rSrc, 64*blk+off), r, r)
		VMOVDQU(r, mem(rDst, 64*blk+off))
		Label(skip)
	}
}

// storeSSSE3 transposes the 4-block batch one group of four words (16 bytes
// of each block) at a time.
func (v vecISA) storeSSSE3(rmin int, spill func(int) Mem) {
	x := func(i int) VecPhysical { return v.regs[i] }
	groups := [4][4]VecPhysical{
		{x(0), x(1), x(2), x(3)},
		{x(4), x(5), x(6), x(7)},
		{x(8), x(9), x(10), x(11)},
		{x(12), x(13), x(14), x(15)},
	}
	for g, r := range groups {
		if g == 2 {
			// Words 8-11 from the frame; registers 0-3 are free.
			r = [4]VecPhysical{x(0), x(1), x(2), x(3)}
		}
		if g == 2 {
			for i := 0; i < 4; i++ {
				MOVOU(spill(4*g+i), r[i])
			}
		}
		a, b, c, d := r[0], r[1], r[2], r[3]
		t0, t1 := x(10), x(11)
		if g == 2 {
			t0, t1 = x(4), x(5)
		}
		MOVO(a, t0)
		PUNPCKLLQ(b, t0) // a0 b0 a1 b1
		PUNPCKHLQ(b, a)  // a2 b2 a3 b3
		MOVO(c, t1)
		PUNPCKLLQ(d, t1) // c0 d0 c1 d1
		PUNPCKHLQ(d, c)  // c2 d2 c3 d3
		MOVO(t0, b)
		PUNPCKLQDQ(t1, t0) // block 0
		PUNPCKHQDQ(t1, b)  // block 1
		MOVO(a, d)
		PUNPCKLQDQ(c, a) // block 2
		PUNPCKHQDQ(c, d) // block 3
		for blk, out := range []VecPhysical{t0, b, a, d} {
			skip := newLabel("skip")
			skipUnless(blk, rmin, skip)
			MOVOU(mem(rSrc, 64*blk+16*g), c)
			PXOR(c, out)
			MOVOU(out, mem(rDst, 64*blk+16*g))
			Label(skip)
		}
	}
}

// row emits the row-layout code for the AVX2 (two blocks per ymm register)
// and SSSE3 (one block per xmm register) functions: one or two register sets.
func (v vecISA) row() {
	B := v.width / 16 // blocks per register
	x := func(i int) VecPhysical { return v.regs[i] }
	Label("small")
	TESTQ(rN, rN)
	JZ(LabelRef("ret"))
	v.rowSetup()
	sets := [2]quad{{x(0), x(1), x(2), x(3)}, {x(4), x(5), x(6), x(7)}}
	tmp := []VecPhysical{x(13), x(14)}

	CMPQ(rN, U32(B))
	JA(LabelRef("row2"))
	v.rowBody(1, "row1", sets[:1], tmp)
	Label("row2")
	v.mov(x(11), x(12))
	if v.avx {
		v.add(rowStep2, x(12))
	} else {
		v.add(rowStep1, x(12))
	}
	v.rowBody(2, "row2", sets[:], tmp)
}

// rowInputs loads the AVX2 row layout's input rows of the State at rState
// into in: the constants, the two key rows, and the counter and nonce row
// with the counter +0 and +1 in its two 128-bit lanes.
func rowInputs(in [4]VecPhysical) {
	VBROADCASTI128(sigma, in[0])
	VBROADCASTI128(mem(rState, offKey), in[1])
	VBROADCASTI128(mem(rState, offKey+16), in[2])
	VBROADCASTI128(mem(rState, offCounter), in[3])
	VPADDD(rowLanes, in[3], in[3])
}

// rowSetup loads the row-layout input: registers 8-10 hold the constant
// and key rows, 11 the counter and nonce row of set 0, each 16-byte row
// broadcast to every 128-bit lane (with per-lane counters).
func (v vecISA) rowSetup() {
	x := func(i int) VecPhysical { return v.regs[i] }
	if v.avx {
		rowInputs([4]VecPhysical{x(8), x(9), x(10), x(11)})
	} else {
		MOVOU(sigma, x(8))
		MOVOU(mem(rState, offKey), x(9))
		MOVOU(mem(rState, offKey+16), x(10))
		MOVOU(mem(rState, offCounter), x(11))
	}
}

func (v vecISA) rowBody(n int, name string, sets []quad, tmp []VecPhysical) {
	B := v.width / 16
	x := func(i int) VecPhysical { return v.regs[i] }
	in := func(i, j int) Op {
		if j == 3 && i == 1 {
			return x(12)
		}
		return x(8 + j)
	}
	qr := func(qs []quad) { v.qr(qs, tmp) }
	switch {
	case v.vl && v.prold:
		qr = qrAVX512
	case v.vl:
		qr = func(qs []quad) { qrLowLatency(qs, [][2]VecPhysical{{tmp[0], tmp[1]}}) }
	}
	v.rowRounds(name, sets, in, qr)

	rmin := B*(n-1) + 1
	if v.avx && n == 1 {
		oneBlock(name)
	}
	for i, q := range sets {
		if v.avx {
			rowBlocksY(i, q, tmp, func(blk int, halves func() (VecPhysical, VecPhysical)) {
				skipUnless(blk, rmin, "tail_done")
				lo, hi := halves()
				VPXOR(mem(rSrc, 64*blk), lo, lo)
				VPXOR(mem(rSrc, 64*blk+32), hi, hi)
				VMOVDQU(lo, mem(rDst, 64*blk))
				VMOVDQU(hi, mem(rDst, 64*blk+32))
			})
		} else {
			blk := i
			skipUnless(blk, rmin, "tail_done")
			for j := 0; j < 4; j++ {
				MOVOU(mem(rSrc, 64*blk+16*j), tmp[0])
				PXOR(tmp[0], q[j])
				MOVOU(q[j], mem(rDst, 64*blk+16*j))
			}
		}
	}
	JMP(LabelRef("tail_done"))
}

// rowRounds emits the row layout's computation on sets: row j of set i
// loaded from in(i, j), the ten double rounds (the loop at label
// name_rounds; qr emits one column or diagonal round of all sets, between
// the lane shuffles that move diagonals into columns and back), and in(i,
// j) added back.
func (v vecISA) rowRounds(name string, sets []quad, in func(i, j int) Op, qr func([]quad)) {
	for i, q := range sets {
		for j := 0; j < 4; j++ {
			v.mov(in(i, j), q[j])
		}
	}
	MOVQ(U32(10), rRound)
	Label(name + "_rounds")
	qr(sets)
	for _, q := range sets {
		v.pshufd(0x93, q[0])
		v.pshufd(0x39, q[2])
		v.pshufd(0x4e, q[3])
	}
	qr(sets)
	for _, q := range sets {
		v.pshufd(0x39, q[0])
		v.pshufd(0x93, q[2])
		v.pshufd(0x4e, q[3])
	}
	DECQ(rRound)
	JNZ(LabelRef(name + "_rounds"))

	for i, q := range sets {
		for j := 0; j < 4; j++ {
			v.add(in(i, j), q[j])
		}
	}
}

// rowBlocksY turns ymm row set i, q (low lanes: block 2i, high lanes: block
// 2i+1), into blocks and calls store for each of the two; halves emits the
// lane permutations that gather the block and returns its bytes 0-31 and
// 32-63 (in tmp[0] and tmp[1]).
func rowBlocksY(i int, q quad, tmp []VecPhysical, store func(blk int, halves func() (VecPhysical, VecPhysical))) {
	for l, imm := range []uint8{0x20, 0x31} {
		store(2*i+l, func() (VecPhysical, VecPhysical) {
			VPERM2I128(U8(imm), q[1], q[0], tmp[0])
			VPERM2I128(U8(imm), q[3], q[2], tmp[1])
			return tmp[0], tmp[1]
		})
	}
}

func genVec(v vecISA, doc string) {
	TEXT("xorBlocks"+v.name, 0, signature)
	Doc(doc)
	prologue()
	v.transposed()
	v.row()
	Label("tail_done")
	ADDL(ECX, mem(rState, offCounter))
	Label("ret")
	if v.avx {
		VZEROUPPER()
	}
	RET()
}

func genAVX2() {
	genVec(vecISA{
		name: "AVX2", width: 32, avx: true,
		regs: [16]VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15},
	}, "xorBlocksAVX2 XORs len(src)/64 keystream blocks into dst with AVX2, 8 blocks per batch.")
}

func genSSSE3() {
	genVec(vecISA{
		name: "SSSE3", width: 16,
		regs: [16]VecPhysical{X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15},
	}, "xorBlocksSSSE3 XORs len(src)/64 keystream blocks into dst with SSSE3, 4 blocks per batch.")
}
