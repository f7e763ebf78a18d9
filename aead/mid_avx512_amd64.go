//go:build gc && !purego

package aead

import "github.com/chachakit/chachakit/internal/chacha20core"

// sealMidAVX512 and openMidAVX512: the mid-size stitched path of the AVX512
// loop (not written yet: they decline).
func sealMidAVX512(t *[Overhead]byte, s *chacha20core.State, ciphertext, plaintext, ad []byte) bool {
	return false
}

func openMidAVX512(s *chacha20core.State, ret, out, ciphertext, ad, tag []byte) ([]byte, error, bool) {
	return nil, nil, false
}
