//go:build gc && !purego

package xorbytes

import (
	"github.com/chachakit/chachakit/internal/impl"
	"golang.org/x/sys/cpu"
)

// loong64 tiers: LASX (wide), LSX (narrow), 64-bit Scalar. The LASX code
// also uses LSX instructions for its 16-byte pieces, so GODEBUG=cpu.lsx=off
// turns both off. All three are in xor_loong64.s.
var (
	useWide   = cpu.Loong64.HasLASX && cpu.Loong64.HasLSX
	useNarrow = cpu.Loong64.HasLSX
	useScalar = true
)

func init() {
	impl.Register("subtle", "LASX", &useWide)
	impl.Register("subtle", "LSX", &useNarrow)
	impl.Register("subtle", "Scalar", &useScalar)
}

// xorBytesWide is the LASX path: dst[i] = x[i] ^ y[i] for i < n, n > 0.
//
//go:noescape
func xorBytesWide(dst, x, y *byte, n int)

// xorBytesNarrow is the LSX path.
//
//go:noescape
func xorBytesNarrow(dst, x, y *byte, n int)

// xorBytesScalar is the 64-bit scalar path.
//
//go:noescape
func xorBytesScalar(dst, x, y *byte, n int)
