//go:build gc && !purego

package aead

import "github.com/chachakit/chachakit/internal/chacha20core"

// sealMidAVX2 and openMidAVX2: the mid-size stitched path of the AVX2
// loop (not written yet: they decline).
func sealMidAVX2(t *[Overhead]byte, s *chacha20core.State, ciphertext, plaintext, ad []byte) bool {
	return false
}

func openMidAVX2(s *chacha20core.State, ret, out, ciphertext, ad, tag []byte) ([]byte, error, bool) {
	return nil, nil, false
}
