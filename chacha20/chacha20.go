// Package chacha20 implements the ChaCha20 and XChaCha20 stream ciphers as
// specified in RFC 8439 (https://www.rfc-editor.org/rfc/rfc8439) and
// draft-irtf-cfrg-xchacha-03
// (https://datatracker.ietf.org/doc/html/draft-irtf-cfrg-xchacha-03).
//
// It is a drop-in replacement for golang.org/x/crypto/chacha20: the same
// constants, functions, methods, error texts and panics, and byte-identical
// output. The keystream comes from the fastest implementation this CPU has;
// see the module's README for the list.
package chacha20

import (
	"crypto/cipher"
	"errors"

	"github.com/chachakit/chachakit/internal/alias"
	"github.com/chachakit/chachakit/internal/chacha20core"
)

const (
	// KeySize is the size of the key used by this cipher, in bytes.
	KeySize = 32

	// NonceSize is the size of the nonce used with the standard variant of
	// this cipher, in bytes.
	//
	// Note that this is too short to be safely generated at random if the
	// same key is reused more than 2³² times.
	NonceSize = 12

	// NonceSizeX is the size of the nonce used with the XChaCha20 variant of
	// this cipher, in bytes.
	NonceSizeX = 24
)

const blockSize = chacha20core.BlockSize

// Cipher is a stateful instance of ChaCha20 or XChaCha20 using a particular
// key and nonce. A *Cipher implements the cipher.Stream interface.
type Cipher struct {
	s chacha20core.State

	// buf holds one keystream block; its last len bytes have not been used
	// yet. Only a call that ends inside a block leaves bytes here.
	buf [blockSize]byte
	len int

	// overflow is set once the block numbered 2^32-1 has been generated: no
	// more keystream exists under this nonce, and asking for it panics.
	overflow bool
}

var _ cipher.Stream = (*Cipher)(nil)

// NewUnauthenticatedCipher creates a new ChaCha20 stream cipher with the
// given 32 bytes key and a 12 or 24 bytes nonce. If a nonce of 24 bytes is
// provided, the XChaCha20 construction will be used. It returns an error if
// key or nonce have any other length.
//
// Note that ChaCha20, like all stream ciphers, is not authenticated and
// allows attackers to silently tamper with the plaintext. For this reason, it
// is more appropriate as a building block than as a standalone encryption
// mechanism. Instead, consider using package
// github.com/chachakit/chachakit/aead.
func NewUnauthenticatedCipher(key, nonce []byte) (*Cipher, error) {
	// A small wrapper, so that it inlines and the Cipher can stay on the
	// caller's stack.
	c := &Cipher{}
	return newUnauthenticatedCipher(c, key, nonce)
}

func newUnauthenticatedCipher(c *Cipher, key, nonce []byte) (*Cipher, error) {
	if len(key) != KeySize {
		return nil, errors.New("chacha20: wrong key size")
	}
	var n [NonceSize]byte
	switch len(nonce) {
	case NonceSize:
		copy(n[:], nonce)
		c.s.Init((*[KeySize]byte)(key), &n, 0)
	case NonceSizeX:
		// XChaCha20 (draft-irtf-cfrg-xchacha-03, Section 2.3): HChaCha20
		// turns the first 16 nonce bytes into a subkey; the last 8 become
		// the ChaCha20 nonce after 4 zero bytes.
		var subkey [KeySize]byte
		chacha20core.HChaCha20(&subkey, (*[KeySize]byte)(key), (*[16]byte)(nonce))
		copy(n[4:], nonce[16:])
		c.s.Init(&subkey, &n, 0)
		clear(subkey[:])
	default:
		return nil, errors.New("chacha20: wrong nonce size")
	}
	return c, nil
}

// SetCounter sets the Cipher counter. The next invocation of XORKeyStream
// will behave as if (64 * counter) bytes had been encrypted so far.
//
// To prevent accidental counter reuse, SetCounter panics if counter is less
// than the current value.
//
// Note that the execution time of XORKeyStream is not independent of the
// counter value.
func (s *Cipher) SetCounter(counter uint32) {
	// s.s.Counter is the block after the last one generated. Buffered bytes
	// belong to the block before it, which counts as output already, so the
	// current value is s.s.Counter either way; moving to it or beyond drops
	// the buffer.
	if s.overflow || counter < s.s.Counter {
		panic("chacha20: SetCounter attempted to rollback counter")
	}
	s.s.Counter = counter
	s.len = 0
}

// XORKeyStream XORs each byte in the given slice with a byte from the
// cipher's key stream. Dst and src must overlap entirely or not at all.
//
// If len(dst) < len(src), XORKeyStream will panic. It is acceptable
// to pass a dst bigger than src, and in that case, XORKeyStream will
// only update dst[:len(src)] and will not touch the rest of dst.
//
// Multiple calls to XORKeyStream behave as if the concatenation of
// the src buffers was passed in a single run. That is, Cipher
// maintains state and does not reset at each XORKeyStream call.
func (s *Cipher) XORKeyStream(dst, src []byte) {
	if len(src) == 0 {
		return
	}
	if len(dst) < len(src) {
		panic("chacha20: output smaller than input")
	}
	dst = dst[:len(src)]
	if alias.InexactOverlap(dst, src) {
		panic("chacha20: invalid buffer overlap")
	}

	// Use up the keystream left over by the previous call.
	if s.len > 0 {
		ks := s.buf[blockSize-s.len:]
		n := min(len(ks), len(src))
		for i := range n {
			dst[i] = src[i] ^ ks[i]
		}
		s.len -= n
		dst, src = dst[n:], src[n:]
		if len(src) == 0 {
			return
		}
	}

	// The counter is 32 bits (RFC 8439, Section 2.4): refuse before
	// generating anything if the message needs blocks past 2^32-1, and
	// remember when it takes exactly the last one.
	blocks := (uint64(len(src)) + blockSize - 1) / blockSize
	switch end := uint64(s.s.Counter) + blocks; {
	case s.overflow || end > 1<<32:
		panic("chacha20: counter overflow")
	case end == 1<<32:
		s.overflow = true
	}

	full := len(src) &^ (blockSize - 1)
	if full > 0 {
		chacha20core.XORBlocks(&s.s, dst[:full], src[:full])
		dst, src = dst[full:], src[full:]
	}
	if len(src) > 0 {
		chacha20core.Block(&s.s, &s.buf)
		for i := range src {
			dst[i] = src[i] ^ s.buf[i]
		}
		s.len = blockSize - len(src)
	}
}

// HChaCha20 uses the ChaCha20 core to generate a derived key from a 32 bytes
// key and a 16 bytes nonce. It returns an error if key or nonce have any
// other length. It is used as part of the XChaCha20 construction.
func HChaCha20(key, nonce []byte) ([]byte, error) {
	// A small wrapper, so that it inlines and the result can stay on the
	// caller's stack.
	out := make([]byte, 32)
	return hChaCha20(out, key, nonce)
}

func hChaCha20(out, key, nonce []byte) ([]byte, error) {
	if len(key) != KeySize {
		return nil, errors.New("chacha20: wrong HChaCha20 key size")
	}
	if len(nonce) != 16 {
		return nil, errors.New("chacha20: wrong HChaCha20 nonce size")
	}
	chacha20core.HChaCha20((*[32]byte)(out), (*[KeySize]byte)(key), (*[16]byte)(nonce))
	return out, nil
}
