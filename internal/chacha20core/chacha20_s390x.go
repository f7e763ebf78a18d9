//go:build gc && !purego

package chacha20core

import (
	"github.com/chachakit/chachakit/internal/impl"
	"golang.org/x/sys/cpu"
)

// useVX: the vector-facility keystream path (chacha20_s390x.s), 4 blocks per
// group in the vertical layout and 1 block at a time for the rest. Go needs
// the vector facility on s390x (z13 or later), so it is there on every
// machine Go runs on, unless GODEBUG=cpu.vx=off switches it off.
var useVX = cpu.S390X.HasVX

func init() {
	impl.Register("chacha20", "VX", &useVX)
}

// xorBlocksVX XORs the len(src)/64 blocks of src with the keystream from
// block s.Counter into dst (src or not overlapping it). It does not change
// s.
//
//go:noescape
func xorBlocksVX(s *State, dst, src []byte)

// xorBlocks is the dispatcher.
func xorBlocks(s *State, dst, src []byte) {
	if useVX {
		xorBlocksVX(s, dst, src)
		s.Counter += uint32(len(src) / BlockSize)
	} else {
		xorBlocksGeneric(s, dst, src)
	}
}
