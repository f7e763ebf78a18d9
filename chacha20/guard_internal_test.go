package chacha20

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
)

// TestGuardHChaCha20Out is TestGuardHChaCha20 (guard_test.go) with the
// output guarded too: hChaCha20, which HChaCha20 wraps, writes into a
// caller's 32 bytes, here flush against an inaccessible page, as are the
// key and the nonce. The reference is HChaCha20 on heap buffers, which
// TestGuardHChaCha20 and the conformance tests compare with x/crypto.
func TestGuardHChaCha20Out(t *testing.T) {
	gKey := cryptotest.NewGuard(t, "key", KeySize)
	gNonce := cryptotest.NewGuard(t, "nonce", 16)
	gOut := cryptotest.NewGuard(t, "out", 32)
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		label := cryptotest.Chosen("chacha20")
		for i := range 64 {
			at := cryptotest.Placements[i%2]
			keyBytes, nonceBytes := make([]byte, KeySize), make([]byte, 16)
			for j := range keyBytes {
				keyBytes[j] = byte(i*31 + j*7)
			}
			for j := range nonceBytes {
				nonceBytes[j] = byte(i*17 + j*5 + 1)
			}
			want, err := HChaCha20(keyBytes, nonceBytes)
			if err != nil {
				t.Fatal(err)
			}
			key, nonce, out := gKey.Slice(at, KeySize), gNonce.Slice(at, 16), gOut.Slice(at, 32)
			copy(key, keyBytes)
			copy(nonce, nonceBytes)
			var got []byte
			what := func() string { return fmt.Sprintf("[%s] hChaCha20 %d, buffers %s", label, i, at) }
			cryptotest.CatchFault(t, what, func() { got, err = hChaCha20(out, key, nonce) })
			if err != nil || !bytes.Equal(got, want) || &got[0] != &out[0] {
				t.Fatalf("%s: %x, %v; want %x in out", what(), got, err, want)
			}
			cryptotest.CheckIntact(t, what, gKey, gNonce, gOut)
		}
	})
}
