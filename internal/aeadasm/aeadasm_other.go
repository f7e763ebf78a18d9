//go:build !(amd64 || arm64) || !gc || purego

package aeadasm

// Available reports the kernels that can run: none without amd64 or arm64 assembly.
func Available() Set { return 0 }

// Seal is never called without kernels.
func Seal(k Kernel, key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte) {
	panic("chacha20poly1305: internal error: no AEAD kernel on this platform")
}

// Open is never called without kernels.
func Open(k Kernel, key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte) bool {
	panic("chacha20poly1305: internal error: no AEAD kernel on this platform")
}

// OneSet reports false: no kernels here.
func OneSet(k Kernel) bool { return false }

// SealOne is never called without kernels.
func SealOne(k Kernel, key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte) {
	panic("chacha20poly1305: internal error: no AEAD kernel on this platform")
}

// OpenOne is never called here (OneSet).
func OpenOne(k Kernel, key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte) bool {
	panic("chacha20poly1305: internal error: no one-row-set kernel here")
}
