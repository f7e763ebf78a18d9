// Package aead implements the ChaCha20-Poly1305 AEAD and its extended-nonce
// variant XChaCha20-Poly1305, as specified in RFC 8439, Section 2.8
// (https://www.rfc-editor.org/rfc/rfc8439#section-2.8) and
// draft-irtf-cfrg-xchacha-03
// (https://datatracker.ietf.org/doc/html/draft-irtf-cfrg-xchacha-03).
//
// It is a drop-in replacement for golang.org/x/crypto/chacha20poly1305:
//
//	import chacha20poly1305 "github.com/chachakit/chachakit/aead"
//
// keeps every signature, constant, error value text and panic text, and gives
// byte-identical results. Like x/crypto it refuses to run in FIPS 140-only
// mode, returns a zeroed dst region after a failed Open, and allocates nothing
// per Seal or Open when dst has the capacity.
//
// Open verifies the tag before it writes any plaintext, except in the
// kernels that decrypt in the pass that authenticates, as x/crypto's
// amd64 assembly does at every length: on amd64 CPUs with AVX2 and BMI2
// (registered as aead/AVX512Stitched and aead/AVX2Stitched) the mid-size
// and stitched kernels of internal/aeadasm, for the lengths the route table
// in route_amd64.go gives them, and on arm64 the stitched loop
// (aead/NEONStitched, or aead/SVE2Stitched with SVE2's rotations) for the
// whole 384-byte batches of ciphertexts longer than 448 bytes
// (route_arm64.go). They zero the plaintext they wrote
// before Open returns a forged message's error, so no plaintext of a forged
// message is left in dst. On amd64, messages of up to 192 bytes (448 on
// AMD Zen 1, 384 on AMD Zen 4) take a kernel that compares the tag before
// it writes anything.
package aead

import (
	"crypto/cipher"
	"crypto/fips140"
	"errors"

	"github.com/chachakit/chachakit/internal/wipe"
)

const (
	// KeySize is the size of the key used by this AEAD, in bytes.
	KeySize = 32

	// NonceSize is the size of the nonce used with the standard variant of
	// this AEAD, in bytes.
	//
	// Note that this is too short to be safely generated at random if the
	// same key is reused more than 2³² times.
	NonceSize = 12

	// NonceSizeX is the size of the nonce used with the XChaCha20-Poly1305
	// variant of this AEAD, in bytes.
	NonceSizeX = 24

	// Overhead is the size of the Poly1305 authentication tag, and the
	// difference between a ciphertext length and its plaintext.
	Overhead = 16
)

// The largest plaintext and ciphertext: the 32-bit block counter starts at 1
// for the message, leaving 2^32-1 blocks of 64 bytes (RFC 8439, Section 2.8).
// The bounds are x/crypto's, which keep one more block in reserve.
const (
	maxPlaintext  = 1<<38 - 64
	maxCiphertext = 1<<38 - 48
)

var (
	errFIPS   = errors.New("chacha20poly1305: use of ChaCha20Poly1305 is not allowed in FIPS 140-only mode")
	errKeyLen = errors.New("chacha20poly1305: bad key length")
	errOpen   = errors.New("chacha20poly1305: message authentication failed")
)

// Wiper is implemented by the AEADs that New and NewX return. Wipe zeroes
// the key in a way the compiler cannot remove; any later Seal or Open
// panics. Wipe must not run concurrently with Seal or Open.
//
// New and NewX keep x/crypto's signature, returning a cipher.AEAD, so reach
// the method with a type assertion:
//
//	a, err := aead.New(key)
//	...
//	defer a.(aead.Wiper).Wipe()
//
// Wipe is the wipe an AEAD's key gets. An AEAD is one allocation holding
// its key, as in x/crypto, and nothing wipes it at garbage collection: a
// cleanup per AEAD, or one per group of AEADs, costs more than x/crypto's
// whole New (bench/README.md has the numbers), and chachakit does not make
// a caller who never calls Wipe pay for it. Built with
// GOEXPERIMENT=runtimesecret on linux/amd64 or linux/arm64, New and NewX
// allocate the AEAD inside runtime/secret.Do, and the runtime erases it
// once it is unreachable. Seal and Open clear their per-message secrets
// (the Poly1305 key, keystream blocks, the XChaCha20 subkey) before they
// return. See package runtimehooks for what a wipe cannot reach.
type Wiper interface {
	Wipe()
}

