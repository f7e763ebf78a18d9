//go:build gc && !purego

package aeadasm

import "github.com/chachakit/chachakit/internal/wipe"

// aeadSmallAVX512 (small_amd64.s): keystream blocks 0 (the Poly1305 key)
// and 1 of key and nonce (12 bytes, or 24 for XChaCha20: the HChaCha20
// subkey is computed first, in registers) and the Poly1305 tag of ad
// (len(ad) <= 64) and the ciphertext, for len(src) <= 64. Seal (open == 0):
// dst = src ^ keystream and *tag = the tag. Open: the tag of src is
// compared with *tag and only if they are equal is dst = src ^ keystream
// written; ok reports whether they were.
//
//go:noescape
func aeadSmallAVX512(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)

// aeadSmall3AVX512 is the same for len(src) <= 192 (two row sets: blocks 0
// to 3), a separate function so that the 64-byte case keeps its code.
//
//go:noescape
func aeadSmall3AVX512(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)

// aeadSmallAVX2 is the same for CPUs with AVX2 but not AVX-512BW: the
// message is in blk (zero-padded; on return the result, zero past n, except
// after a failed Open) and ad in mac (zero-padded, adLen bytes).
//
//go:noescape
func aeadSmallAVX2(key *[32]byte, nonce []byte, blk *[SmallMax]byte, mac *[smallMACBuf]byte, adLen, n int, tag *[16]byte, open int) (ok int)

// smallMACBuf holds the MAC input of aeadSmallAVX2, padded.
const smallMACBuf = SmallADMax + SmallMax + 16

// aeadSmall5AVX2 and aeadSmall7AVX2 are aeadSmallAVX2 for messages of up to
// 320 and 448 bytes: blocks 0 to 5 in three ymm row sets, and 0 to 7 in
// four. blk holds the result on return, also after a failed Open (the
// caller wipes it).
//
//go:noescape
func aeadSmall5AVX2(key *[32]byte, nonce []byte, blk *[5 * 64]byte, mac *[SmallADMax + 5*64 + 16]byte, adLen, n int, tag *[16]byte, open int) (ok int)

//go:noescape
func aeadSmall7AVX2(key *[32]byte, nonce []byte, blk *[7 * 64]byte, mac *[SmallADMax + 7*64 + 16]byte, adLen, n int, tag *[16]byte, open int) (ok int)

// aeadSmallProldAVX512 and aeadSmall3ProldAVX512 are the same two kernels
// with rounds of VPROLD rotations (_asm/small.go, genSmallAVX512), for
// cores on which VPROLD takes one cycle.
//
//go:noescape
func aeadSmallProldAVX512(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)

//go:noescape
func aeadSmall3ProldAVX512(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)

// aeadSmallKeyScalarAVX512 is aeadSmallAVX512 for a 12-byte nonce only,
// with block 0 (r and s) computed a second time in general-purpose
// registers beside the vector rounds, so that the MAC can start before they
// end (_asm/smallkey.go), for cores whose vector chain is the slower one.
//
//go:noescape
func aeadSmallKeyScalarAVX512(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)

// aeadSmall7AVX512 is the AVX-512 small kernels' function for 193 to 448
// bytes (SmallMax < len(src) <= SmallAVX512Max): the key block and up to
// seven message blocks in one 8-lane ymm batch (_asm/small7.go), whatever
// the rounds of the kernel that routed there.
//
//go:noescape
func aeadSmall7AVX512(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)

// small512 runs the AVX-512 small kernel k (SmallAVX512, SmallProldAVX512
// or SmallKeyScalarAVX512) that takes len(src) bytes and the nonce.
func small512(k Kernel, key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) int {
	switch {
	case len(src) > SmallMax:
		return aeadSmall7AVX512(key, nonce, dst, src, ad, tag, open)
	case k == SmallKeyScalarAVX512 && len(nonce) == 12 && len(src) <= 64:
		return aeadSmallKeyScalarAVX512(key, nonce, dst, src, ad, tag, open)
	case k == SmallProldAVX512 && len(src) <= 64:
		return aeadSmallProldAVX512(key, nonce, dst, src, ad, tag, open)
	case k == SmallProldAVX512:
		return aeadSmall3ProldAVX512(key, nonce, dst, src, ad, tag, open)
	case len(src) <= 64:
		return aeadSmallAVX512(key, nonce, dst, src, ad, tag, open)
	}
	return aeadSmall3AVX512(key, nonce, dst, src, ad, tag, open)
}

