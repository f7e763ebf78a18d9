package aead

import (
	"crypto/subtle"

	"github.com/chachakit/chachakit/internal/aeadasm"
	"github.com/chachakit/chachakit/internal/alias"
	"github.com/chachakit/chachakit/internal/align"
	"github.com/chachakit/chachakit/internal/chacha20core"
	"github.com/chachakit/chachakit/internal/poly1305"
	"github.com/chachakit/chachakit/internal/wipe"
	"github.com/chachakit/chachakit/internal/xorbytes"
)

// shortMax is the longest message whose keystream is generated in the same
// engine call as the Poly1305 key block: one keystream call instead of two
// makes short messages (QUIC packets' headers, TLS alerts, 64-byte
// messages) pay the per-call setup of the SIMD paths once.
const shortMax = 7 * chacha20core.BlockSize

// seal is the construction of RFC 8439, Section 2.8: block 0 of the keystream
// keys Poly1305, blocks 1 onwards encrypt the plaintext, and the tag covers the
// padded additional data, the padded ciphertext and both lengths. A 24-byte
// nonce is XChaCha20's (draft-irtf-cfrg-xchacha-03, Section 2.3: the key
// becomes HChaCha20's subkey, State.InitFrom). On amd64 the route table
// (pick) may hand the whole message to an assembly kernel instead.
//
// at is the message's index in a batch, which a panic names, or -1.
func seal(key *[KeySize]byte, nonce []byte, dst, plaintext, ad []byte, at int) []byte {
	ret, out := alias.SliceForAppend(dst, len(plaintext)+Overhead)
	ciphertext, tag := out[:len(plaintext)], out[len(plaintext):]
	if alias.InexactOverlap(out, plaintext) {
		panicAt("chacha20poly1305: invalid buffer overlap of output and input", at)
	}
	if alias.AnyOverlap(out, ad) {
		panicAt("chacha20poly1305: invalid buffer overlap of output and additional data", at)
	}

	if k := pick(len(plaintext), len(ad), false); k != aeadasm.None {
		if aeadasm.OneSet(k) && len(plaintext) <= 64 && len(nonce) == NonceSize {
			aeadasm.SealOne(k, key, nonce, ciphertext, plaintext, ad, (*[Overhead]byte)(tag))
			return ret
		}
		aeadasm.Seal(k, key, nonce, ciphertext, plaintext, ad, (*[Overhead]byte)(tag))
		return ret
	}
	sealPasses(key, nonce, ciphertext, plaintext, ad, tag)
	return ret
}

// sealPasses is seal without a kernel: the keystream and the MAC in
// separate passes. A function of its own, so that seal's frame does not
// hold its buffers (832 bytes) for the kernels' calls.
func sealPasses(key *[KeySize]byte, nonce []byte, ciphertext, plaintext, ad, tag []byte) {
	var s chacha20core.State
	s.InitFrom(key[:], nonce)
	var t align.Buffer[[Overhead]byte]
	if len(plaintext) <= shortMax {
		// Block 0 and the message blocks in one call, in a buffer.
		var b align.Buffer[[chacha20core.BlockSize + shortMax]byte]
		buf := &b.V
		n := chacha20core.BlockSize + roundUp(len(plaintext))
		copy(buf[chacha20core.BlockSize:], plaintext)
		chacha20core.XORBlocks(&s, buf[:n], buf[:n])
		copy(ciphertext, buf[chacha20core.BlockSize:])
		poly1305.SumAEAD(&t.V, (*[32]byte)(buf[:32]), ad, ciphertext)
		wipe.Memclr(buf[:n])
	} else {
		// Block 0 shares a call with the first 16 message blocks.
		var k align.Buffer[[chacha20core.BlockSize]byte]
		polyKey := &k.V
		chacha20core.KeyAndXOR(&s, polyKey, ciphertext, plaintext)
		poly1305.SumAEAD(&t.V, (*[32]byte)(polyKey[:32]), ad, ciphertext)
		wipe.Memclr(polyKey[:])
	}
	copy(tag, t.V[:])
	s.Wipe()
}

