//go:build gc && !purego

package xorbytes

import (
	"github.com/chachakit/chachakit/internal/impl"
	"golang.org/x/sys/cpu"
)

// riscv64 tiers: RVV (wide, when the V extension is there) and 64-bit
// Scalar, both in xor_riscv64.s. GODEBUG=cpu.v=off turns RVV off.
var (
	useWide   = cpu.RISCV64.HasV
	useScalar = true
)

const useNarrow = false

func init() {
	impl.Register("subtle", "RVV", &useWide)
	impl.Register("subtle", "Scalar", &useScalar)
}

// xorBytesWide is the RVV path: dst[i] = x[i] ^ y[i] for i < n, n > 0.
//
//go:noescape
func xorBytesWide(dst, x, y *byte, n int)

// xorBytesScalar is the 64-bit scalar path.
//
//go:noescape
func xorBytesScalar(dst, x, y *byte, n int)

func xorBytesNarrow(dst, x, y *byte, n int) { panic("unreachable") }
