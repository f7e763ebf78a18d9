// Package subtle provides XORBytes, a drop-in replacement for
// crypto/subtle.XORBytes:
//
//	import "github.com/chachakit/chachakit/subtle"
//
// It has crypto/subtle's contract, overlap rules and panic texts, and gives
// the same bytes; packages chacha20 and aead use it for their XOR. On amd64
// it is crypto/subtle.XORBytes itself (the call inlines), whose assembly is
// the speed a drop-in must match there. Elsewhere its speed comes from its
// own assembly: vector code on arm64 (NEON), loong64 (LASX, LSX) and riscv64
// (the V extension), and a scalar loop on loong64 and riscv64 CPUs without
// vectors. Everywhere else it is portable Go that XORs a machine word at a
// time.
//
// # Choosing the code path
//
//   - The build tag purego compiles no assembly: XORBytes is portable Go
//     (on amd64 too, where it is then this package's code, not the standard
//     library's).
//   - GODEBUG, read by golang.org/x/sys/cpu when the program starts, switches
//     CPU features off: cpu.asimd=off leaves portable Go on arm64,
//     cpu.lasx=off and cpu.lsx=off the next narrower code on loong64,
//     cpu.v=off the scalar loop on riscv64. On amd64 it changes nothing.
//   - The build tag chachakit_impl_env makes the library read
//     CHACHAKIT_IMPL=subtle=Name from the environment and force that path
//     for the whole process, for tests and benchmarks (on the architectures
//     with paths of their own; amd64 has none to force); without the tag the
//     library reads no environment variable.
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
