package aead

import (
	"crypto/subtle"
	"encoding/binary"

	"github.com/chachakit/chachakit/internal/alias"
	"github.com/chachakit/chachakit/internal/chacha20core"
	"github.com/chachakit/chachakit/internal/poly1305"
	runtimehooks "github.com/chachakit/chachakit/runtime_hooks"
	xsubtle "github.com/chachakit/chachakit/subtle"
)

// deriveX computes the XChaCha20 subkey and the 12-byte ChaCha20 nonce for a
// 24-byte XChaCha20 nonce (draft-irtf-cfrg-xchacha-03, Section 2.3).
func deriveX(subkey *[KeySize]byte, n *[NonceSize]byte, key *[KeySize]byte, nonce []byte) {
	chacha20core.HChaCha20(subkey, key, (*[16]byte)(nonce))
	*n = [NonceSize]byte{}
	copy(n[4:], nonce[16:NonceSizeX])
}

// smallMax is the longest message whose keystream is generated in the same
// call as the Poly1305 key block: one keystream call instead of two makes
// short messages (QUIC packets' headers, TLS alerts, 64-byte messages) pay
// the per-call setup of the SIMD paths once.
const smallMax = 7 * chacha20core.BlockSize

// seal is the construction of RFC 8439, Section 2.8: block 0 of the keystream
// keys Poly1305, blocks 1 onwards encrypt the plaintext, and the tag covers the
// padded additional data, the padded ciphertext and both lengths.
func seal(key *[KeySize]byte, nonce *[NonceSize]byte, dst, plaintext, ad []byte) []byte {
	ret, out := alias.SliceForAppend(dst, len(plaintext)+Overhead)
	ciphertext, tag := out[:len(plaintext)], out[len(plaintext):]
	if alias.InexactOverlap(out, plaintext) {
		panic("chacha20poly1305: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, ad) {
		panic("chacha20poly1305: invalid buffer overlap of output and additional data")
	}

	var s chacha20core.State
	s.Init(key, nonce, 0)
	var t [Overhead]byte
	if len(plaintext) <= smallMax {
		// Block 0 and the message blocks in one call, in a buffer.
		var buf [chacha20core.BlockSize + smallMax]byte
		n := chacha20core.BlockSize + roundUp(len(plaintext))
		copy(buf[chacha20core.BlockSize:], plaintext)
		chacha20core.XORBlocks(&s, buf[:n], buf[:n])
		copy(ciphertext, buf[chacha20core.BlockSize:])
		mac(&t, (*[32]byte)(buf[:32]), ad, ciphertext)
		runtimehooks.Memclr(buf[:n])
	} else {
		var polyKey [chacha20core.BlockSize]byte
		chacha20core.Block(&s, &polyKey)
		chacha20core.XORKeyStream(&s, ciphertext, plaintext)
		mac(&t, (*[32]byte)(polyKey[:32]), ad, ciphertext)
		runtimehooks.Memclr(polyKey[:])
	}
	copy(tag, t[:])
	s.Wipe()
	return ret
}

// open verifies the tag before it decrypts anything, so a forged message
// never has its plaintext written, even in part; dst's new region is zeroed
// on failure, as x/crypto's is.
func open(key *[KeySize]byte, nonce *[NonceSize]byte, dst, ciphertext, ad []byte) ([]byte, error) {
	tag := ciphertext[len(ciphertext)-Overhead:]
	ciphertext = ciphertext[:len(ciphertext)-Overhead]

	ret, out := alias.SliceForAppend(dst, len(ciphertext))
	if alias.InexactOverlap(out, ciphertext) {
		panic("chacha20poly1305: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, ad) {
		panic("chacha20poly1305: invalid buffer overlap of output and additional data")
	}

	var s chacha20core.State
	s.Init(key, nonce, 0)
	var want [Overhead]byte
	if len(ciphertext) <= smallMax {
		// The keystream of block 0 and the message blocks in one call;
		// the message is XORed in only once the tag has been verified.
		var ks [chacha20core.BlockSize + smallMax]byte
		n := chacha20core.BlockSize + roundUp(len(ciphertext))
		chacha20core.XORBlocks(&s, ks[:n], ks[:n])
		mac(&want, (*[32]byte)(ks[:32]), ad, ciphertext)
		ok := subtle.ConstantTimeCompare(want[:], tag) == 1
		if ok {
			xorBytes(out, ciphertext, ks[chacha20core.BlockSize:])
		}
		runtimehooks.Memclr(ks[:n])
		s.Wipe()
		if !ok {
			clear(out)
			return nil, errOpen
		}
		return ret, nil
	}

	var polyKey [chacha20core.BlockSize]byte
	chacha20core.Block(&s, &polyKey)
	mac(&want, (*[32]byte)(polyKey[:32]), ad, ciphertext)
	runtimehooks.Memclr(polyKey[:])
	if subtle.ConstantTimeCompare(want[:], tag) != 1 {
		clear(out)
		s.Wipe()
		return nil, errOpen
	}

	chacha20core.XORKeyStream(&s, out, ciphertext)
	s.Wipe()
	return ret, nil
}

// roundUp rounds n up to a whole number of ChaCha20 blocks.
func roundUp(n int) int {
	return (n + chacha20core.BlockSize - 1) &^ (chacha20core.BlockSize - 1)
}

// xorBytes sets dst = x ^ ks for len(x) bytes; dst and x may be the same.
func xorBytes(dst, x, ks []byte) {
	xsubtle.XORBytes(dst[:len(x)], x, ks[:len(x)])
}

// mac computes the Poly1305 tag of RFC 8439, Section 2.8: ad, zero padding to
// 16 bytes, ciphertext, zero padding, then the two lengths as 64-bit little
// endian numbers. The MAC state wipes itself in Sum.
func mac(out *[Overhead]byte, key *[32]byte, ad, ciphertext []byte) {
	var p poly1305.MAC
	p.Init(key)
	p.WritePadded(ad)
	p.WritePadded(ciphertext)
	var lens [16]byte
	binary.LittleEndian.PutUint64(lens[0:], uint64(len(ad)))
	binary.LittleEndian.PutUint64(lens[8:], uint64(len(ciphertext)))
	p.Write(lens[:])
	p.Sum(out)
}
