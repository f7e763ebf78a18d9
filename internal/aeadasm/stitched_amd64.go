//go:build gc && !purego

package aeadasm

import (
	"crypto/subtle"

	"github.com/chachakit/chachakit/internal/chacha20core"
	"github.com/chachakit/chachakit/internal/poly1305"
	"github.com/chachakit/chachakit/internal/wipe"
)

// The stitched loop (stitched_amd64.s): xorMACAVX512 runs 16-block
// AVX-512 batches with Poly1305 on the integer units in place of the 17th
// block of the AVX512 keystream path. It XORs len(src)/Batch batches of keystream,
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

// keyTailAVX512 stores the keystream of four blocks of s's
// key to out, row 3 of block b (its counter and nonce words) from
// rows[4b:4b+4], in two row sets; keyTail8AVX512 and keyTail16AVX512 that
// of eight or 16 blocks of s's key and nonce, block l's counter ctr[l], in
// eight ymm or 16 zmm lanes (_asm/keytail.go). s.Counter is not used.
//
//go:noescape
func keyTailAVX512(s *chacha20core.State, out *[256]byte, rows *[16]uint32)

//go:noescape
func keyTail8AVX512(s *chacha20core.State, out *[512]byte, ctr *[16]uint32)

//go:noescape
func keyTail16AVX512(s *chacha20core.State, out *[1024]byte, ctr *[16]uint32)

// keyTailMax is the longest tail (the bytes after the stitched loop's whole
// batches) whose keystream keyTail computes with the Poly1305 key block:
// 15 blocks beside it in 16 AVX-512 lanes.
func keyTailMax(k Kernel) int { return 15 * 64 }

// keyTailRows is the most keyTailAVX512's two row sets take.
const keyTailRows = 3 * 64

// keyTail stores the Poly1305 key block (counter s.Counter) to ks[0:64] and
// the keystream of the tail blocks after the first n bytes of the message
// (counters s.Counter+1+n/64 on) after it, in one call, and returns how
// many bytes of ks it wrote (ks holds at least 256, or 1024 for a tail of
// more than three blocks). Alone, the key block is one latency-bound call
// of the row code, and the tail's blocks another call; the two row sets or
// the one batch that hold both cost about what the second call does. It
// advances s.Counter by one, as chacha20core.Block does.
func keyTail(k Kernel, s *chacha20core.State, ks []byte, n, tail int) int {
	t := s.Counter + 1 + uint32(n/64)
	var w int
	if tail <= keyTailRows {
		var rows [16]uint32
		for b, c := range [4]uint32{s.Counter, t, t + 1, t + 2} {
			rows[4*b] = c
			copy(rows[4*b+1:4*b+4], s.Nonce[:])
		}
		keyTailAVX512(s, (*[256]byte)(ks), &rows)
		w = 256
	} else {
		var ctr [16]uint32
		ctr[0] = s.Counter
		for i := 1; i < len(ctr); i++ {
			ctr[i] = t + uint32(i-1)
		}
		if tail <= 7*64 {
			keyTail8AVX512(s, (*[512]byte)(ks), &ctr)
			w = 512
		} else {
			keyTail16AVX512(s, (*[1024]byte)(ks), &ctr)
			w = 1024
		}
	}
	s.Counter++
	return w
}

// startTail begins a stitched Seal or Open whose tail (the last tail bytes
// of src, after k bytes of whole batches) keyTail can take: p gets its key
// and the additional data, and the tail's keystream is left in ks[64:],
// to be wiped by the caller (keyTail's result says how far).
func startTail(kern Kernel, s *chacha20core.State, p *poly1305.MAC, ks []byte, ad []byte, k, tail int) int {
	w := keyTail(kern, s, ks, k, tail)
	p.Init((*[32]byte)(ks[:32]))
	p.WritePadded(ad)
	return w
}

// xorAndMAC runs the loop of kernel k (StitchedAVX512) over the whole
// batches of src.
func xorAndMAC(k Kernel, s *chacha20core.State, p *poly1305.MAC, dst, src, mac []byte, skip int) {
	if len(src)%Batch != 0 || len(dst) < len(src) || len(mac) != len(src)-skip*Batch {
		panic("chacha20poly1305: internal error: wrong dst, src and/or mac length")
	}
	h, r := p.Accumulator()
	xorMACAVX512(s, dst[:len(src)], src, mac, skip, h, r)
}