// open verifies the tag before it decrypts anything, so a forged message
// never has its plaintext written, even in part, except in the amd64 and
// arm64 kernels that decrypt in the pass that MACs (the package documentation
// says which), which zero what they wrote if the tag does not verify.
// Either way dst's new region is all zeros on failure, as x/crypto's is.
func open(key *[KeySize]byte, nonce []byte, dst, ciphertext, ad []byte, at int) ([]byte, error) {
	tag := ciphertext[len(ciphertext)-Overhead:]
	ciphertext = ciphertext[:len(ciphertext)-Overhead]

	ret, out := alias.SliceForAppend(dst, len(ciphertext))
	if alias.InexactOverlap(out, ciphertext) {
		panicAt("chacha20poly1305: invalid buffer overlap of output and input", at)
	}
	if alias.AnyOverlap(out, ad) {
		panicAt("chacha20poly1305: invalid buffer overlap of output and additional data", at)
	}

	if k := pick(len(ciphertext), len(ad), true); k != aeadasm.None {
		var ok bool
		if aeadasm.OneSet(k) && len(ciphertext) <= 64 && len(nonce) == NonceSize {
			ok = aeadasm.OpenOne(k, key, nonce, out, ciphertext, ad, (*[Overhead]byte)(tag))
		} else {
			ok = aeadasm.Open(k, key, nonce, out, ciphertext, ad, (*[Overhead]byte)(tag))
		}
		if !ok {
			return nil, errOpen
		}
		return ret, nil
	}
	if !openPasses(key, nonce, out, ciphertext, ad, tag) {
		return nil, errOpen
	}
	return ret, nil
}

// openPasses is open without a kernel (a function of its own for the
// reason sealPasses is): it reports whether the tag verified, and leaves
// out all zeros if it did not.
func openPasses(key *[KeySize]byte, nonce []byte, out, ciphertext, ad, tag []byte) bool {
	var s chacha20core.State
	s.InitFrom(key[:], nonce)
	var w align.Buffer[[Overhead]byte]
	want := &w.V
	if len(ciphertext) <= shortMax {
		// The keystream of block 0 and the message blocks in one call;
		// the message is XORed in only once the tag has been verified.
		var b align.Buffer[[chacha20core.BlockSize + shortMax]byte]
		ks := &b.V
		n := chacha20core.BlockSize + roundUp(len(ciphertext))
		chacha20core.XORBlocks(&s, ks[:n], ks[:n])
		poly1305.SumAEAD(want, (*[32]byte)(ks[:32]), ad, ciphertext)
		ok := subtle.ConstantTimeCompare(want[:], tag) == 1
		if ok {
			xorBytes(out, ciphertext, ks[chacha20core.BlockSize:])
		}
		wipe.Memclr(ks[:n])
		s.Wipe()
		if !ok {
			clear(out)
		}
		return ok
	}

	// Block 0 and the keystream of the first 16 message blocks in one
	// call, kept until the tag has been verified.
	var head align.Buffer[[(1 + chacha20core.HeadBlocks) * chacha20core.BlockSize]byte]
	ks := chacha20core.KeyStreamHead(&s, &head.V, len(ciphertext))
	poly1305.SumAEAD(want, (*[32]byte)(ks[:32]), ad, ciphertext)
	ok := subtle.ConstantTimeCompare(want[:], tag) == 1
	if ok {
		h := min(len(ciphertext), len(ks)-chacha20core.BlockSize)
		xorBytes(out[:h], ciphertext[:h], ks[chacha20core.BlockSize:])
		chacha20core.XORKeyStream(&s, out[h:], ciphertext[h:])
	}
	wipe.Memclr(ks)
	s.Wipe()
	if !ok {
		clear(out)
	}
	return ok
}

// roundUp rounds n up to a whole number of ChaCha20 blocks.
func roundUp(n int) int {
	return (n + chacha20core.BlockSize - 1) &^ (chacha20core.BlockSize - 1)
}

// xorBytes sets dst = x ^ ks for len(x) bytes; dst and x may be the same.
func xorBytes(dst, x, ks []byte) {
	xorbytes.XORBytes(dst[:len(x)], x, ks[:len(x)])
}

// subkey is XChaCha20-Poly1305 reduced to ChaCha20-Poly1305
// (draft-irtf-cfrg-xchacha-03, Section 2.3): HChaCha20's subkey of the key
// and the nonce's first 16 bytes, and a 12-byte nonce of four zero bytes
// and the nonce's last 8. The route table then treats the message as a
// ChaCha20-Poly1305 one (subkeyFirstMax).
type subkey struct {
	key   [KeySize]byte
	nonce [NonceSize]byte
}

func (sk *subkey) derive(key *[KeySize]byte, nonce []byte) (*[KeySize]byte, []byte) {
	chacha20core.HChaCha20(&sk.key, key, (*[16]byte)(nonce[:16]))
	copy(sk.nonce[4:], nonce[16:NonceSizeX])
	return &sk.key, sk.nonce[:]
}

func (sk *subkey) wipe() { wipe.Memclr(sk.key[:]) }
