//go:build gc && !purego

package poly1305

import "github.com/chachakit/chachakit/internal/impl"

// useScalar64 selects blocksScalar64 (poly1305_arm64.s): the accumulator in
// three 64-bit general-purpose registers, products by MUL and UMULH. It is
// named after the technique, 64-bit scalar limbs, as opposed to vector code
// with 26-bit limbs; it runs on every arm64 CPU.
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
