//go:build gc && !purego

package aeadasm

import (
	"github.com/chachakit/chachakit/internal/chacha20core"
	"github.com/chachakit/chachakit/internal/impl"
	"github.com/chachakit/chachakit/internal/poly1305"
	"golang.org/x/sys/cpu"
)

//go:generate go run -C ../../_asm . -gen small -out ../internal/aeadasm/small_amd64.s -pkg aeadasm
//go:generate go run -C ../../_asm . -gen midavx2 -out ../internal/aeadasm/mid_avx2_amd64.s -pkg aeadasm
//go:generate go run -C ../../_asm . -gen stitched -out ../internal/aeadasm/stitched_amd64.s -pkg aeadasm

// The registry toggles of the kernels, one per keystream instruction set:
// aead/AVX512Stitched (the AVX-512 families, and the AVX2 small kernel on
// CPUs without AVX-512BW) and aead/AVX2Stitched (the AVX2 families, for
// CPUs without AVX-512). Every kernel multiplies with MULX (BMI2); the
// AVX-512 ones use AVX-512VL and AVX2 instructions too, as the AVX512
// keystream path does.
var (
	useAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL && cpu.X86.HasAVX2 && cpu.X86.HasBMI2
	useAVX2   = cpu.X86.HasAVX2 && cpu.X86.HasBMI2
)

// What some kernels need beyond their toggle: AVX-512BW for the masked
// byte loads and stores of partial blocks, and AVX-512 IFMA for the
// Poly1305 lanes of the stitched IFMA loop and of the batch kernel.
var (
	hasBW   = cpu.X86.HasAVX512BW
	hasIFMA = cpu.X86.HasAVX512IFMA
)

func init() {
	impl.Register("aead", "AVX512Stitched", &useAVX512)
	impl.Register("aead", "AVX2Stitched", &useAVX2)
}

// Available reports the kernels that can run now. Because the kernels have
// their own ChaCha20 and Poly1305 code, none runs while another ChaCha20 or
// Poly1305 path has been forced through the registry, so that the forced
// path is the one tested.
func Available() Set {
	if !chacha20core.DefaultPath() || !poly1305.DefaultPath() {
		return 0
	}
	var s Set
	if useAVX512 {
		s |= 1 << StitchedAVX512
		if hasBW {
			s |= 1 << SmallAVX512
			if hasIFMA {
				s |= 1 << LanesAVX512
			}
		}
	}
	if useAVX2 {
		s |= 1 << MidAVX2
	}
	if useAVX512 || useAVX2 {
		s |= 1<<SmallAVX2 | 1<<OpenFirstAVX2
	}
	return s
}

// SmallOn reports whether the AVX-512 small kernels can run now:
// Available().Has(SmallAVX512) without the rest of the set, for the route's
// first question (the short messages, whose cost it shows in).
func SmallOn() bool {
	return useAVX512 && hasBW && chacha20core.DefaultPath() && poly1305.DefaultPath()
}

// Seal is the ChaCha20-Poly1305 Seal of RFC 8439, Section 2.8, by kernel k
// (which must be in Available and take len(src) and len(ad)): block 0 of
// key and nonce (12 bytes, or 24 for XChaCha20-Poly1305,
// draft-irtf-cfrg-xchacha-03) keys Poly1305, the blocks after it encrypt
// src into dst (len(dst) == len(src), exact or no overlap), and tag gets
// the MAC of the padded ad, the padded ciphertext and both lengths. ad
// overlaps neither dst nor tag.
func Seal(k Kernel, key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte) {
	check(len(dst), len(src), nonce)
	if isSmall(k) {
		checkSmall(k, len(src), ad)
		small(k, key, nonce, dst, src, ad, tag, 0)
		return
	}
	sealLong(k, key, nonce, dst, src, ad, tag)
}

// isSmall reports whether k is one of the small kernels, which start from
// key and nonce themselves.
func isSmall(k Kernel) bool { return k == SmallAVX512 || k == SmallAVX2 }

// sealLong is Seal for the kernels that take a State: a function of its
// own, so that the small kernels' calls (the short messages, whose cost
// the layers around them show in) need no frame for it.
func sealLong(k Kernel, key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte) {
	var s chacha20core.State
	s.InitFrom(key[:], nonce)
	switch k {
	case MidAVX2:
		sealMidAVX2(&s, dst, src, ad, tag)
	case StitchedAVX512:
		sealStitched(k, &s, dst, src, ad, tag)
	default:
		panic("chacha20poly1305: internal error: unknown AEAD kernel")
	}
	s.Wipe()
}

// Open is the matching Open: it reports whether tag is the tag of
// ciphertext src and ad, and if it is, dst (len(dst) == len(src), exact or
// no overlap; it may start where tag does) holds the plaintext. If it is
// not, dst is all zeros. The small kernels write nothing before the tags
// compare equal; the others decrypt all or part of the message in the pass
// that MACs it.
func Open(k Kernel, key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte) bool {
	check(len(dst), len(src), nonce)
	if isSmall(k) {
		checkSmall(k, len(src), ad)
		if small(k, key, nonce, dst, src, ad, tag, 1) != 1 {
			clear(dst)
			return false
		}
		return true
	}
	return openLong(k, key, nonce, dst, src, ad, tag)
}

// openLong is Open for the other kernels (see sealLong).
func openLong(k Kernel, key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte) bool {
	if k == OpenFirstAVX2 {
		// Nothing written unless the tags are equal; dst zeroed if not.
		if !openFirst(key, nonce, dst, src, ad, tag) {
			clear(dst)
			return false
		}
		return true
	}
	var s chacha20core.State
	s.InitFrom(key[:], nonce)
	var ok bool
	switch k {
	case MidAVX2:
		ok = openMidAVX2(&s, dst, src, ad, tag)
	case StitchedAVX512:
		ok = openStitched(k, &s, dst, src, ad, tag)
	default:
		panic("chacha20poly1305: internal error: unknown AEAD kernel")
	}
	s.Wipe()
	if !ok {
		clear(dst)
	}
	return ok
}
