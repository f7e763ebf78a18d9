package aead_test

import (
	"bytes"
	"crypto/cipher"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/chachakit/chachakit/aead"
	"github.com/chachakit/chachakit/internal/cryptotest"
	"golang.org/x/crypto/chacha20poly1305"
)

// The guard-page suite of the AEAD (see internal/cryptotest/guard.go): every
// buffer of Seal and Open (key, nonce, plaintext or ciphertext, additional
// data, dst) flush against an inaccessible page, after its end and before
// its start, at every length of cryptotest.GuardLengths, under every
// implementation of "aead", "chacha20" and "poly1305" the registry has
// here, so that a kernel the route picks that reads or writes one byte
// outside its slices faults. The results must be x/crypto's.

// guardADLens are the additional-data lengths the suite cycles through, one
// per length and placement: none, the TLS 1.2 header's 13, the block
// boundaries around it, the small kernels' 64-byte limit and past it, and
// longer ones past the mid-size kernels' limits.
var guardADLens = []int{0, 13, 1, 16, 64, 17, 63, 300, 32, 65, 256, 15, 513}

// aeadGuards are the guarded buffers of one suite, mapped once per test.
type aeadGuards struct {
	key, nonce, in, ad, out *cryptotest.Guard
}

func newAEADGuards(t *testing.T) *aeadGuards {
	maxAD := 0
	for _, n := range guardADLens {
		maxAD = max(maxAD, n)
	}
	return &aeadGuards{
		key:   cryptotest.NewGuard(t, "key", aead.KeySize),
		nonce: cryptotest.NewGuard(t, "nonce", aead.NonceSizeX),
		in:    cryptotest.NewGuard(t, "input", cryptotest.GuardMaxLen+aead.Overhead),
		ad:    cryptotest.NewGuard(t, "additional data", maxAD),
		out:   cryptotest.NewGuard(t, "dst", cryptotest.GuardMaxLen+aead.Overhead),
	}
}

// TestGuardSealOpen is the suite for New and NewX, their Seal and Open.
// With -short, NewX's runs under every implementation of "aead" and
// "chacha20" but only the default one of "poly1305".
func TestGuardSealOpen(t *testing.T) {
	g := newAEADGuards(t)
	r := rand.New(rand.NewPCG(11, 12))
	key := guardRand(r, aead.KeySize)
	msg := guardRand(r, cryptotest.GuardMaxLen)
	adAll := guardRand(r, 513)
	nonceAll := guardRand(r, aead.NonceSizeX)
	for _, v := range []struct {
		name      string
		ours, ref cryptotest.NewAEAD
	}{
		{"ChaCha20Poly1305", aead.New, chacha20poly1305.New},
		{"XChaCha20Poly1305", aead.NewX, chacha20poly1305.NewX},
	} {
		t.Run(v.name, func(t *testing.T) {
			ref, err := v.ref(key)
			if err != nil {
				t.Fatal(err)
			}
			nonce := nonceAll[:ref.NonceSize()]
			// x/crypto's results, computed once for every implementation.
			var cases [2][]sealCase
			for _, at := range cryptotest.Placements {
				for i, n := range cryptotest.GuardLengths() {
					an := guardADLens[(2*i+int(at))%len(guardADLens)]
					cases[at] = append(cases[at], sealCase{n, an, ref.Seal(nil, nonce, msg[:n], adAll[:an])})
				}
			}
			pkgs := []string{"aead", "chacha20", "poly1305"}
			if testing.Short() && v.name == "XChaCha20Poly1305" {
				// The extended nonce changes the ChaCha20 side only:
				// Poly1305's paths see what they see for the other AEAD.
				pkgs = pkgs[:2]
			}
			cryptotest.RunEach(t, pkgs, func(t *testing.T) {
				label := cryptotest.Chosen("aead", "chacha20", "poly1305")
				for _, at := range cryptotest.Placements {
					guardSealOpen(t, g, at, label, v.ours, key, nonce, msg, adAll, cases[at])
				}
			})
		})
	}
}

// A sealCase is one message of the suite: its length, the length of its
// additional data, and x/crypto's Seal of it.
type sealCase struct {
	n, an int
	want  []byte
}

