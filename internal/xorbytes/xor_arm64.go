//go:build gc && !purego

package xorbytes

import (
	"github.com/chachakit/chachakit/internal/impl"
	"golang.org/x/sys/cpu"
)

// arm64 has one tier, NEON (narrow), in xor_arm64.s. ASIMD is part of
// every arm64 Linux system; the portable code runs only when forced.
var useNarrow = cpu.ARM64.HasASIMD

const (
	useWide   = false
	useScalar = false
)

func init() {
	impl.Register("subtle", "NEON", &useNarrow)
}

// xorBytesNarrow is the NEON path: dst[i] = x[i] ^ y[i] for i < n, n > 0.
//
//go:noescape
func xorBytesNarrow(dst, x, y *byte, n int)

func xorBytesWide(dst, x, y *byte, n int)   { panic("unreachable") }
func xorBytesScalar(dst, x, y *byte, n int) { panic("unreachable") }
