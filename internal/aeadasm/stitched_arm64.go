//go:build gc && !purego

package aeadasm

import (
	"github.com/chachakit/chachakit/internal/chacha20core"
	"github.com/chachakit/chachakit/internal/poly1305"
)

// xorMACNEON is the stitched loop (stitched_arm64.s): for each NEONBatch
// bytes of src it XORs 6 keystream blocks, from block s.Counter, into dst
// (advancing the counter) and absorbs the batch's bytes of mac as 24 full
// 16-byte blocks into the accumulator h (64-bit limbs h[0] + h[1]·2^64 +
// h[2]·2^128, h[2] < 8) with the clamped r: the block step of RFC 8439,
// Section 2.5.1. len(dst), len(src) and len(mac) are one multiple of
// NEONBatch; mac is src itself (an Open, which may be in place) or dst
// shifted back by one batch (a Seal).
//
//go:noescape
func xorMACNEON(s *chacha20core.State, dst, src, mac []byte, h *[3]uint64, r *[2]uint64)

// xorMACSVE2 is xorMACNEON with SVE2's XAR for the rotations: the same
// contract, on CPUs with SVE2 only.
//
//go:noescape
func xorMACSVE2(s *chacha20core.State, dst, src, mac []byte, h *[3]uint64, r *[2]uint64)

// xorAndMACNEON runs the loop (xorMACSVE2 if sve2, else xorMACNEON) over
// the whole batches of src.
func xorAndMACNEON(s *chacha20core.State, sve2 bool, p *poly1305.MAC, dst, src, mac []byte) {
	if len(src)%NEONBatch != 0 || len(dst) != len(src) || len(mac) != len(src) {
		panic("chacha20poly1305: internal error: wrong dst, src and/or mac length")
	}
	h, r := p.Accumulator()
	if sve2 {
		xorMACSVE2(s, dst, src, mac, h, r)
	} else {
		xorMACNEON(s, dst, src, mac, h, r)
	}
}

// sealNEON is Seal (by xorMACSVE2 if sve2) for plaintexts of at least two
// whole batches: the first batch is encrypted by the engine, each later
// one in the loop with the MAC of the ciphertext of the batch before it;
// the last batch's ciphertext and the tail are MACed after, and the tail
// is encrypted by the engine.
func sealNEON(s *chacha20core.State, sve2 bool, ciphertext, plaintext, ad []byte, tag *[16]byte) {
	k := len(plaintext) / NEONBatch * NEONBatch
	if k < 2*NEONBatch {
		panic("chacha20poly1305: internal error: message too short for the stitched Seal")
	}
	var p poly1305.MAC
	macInit(&p, s, ad)
	chacha20core.XORKeyStream(s, ciphertext[:NEONBatch], plaintext[:NEONBatch])
	xorAndMACNEON(s, sve2, &p, ciphertext[NEONBatch:k], plaintext[NEONBatch:k], ciphertext[:k-NEONBatch])
	chacha20core.XORKeyStream(s, ciphertext[k:], plaintext[k:])
	p.WritePadded(ciphertext[k-NEONBatch:])
	macFinish(tag, &p, len(ad), len(ciphertext))
}

// openNEON is Open (by xorMACSVE2 if sve2) for ciphertexts of at least one
// whole batch: the batches are MACed and decrypted in one pass (each
// batch's ciphertext is read before its plaintext is written, for an Open
// in place), the tail is MACed, and only if the tag verifies is the tail
// decrypted. On failure the caller zeroes what the loop wrote.
func openNEON(s *chacha20core.State, sve2 bool, out, ciphertext, ad []byte, tag *[16]byte) bool {
	k := len(ciphertext) / NEONBatch * NEONBatch
	if k == 0 {
		panic("chacha20poly1305: internal error: message too short for the stitched Open")
	}
	// out may start where the tag does (it overlaps ciphertext exactly or
	// not at all), and the plaintext is written before the comparison.
	tg := *tag
	var p poly1305.MAC
	macInit(&p, s, ad)
	xorAndMACNEON(s, sve2, &p, out[:k], ciphertext[:k], ciphertext[:k])
	return openFinish(s, &p, out, ciphertext, k, len(ad), &tg, nil)
}
