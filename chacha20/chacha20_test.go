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

// TestLongCallSequences compares sequences of long XORKeyStream calls with
// x/crypto, under every implementation: lengths of k whole batches plus one
// block (17k+1 blocks on AVX512, 8k+1 on AVX2, 4k+1 on SSSE3), after which
// the Cipher keeps a generated block for the next call, plus partial blocks,
// short calls and SetCounter, which must drop any block kept.
func TestLongCallSequences(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		key, nonce := bytes.Repeat([]byte{7}, 32), bytes.Repeat([]byte{9}, 12)
		calls := []int{
			16384, 16384, 16384 + 10, 18 * 64, 18 * 64, 35 * 64, 9 * 64, 17 * 64,
			5 * 64, 3, 13 * 64, 18*64 + 63, 1, 64, 256 * 64, 18 * 64, -5, 18 * 64,
			9*64 + 1, 16384, -1, 16384, 35*64 + 32, 64, 18 * 64,
		}
		a, _ := chacha20.NewUnauthenticatedCipher(key, nonce)
		b, _ := xchacha20.NewUnauthenticatedCipher(key, nonce)
		src := make([]byte, 20000)
		for i := range src {
			src[i] = byte(i * 31)
		}
		pos := 0 // bytes of keystream used
		for i, n := range calls {
			if n < 0 {
				// SetCounter -n blocks past the next block boundary (x/crypto
				// refuses to go back): any block kept is dropped or reused
				// at the right place.
				c := (pos+63)/64 + (-n) - 1
				a.SetCounter(uint32(c))
				b.SetCounter(uint32(c))
				pos = 64 * c
				continue
			}
			pos += n
			got, want := make([]byte, n), make([]byte, n)
			a.XORKeyStream(got, src[:n])
			b.XORKeyStream(want, src[:n])
			if !bytes.Equal(got, want) {
				t.Fatalf("call %d (%d bytes) differs from x/crypto", i, n)
			}
		}
	})
}

// TestInitUnauthenticatedCipherReuse: a Cipher set up again, after calls
// that left keystream in its buffer, after SetCounter and after Wipe, gives
// the keystream of a new one.
func TestInitUnauthenticatedCipherReuse(t *testing.T) {
	key, nonce := make([]byte, chacha20.KeySize), make([]byte, chacha20.NonceSize)
	for i := range key {
		key[i] = byte(i)
	}
	want := make([]byte, 300)
	fresh, err := chacha20.NewUnauthenticatedCipher(key, nonce)
	if err != nil {
		t.Fatal(err)
	}
	fresh.XORKeyStream(want, want)
	for _, used := range []func(c *chacha20.Cipher){
		func(c *chacha20.Cipher) { c.XORKeyStream(make([]byte, 70), make([]byte, 70)) },
		func(c *chacha20.Cipher) { c.SetCounter(7); c.XORKeyStream(make([]byte, 5), make([]byte, 5)) },
		func(c *chacha20.Cipher) { c.Wipe() },
	} {
		other := make([]byte, chacha20.KeySize)
		other[0] = 1
		c, _ := chacha20.NewUnauthenticatedCipher(other, make([]byte, chacha20.NonceSizeX))
		used(c)
		if got, err := chacha20.InitUnauthenticatedCipher(c, key, nonce); got != c || err != nil {
			t.Fatalf("InitUnauthenticatedCipher = %p, %v; want %p, nil", got, err, c)
		}
		got := make([]byte, len(want))
		c.XORKeyStream(got[:1], got[:1])
		c.XORKeyStream(got[1:], got[1:])
		if !bytes.Equal(got, want) {
			t.Errorf("keystream after reuse differs from a new Cipher's")
		}
	}
	if c, err := chacha20.InitUnauthenticatedCipher(new(chacha20.Cipher), key, nonce[:5]); c != nil || err == nil || err.Error() != "chacha20: wrong nonce size" {
		t.Errorf("bad nonce: %v, %v", c, err)
	}
}
