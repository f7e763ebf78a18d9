//go:build gc && !purego && (loong64 || ppc64 || ppc64le || riscv64)

package poly1305

import "github.com/chachakit/chachakit/internal/impl"

// The scalar block function of loong64, ppc64le, ppc64 and riscv64
// (poly1305_loong64.s, poly1305_ppc64x.s, poly1305_riscv64.s).
//
// useScalar64 selects blocksScalar64: the accumulator in three 64-bit
// general-purpose registers, the products by the 64x64-bit multiplies of the
// base instruction set (low and high halves), so it runs on every CPU of
// these ports. It is named after the technique, as on arm64.
var useScalar64 = true

func init() {
	impl.Register("poly1305", "Scalar64", &useScalar64)
}

// blocksScalar64 is blocksGeneric in assembly, with hibit = 1 for full.
//
//go:noescape
func blocksScalar64(st *state, msg []byte, hibit uint64)

// blocks is the dispatcher.
func blocks(st *state, msg []byte, full bool) {
	if useScalar64 {
		var hibit uint64
		if full {
			hibit = 1
		}
		blocksScalar64(st, msg, hibit)
	} else {
		blocksGeneric(st, msg, full)
	}
}
