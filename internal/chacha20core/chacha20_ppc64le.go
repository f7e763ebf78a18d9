//go:build gc && !purego

package chacha20core

import "github.com/chachakit/chachakit/internal/impl"

// useVSX: the VMX/VSX keystream path (chacha20_ppc64le.s), four blocks per
// iteration and one at a time for the last one to three. It needs only the
// POWER8 instruction set, which Go's ppc64le port requires, so it is always
// available.
var useVSX = true

func init() {
	impl.Register("chacha20", "VSX", &useVSX)
}

// xorBlocksVSX XORs 64*blocks bytes of src with the keystream blocks
// s.Counter, s.Counter+1, ... (mod 2^32) into dst (dst is src or does not
// overlap it). It does not change s. blocks >= 1.
//
//go:noescape
func xorBlocksVSX(s *State, dst, src *byte, blocks int)

// xorBlocks is the dispatcher.
func xorBlocks(s *State, dst, src []byte) {
	if useVSX {
		if n := len(src) / BlockSize; n > 0 {
			xorBlocksVSX(s, &dst[0], &src[0], n)
			s.Counter += uint32(n)
		}
	} else {
		xorBlocksGeneric(s, dst, src)
	}
}
