//go:build gc && !purego

package chacha20core

import (
	"math/rand/v2"
	"testing"
)

// TestHChaCha20Asm compares the HChaCha20 kernels with the portable code on
// random inputs and draft-irtf-cfrg-xchacha-03's Section 2.2.1 vector
// (through the vectors package's tests of chacha20.HChaCha20 as well).
func TestHChaCha20Asm(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, k := range []struct {
		name string
		on   bool
		f    func(out, key *[32]byte, nonce *[16]byte)
	}{
		{"AVX512", avx512CPU, hChaCha20AVX512},
		{"ProldAVX512", avx512CPU, hChaCha20ProldAVX512},
		{"AVX2", avx2CPU, hChaCha20AVX2},
	} {
		if !k.on {
			t.Logf("%s: not on this CPU", k.name)
			continue
		}
		for i := 0; i < 1000; i++ {
			var key [32]byte
			var nonce [16]byte
			for j := range key {
				key[j] = byte(r.Uint32())
			}
			for j := range nonce {
				nonce[j] = byte(r.Uint32())
			}
			if i == 0 {
				key, nonce = [32]byte{}, [16]byte{}
			}
			var got, want [32]byte
			k.f(&got, &key, &nonce)
			hChaCha20Generic(&want, &key, &nonce)
			if got != want {
				t.Fatalf("%s: key %x nonce %x: %x, want %x", k.name, key, nonce, got, want)
			}
		}
	}
}
