// Package prog is a program written against golang.org/x/crypto's
// chacha20poly1305 and chacha20 APIs, as test code so that no package of
// the module imports it. The copies in ../chachakit and ../xcrypto differ
// only in their import paths (TestDropIn in ../ checks it), and each one's
// TestTranscript compares its output with ../testdata/transcript.txt.
package prog

import (
	"crypto/cipher"
	"fmt"

	"github.com/chachakit/chachakit/aead"

	"github.com/chachakit/chachakit/chacha20"
)

// Run exercises the whole API and returns a transcript of everything it saw:
// outputs, errors and panics.
func Run() []byte {
	var out []byte
	log := func(format string, args ...any) { out = fmt.Appendf(out, format+"\n", args...) }
	catch := func(name string, f func()) {
		defer func() {
			if r := recover(); r != nil {
				log("%s: panic: %v", name, r)
			}
		}()
		f()
	}

	log("sizes %d %d %d %d %d %d %d", aead.KeySize, aead.NonceSize, aead.NonceSizeX, aead.Overhead,
		chacha20.KeySize, chacha20.NonceSize, chacha20.NonceSizeX)

	key := make([]byte, aead.KeySize)
	for i := range key {
		key[i] = byte(i * 7)
	}
	var constructors = []func([]byte) (cipher.AEAD, error){aead.New, aead.NewX}
	for _, newAEAD := range constructors {
		_, err := newAEAD(key[:31])
		log("short key: %v", err)
		a, err := newAEAD(key)
		if err != nil {
			log("error: %v", err)
			continue
		}
		nonce := make([]byte, a.NonceSize())
		for _, n := range []int{0, 1, 64, 100, 1000} {
			msg := make([]byte, n)
			for i := range msg {
				msg[i] = byte(i)
			}
			ct := a.Seal([]byte("hdr"), nonce, msg, []byte("ad"))
			log("seal %d: %x", n, ct)
			pt, err := a.Open(nil, nonce, ct[3:], []byte("ad"))
			log("open %d: %x %v", n, pt, err)
			ct[len(ct)-1] ^= 1
			pt, err = a.Open(nil, nonce, ct[3:], []byte("ad"))
			log("tampered %d: %x %v", n, pt, err)
		}
		pt, err := a.Open(nil, nonce, make([]byte, 15), nil)
		log("short ciphertext: %x %v", pt, err)
		catch("bad nonce Seal", func() { a.Seal(nil, nonce[1:], nil, nil) })
		catch("bad nonce Open", func() { a.Open(nil, nonce[1:], nil, nil) })
		buf := make([]byte, 100)
		catch("overlap", func() { a.Seal(buf[1:1], nonce, buf[:50], nil) })
	}

	for _, nonceSize := range []int{chacha20.NonceSize, chacha20.NonceSizeX, 16} {
		c, err := chacha20.NewUnauthenticatedCipher(key, make([]byte, nonceSize))
		if err != nil {
			log("nonce %d: %v", nonceSize, err)
			continue
		}
		buf := make([]byte, 300)
		c.XORKeyStream(buf[:10], buf[:10])
		c.XORKeyStream(buf[10:200], buf[10:200])
		c.SetCounter(9)
		c.XORKeyStream(buf[200:], buf[200:])
		log("stream %d: %x", nonceSize, buf)
		catch("rollback", func() { c.SetCounter(1) })
		catch("short dst", func() { c.XORKeyStream(buf[:1], buf[:2]) })
		catch("overlap", func() { c.XORKeyStream(buf[1:10], buf[:9]) })
		c.SetCounter(1<<32 - 1)
		c.XORKeyStream(buf[:64], buf[:64])
		catch("overflow", func() { c.XORKeyStream(buf[:1], buf[:1]) })
	}
	h, err := chacha20.HChaCha20(key, make([]byte, 16))
	log("hchacha20: %x %v", h, err)
	_, err = chacha20.HChaCha20(key, make([]byte, 12))
	log("hchacha20 short nonce: %v", err)
	var s cipher.Stream = &chacha20.Cipher{}
	_ = s
	return out
}
