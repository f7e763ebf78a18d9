package fuzz

import (
	"bytes"
	"crypto/cipher"
	"testing"

	"github.com/chachakit/chachakit/aead"
	"github.com/google/go-cmp/cmp"
	"golang.org/x/crypto/chacha20poly1305"
)

// aeadPkgs are the registry packages whose implementations the AEAD targets
// loop over: those of the ChaCha20 keystream (streamPkgs), Poly1305 and the
// AEAD's own loops (the amd64 stitched ones, which Open uses from 1 KiB and
// Seal from 2 KiB: FuzzSealOpen grows its plaintext to up to 3 KiB).
var aeadPkgs = append(streamPkgs[:len(streamPkgs):len(streamPkgs)], "poly1305", "aead")

const errOpenText = "chacha20poly1305: message authentication failed"

// An aeadLayout says how the buffers of one Seal or Open call are arranged.
// dst holds prefix bytes already; behind them comes room for the output and
// spare bytes of capacity, all non-zero so that a missing write, a stray
// write past the output or a missing wipe shows. In place, the input is
// copied to just behind the prefix and the call works on it there (the
// exact overlap the AEAD interface allows). noCap gives dst no capacity
// beyond its length, so that the output must go to a new allocation.
type aeadLayout struct {
	prefix, spare  int
	inPlace, noCap bool
}

// layoutFor decodes the layout bits of a target's mode byte: bit 1 in place,
// bit 2 no capacity, bits 3-5 the prefix length, bits 6-7 the spare room.
func layoutFor(mode uint8) aeadLayout {
	return aeadLayout{
		inPlace: mode&2 != 0,
		noCap:   mode&4 != 0 && mode&2 == 0,
		prefix:  int(mode>>3&7) * 5,
		spare:   1 + int(mode>>6)*21,
	}
}

// prepare returns the buffer of a call whose input is in and whose output
// is outLen bytes long, the dst to pass and the input to pass.
func (l aeadLayout) prepare(in []byte, outLen int) (buf, dst, src []byte) {
	room := outLen
	if l.inPlace {
		room = max(outLen, len(in))
	}
	buf = make([]byte, l.prefix+room+l.spare)
	pattern(buf, byte(len(in)))
	dst = buf[:l.prefix]
	if l.noCap {
		dst = buf[:l.prefix:l.prefix]
	}
	src = in
	if l.inPlace {
		src = buf[l.prefix : l.prefix+len(in)]
		copy(src, in)
	}
	return buf, dst, src
}

// aeadResult is everything one Seal or Open call did that a caller can see.
type aeadResult struct {
	panicked string
	ret      []byte
	err      string
	buf      []byte // the whole buffer dst was carved from, after the call
	reused   bool   // whether ret is in buf (rather than a new allocation)
}

func sealWith(a cipher.AEAD, l aeadLayout, nonce, plaintext, ad []byte) aeadResult {
	buf, dst, src := l.prepare(plaintext, len(plaintext)+aead.Overhead)
	var r aeadResult
	r.panicked = catch(func() { r.ret = a.Seal(dst, nonce, src, ad) })
	r.buf = buf
	r.reused = len(r.ret) > 0 && &r.ret[0] == &buf[0]
	return r
}

func openWith(a cipher.AEAD, l aeadLayout, nonce, ciphertext, ad []byte) aeadResult {
	buf, dst, src := l.prepare(ciphertext, max(len(ciphertext)-aead.Overhead, 0))
	var r aeadResult
	r.panicked = catch(func() {
		var err error
		r.ret, err = a.Open(dst, nonce, src, ad)
		if err != nil {
			r.err = err.Error()
		}
	})
	r.buf = buf
	r.reused = len(r.ret) > 0 && &r.ret[0] == &buf[0]
	return r
}

