package aead_test

import (
	"bytes"
	"crypto/cipher"
	"testing"

	"github.com/chachakit/chachakit/aead"
	"github.com/chachakit/chachakit/internal/cryptotest"
	"github.com/chachakit/chachakit/vectors"
	"golang.org/x/crypto/chacha20poly1305"
)

// The constructors keep x/crypto's exact signatures, so either package's
// functions fit the same variables.
var (
	_ func([]byte) (cipher.AEAD, error) = aead.New
	_ func([]byte) (cipher.AEAD, error) = aead.NewX
)

func TestConstants(t *testing.T) {
	if aead.KeySize != chacha20poly1305.KeySize || aead.NonceSize != chacha20poly1305.NonceSize ||
		aead.NonceSizeX != chacha20poly1305.NonceSizeX || aead.Overhead != chacha20poly1305.Overhead {
		t.Error("constants differ from golang.org/x/crypto/chacha20poly1305")
	}
}

// TestConformance runs the AEAD suite, against x/crypto, under every ChaCha20
// implementation this CPU has.
func TestConformance(t *testing.T) {
	cryptotest.RunEach(t, []string{"chacha20", "poly1305"}, func(t *testing.T) {
		t.Run("ChaCha20Poly1305", func(t *testing.T) {
			cryptotest.TestAEAD(t, aead.New, chacha20poly1305.New)
		})
		t.Run("XChaCha20Poly1305", func(t *testing.T) {
			cryptotest.TestAEAD(t, aead.NewX, chacha20poly1305.NewX)
		})
	})
}

// TestRFCVectors checks RFC 8439 Section 2.8.2 and Appendix A.5, and
// draft-irtf-cfrg-xchacha-03 Appendix A.3.1.
func TestRFCVectors(t *testing.T) {
	cryptotest.RunEach(t, []string{"chacha20", "poly1305"}, func(t *testing.T) {
		for _, v := range append(append([]vectors.AEAD{}, vectors.RFC8439AEADs...), vectors.XChaChaAEADs...) {
			t.Run(v.Source, func(t *testing.T) {
				newAEAD := aead.New
				if len(v.Nonce) == aead.NonceSizeX {
					newAEAD = aead.NewX
				}
				a, err := newAEAD(v.Key)
				if err != nil {
					t.Fatal(err)
				}
				want := append(bytes.Clone(v.Ciphertext), v.Tag...)
				if got := a.Seal(nil, v.Nonce, v.Plaintext, v.AAD); !bytes.Equal(got, want) {
					t.Errorf("Seal = %x, want %x", got, want)
				}
				if got, err := a.Open(nil, v.Nonce, want, v.AAD); err != nil || !bytes.Equal(got, v.Plaintext) {
					t.Errorf("Open = %x, %v", got, err)
				}
			})
		}
	})
}

// TestWycheproof runs every case of Wycheproof's chacha20_poly1305_test.json
// and xchacha20_poly1305_test.json. Cases with a nonce of another size must
// panic exactly like x/crypto; the others must seal to the expected bytes
// when valid and fail to open when invalid.
func TestWycheproof(t *testing.T) {
	for _, set := range []struct {
		file      string
		load      func() ([]vectors.WycheproofAEADTest, error)
		ours, ref cryptotest.NewAEAD
		want      int
	}{
		{vectors.WycheproofChaCha20Poly1305File, vectors.WycheproofChaCha20Poly1305, aead.New, chacha20poly1305.New, 325},
		{vectors.WycheproofXChaCha20Poly1305File, vectors.WycheproofXChaCha20Poly1305, aead.NewX, chacha20poly1305.NewX, 315},
	} {
		tests, err := set.load()
		if err != nil {
			t.Fatal(err)
		}
		if len(tests) != set.want {
			t.Fatalf("%s: %d cases, want %d", set.file, len(tests), set.want)
		}
		cryptotest.RunEach(t, []string{"aead", "chacha20", "poly1305"}, func(t *testing.T) {
			var valid, invalid, nonceSize int
			for _, tc := range tests {
				a, err := set.ours(tc.Key)
				if err != nil {
					t.Fatalf("tcId %d: %v", tc.TcID, err)
				}
				b, _ := set.ref(tc.Key)
				ct := append(bytes.Clone(tc.CT), tc.Tag...)
				if len(tc.Nonce) != a.NonceSize() {
					nonceSize++
					if tc.Valid {
						t.Errorf("tcId %d: valid case with a %d-byte nonce", tc.TcID, len(tc.Nonce))
					}
					if got, want := panicOf(func() { a.Open(nil, tc.Nonce, ct, tc.AAD) }), panicOf(func() { b.Open(nil, tc.Nonce, ct, tc.AAD) }); got != want || got == "" {
						t.Errorf("tcId %d: Open panic %q, want %q", tc.TcID, got, want)
					}
					if got, want := panicOf(func() { a.Seal(nil, tc.Nonce, tc.Msg, tc.AAD) }), panicOf(func() { b.Seal(nil, tc.Nonce, tc.Msg, tc.AAD) }); got != want || got == "" {
						t.Errorf("tcId %d: Seal panic %q, want %q", tc.TcID, got, want)
					}
					continue
				}
				pt, err := a.Open(nil, tc.Nonce, ct, tc.AAD)
				if tc.Valid {
					valid++
					if err != nil || !bytes.Equal(pt, tc.Msg) {
						t.Errorf("tcId %d (%s): Open = %x, %v", tc.TcID, tc.Comment, pt, err)
					}
					if got := a.Seal(nil, tc.Nonce, tc.Msg, tc.AAD); !bytes.Equal(got, ct) {
						t.Errorf("tcId %d (%s): Seal = %x, want %x", tc.TcID, tc.Comment, got, ct)
					}
				} else {
					invalid++
					if err == nil {
						t.Errorf("tcId %d (%s): invalid case opened", tc.TcID, tc.Comment)
					}
				}
			}
			t.Logf("%s: %d cases ran: %d valid, %d invalid, %d with a wrong nonce size (panicked like x/crypto)",
				set.file, valid+invalid+nonceSize, valid, invalid, nonceSize)
		})
	}
}

func panicOf(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg, _ = r.(string)
			if msg == "" {
				msg = "(non-string panic)"
			}
		}
	}()
	f()
	return ""
}
