//go:build gc && !purego

package aeadasm

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

// aeadSmallAVX2 is the same for CPUs with AVX2 but not AVX-512BW, for
// len(src) <= 192; without masked byte loads it copies src and ad into its
// frame and the result out (exactly their bytes: _asm/small.go,
// smallBufs), and wipes the copies.
//
//go:noescape
func aeadSmallAVX2(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)

// aeadSmall5AVX2 and aeadSmall7AVX2 are aeadSmallAVX2 for messages of up to
// 320 and 448 bytes: blocks 0 to 5 in three ymm row sets, and 0 to 7 in
// four.
//
//go:noescape
func aeadSmall5AVX2(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)

//go:noescape
func aeadSmall7AVX2(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)

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

// aeadSmallKeyScalarAVX2 is the same for aeadSmallAVX2, up to 64 bytes.
//
//go:noescape
func aeadSmallKeyScalarAVX2(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)

// aeadSmallKeyFirstAVX512 is aeadSmallProldAVX512 for a 12-byte nonce
// only, with block 0 computed first in general-purpose registers (two
// scalar double rounds per vector one) and the MAC of what is ready before
// the rounds (ad; for Open the whole input) absorbed during their second
// half (_asm/smallfirst.go).
//
//go:noescape
func aeadSmallKeyFirstAVX512(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)

// aeadSmallKeyFirstAVX2 is the same for aeadSmallAVX2, up to 64 bytes.
//
//go:noescape
func aeadSmallKeyFirstAVX2(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)

// aeadSmallHandoffAVX512 is aeadSmallKeyFirstAVX512 with the row set's
// sixth double round followed by block 1's last four in general-purpose
// registers, after block 0's there (_asm/smallfirst.go, blocksHandoff).
//
//go:noescape
func aeadSmallHandoffAVX512(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)

// aeadSmallHandoffAVX2 is the same for aeadSmallAVX2, up to 64 bytes.
//
//go:noescape
func aeadSmallHandoffAVX2(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)

// aeadSmall7AVX512 is the AVX-512 small kernels' function for 193 to 448
// bytes (SmallMax < len(src) <= SmallAVX512Max): the key block and up to
// seven message blocks in one 8-lane ymm batch (_asm/small7.go), whatever
// the rounds of the kernel that routed there.
//
//go:noescape
func aeadSmall7AVX512(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)

// aeadSmall7IFMA is aeadSmall7AVX512 with the MAC in AVX-512 IFMA lanes
// (eight blocks per step, after the powers of r) instead of one serial chain
// on the integer units, for CPUs with IFMA (small7IFMA).
//
//go:noescape
func aeadSmall7IFMA(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) (ok int)

// small7IFMA selects aeadSmall7IFMA from small7IFMAMin bytes on: below, the
// powers of r cost what the eight-block steps save (bench/README.md, the
// AMD Zen 4 sections, where the threshold was measured). Variables for the
// tests, which run both kernels.
var (
	small7IFMA    = hasIFMA
	small7IFMAMin = 257
)

// small runs the small kernel k (SmallAVX512, SmallProldAVX512,
// SmallKeyScalarAVX512, SmallKeyFirstAVX512, SmallHandoffAVX512, SmallAVX2,
// SmallKeyScalarAVX2, SmallKeyFirstAVX2 or SmallHandoffAVX2) that takes
// len(src) bytes and the nonce.
func small(k Kernel, key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) int {
	// The one-row-set kernels (at most 64 bytes, a 12-byte nonce) first:
	// the calls whose cost the dispatch shows in.
	if OneSet(k) && len(src) <= 64 && len(nonce) == 12 {
		return one(k, key, nonce, dst, src, ad, tag, open)
	}
	switch n := len(src); {
	case k == SmallKeyScalarAVX2 && len(nonce) == 12 && n <= 64:
		return aeadSmallKeyScalarAVX2(key, nonce, dst, src, ad, tag, open)
	case k == SmallKeyFirstAVX2 && len(nonce) == 12 && n <= 64:
		return aeadSmallKeyFirstAVX2(key, nonce, dst, src, ad, tag, open)
	case k == SmallHandoffAVX2 && len(nonce) == 12 && n <= 64:
		return aeadSmallHandoffAVX2(key, nonce, dst, src, ad, tag, open)
	case smallAVX2(k) && n > 5*64:
		return aeadSmall7AVX2(key, nonce, dst, src, ad, tag, open)
	case smallAVX2(k) && n > SmallMax:
		return aeadSmall5AVX2(key, nonce, dst, src, ad, tag, open)
	case smallAVX2(k):
		return aeadSmallAVX2(key, nonce, dst, src, ad, tag, open)
	case n >= small7IFMAMin && small7IFMA:
		return aeadSmall7IFMA(key, nonce, dst, src, ad, tag, open)
	case n > SmallMax:
		return aeadSmall7AVX512(key, nonce, dst, src, ad, tag, open)
	case k == SmallKeyScalarAVX512 && len(nonce) == 12 && n <= 64:
		return aeadSmallKeyScalarAVX512(key, nonce, dst, src, ad, tag, open)
	case prold(k) && n <= 64:
		return aeadSmallProldAVX512(key, nonce, dst, src, ad, tag, open)
	case prold(k):
		return aeadSmall3ProldAVX512(key, nonce, dst, src, ad, tag, open)
	case n <= 64:
		return aeadSmallAVX512(key, nonce, dst, src, ad, tag, open)
	}
	return aeadSmall3AVX512(key, nonce, dst, src, ad, tag, open)
}

