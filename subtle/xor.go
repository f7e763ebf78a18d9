// Package subtle provides XORBytes, a drop-in replacement for
// crypto/subtle.XORBytes with SIMD paths on more architectures.
//
// Each architecture binds up to three tiers of assembly, tried in order:
//
//	         wide    narrow  scalar
//	amd64    AVX2    SSE2    -
//	arm64    -       NEON    -
//	loong64  LASX    LSX     Scalar
//	riscv64  RVV     -       Scalar
//
// and portable Go (word at a time, [Portable] in the registry) everywhere
// else, under -tags purego, and when every tier is switched off. Each tier is
// registered in internal/impl under its technique name, so tests and
// benchmarks can force each in turn; GODEBUG=cpu.<feature>=off (read by
// golang.org/x/sys/cpu) steers the default choice.
package subtle

import "github.com/chachakit/chachakit/internal/xorbytes"

// XORBytes sets dst[i] = x[i] ^ y[i] for all i < n = min(len(x), len(y)),
// returning n, the number of bytes written to dst.
// If dst does not have length at least n,
// XORBytes panics without writing anything to dst.
//
// dst and x or y may overlap exactly or not at all,
// otherwise XORBytes may panic.
//
// Its contract, including the panic texts, is crypto/subtle.XORBytes's.
func XORBytes(dst, x, y []byte) int {
	// The code is in internal/xorbytes; this call inlines into the caller,
	// which then calls xorbytes.XORBytes directly.
	return xorbytes.XORBytes(dst, x, y)
}
