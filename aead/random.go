package aead

import (
	"crypto/cipher"
	"crypto/rand"

	"github.com/chachakit/chachakit/internal/alias"
)

// NewXWithRandomNonce returns an XChaCha20-Poly1305 AEAD that uses the given
// 256-bit key and draws its nonces itself, as crypto/cipher's
// NewGCMWithRandomNonce does for AES-GCM: Seal takes a random 24-byte nonce
// from crypto/rand and prepends it to the ciphertext, and Open takes it from
// there. Its NonceSize is 0 (Seal and Open panic if passed a non-empty
// nonce) and its Overhead is 40 bytes, the nonce and the tag.
//
// A 24-byte random nonce makes a collision negligible however many messages
// a key seals, which is why XChaCha20 is the variant to use with random
// nonces. golang.org/x/crypto/chacha20poly1305 has no such constructor; the
// message format is that of NewX with the nonce in front, so
//
//	x.Open(nil, ct[:NonceSizeX], ct[NonceSizeX:], ad)
//
// opens what this AEAD seals, with x from NewX (or x/crypto's NewX) and the
// same key. The AEAD implements [Wiper].
func NewXWithRandomNonce(key []byte) (cipher.AEAD, error) {
	x, err := NewX(key)
	if err != nil {
		return nil, err
	}
	return &randomNonce{x.(interface{ ref() keyRef }).ref()}, nil
}

type randomNonce struct {
	k keyRef // NewX's AEAD's
}

// randomOverhead is what Seal adds to a plaintext: the nonce and the tag.
const randomOverhead = NonceSizeX + Overhead

func (*randomNonce) NonceSize() int { return 0 }
func (*randomNonce) Overhead() int  { return randomOverhead }
func (r *randomNonce) Wipe()        { r.k.wipe() }

func (r *randomNonce) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	if len(nonce) != 0 {
		panic("chacha20poly1305: non-empty nonce passed to an AEAD with random nonces")
	}
	if uint64(len(plaintext)) > maxPlaintext {
		panic("chacha20poly1305: plaintext too large")
	}
	ret, out := alias.SliceForAppend(dst, len(plaintext)+randomOverhead)
	if alias.InexactOverlap(out, plaintext) {
		panic("chacha20poly1305: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, additionalData) {
		panic("chacha20poly1305: invalid buffer overlap of output and additional data")
	}
	key := r.k.get()
	// Sealing in place (dst = plaintext[:0]) puts the ciphertext one
	// nonce further on than the plaintext: move the plaintext there first,
	// as crypto/cipher's GCM with random nonces does.
	if alias.AnyOverlap(out, plaintext) {
		copy(out[NonceSizeX:], plaintext)
		plaintext = out[NonceSizeX : NonceSizeX+len(plaintext)]
	}
	rand.Read(out[:NonceSizeX])
	seal(key, out[:NonceSizeX], out[NonceSizeX:NonceSizeX], plaintext, additionalData, -1)
	return ret
}

func (r *randomNonce) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	if len(nonce) != 0 {
		panic("chacha20poly1305: non-empty nonce passed to an AEAD with random nonces")
	}
	if len(ciphertext) < randomOverhead {
		return nil, errOpen
	}
	if uint64(len(ciphertext)) > maxCiphertext+NonceSizeX {
		panic("chacha20poly1305: ciphertext too large")
	}
	ret, out := alias.SliceForAppend(dst, len(ciphertext)-randomOverhead)
	if alias.InexactOverlap(out, ciphertext) {
		panic("chacha20poly1305: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, additionalData) {
		panic("chacha20poly1305: invalid buffer overlap of output and additional data")
	}
	key := r.k.get()
	n := ciphertext[:NonceSizeX]
	ciphertext = ciphertext[NonceSizeX:]
	// Opening in place (dst = ciphertext[:0]) puts the plaintext one nonce
	// before the ciphertext: keep the nonce, and move the ciphertext to the
	// start of out, which has the room since it is ciphertext's buffer.
	var saved [NonceSizeX]byte
	if alias.AnyOverlap(out, n) {
		copy(saved[:], n)
		n = saved[:]
		moved := out[:len(ciphertext)]
		copy(moved, ciphertext)
		ciphertext = moved
	}
	if _, err := open(key, n, out[:0], ciphertext, additionalData, -1); err != nil {
		return nil, err
	}
	return ret, nil
}