// smallAVX2 reports whether k is one of the AVX2 small kernels.
func smallAVX2(k Kernel) bool {
	return k == SmallAVX2 || k == SmallKeyScalarAVX2 || k == SmallKeyFirstAVX2 || k == SmallHandoffAVX2
}

// prold reports whether k is one of the AVX-512 small kernels whose rounds
// rotate with VPROLD.
func prold(k Kernel) bool {
	return k == SmallProldAVX512 || k == SmallKeyFirstAVX512 || k == SmallHandoffAVX512
}

// sealSmall is Seal for the small kernels.
func sealSmall(k Kernel, key *[32]byte, nonce []byte, ciphertext, plaintext, ad []byte, tag *[16]byte) {
	checkSmall(k, len(plaintext), ad)
	small(k, key, nonce, ciphertext, plaintext, ad, tag, 0)
}

// openSmall is Open for the small kernels: the tags are compared (in
// constant time) before anything is written, and on a mismatch plaintext
// is untouched.
func openSmall(k Kernel, key *[32]byte, nonce []byte, plaintext, ciphertext, ad []byte, tag *[16]byte) bool {
	checkSmall(k, len(ciphertext), ad)
	return small(k, key, nonce, plaintext, ciphertext, ad, tag, 1) == 1
}

func checkSmall(k Kernel, n int, ad []byte) {
	max := SmallAVX512Max
	if smallAVX2(k) {
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

// OneSet reports whether k is one of the one-row-set small kernels, which
// SealOne and OpenOne take for messages of at most 64 bytes with a 12-byte
// nonce.
func OneSet(k Kernel) bool {
	return prold(k) || k == SmallKeyScalarAVX512 || k == SmallAVX512
}

// SealOne is Seal for the one-row-set small kernels (SmallProldAVX512,
// SmallKeyFirstAVX512, SmallHandoffAVX512, SmallKeyScalarAVX512,
// SmallAVX512) and messages of at most 64 bytes with
// a 12-byte nonce: the route's shortest calls, with one layer between the
// caller and the kernel instead of Seal's three (bench/README.md, the 64-byte
// cells of the AMD EPYC Zen 5 sections). Other arguments panic.
func SealOne(k Kernel, key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte) {
	one(k, key, nonce, dst, src, ad, tag, 0)
}

// OpenOne is Open for the same kernels and messages: nothing is written to
// dst unless the tags are equal, and then dst is all zeros.
func OpenOne(k Kernel, key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte) bool {
	if one(k, key, nonce, dst, src, ad, tag, 1) != 1 {
		clear(dst)
		return false
	}
	return true
}

// one runs the one-row-set kernel k.
func one(k Kernel, key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte, open int) int {
	if len(src) > 64 || len(dst) != len(src) || len(nonce) != 12 || len(ad) > SmallADMax {
		panic("chacha20poly1305: internal error: wrong arguments for the one-row-set kernels")
	}
	switch k {
	case SmallProldAVX512:
		return aeadSmallProldAVX512(key, nonce, dst, src, ad, tag, open)
	case SmallKeyFirstAVX512:
		return aeadSmallKeyFirstAVX512(key, nonce, dst, src, ad, tag, open)
	case SmallHandoffAVX512:
		return aeadSmallHandoffAVX512(key, nonce, dst, src, ad, tag, open)
	case SmallKeyScalarAVX512:
		return aeadSmallKeyScalarAVX512(key, nonce, dst, src, ad, tag, open)
	}
	return aeadSmallAVX512(key, nonce, dst, src, ad, tag, open)
}
