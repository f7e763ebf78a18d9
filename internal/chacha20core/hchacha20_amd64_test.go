//go:build gc && !purego

package chacha20core

import (
	"math/rand/v2"
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
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

// TestHChaCha20Dispatch runs HChaCha20 through its dispatcher under every
// keystream implementation this CPU has: draft-irtf-cfrg-xchacha-03,
// Section 2.2.1's vector, with the assembly running exactly while the AVX512
// or AVX2 path is on.
func TestHChaCha20Dispatch(t *testing.T) {
	key := [32]byte{
		0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
		0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
	}
	nonce := [16]byte{
		0x00, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00, 0x4a, 0x00, 0x00, 0x00, 0x00, 0x31, 0x41, 0x59, 0x27,
	}
	want := [32]byte{
		0x82, 0x41, 0x3b, 0x42, 0x27, 0xb2, 0x7b, 0xfe, 0xd3, 0x0e, 0x42, 0x50, 0x8a, 0x87, 0x7d, 0x73,
		0xa0, 0xf9, 0xe4, 0xd5, 0x8a, 0x74, 0xa8, 0x53, 0xc1, 0x2e, 0xc4, 0x13, 0x26, 0xd3, 0xec, 0xdc,
	}
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		var got [32]byte
		HChaCha20(&got, &key, &nonce)
		if got != want {
			t.Errorf("%x, want %x", got, want)
		}
		var out [32]byte
		if ran, want := hChaCha20Asm(&out, &key, &nonce), useAVX512 || useAVX2; ran != want {
			t.Errorf("the assembly ran: %v, want %v", ran, want)
		}
	})
}