// key is an AEAD's key, held in the AEAD itself as in x/crypto, so that
// New costs what x/crypto's does: one allocation. New and NewX allocate it
// inside wipe.Do, so that in a build with runtime/secret the runtime
// erases it once it is unreachable.
type key struct {
	k     [KeySize]byte
	wiped bool
}

// get returns the key, panicking after Wipe.
func (k *key) get() *[KeySize]byte {
	if k.wiped {
		panic("chacha20poly1305: use of an AEAD after Wipe")
	}
	return &k.k
}

func (k *key) Wipe() {
	wipe.Memclr(k.k[:])
	k.wiped = true
}

type chacha20poly1305 struct{ key }

type xchacha20poly1305 struct{ key }

// New returns a ChaCha20-Poly1305 AEAD that uses the given 256-bit key.
func New(key []byte) (cipher.AEAD, error) {
	if fips140.Enforced() {
		return nil, errFIPS
	}
	if len(key) != KeySize {
		return nil, errKeyLen
	}
	var c *chacha20poly1305
	wipe.Do(func() {
		c = new(chacha20poly1305)
		copy(c.k[:], key)
	})
	return c, nil
}

// NewX returns a XChaCha20-Poly1305 AEAD that uses the given 256-bit key.
//
// XChaCha20-Poly1305 is a ChaCha20-Poly1305 variant that takes a longer
// nonce, suitable to be generated randomly without risk of collisions. It
// should be preferred when nonce uniqueness cannot be trivially ensured, or
// whenever nonces are randomly generated.
func NewX(key []byte) (cipher.AEAD, error) {
	if fips140.Enforced() {
		return nil, errFIPS
	}
	if len(key) != KeySize {
		return nil, errKeyLen
	}
	var x *xchacha20poly1305
	wipe.Do(func() {
		x = new(xchacha20poly1305)
		copy(x.k[:], key)
	})
	return x, nil
}

func (*chacha20poly1305) NonceSize() int  { return NonceSize }
func (*chacha20poly1305) Overhead() int   { return Overhead }
func (*xchacha20poly1305) NonceSize() int { return NonceSizeX }
func (*xchacha20poly1305) Overhead() int  { return Overhead }

func (c *chacha20poly1305) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	if len(nonce) != NonceSize {
		panic("chacha20poly1305: bad nonce length passed to Seal")
	}
	if uint64(len(plaintext)) > maxPlaintext {
		panic("chacha20poly1305: plaintext too large")
	}
	return seal(c.get(), nonce, dst, plaintext, additionalData, -1)
}

func (c *chacha20poly1305) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	if len(nonce) != NonceSize {
		panic("chacha20poly1305: bad nonce length passed to Open")
	}
	if len(ciphertext) < Overhead {
		return nil, errOpen
	}
	if uint64(len(ciphertext)) > maxCiphertext {
		panic("chacha20poly1305: ciphertext too large")
	}
	return open(c.get(), nonce, dst, ciphertext, additionalData, -1)
}

func (x *xchacha20poly1305) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	if len(nonce) != NonceSizeX {
		panic("chacha20poly1305: bad nonce length passed to Seal")
	}
	// XChaCha20 has a 64-bit counter in principle, but the construction
	// reuses ChaCha20-Poly1305 and inherits its limit, as x/crypto does.
	if uint64(len(plaintext)) > maxPlaintext {
		panic("chacha20poly1305: plaintext too large")
	}
	if len(plaintext) <= subkeyFirstMax {
		var sk subkey
		defer sk.wipe()
		key, nonce := sk.derive(x.get(), nonce)
		return seal(key, nonce, dst, plaintext, additionalData, -1)
	}
	return seal(x.get(), nonce, dst, plaintext, additionalData, -1)
}

func (x *xchacha20poly1305) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	if len(nonce) != NonceSizeX {
		panic("chacha20poly1305: bad nonce length passed to Open")
	}
	if len(ciphertext) < Overhead {
		return nil, errOpen
	}
	if uint64(len(ciphertext)) > maxCiphertext {
		panic("chacha20poly1305: ciphertext too large")
	}
	if len(ciphertext)-Overhead <= subkeyFirstMax {
		var sk subkey
		defer sk.wipe()
		key, nonce := sk.derive(x.get(), nonce)
		return open(key, nonce, dst, ciphertext, additionalData, -1)
	}
	return open(x.get(), nonce, dst, ciphertext, additionalData, -1)
}
