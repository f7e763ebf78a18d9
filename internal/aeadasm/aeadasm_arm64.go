//go:build gc && !purego

package aeadasm

import (
	"github.com/chachakit/chachakit/internal/chacha20core"
	"github.com/chachakit/chachakit/internal/cpuid"
	"github.com/chachakit/chachakit/internal/impl"
	"github.com/chachakit/chachakit/internal/poly1305"
	"golang.org/x/sys/cpu"
)

// The registry toggles of the arm64 kernels. aead/NEONStitched can run on
// every CPU with ASIMD, aead/SVE2Stitched on those with SVE2 (Linux's
// HWCAP2_SVE2). By default SVE2Stitched runs on the cores whose MIDR_EL1
// internal/cpuid sends to it (cpuid.LoopStitchedSVE2: Neoverse N2 and V2)
// when they have SVE2, and NEONStitched on the other cores it sends to a
// stitched loop (all but the in-order Cortex-A53 and A55, see
// cpuid.AEADLoopFor). Elsewhere the tests force them.
var (
	hasNEON         = cpu.ARM64.HasASIMD
	hasSVE2         = hasNEON && cpu.ARM64.HasSVE2
	loopHere        = cpuid.AEADLoopHere()
	useSVE2Stitched = hasSVE2 && loopHere == cpuid.LoopStitchedSVE2
	useNEONStitched = hasNEON && !useSVE2Stitched &&
		(loopHere == cpuid.LoopStitched || loopHere == cpuid.LoopStitchedSVE2)
)

func init() {
	impl.RegisterAvailable("aead", "NEONStitched", &useNEONStitched, hasNEON)
	impl.RegisterAvailable("aead", "SVE2Stitched", &useSVE2Stitched, hasSVE2)
}

// Available reports the kernels that can run now: NEONStitched and
// SVE2Stitched when their toggles are on, unless another ChaCha20 or
// Poly1305 path has been forced through the registry (the kernels have
// their own code for both, and a forced path must be the one tested).
func Available() Set {
	if !chacha20core.DefaultPath() || !poly1305.DefaultPath() {
		return 0
	}
	var s Set
	if useNEONStitched {
		s |= 1 << NEONStitched
	}
	if useSVE2Stitched {
		s |= 1 << SVE2Stitched
	}
	return s
}

// Seal is the ChaCha20-Poly1305 Seal of RFC 8439, Section 2.8, by kernel k
// (which must be in Available and take len(src)): block 0 of key and nonce
// (12 bytes, or 24 for XChaCha20-Poly1305, draft-irtf-cfrg-xchacha-03)
// keys Poly1305, the blocks after it encrypt src into dst (len(dst) ==
// len(src), exact or no overlap), and tag gets the MAC of the padded ad,
// the padded ciphertext and both lengths. ad overlaps neither dst nor tag.
func Seal(k Kernel, key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte) {
	check(len(dst), len(src), nonce)
	if k != NEONStitched && k != SVE2Stitched {
		panic("chacha20poly1305: internal error: unknown AEAD kernel")
	}
	var s chacha20core.State
	s.InitFrom(key[:], nonce)
	sealNEON(&s, k == SVE2Stitched, dst, src, ad, tag)
	s.Wipe()
}

// Open is the matching Open: it reports whether tag is the tag of
// ciphertext src and ad, and if it is, dst (len(dst) == len(src), exact or
// no overlap; it may start where tag does) holds the plaintext. If it is
// not, dst is all zeros: the kernel decrypts its whole batches in the pass
// that MACs them, and the rest only after the tags compare equal.
func Open(k Kernel, key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte) bool {
	check(len(dst), len(src), nonce)
	if k != NEONStitched && k != SVE2Stitched {
		panic("chacha20poly1305: internal error: unknown AEAD kernel")
	}
	var s chacha20core.State
	s.InitFrom(key[:], nonce)
	ok := openNEON(&s, k == SVE2Stitched, dst, src, ad, tag)
	s.Wipe()
	if !ok {
		clear(dst)
	}
	return ok
}

// OneSet reports false: the one-row-set kernels are amd64's.
func OneSet(k Kernel) bool { return false }

// SealOne is never called here (OneSet).
func SealOne(k Kernel, key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte) {
	panic("chacha20poly1305: internal error: no one-row-set kernel on arm64")
}

// OpenOne is never called here (OneSet).
func OpenOne(k Kernel, key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte) bool {
	panic("chacha20poly1305: internal error: no one-row-set kernel here")
}
