//go:build gc && !purego

package chacha20core

// The HChaCha20 kernels (chacha20_amd64.s, from _asm/small.go), in the row
// layout of the small AEAD kernels.
//
//go:noescape
func hChaCha20AVX512(out *[32]byte, key *[32]byte, nonce *[16]byte)

// hChaCha20ProldAVX512 is the same with VPROLD rotations (rowProld).
//
//go:noescape
func hChaCha20ProldAVX512(out *[32]byte, key *[32]byte, nonce *[16]byte)

//go:noescape
func hChaCha20AVX2(out *[32]byte, key *[32]byte, nonce *[16]byte)

// hChaCha20XMM is the same in one xmm row set, for cores that split ymm
// instructions in two (xmmBlocks).
//
//go:noescape
func hChaCha20XMM(out *[32]byte, key *[32]byte, nonce *[16]byte)

// hChaCha20Asm runs HChaCha20 on the AVX512 or AVX2 keystream path's
// instructions while that path is on and the core prefers them to the
// portable code's scalar rounds (hChaCha20Scalar), and reports whether it
// did.
func hChaCha20Asm(out *[32]byte, key *[32]byte, nonce *[16]byte) bool {
	switch {
	case hChaCha20Scalar:
		return false
	case useAVX512 && rowProld:
		hChaCha20ProldAVX512(out, key, nonce)
	case useAVX512:
		hChaCha20AVX512(out, key, nonce)
	case useAVX2 && xmmBlocks:
		hChaCha20XMM(out, key, nonce)
	case useAVX2:
		hChaCha20AVX2(out, key, nonce)
	default:
		return false
	}
	return true
}

// hChaCha20Scalar selects the portable HChaCha20 on this core
// (internal/cpuid's X86ChaCha20For); a variable for the tests.
var hChaCha20Scalar = x86ChaCha20().HChaCha20Scalar