// compare reports every way in which got differs from want, the result of
// the same call on x/crypto. A nil and an empty slice are different
// results, as for a caller who checks for nil.
func (got aeadResult) compare(t *testing.T, label, call string, want aeadResult) {
	t.Helper()
	if got.equal(want) {
		return
	}
	t.Fatalf("%s: %s differs from x/crypto (-x/crypto +chachakit):\n%s", label, call,
		cmp.Diff(want, got, cmp.AllowUnexported(aeadResult{})))
}

// equal is the cheap test that compare makes on every execution; cmp.Diff
// runs only to print a failure (it cost the targets most of their speed).
// A nil and an empty ret differ, as for cmp.Diff.
func (got aeadResult) equal(want aeadResult) bool {
	return got.panicked == want.panicked && got.err == want.err && got.reused == want.reused &&
		(got.ret == nil) == (want.ret == nil) && bytes.Equal(got.ret, want.ret) &&
		(got.buf == nil) == (want.buf == nil) && bytes.Equal(got.buf, want.buf)
}

// newAEADs returns chachakit's and x/crypto's AEAD for key, or the error
// texts of both constructors.
func newAEADs(key []byte, x bool) (ours, ref cipher.AEAD, oursErr, refErr string) {
	newOurs, newRef := aead.New, chacha20poly1305.New
	if x {
		newOurs, newRef = aead.NewX, chacha20poly1305.NewX
	}
	ours, err := newOurs(key)
	if err != nil {
		oursErr = err.Error()
	}
	ref, err = newRef(key)
	if err != nil {
		refErr = err.Error()
	}
	return ours, ref, oursErr, refErr
}

// grown returns p followed by n more bytes derived from p's length, so that
// a short input can stand for a long message (the mutator is slow to grow
// inputs to the multi-block lengths where the wide code paths start).
func grown(p []byte, n int) []byte {
	out := make([]byte, len(p), len(p)+n)
	copy(out, p)
	for i := range n {
		out = append(out, byte(i*13+len(p)))
	}
	return out
}

// tamper returns copies of ciphertext (with its tag), ad and nonce in which
// the byte at position pos of their concatenation has been XORed with a
// non-zero value.
func tamper(ciphertext, ad, nonce []byte, pos uint32, delta uint8) (c, a, n []byte) {
	c, a, n = clone(ciphertext), clone(ad), clone(nonce)
	if delta == 0 {
		delta = 0x80
	}
	i := int(uint64(pos) % uint64(len(c)+len(a)+len(n)))
	switch {
	case i < len(c):
		c[i] ^= delta
	case i < len(c)+len(a):
		a[i-len(c)] ^= delta
	default:
		n[i-len(c)-len(a)] ^= delta
	}
	return c, a, n
}