// sealStitched is Seal for plaintexts of at least two whole batches: each
// batch's keystream runs with the MAC of the ciphertext of the batch before
// it (the first batch with none); the last batch's ciphertext and the tail
// are MACed after. The tail's keystream comes with the Poly1305 key block
// (keyTail) up to keyTailMax bytes, else from the engine after the loop.
func sealStitched(kern Kernel, s *chacha20core.State, ciphertext, plaintext, ad []byte, tag *[16]byte) {
	k := len(plaintext) / Batch * Batch
	if k < 2*Batch {
		panic("chacha20poly1305: internal error: message too short for the stitched Seal")
	}
	var p poly1305.MAC
	tail := len(plaintext) - k
	switch {
	case tail == 0 || tail > keyTailMax(kern):
		macInit(&p, s, ad)
		xorAndMAC(kern, s, &p, ciphertext[:k], plaintext[:k], ciphertext[:k-Batch], 1)
		chacha20core.XORKeyStream(s, ciphertext[k:], plaintext[k:])
	case tail <= keyTailRows:
		var ks [256]byte
		sealTail(kern, s, &p, ks[:], ciphertext, plaintext, ad, k)
	default:
		var ks [1024]byte
		sealTail(kern, s, &p, ks[:], ciphertext, plaintext, ad, k)
	}
	p.WritePadded(ciphertext[k-Batch:])
	macFinish(tag, &p, len(ad), len(ciphertext))
}

// openStitched is Open for ciphertexts of at least one whole batch: the
// batches are decrypted and MACed in one pass (the kernel reads each
// ciphertext block before it writes the plaintext over it, for an Open in
// place), the tail is MACed, and only if the tag verifies is the tail
// decrypted (its keystream computed as sealStitched's is).
func openStitched(kern Kernel, s *chacha20core.State, out, ciphertext, ad []byte, tag *[16]byte) bool {
	k := len(ciphertext) / Batch * Batch
	if k == 0 {
		panic("chacha20poly1305: internal error: message too short for the stitched Open")
	}
	// out may start where the tag does (it overlaps ciphertext exactly or
	// not at all), and the plaintext is written before the comparison.
	tg := *tag
	var p poly1305.MAC
	tail := len(ciphertext) - k
	switch {
	case tail == 0 || tail > keyTailMax(kern):
		macInit(&p, s, ad)
		xorAndMAC(kern, s, &p, out[:k], ciphertext[:k], ciphertext[:k], 0)
		return openFinish(s, &p, out, ciphertext, k, len(ad), &tg, nil)
	case tail <= keyTailRows:
		var ks [256]byte
		return openTail(kern, s, &p, ks[:], out, ciphertext, ad, k, &tg)
	default:
		var ks [1024]byte
		return openTail(kern, s, &p, ks[:], out, ciphertext, ad, k, &tg)
	}
}

// sealTail is sealStitched's loop for a tail that keyTail takes: the
// tail's ciphertext is written first (it lies after the loop's bytes).
func sealTail(kern Kernel, s *chacha20core.State, p *poly1305.MAC, ks, ciphertext, plaintext, ad []byte, k int) {
	tail := len(plaintext) - k
	w := startTail(kern, s, p, ks, ad, k, tail)
	subtle.XORBytes(ciphertext[k:], plaintext[k:], ks[64:64+tail])
	wipe.Memclr(ks[:w])
	xorAndMAC(kern, s, p, ciphertext[:k], plaintext[:k], ciphertext[:k-Batch], 1)
}

// openTail is openStitched for a tail that keyTail takes: the tail's
// keystream waits in ks until the tag has been checked.
func openTail(kern Kernel, s *chacha20core.State, p *poly1305.MAC, ks, out, ciphertext, ad []byte, k int, tg *[16]byte) bool {
	tail := len(ciphertext) - k
	w := startTail(kern, s, p, ks, ad, k, tail)
	xorAndMAC(kern, s, p, out[:k], ciphertext[:k], ciphertext[:k], 0)
	ok := openFinish(s, p, out, ciphertext, k, len(ad), tg, ks[64:64+tail])
	wipe.Memclr(ks[:w])
	return ok
}
