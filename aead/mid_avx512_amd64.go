//go:build gc && !purego

package aead

import (
	"crypto/subtle"
	"encoding/binary"

	"github.com/chachakit/chachakit/internal/chacha20core"
	"github.com/chachakit/chachakit/internal/poly1305"
	runtimehooks "github.com/chachakit/chachakit/runtime_hooks"
)

// midAVX512MaxAD is the longest additional data the mid-size AVX-512 path
// takes: the kernel absorbs it one block at a time on the integer units,
// which is hidden behind the vector code only for a few blocks.
const midAVX512MaxAD = 512

// midAVX512Fits reports whether the mid-size AVX-512 kernel takes an n-byte
// message with this additional data (sealMid and openMid have checked the
// registry and the default paths).
func midAVX512Fits(n int, ad []byte) bool {
	return n >= chacha20core.MidAVX512Min && n <= chacha20core.MidAVX512Max && len(ad) <= midAVX512MaxAD
}

// sealMidAVX512 is seal for the mid-size AVX-512 kernel
// (chacha20core.MidAVX512): the key block and the whole message in two
// batches written straight to ciphertext, the additional data and the first
// 1024 bytes of ciphertext MACed in the kernel's second batch; the rest of
// the ciphertext and the lengths after it.
func sealMidAVX512(t *[Overhead]byte, s *chacha20core.State, ciphertext, plaintext, ad []byte) bool {
	if !midAVX512Fits(len(plaintext), ad) {
		return false
	}
	var key [chacha20core.BlockSize]byte
	var h [3]uint64
	chacha20core.MidAVX512(s, &key, ciphertext, plaintext, ad, false, &h)
	macMid(t, &key, &h, ciphertext, len(ad))
	return true
}

// openMidAVX512 is open for the same kernel, when out does not overlap the
// ciphertext (the kernel writes the first 1024 bytes of plaintext before it
// MACs that ciphertext): the whole message is decrypted in the same pass
// that authenticates it, and out is zeroed if the tag does not verify, as
// openStitched does.
func openMidAVX512(s *chacha20core.State, ret, out, ciphertext, ad, tag []byte) ([]byte, error, bool) {
	if !midAVX512Fits(len(ciphertext), ad) || &out[0] == &ciphertext[0] {
		return nil, nil, false
	}
	// out may start where the tag does.
	var tg [Overhead]byte
	copy(tg[:], tag)
	var key [chacha20core.BlockSize]byte
	var h [3]uint64
	chacha20core.MidAVX512(s, &key, out, ciphertext, ad, true, &h)
	s.Wipe()
	var want [Overhead]byte
	macMid(&want, &key, &h, ciphertext, len(ad))
	if subtle.ConstantTimeCompare(want[:], tg[:]) != 1 {
		clear(out)
		return nil, errOpen, true
	}
	return ret, nil, true
}

// macMid finishes the kernel's MAC: the accumulator h after the additional
// data and the first MidAVX512MACLen bytes of ciphertext, then the rest of
// the ciphertext (under 128 bytes), zero-padded, and the lengths, copied
// into one buffer so that they take one call of the block function. It
// wipes key and h.
func macMid(t *[Overhead]byte, key *[chacha20core.BlockSize]byte, h *[3]uint64, ciphertext []byte, adLen int) {
	var p poly1305.MAC
	p.Init((*[32]byte)(key[:32]))
	runtimehooks.Memclr(key[:])
	hp, _ := p.Accumulator()
	*hp = *h
	*h = [3]uint64{}
	var last [128 + 16]byte
	rest := ciphertext[chacha20core.MidAVX512MACLen(len(ciphertext)):]
	copy(last[:], rest)
	k := (len(rest) + 15) &^ 15
	binary.LittleEndian.PutUint64(last[k:], uint64(adLen))
	binary.LittleEndian.PutUint64(last[k+8:], uint64(len(ciphertext)))
	p.Write(last[:k+16])
	p.Sum(t)
}
