package chacha20_test

import (
	"bytes"
	"testing"

	"github.com/chachakit/chachakit/chacha20"
	"github.com/chachakit/chachakit/internal/cryptotest"
	"github.com/chachakit/chachakit/vectors"
	xchacha20 "golang.org/x/crypto/chacha20"
)

func ours(key, nonce []byte) (cryptotest.Stream, error) {
	// Return a nil interface, not a typed nil, on error.
	c, err := chacha20.NewUnauthenticatedCipher(key, nonce)
	if err != nil {
		return nil, err
	}
	return c, nil
}

func ref(key, nonce []byte) (cryptotest.Stream, error) {
	c, err := xchacha20.NewUnauthenticatedCipher(key, nonce)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// TestConformance runs the stream suite, against golang.org/x/crypto/chacha20,
// under every ChaCha20 implementation this CPU has.
func TestConformance(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		cryptotest.TestStream(t, ours, ref)
	})
}

func TestExpectedImplementation(t *testing.T) {
	cryptotest.CheckExpected(t, "chacha20")
}

// TestVectors checks the published keystream and encryption vectors: RFC 8439
// Sections 2.3.2, 2.4.2, A.1, A.2 and draft-irtf-cfrg-xchacha-03 A.3.2.
func TestVectors(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		for _, v := range vectors.RFC8439Blocks {
			t.Run(v.Source, func(t *testing.T) {
				c, err := chacha20.NewUnauthenticatedCipher(v.Key, v.Nonce)
				if err != nil {
					t.Fatal(err)
				}
				c.SetCounter(v.Counter)
				got := make([]byte, len(v.Keystream))
				c.XORKeyStream(got, got)
				if !bytes.Equal(got, v.Keystream) {
					t.Errorf("keystream %x, want %x", got, v.Keystream)
				}
			})
		}
		streams := append(append([]vectors.Stream{}, vectors.RFC8439Streams...), vectors.XChaChaStreams...)
		for _, v := range streams {
			t.Run(v.Source, func(t *testing.T) {
				c, err := chacha20.NewUnauthenticatedCipher(v.Key, v.Nonce)
				if err != nil {
					t.Fatal(err)
				}
				c.SetCounter(v.Counter)
				got := make([]byte, len(v.Plaintext))
				c.XORKeyStream(got, v.Plaintext)
				if !bytes.Equal(got, v.Ciphertext) {
					t.Errorf("ciphertext %x, want %x", got, v.Ciphertext)
				}
			})
		}
	})
}

// TestHChaCha20 checks draft-irtf-cfrg-xchacha-03 Section 2.2.1 and the
// errors for wrong sizes against x/crypto.
func TestHChaCha20(t *testing.T) {
	for _, v := range vectors.XChaChaHChaCha20s {
		got, err := chacha20.HChaCha20(v.Key, v.Nonce)
		if err != nil || !bytes.Equal(got, v.Subkey) {
			t.Errorf("%s: HChaCha20 = %x, %v; want %x", v.Source, got, err, v.Subkey)
		}
	}
	for _, k := range []int{0, 31, 32, 33} {
		for _, n := range []int{0, 12, 15, 16, 17, 24} {
			key, nonce := make([]byte, k), make([]byte, n)
			got, err := chacha20.HChaCha20(key, nonce)
			want, wantErr := xchacha20.HChaCha20(key, nonce)
			if !bytes.Equal(got, want) || (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
				t.Errorf("key %d, nonce %d: HChaCha20 = %x, %v; want %x, %v", k, n, got, err, want, wantErr)
			}
		}
	}
}

func TestZeroValueCipher(t *testing.T) {
	// A zero Cipher encrypts under the all-zero key and nonce in x/crypto;
	// keep that behaviour for drop-in users who declare one.
	var a chacha20.Cipher
	var b xchacha20.Cipher
	x, y := make([]byte, 100), make([]byte, 100)
	a.XORKeyStream(x, x)
	b.XORKeyStream(y, y)
	if !bytes.Equal(x, y) {
		t.Error("zero-value Cipher output differs from x/crypto")
	}
}
