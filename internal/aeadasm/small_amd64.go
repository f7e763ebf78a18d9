//go:build gc && !purego

package aeadasm

// aeadSmallAVX512 (small_amd64.s): keystream blocks 0 (the Poly1305 key)
// to 3 of key and nonce (12 bytes, or 24 for XChaCha20: the HChaCha20
// subkey is computed first, in registers; blocks 2 and 3 only for
// len(src) > 64) and the Poly1305 tag of ad (len(ad) <= 64) and the
// ciphertext, for len(src) <= 192. Seal (open == 0): dst = src ^ keystream
// and *tag = the tag. Open: the tag of src is compared with *tag and only
// if they are equal is dst = src ^ keystream written; ok reports whether
// they were. The rounds rotate with VPROLD.
//
//go:noescape
func aeadSmallAVX512(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)

// aeadSmallAVX2 is the same for CPUs with AVX2 but not AVX-512BW, for
// len(src) <= 448: two ymm row sets up to 192 bytes, three up to 320, four
// above (as x/crypto's AVX2 code computes short messages). Without masked
// byte loads it copies src and ad into its frame and the result out
// (exactly their bytes: _asm/small.go, smallBufs), and wipes the copies.
//
//go:noescape
func aeadSmallAVX2(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)

// small runs small kernel k (SmallAVX512 or SmallAVX2) on a message that
// the kernel takes (checkSmall).
func small(k Kernel, key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) int {
	if k == SmallAVX2 {
		return aeadSmallAVX2(key, nonce, dst, src, ad, tag, open)
	}
	return aeadSmallAVX512(key, nonce, dst, src, ad, tag, open)
}

// checkSmall panics unless small kernel k takes a message of n bytes and
// additional data ad.
func checkSmall(k Kernel, n int, ad []byte) {
	max := SmallAVX512Max
	if k == SmallAVX2 {
		max = SmallAVX2Max
	}
	if n > max || len(ad) > SmallADMax {
		panic("chacha20poly1305: internal error: message too long for the small kernels")
	}
}

// openFirstAVX2 (small_amd64.s; _asm/openfirst.go) is Open for len(src) <=
// OpenFirstAVX2Max and len(ad) <= SmallADMax with AVX2 and BMI2: blocks 0
// to 3 first, then the MAC on the integer units beside the rounds of the
// blocks after them. Only if the tags are equal is dst written (ok = 1).
//
//go:noescape
func openFirstAVX2(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte) (ok int)

// openFirst is Open for OpenFirstAVX2: nothing is written unless the tags
// are equal.
func openFirst(key *[32]byte, nonce []byte, plaintext, ciphertext, ad []byte, tag *[16]byte) bool {
	if len(ciphertext) > OpenFirstAVX2Max || len(ad) > SmallADMax {
		panic("chacha20poly1305: internal error: message too long for OpenFirstAVX2")
	}
	return openFirstAVX2(key, nonce, plaintext, ciphertext, ad, tag) == 1
}

// OneSet reports whether k is the one-row-set small kernel, which SealOne
// and OpenOne take for messages of at most 64 bytes with a 12-byte nonce.
func OneSet(k Kernel) bool { return k == SmallAVX512 }

// SealOne is Seal for SmallAVX512 and messages of at most 64 bytes with a
// 12-byte nonce: the route's shortest calls, with one layer between the
// caller and the kernel instead of Seal's three. Other arguments panic.
func SealOne(k Kernel, key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte) {
	one(key, nonce, dst, src, ad, tag, 0)
}

// OpenOne is Open for the same kernel and messages: nothing is written to
// dst unless the tags are equal, and then dst is all zeros.
func OpenOne(k Kernel, key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte) bool {
	if one(key, nonce, dst, src, ad, tag, 1) != 1 {
		clear(dst)
		return false
	}
	return true
}

// one runs the one-row-set kernel.
func one(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) int {
	if len(src) > 64 || len(dst) != len(src) || len(nonce) != 12 || len(ad) > SmallADMax {
		panic("chacha20poly1305: internal error: wrong arguments for the one-row-set kernels")
	}
	return aeadSmallAVX512(key, nonce, dst, src, ad, tag, open)
}
