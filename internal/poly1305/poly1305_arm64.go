//go:build gc && !purego

package poly1305

import (
	"github.com/chachakit/chachakit/internal/impl"
	"golang.org/x/sys/cpu"
)

// The arm64 block functions (poly1305_arm64.s).
//
// useScalar64 selects blocksScalar64: the accumulator in three 64-bit
// general-purpose registers, products by MUL and UMULH. It is named after
// the technique, 64-bit scalar limbs, as opposed to vector code with 26-bit
// limbs; it runs on every arm64 CPU.
//
// useNEON selects blocksNEON for inputs of at least neonMinBytes: 26-bit
// limbs in NEON registers, two lanes, four blocks per step, after the powers
// of r are computed. Shorter inputs take blocksScalar64 on this path too (a
// forced NEON path runs alone, like the amd64 vector paths, which carry
// their own scalar loop).
var (
	useNEON     = cpu.ARM64.HasASIMD
	useScalar64 = true
)

// neonMinBytes is the shortest input sent to blocksNEON (60 blocks). The
// vector path has a fixed cost of about 165 guest instructions per call (the
// powers r^2..r^4 and their 26-bit limbs, the sum of the lanes), against 22
// for blocksScalar64, and saves 10 instructions per 4 blocks (83 against
// 93): it runs fewer from 960 bytes on (1412 against 1424 there, 1328
// against 1324 at 896; bench/scripts/arm64-poly1305.sh -threshold,
// bench/README.md, "arm64: Poly1305").
const neonMinBytes = 960

func init() {
	impl.Register("poly1305", "NEON", &useNEON)
	impl.Register("poly1305", "Scalar64", &useScalar64)
}

// blocksScalar64 is blocksGeneric in assembly, with hibit = 1 for full.
//
//go:noescape
func blocksScalar64(st *state, msg []byte, hibit uint64)

// blocksNEON is blocksScalar64 with the vector steps: any length works, but
// it pays only from neonMinBytes on.
//
//go:noescape
func blocksNEON(st *state, msg []byte, hibit uint64)

// blocks is the dispatcher.
func blocks(st *state, msg []byte, full bool) {
	var hibit uint64
	if full {
		hibit = 1
	}
	if useNEON && len(msg) >= neonMinBytes {
		blocksNEON(st, msg, hibit)
	} else if useNEON || useScalar64 {
		blocksScalar64(st, msg, hibit)
	} else {
		blocksGeneric(st, msg, full)
	}
}
