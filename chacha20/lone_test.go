package chacha20_test

import (
	"bytes"
	"testing"

	"github.com/chachakit/chachakit/chacha20"
	xchacha20 "golang.org/x/crypto/chacha20"
)

// TestLoneBlocks runs the patterns whose first call after construction or
// SetCounter takes chacha20core.LoneBlocks against x/crypto: a fresh
// cipher's single call of 0..130 bytes at counters 0, 7 and 2^32-1 (QUIC
// header protection: SetCounter, 5 bytes), SSH's packet ciphers (a 32-byte
// call, SetCounter(1), the payload), and streams of short calls that start
// fresh.
func TestLoneBlocks(t *testing.T) {
	key, nonce := bytes.Repeat([]byte{3}, 32), bytes.Repeat([]byte{5}, 12)
	src := make([]byte, 400)
	for i := range src {
		src[i] = byte(i*7 + 1)
	}
	check := func(what string, a *chacha20.Cipher, b *xchacha20.Cipher, n int) {
		t.Helper()
		got, want := make([]byte, n), make([]byte, n)
		a.XORKeyStream(got, src[:n])
		b.XORKeyStream(want, src[:n])
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: %d bytes differ from x/crypto", what, n)
		}
	}
	for _, ctr := range []uint32{0, 7, 1<<32 - 1} {
		for n := 0; n <= 130; n++ {
			a, _ := chacha20.NewUnauthenticatedCipher(key, nonce)
			b, _ := xchacha20.NewUnauthenticatedCipher(key, nonce)
			a.SetCounter(ctr)
			b.SetCounter(ctr)
			if ctr == 1<<32-1 && n > 64 {
				continue // past the last block: both panic (TestStream checks that)
			}
			check("fresh call", a, b, n)
			if ctr < 1<<32-1 {
				for _, m := range []int{1, 63, 64, 65, 5} {
					check("next call", a, b, m)
				}
				a.SetCounter(ctr + 9)
				b.SetCounter(ctr + 9)
				check("call after SetCounter", a, b, n)
				check("call after that", a, b, 64)
			}
		}
	}
	for _, payload := range []int{0, 16, 48, 64, 100, 128, 300} {
		a, _ := chacha20.NewUnauthenticatedCipher(key, nonce)
		b, _ := xchacha20.NewUnauthenticatedCipher(key, nonce)
		check("ssh poly key", a, b, 32)
		a.SetCounter(1)
		b.SetCounter(1)
		check("ssh payload", a, b, payload)
	}
}
