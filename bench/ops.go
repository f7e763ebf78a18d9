package main

import (
	"crypto/cipher"

	"golang.org/x/crypto/chacha20"
	"golang.org/x/crypto/chacha20poly1305"

	"github.com/chachakit/chachakit/aead"
	ckchacha20 "github.com/chachakit/chachakit/chacha20"
)

// A library is one implementation of the APIs under test.
type library struct {
	name      string
	newAEAD   func(key []byte) (cipher.AEAD, error)
	newAEADX  func(key []byte) (cipher.AEAD, error)
	newStream func(key, nonce []byte) (cipher.Stream, error)
}

var (
	chachakit = library{
		name:     "chachakit",
		newAEAD:  aead.New,
		newAEADX: aead.NewX,
		newStream: func(key, nonce []byte) (cipher.Stream, error) {
			return ckchacha20.NewUnauthenticatedCipher(key, nonce)
		},
	}
	xcrypto = library{
		name:     "xcrypto",
		newAEAD:  chacha20poly1305.New,
		newAEADX: chacha20poly1305.NewX,
		newStream: func(key, nonce []byte) (cipher.Stream, error) {
			return chacha20.NewUnauthenticatedCipher(key, nonce)
		},
	}
)

// An operation is one measured call. prepare sets up buffers and keys for
// messages of size bytes and returns a function that performs the call n
// times; all allocation happens in prepare.
type operation struct {
	name    string // Seal, Open, OpenInPlace, SealX, XORKeyStream
	desc    string
	prepare func(lib library, size int) func(n int)
}

var operations = []operation{
	{"Seal", "ChaCha20-Poly1305 Seal", prepareSeal},
	{"Open", "ChaCha20-Poly1305 Open", prepareOpen},
	{"OpenInPlace", "ChaCha20-Poly1305 Open in place (WireGuard's and QUIC's call), after a copy that restores the ciphertext", prepareOpenInPlace},
	{"SealX", "XChaCha20-Poly1305 Seal", prepareSealX},
	{"XORKeyStream", "chacha20.XORKeyStream, in place", prepareXORKeyStream},
}

// sizes are the message lengths of the program's table: a small packet, a
// typical QUIC/TLS record payload, and a large buffer.
var sizes = []int{64, 1350, 16384}

// adLen is the additional data length of every AEAD call: 13 bytes, the
// TLS 1.2 record header, as in x/crypto's own benchmarks.
const adLen = 13

// Fixed inputs. The values do not matter for speed; they are not all zero
// so that nothing can take a shortcut.
func testKey() []byte   { return pattern(32, 0x80) }
func testNonce() []byte { return pattern(12, 0x40) }

func pattern(n int, start byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = start + byte(i)
	}
	return b
}

func must[T any](v T, err error) T {
	if err != nil {
		panic("bench: " + err.Error())
	}
	return v
}

func prepareSeal(lib library, size int) func(int) {
	return sealLoop(must(lib.newAEAD(testKey())), size)
}

func prepareSealX(lib library, size int) func(int) {
	return sealLoop(must(lib.newAEADX(testKey())), size)
}

func sealLoop(a cipher.AEAD, size int) func(int) {
	nonce := pattern(a.NonceSize(), 0x40)
	ad := pattern(adLen, 0x50)
	pt := pattern(size, 0)
	out := make([]byte, 0, size+a.Overhead())
	return func(n int) {
		for range n {
			out = a.Seal(out[:0], nonce, pt, ad)
		}
	}
}

func prepareOpen(lib library, size int) func(int) {
	a := must(lib.newAEAD(testKey()))
	nonce := testNonce()
	ad := pattern(adLen, 0x50)
	ct := a.Seal(nil, nonce, pattern(size, 0), ad)
	out := make([]byte, 0, size)
	return func(n int) {
		for range n {
			var err error
			out, err = a.Open(out[:0], nonce, ct, ad)
			if err != nil {
				panic("bench: Open fails on its own ciphertext: " + err.Error())
			}
		}
	}
}

// prepareOpenInPlace opens with dst = ciphertext[:0], as WireGuard and QUIC
// stacks open packets; each call first copies the ciphertext back over the
// plaintext the previous call left (the same copy for both libraries, about
// what a receive path's copy from the socket costs).
func prepareOpenInPlace(lib library, size int) func(int) {
	a := must(lib.newAEAD(testKey()))
	nonce := testNonce()
	ad := pattern(adLen, 0x50)
	ct := a.Seal(nil, nonce, pattern(size, 0), ad)
	buf := make([]byte, len(ct))
	return func(n int) {
		for range n {
			copy(buf, ct)
			if _, err := a.Open(buf[:0], nonce, buf, ad); err != nil {
				panic("bench: Open in place fails on its own ciphertext: " + err.Error())
			}
		}
	}
}

// maxStreamBytes bounds the keystream one cipher produces before the loop
// makes a new one (outside the inner loop), far below the 2^38-byte limit of
// a 32-bit block counter. It is a variable so that a test can lower it.
var maxStreamBytes = 1 << 30

func prepareXORKeyStream(lib library, size int) func(int) {
	key, nonce := testKey(), testNonce()
	newStream := func() cipher.Stream { return must(lib.newStream(key, nonce)) }
	return streamLoop(newStream, pattern(size, 0))
}

// streamLoop XORs buf in place with the keystream, taking a new stream from
// newStream every maxStreamBytes bytes.
func streamLoop(newStream func() cipher.Stream, buf []byte) func(int) {
	size := len(buf)
	var s cipher.Stream
	left := 0 // bytes s may still produce
	return func(n int) {
		for n > 0 {
			if left < size {
				s = newStream()
				left = maxStreamBytes
			}
			k := min(n, left/size)
			for range k {
				s.XORKeyStream(buf, buf)
			}
			n -= k
			left -= k * size
		}
	}
}
