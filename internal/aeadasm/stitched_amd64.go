//go:build gc && !purego

package aeadasm

import (
	"github.com/chachakit/chachakit/internal/chacha20core"
	"github.com/chachakit/chachakit/internal/poly1305"
)

// The stitched loops (stitched_amd64.s): xorMACAVX512 runs 16-block
// AVX-512 batches with Poly1305 on the integer units in place of the 17th
// block of the AVX512 keystream path, xorMACAVX2 the 8-block AVX2 batches
// with the same MAC steps. Each XORs len(src)/Batch batches of keystream,
// from block s.Counter, into dst and advances the counter; in the same
// pass it absorbs mac as full 16-byte blocks into the accumulator h
// (64-bit limbs h[0] + h[1]·2^64 + h[2]·2^128, h[2] < 8), with the clamped
// r: the block step of RFC 8439, Section 2.5.1. With skip = 0, mac has the
// length of src and may be dst itself (an Open in place); with skip = 1 (a
// Seal), mac is the first len(src) - Batch bytes of dst: the first batch
// is encrypted with no MAC work and each later one MACs the ciphertext the
// batch before it wrote.
//
//go:noescape
func xorMACAVX512(s *chacha20core.State, dst, src, mac []byte, skip int, h *[3]uint64, r *[2]uint64)

//go:noescape
func xorMACAVX2(s *chacha20core.State, dst, src, mac []byte, skip int, h *[3]uint64, r *[2]uint64)

// xorMACIFMA is xorMACAVX512's keystream with the MAC in AVX-512 IFMA
// lanes, merged into the double rounds (_asm/stitched_ifma.go); h[2] < 8
// on return.
//
//go:noescape
func xorMACIFMA(s *chacha20core.State, dst, src, mac []byte, skip int, h *[3]uint64, r *[2]uint64)

// xorAndMAC runs the loop of kernel k (StitchedAVX512, StitchedIFMA or
// StitchedAVX2) over the whole batches of src.
func xorAndMAC(k Kernel, s *chacha20core.State, p *poly1305.MAC, dst, src, mac []byte, skip int) {
	if len(src)%Batch != 0 || len(dst) < len(src) || len(mac) != len(src)-skip*Batch {
		panic("chacha20poly1305: internal error: wrong dst, src and/or mac length")
	}
	h, r := p.Accumulator()
	switch k {
	case StitchedAVX512:
		xorMACAVX512(s, dst[:len(src)], src, mac, skip, h, r)
	case StitchedIFMA:
		xorMACIFMA(s, dst[:len(src)], src, mac, skip, h, r)
	default:
		xorMACAVX2(s, dst[:len(src)], src, mac, skip, h, r)
	}
}

// sealStitched is Seal for plaintexts of at least two whole batches: each
// batch's keystream runs with the MAC of the ciphertext of the batch before
// it (the first batch with none); the last batch's ciphertext and the tail
// are MACed after, and the tail is encrypted by the engine.
func sealStitched(kern Kernel, s *chacha20core.State, ciphertext, plaintext, ad []byte, tag *[16]byte) {
	k := len(plaintext) / Batch * Batch
	if k < 2*Batch {
		panic("chacha20poly1305: internal error: message too short for the stitched Seal")
	}
	var p poly1305.MAC
	macInit(&p, s, ad)
	xorAndMAC(kern, s, &p, ciphertext[:k], plaintext[:k], ciphertext[:k-Batch], 1)
	chacha20core.XORKeyStream(s, ciphertext[k:], plaintext[k:])
	p.WritePadded(ciphertext[k-Batch:])
	macFinish(tag, &p, len(ad), len(ciphertext))
}

// openStitched is Open for ciphertexts of at least one whole batch: the
// batches are decrypted and MACed in one pass (the kernel reads each
// ciphertext block before it writes the plaintext over it, for an Open in
// place), the tail is MACed, and only if the tag verifies is the tail
// decrypted.
func openStitched(kern Kernel, s *chacha20core.State, out, ciphertext, ad []byte, tag *[16]byte) bool {
	k := len(ciphertext) / Batch * Batch
	if k == 0 {
		panic("chacha20poly1305: internal error: message too short for the stitched Open")
	}
	// out may start where the tag does (it overlaps ciphertext exactly or
	// not at all), and the plaintext is written before the comparison.
	tg := *tag
	var p poly1305.MAC
	macInit(&p, s, ad)
	xorAndMAC(kern, s, &p, out[:k], ciphertext[:k], ciphertext[:k], 0)
	return openFinish(s, &p, out, ciphertext, k, len(ad), &tg)
}
