package aead

import (
	"bytes"
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
)

func newRandomNonce(t *testing.T) *randomNonce {
	a, err := NewXWithRandomNonce(testKey())
	if err != nil {
		t.Fatal(err)
	}
	return a.(*randomNonce)
}

// TestRandomNonceFormat checks that Seal's output is a fresh nonce followed
// by what NewX (chachakit's and x/crypto's) seals under it, and that Open
// opens it, at lengths that reach every path, under every implementation.
func TestRandomNonceFormat(t *testing.T) {
	cryptotest.RunEach(t, []string{"chacha20", "poly1305"}, testRandomNonceFormat)
}

func testRandomNonceFormat(t *testing.T) {
	r := newRandomNonce(t)
	if r.NonceSize() != 0 || r.Overhead() != 40 {
		t.Fatalf("NonceSize, Overhead = %d, %d; want 0, 40", r.NonceSize(), r.Overhead())
	}
	ref, _ := xcpNewX(testKey())
	ad := []byte("header")
	for _, n := range []int{0, 1, 16, 63, 64, 65, 192, 193, 449, 960, 1024, 1025, 2047, 2048, 4096, 9000} {
		pt := bytes.Repeat([]byte{byte(n)}, n)
		ct := r.Seal(nil, nil, pt, ad)
		if len(ct) != n+40 {
			t.Fatalf("%d bytes: Seal returns %d bytes, want %d", n, len(ct), n+40)
		}
		if want := ref.Seal(nil, ct[:NonceSizeX], pt, ad); !bytes.Equal(ct[NonceSizeX:], want) {
			t.Fatalf("%d bytes: Seal is not the nonce and x/crypto's NewX Seal under it", n)
		}
		if again := r.Seal(nil, nil, pt, ad); bytes.Equal(again[:NonceSizeX], ct[:NonceSizeX]) {
			t.Fatalf("%d bytes: two Seals drew the same nonce", n)
		}
		got, err := r.Open(nil, nil, ct, ad)
		if err != nil || !bytes.Equal(got, pt) {
			t.Fatalf("%d bytes: Open gives %v, plaintext equal %v", n, err, bytes.Equal(got, pt))
		}
		// In place both ways: dst = plaintext[:0] and dst = ciphertext[:0].
		buf := make([]byte, n, n+40)
		copy(buf, pt)
		sealed := r.Seal(buf[:0], nil, buf, ad)
		opened, err := r.Open(sealed[:0], nil, sealed, ad)
		if err != nil || !bytes.Equal(opened, pt) || &opened[:1][0] != &buf[:1][0] {
			t.Fatalf("%d bytes: in-place Seal and Open give %v, plaintext equal %v", n, err, bytes.Equal(opened, pt))
		}
		// Appending after a prefix.
		pre := []byte("prefix")
		out := r.Seal(pre, nil, pt, ad)
		if !bytes.Equal(out[:len(pre)], pre) {
			t.Fatalf("%d bytes: Seal does not append to dst", n)
		}
		if got, err := r.Open(pre, nil, out[len(pre):], ad); err != nil || !bytes.Equal(got[len(pre):], pt) {
			t.Fatalf("%d bytes: Open of an appended Seal: %v", n, err)
		}
	}
}

// TestRandomNonceRejects checks every rejection: a non-empty nonce, a
// ciphertext too short for nonce and tag, any changed byte (nonce,
// ciphertext, tag, additional data), and that a failed Open in place leaves
// no plaintext behind.
func TestRandomNonceRejects(t *testing.T) {
	r := newRandomNonce(t)
	for name, f := range map[string]func(){
		"Seal": func() { r.Seal(nil, make([]byte, NonceSizeX), nil, nil) },
		"Open": func() { r.Open(nil, make([]byte, 1), make([]byte, 40), nil) },
	} {
		func() {
			defer func() {
				if p := recover(); p != "chacha20poly1305: non-empty nonce passed to an AEAD with random nonces" {
					t.Errorf("%s with a nonce: panic %v", name, p)
				}
			}()
			f()
		}()
	}
	for n := range 40 {
		if _, err := r.Open(nil, nil, make([]byte, n), nil); err != errOpen {
			t.Errorf("Open of %d bytes: %v, want %v", n, err, errOpen)
		}
	}
	pt := bytes.Repeat([]byte{0xaa}, 100)
	ct := r.Seal(nil, nil, pt, []byte("ad"))
	for i := range ct {
		bad := bytes.Clone(ct)
		bad[i] ^= 1
		got, err := r.Open(bad[:0], nil, bad, []byte("ad"))
		if err != errOpen || got != nil {
			t.Fatalf("byte %d changed: Open gives %v", i, err)
		}
		if bytes.Contains(bad, pt[:16]) {
			t.Fatalf("byte %d changed: plaintext left in the buffer after a failed Open", i)
		}
	}
	if _, err := r.Open(nil, nil, ct, []byte("AD")); err != errOpen {
		t.Errorf("other additional data: %v", err)
	}
}

// TestRandomNonceAllocsAndWipe checks that Seal and Open allocate nothing
// and that Wipe reaches the key.
func TestRandomNonceAllocsAndWipe(t *testing.T) {
	r := newRandomNonce(t)
	checkNoAllocs(t, r)
	pt := make([]byte, 1000)
	r.Wipe()
	if !isZero(r.k.k.bytes()[:]) {
		t.Error("key memory after Wipe")
	}
	defer func() {
		if p := recover(); p != "chacha20poly1305: use of an AEAD after Wipe" {
			t.Errorf("Seal after Wipe: panic %v", p)
		}
	}()
	r.Seal(nil, nil, pt, nil)
}
