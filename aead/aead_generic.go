package aead

import (
	"crypto/subtle"
	"encoding/binary"

	"github.com/chachakit/chachakit/internal/alias"
	"github.com/chachakit/chachakit/internal/chacha20core"
	"github.com/chachakit/chachakit/internal/poly1305"
	"github.com/chachakit/chachakit/internal/wipe"
	"github.com/chachakit/chachakit/internal/xorbytes"
)

// smallMax is the longest message whose keystream is generated in the same
// call as the Poly1305 key block: one keystream call instead of two makes
// short messages (QUIC packets' headers, TLS alerts, 64-byte messages) pay
// the per-call setup of the SIMD paths once.
const smallMax = 7 * chacha20core.BlockSize

// seal is the construction of RFC 8439, Section 2.8: block 0 of the keystream
// keys Poly1305, blocks 1 onwards encrypt the plaintext, and the tag covers the
// padded additional data, the padded ciphertext and both lengths. A 24-byte
// nonce is XChaCha20's (draft-irtf-cfrg-xchacha-03, Section 2.3: the key
// becomes HChaCha20's subkey, State.InitFrom).
func seal(key *[KeySize]byte, nonce []byte, dst, plaintext, ad []byte) []byte {
	ret, out := alias.SliceForAppend(dst, len(plaintext)+Overhead)
	ciphertext, tag := out[:len(plaintext)], out[len(plaintext):]
	if alias.InexactOverlap(out, plaintext) {
		panic("chacha20poly1305: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, ad) {
		panic("chacha20poly1305: invalid buffer overlap of output and additional data")
	}

	if sealSmall(key, nonce, ciphertext, tag, plaintext, ad) {
		// One kernel call did it all (amd64 with AVX-512, up to 64 bytes).
		return ret
	}

	var s chacha20core.State
	s.InitFrom(key[:], nonce)
	var t [Overhead]byte
	if len(plaintext) <= smallMax {
		// Block 0 and the message blocks in one call, in a buffer.
		var buf [chacha20core.BlockSize + smallMax]byte
		n := chacha20core.BlockSize + roundUp(len(plaintext))
		copy(buf[chacha20core.BlockSize:], plaintext)
		chacha20core.XORBlocks(&s, buf[:n], buf[:n])
		copy(ciphertext, buf[chacha20core.BlockSize:])
		poly1305.SumAEAD(&t, (*[32]byte)(buf[:32]), ad, ciphertext)
		wipe.Memclr(buf[:n])
	} else if sealMid(&t, &s, ciphertext, plaintext, ad) {
		// A mid-size stitched path (amd64) did it.
	} else if b := stitchedBatches(len(plaintext), true); b > 0 {
		sealStitched(&t, &s, b, ciphertext, plaintext, ad)
	} else {
		// Block 0 shares a call with the first 16 message blocks.
		var polyKey [chacha20core.BlockSize]byte
		chacha20core.KeyAndXOR(&s, &polyKey, ciphertext, plaintext)
		poly1305.SumAEAD(&t, (*[32]byte)(polyKey[:32]), ad, ciphertext)
		wipe.Memclr(polyKey[:])
	}
	copy(tag, t[:])
	s.Wipe()
	return ret
}

// open verifies the tag before it decrypts anything, so a forged message
// never has its plaintext written, even in part, except on the amd64
// stitched paths (the package documentation lists them): there all or part
// of the message is decrypted in the same pass as its MAC, and the
// plaintext written is zeroed if the tag does not verify. Either way dst's
// new region is all zeros on failure, as x/crypto's is.
func open(key *[KeySize]byte, nonce []byte, dst, ciphertext, ad []byte) ([]byte, error) {
	tag := ciphertext[len(ciphertext)-Overhead:]
	ciphertext = ciphertext[:len(ciphertext)-Overhead]

	ret, out := alias.SliceForAppend(dst, len(ciphertext))
	if alias.InexactOverlap(out, ciphertext) {
		panic("chacha20poly1305: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, ad) {
		panic("chacha20poly1305: invalid buffer overlap of output and additional data")
	}

	if r, err, done := openSmall(key, nonce, ret, out, ciphertext, ad, tag); done {
		return r, err
	}

	var s chacha20core.State
	s.InitFrom(key[:], nonce)
	var want [Overhead]byte
	if len(ciphertext) <= smallMax {
		// The keystream of block 0 and the message blocks in one call;
		// the message is XORed in only once the tag has been verified.
		var ks [chacha20core.BlockSize + smallMax]byte
		n := chacha20core.BlockSize + roundUp(len(ciphertext))
		chacha20core.XORBlocks(&s, ks[:n], ks[:n])
		poly1305.SumAEAD(&want, (*[32]byte)(ks[:32]), ad, ciphertext)
		ok := subtle.ConstantTimeCompare(want[:], tag) == 1
		if ok {
			xorBytes(out, ciphertext, ks[chacha20core.BlockSize:])
		}
		wipe.Memclr(ks[:n])
		s.Wipe()
		if !ok {
			clear(out)
			return nil, errOpen
		}
		return ret, nil
	}

	if r, err, done := openMid(&s, ret, out, ciphertext, ad, tag); done {
		return r, err
	}
	if b := stitchedBatches(len(ciphertext), false); b > 0 {
		return openStitched(&s, b, ret, out, ciphertext, ad, tag)
	}

	// Block 0 and the keystream of the first 16 message blocks in one
	// call, kept until the tag has been verified.
	var head [(1 + chacha20core.HeadBlocks) * chacha20core.BlockSize]byte
	ks := chacha20core.KeyStreamHead(&s, &head, len(ciphertext))
	poly1305.SumAEAD(&want, (*[32]byte)(ks[:32]), ad, ciphertext)
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
		return nil, errOpen
	}
	return ret, nil
}

// sealStitched is seal for plaintexts of b >= 2 whole 1 KiB batches (plus a
// tail) when the stitched loop is on: each batch's keystream runs with the
// MAC of the ciphertext of the batch before it (the first batch with none);
// the last batch's ciphertext and the tail are MACed after.
func sealStitched(t *[Overhead]byte, s *chacha20core.State, b int, ciphertext, plaintext, ad []byte) {
	const batch = chacha20core.MACBatch
	var p poly1305.MAC
	macInit(&p, s, ad)
	k := b * batch
	xorAndMAC(s, &p, ciphertext[:k], plaintext[:k], ciphertext[:k-batch], true)
	chacha20core.XORKeyStream(s, ciphertext[k:], plaintext[k:])
	p.WritePadded(ciphertext[k-batch:])
	macFinish(t, &p, len(ad), len(ciphertext))
}

// openStitched is open for ciphertexts of b >= 1 whole 1 KiB batches (plus
// a tail) when the stitched loop is on: the batches are decrypted and MACed
// in one pass (the kernel reads each ciphertext block before it writes the
// plaintext over it, for an Open in place), the tail is MACed, and only if
// the tag verifies is the tail decrypted; otherwise out is zeroed.
func openStitched(s *chacha20core.State, b int, ret, out, ciphertext, ad, tag []byte) ([]byte, error) {
	// out may start where the tag does (it overlaps ciphertext exactly or
	// not at all), and the plaintext is written before the comparison.
	var tg [Overhead]byte
	copy(tg[:], tag)
	var p poly1305.MAC
	macInit(&p, s, ad)
	k := b * chacha20core.MACBatch
	xorAndMAC(s, &p, out[:k], ciphertext[:k], ciphertext[:k], false)
	p.WritePadded(ciphertext[k:])
	var want [Overhead]byte
	macFinish(&want, &p, len(ad), len(ciphertext))
	if subtle.ConstantTimeCompare(want[:], tg[:]) != 1 {
		clear(out)
		s.Wipe()
		return nil, errOpen
	}
	chacha20core.XORKeyStream(s, out[k:], ciphertext[k:])
	s.Wipe()
	return ret, nil
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
func macFinish(out *[Overhead]byte, p *poly1305.MAC, adLen, ctLen int) {
	var lens [16]byte
	binary.LittleEndian.PutUint64(lens[0:], uint64(adLen))
	binary.LittleEndian.PutUint64(lens[8:], uint64(ctLen))
	p.Write(lens[:])
	p.Sum(out)
}

// roundUp rounds n up to a whole number of ChaCha20 blocks.
func roundUp(n int) int {
	return (n + chacha20core.BlockSize - 1) &^ (chacha20core.BlockSize - 1)
}

// xorBytes sets dst = x ^ ks for len(x) bytes; dst and x may be the same.
func xorBytes(dst, x, ks []byte) {
	xorbytes.XORBytes(dst[:len(x)], x, ks[:len(x)])
}