// FuzzSealOpen seals a message with chachakit and with x/crypto, which must
// agree byte for byte (and leave the same bytes in dst's buffer), opens the
// result, and opens it again with one byte of the ciphertext, the tag, the
// additional data or the nonce changed, which must fail exactly as x/crypto
// fails: same error text, nil result, the output region of dst zeroed.
//
// mode: bit 0 selects XChaCha20-Poly1305 (24-byte nonce) over
// ChaCha20-Poly1305 (12-byte nonce); bits 1-7 the buffer layout (layoutFor).
// key and nonce are cut or zero-extended to their sizes; grow (mod 2048)
// bytes are appended to the plaintext; pos and delta choose the tampering.
func FuzzSealOpen(f *testing.F) {
	addSealOpenSeeds(f)
	f.Fuzz(func(t *testing.T, key, nonce, ad, plaintext []byte, mode uint8, grow uint16, pos uint32, delta uint8) {
		x := mode&1 != 0
		nonceSize := aead.NonceSize
		if x {
			nonceSize = aead.NonceSizeX
		}
		key, nonce = fit(key, aead.KeySize), fit(nonce, nonceSize)
		plaintext = grown(plaintext, int(grow%3072))
		l := layoutFor(mode)

		_, ref, _, refErr := newAEADs(key, x)
		if refErr != "" {
			t.Fatalf("x/crypto refuses a %d-byte key: %s", len(key), refErr)
		}
		wantSeal := sealWith(ref, l, nonce, plaintext, ad)
		if wantSeal.panicked != "" {
			t.Fatalf("x/crypto Seal panics: %s", wantSeal.panicked)
		}
		sealed := clone(wantSeal.ret[l.prefix:])
		wantOpen := openWith(ref, l, nonce, sealed, ad)
		if wantOpen.err != "" || wantOpen.panicked != "" {
			t.Fatalf("x/crypto cannot open its own output: %q %q", wantOpen.err, wantOpen.panicked)
		}
		badCT, badAD, badNonce := tamper(sealed, ad, nonce, pos, delta)
		wantBad := openWith(ref, l, badNonce, badCT, badAD)
		if wantBad.err != errOpenText {
			t.Fatalf("x/crypto opens a tampered message: error %q, panic %q", wantBad.err, wantBad.panicked)
		}

		forEachImpl(t, aeadPkgs, func(label string) {
			ours, _, oursErr, _ := newAEADs(key, x)
			if oursErr != "" {
				t.Fatalf("%s: New refuses a %d-byte key: %s", label, len(key), oursErr)
			}
			got := sealWith(ours, l, nonce, plaintext, ad)
			got.compare(t, label, "Seal", wantSeal)

			// Open chachakit's own output (equal to x/crypto's by now).
			got = openWith(ours, l, nonce, got.ret[l.prefix:], ad)
			got.compare(t, label, "Open", wantOpen)
			if !sameBytes(got.ret[l.prefix:], plaintext) {
				t.Fatalf("%s: Open returns a plaintext other than the one sealed: %s", label, firstDiff(got.ret[l.prefix:], plaintext))
			}

			got = openWith(ours, l, badNonce, badCT, badAD)
			got.compare(t, label, "Open of a tampered message", wantBad)
			out := got.buf[l.prefix : l.prefix+len(plaintext)]
			if l.noCap {
				out = nil // the output was to go to a new allocation
			}
			for i, v := range out {
				if v != 0 {
					t.Fatalf("%s: byte %d of dst's output region is %#02x after a failed Open, want 0", label, i, v)
				}
			}
		})
	})
}

// FuzzOpen opens arbitrary ciphertexts under arbitrary nonces (of any
// length) with chachakit and with x/crypto: the results, error texts, panic
// texts (only the nonce-length panic is documented) and the bytes left in
// dst's buffer must be the same, so that nothing opens that x/crypto
// refuses.
//
// mode: bit 0 selects XChaCha20-Poly1305; bits 1-6 the buffer layout
// (layoutFor); bit 7 passes key to New as it is instead of cut or extended
// to 32 bytes, which compares New's errors.
func FuzzOpen(f *testing.F) {
	addOpenSeeds(f)
	f.Fuzz(func(t *testing.T, key, nonce, ad, ciphertext []byte, mode uint8) {
		x := mode&1 != 0
		if mode&0x80 == 0 {
			key = fit(key, aead.KeySize)
		}
		l := layoutFor(mode &^ 0x80)

		_, ref, _, refErr := newAEADs(key, x)
		var want aeadResult
		if ref != nil {
			want = openWith(ref, l, nonce, ciphertext, ad)
		}
		forEachImpl(t, aeadPkgs, func(label string) {
			ours, _, oursErr, _ := newAEADs(key, x)
			if oursErr != refErr || (ours == nil) != (ref == nil) {
				t.Fatalf("%s: New(%d-byte key): error %q, x/crypto %q", label, len(key), oursErr, refErr)
			}
			if ours == nil {
				return
			}
			got := openWith(ours, l, nonce, ciphertext, ad)
			got.compare(t, label, "Open", want)
			if got.panicked != "" && got.panicked != "chacha20poly1305: bad nonce length passed to Open" {
				t.Fatalf("%s: Open panics with an undocumented panic: %s", label, got.panicked)
			}
		})
	})
}
