//go:build gc && !purego

package aeadasm

import "github.com/chachakit/chachakit/internal/chacha20core"

// The mid-size AVX-512 kernels (mid_avx512_amd64.s): a Seal or Open of
// MidAVX512Min..MidAVX512Max bytes in one call. Keystream block s.Counter
// keys Poly1305, the blocks after it XOR src into dst (s.Counter advances
// past them), and the MAC covers ad and the ciphertext, each zero-padded
// to 16 bytes, and both lengths, with its multiplications in IFMA lanes.
// The ciphertext is dst for a Seal (open == 0), which writes the MAC to
// tag; an Open reads the ciphertext from src and the expected tag from tag
// before it writes anything (dst may start where tag does), writes the
// plaintext of the whole 64-byte blocks, compares the tags in constant
// time, writes a partial last block only if they match, and returns
// whether they did. In an Open, dst and src are the same slice or do not
// overlap: the kernel writes batch 1's plaintext (448 or 1024 bytes)
// before it MACs the ciphertext there, so an Open in place reads a copy of
// the ciphertext that the kernel makes in its frame. midSmallAVX512 takes up to MidAVX512SmallMax bytes (batch 1 the
// 8-lane ymm batch: the key block and 448 bytes), midAVX512 the rest
// (batch 1 the 17-block hybrid batch).
//
//go:noescape
func midAVX512(s *chacha20core.State, dst, src, ad []byte, tag *[16]byte, open int) (ok int)

//go:noescape
func midSmallAVX512(s *chacha20core.State, dst, src, ad []byte, tag *[16]byte, open int) (ok int)

func sealMidAVX512(s *chacha20core.State, ciphertext, plaintext, ad []byte, tag *[16]byte) {
	mid512(s, ciphertext, plaintext, ad, tag, 0)
}

func openMidAVX512(s *chacha20core.State, out, ciphertext, ad []byte, tag *[16]byte) bool {
	return mid512(s, out, ciphertext, ad, tag, 1) == 1
}

func mid512(s *chacha20core.State, dst, src, ad []byte, tag *[16]byte, open int) int {
	n := len(src)
	if n < MidAVX512Min || n > MidAVX512Max {
		panic("chacha20poly1305: internal error: wrong length for the mid-size AVX-512 kernel")
	}
	if n <= MidAVX512SmallMax {
		return midSmallAVX512(s, dst, src, ad, tag, open)
	}
	return midAVX512(s, dst, src, ad, tag, open)
}
