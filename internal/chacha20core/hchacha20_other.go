//go:build !amd64 || !gc || purego

package chacha20core

// hChaCha20Asm reports false: HChaCha20 has no assembly here.
func hChaCha20Asm(out *[32]byte, key *[32]byte, nonce *[16]byte) bool { return false }
