//go:build gc && !purego

package chacha20core

// The HChaCha20 kernels (chacha20_amd64.s, from _asm/small.go), in the row
// layout of the small AEAD kernels: hChaCha20ProldAVX512 rotates with
// VPROLD (AVX-512F, on ymm registers AVX-512VL), hChaCha20AVX2 with byte
// shuffles and shift pairs.
//
//go:noescape
func hChaCha20ProldAVX512(out *[32]byte, key *[32]byte, nonce *[16]byte)

//go:noescape
func hChaCha20AVX2(out *[32]byte, key *[32]byte, nonce *[16]byte)

// hChaCha20Asm runs HChaCha20 on the AVX512 or AVX2 keystream path's
// instructions while that path is on, and reports whether it did.
func hChaCha20Asm(out *[32]byte, key *[32]byte, nonce *[16]byte) bool {
	switch {
	case useAVX512:
		hChaCha20ProldAVX512(out, key, nonce)
	case useAVX2:
		hChaCha20AVX2(out, key, nonce)
	default:
		return false
	}
	return true
}
