//go:build (amd64 || arm64) && gc && !purego

package aeadasm

import (
	"math/rand/v2"

	"github.com/chachakit/chachakit/internal/chacha20core"
	"github.com/chachakit/chachakit/internal/impl"
)

type State = chacha20core.State

const BlockSize = chacha20core.BlockSize

// xorBlocksGeneric is the portable keystream, the reference.
func xorBlocksGeneric(s *State, dst, src []byte) {
	impl.Select("chacha20", impl.Portable)
	defer impl.Reset("chacha20")
	chacha20core.XORBlocks(s, dst, src)
}

func randState(r *rand.Rand) State {
	var s State
	for i := range s.Key {
		s.Key[i] = r.Uint32()
	}
	for i := range s.Nonce {
		s.Nonce[i] = r.Uint32()
	}
	s.Counter = r.Uint32()
	return s
}

// randFill returns k random bytes from r, or k bytes of fill if fill is
// not 0.
func randFill(r *rand.Rand, k int, fill byte) []byte {
	b := make([]byte, k)
	for i := range b {
		if fill != 0 {
			b[i] = fill
		} else {
			b[i] = byte(r.Uint32())
		}
	}
	return b
}