// guardSealOpen runs one placement of the suite: for each case, Seal and
// Open into a separate dst and in place, and Open with a flipped tag byte,
// which must fail and leave the dst region zeroed without writing past it.
func guardSealOpen(t *testing.T, g *aeadGuards, at cryptotest.Placement, label string, newAEAD cryptotest.NewAEAD, keyBytes, nonceBytes, msg, adAll []byte, cases []sealCase) {
	var (
		op    string
		n, an int
	)
	what := func() string {
		return fmt.Sprintf("[%s] %s of %d bytes, %d bytes of additional data, buffers %s", label, op, n, an, at)
	}
	key := g.key.Slice(at, aead.KeySize)
	copy(key, keyBytes)
	var a cipher.AEAD
	op = "New"
	cryptotest.CatchFault(t, what, func() {
		var err error
		if a, err = newAEAD(key); err != nil {
			t.Fatal(err)
		}
	})
	nonce := g.nonce.Slice(at, len(nonceBytes))
	copy(nonce, nonceBytes)
	for i, c := range cases {
		n, an = c.n, c.an
		want := c.want
		ad := g.ad.Slice(at, an)
		copy(ad, adAll)

		op = "Seal"
		pt := g.in.Slice(at, n)
		copy(pt, msg)
		dst := g.out.Slice(at, n+aead.Overhead)
		var got []byte
		cryptotest.CatchFault(t, what, func() { got = a.Seal(dst[:0], nonce, pt, ad) })
		if !bytes.Equal(got, want) || &got[0] != &dst[0] {
			t.Fatalf("%s: differs from x/crypto or not written in dst", what())
		}
		if !bytes.Equal(pt, msg[:n]) {
			t.Fatalf("%s: the plaintext changed", what())
		}
		cryptotest.CheckIntact(t, what, g.in, g.out, g.ad, g.nonce)

		op = "Seal in place"
		buf := g.in.Slice(at, n+aead.Overhead)
		copy(buf, msg[:n])
		cryptotest.CatchFault(t, what, func() { got = a.Seal(buf[:0], nonce, buf[:n], ad) })
		if !bytes.Equal(got, want) || &got[0] != &buf[0] {
			t.Fatalf("%s: differs from x/crypto or not written in place", what())
		}
		cryptotest.CheckIntact(t, what, g.in)

		op = "Open"
		ct := g.in.Slice(at, n+aead.Overhead)
		copy(ct, want)
		dst = g.out.Slice(at, n)
		var err error
		cryptotest.CatchFault(t, what, func() { got, err = a.Open(dst[:0], nonce, ct, ad) })
		if err != nil || !bytes.Equal(got, msg[:n]) || n > 0 && &got[0] != &dst[0] {
			t.Fatalf("%s: %v, or the plaintext differs or is not in dst", what(), err)
		}
		if !bytes.Equal(ct, want) {
			t.Fatalf("%s: the ciphertext changed", what())
		}
		cryptotest.CheckIntact(t, what, g.in, g.out)

		op = "Open in place"
		buf = g.in.Slice(at, n+aead.Overhead)
		copy(buf, want)
		cryptotest.CatchFault(t, what, func() { got, err = a.Open(buf[:0], nonce, buf, ad) })
		if err != nil || !bytes.Equal(got, msg[:n]) || n > 0 && &got[0] != &buf[0] {
			t.Fatalf("%s: %v, or the plaintext differs or is not in place", what(), err)
		}
		cryptotest.CheckIntact(t, what, g.in)

		// A forged tag: Open fails, and the region it would have
		// written (which it may write before the check) is zeroed.
		op = "Open of a forged tag"
		ct = g.in.Slice(at, n+aead.Overhead)
		copy(ct, want)
		ct[n+i%aead.Overhead] ^= 0x40
		dst = g.out.Slice(at, n)
		for j := range dst {
			dst[j] = 0xa5
		}
		cryptotest.CatchFault(t, what, func() { got, err = a.Open(dst[:0], nonce, ct, ad) })
		if err == nil || got != nil {
			t.Fatalf("%s: opened", what())
		}
		if !guardZero(dst) {
			t.Fatalf("%s: dst not zeroed", what())
		}
		cryptotest.CheckIntact(t, what, g.in, g.out)

		op = "Open of a forged tag in place"
		buf = g.in.Slice(at, n+aead.Overhead)
		copy(buf, want)
		buf[n+i%aead.Overhead] ^= 0x40
		cryptotest.CatchFault(t, what, func() { got, err = a.Open(buf[:0], nonce, buf, ad) })
		if err == nil || got != nil {
			t.Fatalf("%s: opened", what())
		}
		if !guardZero(buf[:n]) {
			t.Fatalf("%s: the plaintext region not zeroed", what())
		}
		cryptotest.CheckIntact(t, what, g.in)
	}
}

func guardRand(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func guardZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}
