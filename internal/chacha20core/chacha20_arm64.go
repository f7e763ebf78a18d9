//go:build gc && !purego

package chacha20core

import (
	"github.com/chachakit/chachakit/internal/cpuid"
	"github.com/chachakit/chachakit/internal/impl"
	"golang.org/x/sys/cpu"
)

// The two arm64 keystream paths (chacha20_arm64.s). Both are always
// available when the CPU has ASIMD; the core's MIDR_EL1 only decides which
// one the dispatcher prefers.
var (
	// useNEON4x1: 4 NEON blocks + 1 scalar block per 320 bytes.
	useNEON4x1 = cpu.ARM64.HasASIMD
	// useNEON6x2: 6 NEON blocks + 2 scalar blocks per 512 bytes.
	useNEON6x2 = cpu.ARM64.HasASIMD

	// prefer4x1 sends every batch to NEON4x1 (Cortex-A53, A55, A57, A72);
	// otherwise 512-byte batches go to NEON6x2 and a 320..511-byte rest to
	// NEON4x1. See cpuid.ChaCha20MixFor.
	prefer4x1 = cpuid.ChaCha20MixHere() == cpuid.Mix4x1
)

// minNEON4x1 is the shortest input, and the shortest last partial batch,
// sent to NEON4x1, whose batch of 1 to 4 blocks costs a whole 5-block
// iteration: a single block is cheaper in the portable code on every core
// model, two blocks are cheaper in NEON4x1 on most (bench/README.md).
const minNEON4x1 = 128

func init() {
	impl.Register("chacha20", "NEON4x1", &useNEON4x1)
	impl.Register("chacha20", "NEON6x2", &useNEON6x2)
	impl.SetPreferred("chacha20", preferred)
}

// preferred names the path the dispatcher uses for large inputs.
func preferred() string {
	switch {
	case useNEON4x1 && (prefer4x1 || !useNEON6x2):
		return "NEON4x1"
	case useNEON6x2:
		return "NEON6x2"
	}
	return impl.Portable
}

// xorBlocksNEON4x1 XORs src with the keystream from block s.Counter into
// dst (len(dst) == len(src), a multiple of 64) and advances s.Counter.
//
//go:noescape
func xorBlocksNEON4x1(s *State, dst, src []byte)

// xorBlocksNEON6x2 is xorBlocksNEON4x1 for len(src) a multiple of 512.
//
//go:noescape
func xorBlocksNEON6x2(s *State, dst, src []byte)

// xorBlocks is the dispatcher: whole 512-byte batches to NEON6x2 unless the
// core prefers NEON4x1, the rest (or everything) to NEON4x1, except a last
// partial batch shorter than minNEON4x1, which goes to the portable code
// like any input that short.
func xorBlocks(s *State, dst, src []byte) {
	if useNEON6x2 && !(useNEON4x1 && prefer4x1) && len(src) >= 512 {
		n := len(src) &^ 511
		xorBlocksNEON6x2(s, dst[:n], src[:n])
		dst, src = dst[n:], src[n:]
	}
	if useNEON4x1 && len(src) >= minNEON4x1 {
		n := len(src)
		if r := n % 320; r < minNEON4x1 {
			n -= r
		}
		xorBlocksNEON4x1(s, dst[:n], src[:n])
		dst, src = dst[n:], src[n:]
	}
	if len(src) > 0 {
		xorBlocksGeneric(s, dst, src)
	}
}

// DefaultPath reports whether the dispatcher runs the keystream paths it
// picks by default on this CPU: none was forced through the registry. The
// AEAD kernel of internal/aeadasm, which has its own keystream code, runs
// only then, so that a forced path is the one tested.
func DefaultPath() bool { return impl.AtDefault("chacha20") }
