//go:build gc && !purego

package aead

import "github.com/chachakit/chachakit/internal/chacha20core"

// midAVX512MaxAD is the longest additional data the mid-size AVX-512 path
// takes: the kernel absorbs it one block at a time on the integer units,
// which is hidden behind the vector code only for a few blocks.
const midAVX512MaxAD = 512

// In the kernel's 449..1024-byte range (batch 1 the 8-lane ymm batch), the
// path is taken only where it measured faster than KeyAndXOR and SumAEAD
// (BenchmarkMidAVX512Sizes; bench/README.md, "ChaCha20-Poly1305 by message length"): up to
// 960 bytes (961..1024 put 9 blocks in batch 2's 16 zmm lanes, about 10%
// slower) and with at most 256 bytes of additional data (512 bytes: no
// faster, within the noise; the integer steps of the additional data are
// not hidden behind a batch this short).
const (
	midSmallAVX512Max   = 15 * chacha20core.BlockSize
	midSmallAVX512MaxAD = 256
)

// midAVX512OK: the CPU has what the mid-size kernel needs beyond the
// stitched loop's features (AVX-512 IFMA and BW).
var midAVX512OK = chacha20core.MidAVX512Available()

// midAVX512Fits reports whether the mid-size AVX-512 kernel takes an n-byte
// message with this additional data (sealMid and openMid have checked the
// registry and the default paths).
func midAVX512Fits(n int, ad []byte) bool {
	if !midAVX512OK || n < chacha20core.MidAVX512Min || n > chacha20core.MidAVX512Max {
		return false
	}
	if n <= chacha20core.MidAVX512SmallMax {
		return n <= midSmallAVX512Max && len(ad) <= midSmallAVX512MaxAD
	}
	return len(ad) <= midAVX512MaxAD
}

// sealMidAVX512 is seal for the mid-size AVX-512 kernel
// (chacha20core.MidAVX512): the key block and the whole message in two
// batches written straight to ciphertext, the additional data and the
// ciphertext MACed during and after the second batch, and the tag, in one
// call.
func sealMidAVX512(t *[Overhead]byte, s *chacha20core.State, ciphertext, plaintext, ad []byte) bool {
	if !midAVX512Fits(len(plaintext), ad) {
		return false
	}
	chacha20core.MidAVX512(s, ciphertext, plaintext, ad, t, false)
	return true
}

// openMidAVX512 is open for the same kernel, when out does not overlap the
// ciphertext (the kernel writes batch 1's plaintext, the first 448 or 1024
// bytes, before it MACs that ciphertext): the whole 64-byte blocks are decrypted in the same
// pass that authenticates them, and out is zeroed if the tag does not
// verify, as openStitched does; the kernel compares the tags (reading tag
// before it writes out, which may start where tag does) and writes a
// partial last block only if they match.
func openMidAVX512(s *chacha20core.State, ret, out, ciphertext, ad, tag []byte) ([]byte, error, bool) {
	if !midAVX512Fits(len(ciphertext), ad) || &out[0] == &ciphertext[0] {
		return nil, nil, false
	}
	ok := chacha20core.MidAVX512(s, out, ciphertext, ad, (*[Overhead]byte)(tag), true)
	s.Wipe()
	if !ok {
		clear(out)
		return nil, errOpen, true
	}
	return ret, nil, true
}
