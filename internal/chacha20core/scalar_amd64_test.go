//go:build gc && !purego

package chacha20core

import (
	"math/rand/v2"
	"testing"
)

// TestXORBlockScalar checks xorBlockScalar, which needs only the base
// instruction set, against the portable code on every amd64 CPU: random
// states, the counters next to 2^32 (the block at 2^32-1 ends with the
// counter wrapped to 0), source and destination offsets 0..7 and in place,
// with the guard bytes and the final state checked by checkXORBlocks.
func TestXORBlockScalar(t *testing.T) {
	defer func(a, b bool) { useSSSE3, blockScalar = a, b }(useSSSE3, blockScalar)
	useSSSE3, blockScalar = true, true // XORBlocks of one block: xorBlockScalar, whatever the CPU
	r := rand.New(rand.NewPCG(11, 12))
	for _, c := range []uint32{0, 1, 1 << 20, 1<<31 - 1, 1 << 31, 1<<32 - 2, 1<<32 - 1} {
		for range 4 {
			s := randState(r)
			s.Counter = c
			src := randBytes(r, BlockSize)
			for srcOff := 0; srcOff < 8; srcOff++ {
				for dstOff := 0; dstOff < 8; dstOff++ {
					checkXORBlocks(t, s, src, srcOff, dstOff, false, false)
				}
				checkXORBlocks(t, s, src, 0, srcOff, true, false)
			}
		}
	}
}

// TestBlockScalar runs the keystream tests (every block count to 50 at
// offsets 0..7 and in place, every length 0..1100 through XORKeyStream,
// the counter edge, each under every implementation this CPU has) with the
// one-block calls in either code, whichever this core prefers
// (internal/cpuid's X86ChaCha20.BlockScalar), so that the row code of each
// path and xorBlockScalar are both checked through the dispatcher on every
// CPU.
func TestBlockScalar(t *testing.T) {
	keystreamBothWays(t, &blockScalar, [2]string{"rows", "scalar"})
}

// BenchmarkBlockScalar measures the choice X86ChaCha20For makes per core
// for a call of one block: the row code (with this core's rotations) or the
// scalar block.
func BenchmarkBlockScalar(b *testing.B) {
	defer func(v bool) { blockScalar = v }(blockScalar)
	for _, scalar := range []bool{false, true} {
		code := map[bool]string{false: "rows", true: "scalar"}[scalar]
		benchXORBlocks(b, "op=XORBlocks/code="+code+"/size=64", 64, func() { blockScalar = scalar })
	}
}
