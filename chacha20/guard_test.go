package chacha20_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/chachakit/chachakit/chacha20"
	"github.com/chachakit/chachakit/internal/cryptotest"
	xchacha20 "golang.org/x/crypto/chacha20"
)

// The guard-page suite of package chacha20 (see internal/cryptotest/guard.go):
// key, nonce, src and dst flush against an inaccessible page, after their end
// and before their start, at every length of cryptotest.GuardLengths, under
// every ChaCha20 implementation the registry has here, so that a keystream
// kernel that reads or writes one byte outside its slices faults. The
// results must be x/crypto's.

// TestGuardXORKeyStream runs XORKeyStream in one call, in place, and split
// in two calls (the first of 1 to 65 bytes, so that the second starts at
// every offset in a block and just after one), each piece a slice of its
// own against the guards, with 12- and 24-byte nonces, under every
// implementation of "chacha20"; and the split calls under every
// implementation of "subtle", whose XOR uses up the keystream a call
// leaves buffered.
func TestGuardXORKeyStream(t *testing.T) {
	g := streamGuards{
		key:   cryptotest.NewGuard(t, "key", chacha20.KeySize),
		nonce: cryptotest.NewGuard(t, "nonce", chacha20.NonceSizeX),
		src:   cryptotest.NewGuard(t, "src", cryptotest.GuardMaxLen),
		dst:   cryptotest.NewGuard(t, "dst", cryptotest.GuardMaxLen),
		src2:  cryptotest.NewGuard(t, "second src", cryptotest.GuardMaxLen),
		dst2:  cryptotest.NewGuard(t, "second dst", cryptotest.GuardMaxLen),
	}
	r := rand.New(rand.NewPCG(41, 42))
	keyBytes := guardRand(r, chacha20.KeySize)
	nonceAll := guardRand(r, chacha20.NonceSizeX)
	msg := guardRand(r, cryptotest.GuardMaxLen)

	for _, nonceSize := range []int{chacha20.NonceSize, chacha20.NonceSizeX} {
		t.Run(fmt.Sprintf("Nonce%d", nonceSize), func(t *testing.T) {
			nonceBytes := nonceAll[:nonceSize]
			ref, err := xchacha20.NewUnauthenticatedCipher(keyBytes, nonceBytes)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]byte, len(msg))
			ref.XORKeyStream(want, msg)
			t.Run("chacha20", func(t *testing.T) {
				cryptotest.Run(t, "chacha20", func(t *testing.T) {
					guardXORKeyStream(t, &g, false, keyBytes, nonceBytes, msg, want)
				})
			})
			t.Run("subtle", func(t *testing.T) {
				cryptotest.Run(t, "subtle", func(t *testing.T) {
					guardXORKeyStream(t, &g, true, keyBytes, nonceBytes, msg, want)
				})
			})
		})
	}
}

// streamGuards are TestGuardXORKeyStream's buffers.
type streamGuards struct{ key, nonce, src, dst, src2, dst2 *cryptotest.Guard }

// guardXORKeyStream runs TestGuardXORKeyStream's cases (only the split
// calls if splitOnly) with both placements; want is msg XORed with the
// keystream.
func guardXORKeyStream(t *testing.T, g *streamGuards, splitOnly bool, keyBytes, nonceBytes, msg, want []byte) {
	label := cryptotest.Chosen("chacha20", "subtle")
	for _, at := range cryptotest.Placements {
		var (
			op   string
			n, k int
		)
		what := func() string {
			return fmt.Sprintf("[%s] %s of %d bytes (%d-byte first call), %d-byte nonce, buffers %s", label, op, n, k, len(nonceBytes), at)
		}
		// newCipher makes a cipher from the guarded key and nonce.
		newCipher := func() *chacha20.Cipher {
			key := g.key.Slice(at, chacha20.KeySize)
			copy(key, keyBytes)
			nonce := g.nonce.Slice(at, len(nonceBytes))
			copy(nonce, nonceBytes)
			var c *chacha20.Cipher
			cryptotest.CatchFault(t, what, func() {
				var err error
				if c, err = chacha20.NewUnauthenticatedCipher(key, nonce); err != nil {
					t.Fatal(err)
				}
			})
			return c
		}
		for i, length := range cryptotest.GuardLengths() {
			n, k = length, length
			if !splitOnly {
				op = "XORKeyStream"
				c := newCipher()
				src := g.src.Slice(at, n)
				copy(src, msg)
				dst := g.dst.Slice(at, n)
				cryptotest.CatchFault(t, what, func() { c.XORKeyStream(dst, src) })
				if !bytes.Equal(dst, want[:n]) {
					t.Fatalf("%s: differs from x/crypto", what())
				}
				if !bytes.Equal(src, msg[:n]) {
					t.Fatalf("%s: src changed", what())
				}
				cryptotest.CheckIntact(t, what, g.key, g.nonce, g.src, g.dst)

				op = "XORKeyStream in place"
				c = newCipher()
				buf := g.src.Slice(at, n)
				copy(buf, msg)
				cryptotest.CatchFault(t, what, func() { c.XORKeyStream(buf, buf) })
				if !bytes.Equal(buf, want[:n]) {
					t.Fatalf("%s: differs from x/crypto", what())
				}
				cryptotest.CheckIntact(t, what, g.src)
			}

			op = "XORKeyStream in two calls"
			k = min(n, 1+i%65)
			c := newCipher()
			src, src2 := g.src.Slice(at, k), g.src2.Slice(at, n-k)
			copy(src, msg)
			copy(src2, msg[k:])
			dst, dst2 := g.dst.Slice(at, k), g.dst2.Slice(at, n-k)
			cryptotest.CatchFault(t, what, func() {
				c.XORKeyStream(dst, src)
				c.XORKeyStream(dst2, src2)
			})
			if !bytes.Equal(dst, want[:k]) || !bytes.Equal(dst2, want[k:n]) {
				t.Fatalf("%s: differs from x/crypto", what())
			}
			cryptotest.CheckIntact(t, what, g.src, g.src2, g.dst, g.dst2)
		}
	}
}

// TestGuardHChaCha20 runs HChaCha20 with its key and nonce against the
// guards (its output is allocated; guard_internal_test.go places it).
func TestGuardHChaCha20(t *testing.T) {
	gKey := cryptotest.NewGuard(t, "key", chacha20.KeySize)
	gNonce := cryptotest.NewGuard(t, "nonce", 16)
	r := rand.New(rand.NewPCG(43, 44))
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		label := cryptotest.Chosen("chacha20")
		for i := range 64 {
			at := cryptotest.Placements[i%2]
			keyBytes, nonceBytes := guardRand(r, chacha20.KeySize), guardRand(r, 16)
			want, err := xchacha20.HChaCha20(keyBytes, nonceBytes)
			if err != nil {
				t.Fatal(err)
			}
			key, nonce := gKey.Slice(at, chacha20.KeySize), gNonce.Slice(at, 16)
			copy(key, keyBytes)
			copy(nonce, nonceBytes)
			var got []byte
			what := func() string { return fmt.Sprintf("[%s] HChaCha20 %d, buffers %s", label, i, at) }
			cryptotest.CatchFault(t, what, func() { got, err = chacha20.HChaCha20(key, nonce) })
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("%s: %x, %v; want %x", what(), got, err, want)
			}
			cryptotest.CheckIntact(t, what, gKey, gNonce)
		}
	})
}

func guardRand(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}