// sealSmall is Seal for the small kernels (k is SmallAVX512,
// SmallProldAVX512, SmallKeyScalarAVX512 or SmallAVX2).
func sealSmall(k Kernel, key *[32]byte, nonce []byte, ciphertext, plaintext, ad []byte, tag *[16]byte) {
	checkSmall(k, len(plaintext), ad)
	if k != SmallAVX2 {
		small512(k, key, nonce, ciphertext, plaintext, ad, tag, 0)
		return
	}
	switch n := len(plaintext); {
	case n > 5*64:
		sealSmall7AVX2(key, nonce, ciphertext, plaintext, ad, tag)
		return
	case n > SmallMax:
		sealSmall5AVX2(key, nonce, ciphertext, plaintext, ad, tag)
		return
	}
	var blk [SmallMax]byte
	var mac [smallMACBuf]byte
	copy(blk[:], plaintext)
	copy(mac[:], ad)
	aeadSmallAVX2(key, nonce, &blk, &mac, len(ad), len(plaintext), tag, 0)
	copy(ciphertext, blk[:len(plaintext)])
}

// openSmall is Open for the small kernels: the tags are compared (in
// constant time) before anything is written, and on a mismatch plaintext
// is untouched.
func openSmall(k Kernel, key *[32]byte, nonce []byte, plaintext, ciphertext, ad []byte, tag *[16]byte) bool {
	checkSmall(k, len(ciphertext), ad)
	if k != SmallAVX2 {
		return small512(k, key, nonce, plaintext, ciphertext, ad, tag, 1) == 1
	}
	switch n := len(ciphertext); {
	case n > 5*64:
		return openSmall7AVX2(key, nonce, plaintext, ciphertext, ad, tag)
	case n > SmallMax:
		return openSmall5AVX2(key, nonce, plaintext, ciphertext, ad, tag)
	}
	var blk [SmallMax]byte
	var mac [smallMACBuf]byte
	copy(blk[:], ciphertext)
	copy(mac[:], ad)
	if aeadSmallAVX2(key, nonce, &blk, &mac, len(ad), len(ciphertext), tag, 1) != 1 {
		return false
	}
	copy(plaintext, blk[:len(ciphertext)])
	wipe.Memclr(blk[:])
	return true
}

// sealSmall5AVX2, sealSmall7AVX2, openSmall5AVX2 and openSmall7AVX2 are
// sealSmall and openSmall for aeadSmall5AVX2 and aeadSmall7AVX2, each in its
// own function so that sealSmall's frame keeps only its buffers (with all
// of them, Seal of 256 bytes measured 6% slower on AMD Zen 1).
func sealSmall5AVX2(key *[32]byte, nonce []byte, ciphertext, plaintext, ad []byte, tag *[16]byte) {
	var blk [5 * 64]byte
	var mac [SmallADMax + 5*64 + 16]byte
	copy(blk[:], plaintext)
	copy(mac[:], ad)
	aeadSmall5AVX2(key, nonce, &blk, &mac, len(ad), len(plaintext), tag, 0)
	copy(ciphertext, blk[:len(plaintext)])
}

func sealSmall7AVX2(key *[32]byte, nonce []byte, ciphertext, plaintext, ad []byte, tag *[16]byte) {
	var blk [7 * 64]byte
	var mac [SmallADMax + 7*64 + 16]byte
	copy(blk[:], plaintext)
	copy(mac[:], ad)
	aeadSmall7AVX2(key, nonce, &blk, &mac, len(ad), len(plaintext), tag, 0)
	copy(ciphertext, blk[:len(plaintext)])
}

func openSmall5AVX2(key *[32]byte, nonce []byte, plaintext, ciphertext, ad []byte, tag *[16]byte) bool {
	var blk [5 * 64]byte
	var mac [SmallADMax + 5*64 + 16]byte
	copy(blk[:], ciphertext)
	copy(mac[:], ad)
	ok := aeadSmall5AVX2(key, nonce, &blk, &mac, len(ad), len(ciphertext), tag, 1) == 1
	if ok {
		copy(plaintext, blk[:len(ciphertext)])
	}
	wipe.Memclr(blk[:])
	return ok
}

func openSmall7AVX2(key *[32]byte, nonce []byte, plaintext, ciphertext, ad []byte, tag *[16]byte) bool {
	var blk [7 * 64]byte
	var mac [SmallADMax + 7*64 + 16]byte
	copy(blk[:], ciphertext)
	copy(mac[:], ad)
	ok := aeadSmall7AVX2(key, nonce, &blk, &mac, len(ad), len(ciphertext), tag, 1) == 1
	if ok {
		copy(plaintext, blk[:len(ciphertext)])
	}
	wipe.Memclr(blk[:])
	return ok
}

func checkSmall(k Kernel, n int, ad []byte) {
	max := SmallAVX512Max
	if k == SmallAVX2 {
		max = SmallAVX2Max
	}
	if n > max || len(ad) > SmallADMax {
		panic("chacha20poly1305: internal error: message too long for the small kernels")
	}
}
