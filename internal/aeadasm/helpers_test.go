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
