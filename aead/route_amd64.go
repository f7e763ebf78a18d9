//go:build gc && !purego

package aead

import (
	"github.com/chachakit/chachakit/internal/aeadasm"
)

// pick is the route table of amd64: the kernel of internal/aeadasm that
// seals or opens an n-byte message with adLen bytes of additional data, or
// aeadasm.None for the portable passes of seal and open. The choices
// depend on the CPU's features and the lengths only (bench/README.md,
// "ChaCha20-Poly1305 by message length" and "In context"); the kernels'
// own limits are aeadasm's constants.
func pick(n, adLen int, open bool) aeadasm.Kernel {
	// Up to 192 bytes with AVX-512BW, one call does it all from key and
	// nonce. Asked first, without the whole set of kernels: the short
	// messages are the calls whose cost the route shows in.
	if n <= aeadasm.SmallAVX512Max && adLen <= aeadasm.SmallADMax && aeadasm.SmallOn() {
		return aeadasm.SmallAVX512
	}
	k := aeadasm.Available()
	avx512 := k.Has(aeadasm.StitchedAVX512) // else the AVX2 families, if any
	switch {
	case k == 0:
		return aeadasm.None

	// AVX2: an Open of 321 to 576 bytes computes the key block first and
	// MACs the ciphertext beside the rounds of the rest (as x/crypto's AVX2
	// Open), faster there than the small and mid-size kernels
	// (bench/README.md, "Kernels removed").
	case open && !avx512 && n > 5*64 && n <= aeadasm.OpenFirstAVX2Max && adLen <= aeadasm.SmallADMax && k.Has(aeadasm.OpenFirstAVX2):
		return aeadasm.OpenFirstAVX2

	// The AVX2 small kernel (up to 448 bytes) only where the AVX-512 one
	// cannot run.
	case n <= aeadasm.SmallAVX2Max && adLen <= aeadasm.SmallADMax && !k.Has(aeadasm.SmallAVX512) && k.Has(aeadasm.SmallAVX2):
		return aeadasm.SmallAVX2

	// Up to 448 bytes, the key block and the message in one engine call
	// (seal's short path) beat the kernels' batches.
	case n <= shortMax:
		return aeadasm.None

	// AVX2: every Seal and Open from 449 bytes on, in one call (faster
	// than the separate passes at every length, and close to a stitched
	// loop of whole batches where that had whole batches to stitch:
	// bench/README.md, "Kernels removed").
	case !avx512 && k.Has(aeadasm.MidAVX2):
		return aeadasm.MidAVX2

	// AVX-512, the stitched loop: a Seal MACs each batch during the next
	// one, so it needs two batches to gain anything; an Open MACs the batch
	// it decrypts.
	case avx512 && (open && n >= aeadasm.Batch || n >= 2*aeadasm.Batch):
		return aeadasm.StitchedAVX512
	}
	return aeadasm.None
}

// subkeyFirstMax is -1: XChaCha20-Poly1305 derives its subkey where the
// nonce is used (the small kernels run HChaCha20 in their own row set).
const subkeyFirstMax = -1
