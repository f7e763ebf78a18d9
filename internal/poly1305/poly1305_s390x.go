//go:build gc && !purego

package poly1305

import "github.com/chachakit/chachakit/internal/impl"

// useScalar64 selects blocksScalar64 (poly1305_s390x.s): the accumulator in
// three 64-bit general-purpose registers, products by MLGR. It is named
// after the technique, 64-bit scalar limbs, as on arm64, and needs no
// facility beyond z/Architecture's base, so it runs on every s390x.
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
