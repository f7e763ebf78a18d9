//go:build (amd64 || arm64) && gc && !purego

package aeadasm

import (
	"crypto/subtle"
	"encoding/binary"

	"github.com/chachakit/chachakit/internal/chacha20core"
	"github.com/chachakit/chachakit/internal/poly1305"
	"github.com/chachakit/chachakit/internal/wipe"
)

// What the kernels of every architecture share: the argument check of Seal
// and Open, and the MAC's first and last steps, which run in Go around
// the assembly loops.

// check panics unless dst and src have one length and the nonce is
// ChaCha20's or XChaCha20's.
func check(dstLen, srcLen int, nonce []byte) {
	if dstLen != srcLen || len(nonce) != 12 && len(nonce) != 24 {
		panic("chacha20poly1305: internal error: wrong dst, src or nonce length")
	}
}

// macInit keys p with keystream block s.Counter (advancing the counter) and
// absorbs the padded additional data.
func macInit(p *poly1305.MAC, s *chacha20core.State, ad []byte) {
	var polyKey [chacha20core.BlockSize]byte
	chacha20core.Block(s, &polyKey)
	p.Init((*[32]byte)(polyKey[:32]))
	wipe.Memclr(polyKey[:])
	p.WritePadded(ad)
}

// macFinish absorbs the two lengths and writes the tag (p wipes itself).
func macFinish(out *[16]byte, p *poly1305.MAC, adLen, ctLen int) {
	var lens [16]byte
	binary.LittleEndian.PutUint64(lens[0:], uint64(adLen))
	binary.LittleEndian.PutUint64(lens[8:], uint64(ctLen))
	p.Write(lens[:])
	p.Sum(out)
}

// openFinish ends a stitched Open whose loop has MACed and decrypted
// ciphertext[:k]: it MACs the rest and the lengths, compares the tag with
// tg, and only if they are equal decrypts the rest into out[k:]: with the
// keystream ks if it is not nil (len(ciphertext) - k bytes), else from s.
func openFinish(s *chacha20core.State, p *poly1305.MAC, out, ciphertext []byte, k, adLen int, tg *[16]byte, ks []byte) bool {
	p.WritePadded(ciphertext[k:])
	var want [16]byte
	macFinish(&want, p, adLen, len(ciphertext))
	if subtle.ConstantTimeCompare(want[:], tg[:]) != 1 {
		return false
	}
	if ks != nil {
		subtle.XORBytes(out[k:], ciphertext[k:], ks)
		return true
	}
	chacha20core.XORKeyStream(s, out[k:], ciphertext[k:])
	return true
}
