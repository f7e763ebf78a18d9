package aead

import (
	"bytes"
	"crypto/cipher"
	"testing"

	xchacha "golang.org/x/crypto/chacha20poly1305"
)

func testKey() []byte {
	k := make([]byte, KeySize)
	for i := range k {
		k[i] = byte(i + 1)
	}
	return k
}

func keyOf(t *testing.T, a any) *[KeySize]byte {
	switch a := a.(type) {
	case *chacha20poly1305:
		return &a.k
	case *xchacha20poly1305:
		return &a.k
	}
	t.Fatalf("unexpected type %T", a)
	return nil
}

func isZero(b []byte) bool { return bytes.Equal(b, make([]byte, len(b))) }

// TestWipe looks at the key memory after Wipe, and checks that the AEAD can
// no longer be used.
func TestWipe(t *testing.T) {
	for _, newAEAD := range []struct {
		name string
		f    func([]byte) (any, error)
	}{
		{"New", func(k []byte) (any, error) { return New(k) }},
		{"NewX", func(k []byte) (any, error) { return NewX(k) }},
	} {
		t.Run(newAEAD.name, func(t *testing.T) {
			a, err := newAEAD.f(testKey())
			if err != nil {
				t.Fatal(err)
			}
			k := keyOf(t, a)
			if !bytes.Equal(k[:], testKey()) {
				t.Fatal("key not stored")
			}
			a.(Wiper).Wipe()
			if !isZero(k[:]) {
				t.Errorf("key memory after Wipe: %x", k[:])
			}
			c := a.(interface {
				Seal(dst, nonce, plaintext, ad []byte) []byte
				Open(dst, nonce, ciphertext, ad []byte) ([]byte, error)
				NonceSize() int
			})
			nonce := make([]byte, c.NonceSize())
			for name, f := range map[string]func(){
				"Seal": func() { c.Seal(nil, nonce, []byte("x"), nil) },
				"Open": func() { c.Open(nil, nonce, make([]byte, 17), nil) },
			} {
				func() {
					defer func() {
						if r := recover(); r != "chacha20poly1305: use of an AEAD after Wipe" {
							t.Errorf("%s after Wipe: panic %v", name, r)
						}
					}()
					f()
				}()
			}
		})
	}
}

// TestConstructorAllocs checks that New and NewX allocate no more than
// x/crypto's.
func TestConstructorAllocs(t *testing.T) {
	key := testKey()
	for _, c := range []struct {
		name       string
		ours, xref func([]byte) (cipher.AEAD, error)
	}{
		{"New", New, xchacha.New},
		{"NewX", NewX, xchacha.NewX},
	} {
		ours := testing.AllocsPerRun(100, func() { sink = must(c.ours(key)) })
		theirs := testing.AllocsPerRun(100, func() { sink = must(c.xref(key)) })
		if ours > theirs {
			t.Errorf("%s: %v allocations, x/crypto's %v", c.name, ours, theirs)
		}
	}
}

var sink cipher.AEAD

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestSealOpenAllocs checks that the wipes added nothing per call.
func TestSealOpenAllocs(t *testing.T) {
	for _, newAEAD := range []func([]byte) (cipher.AEAD, error){New, NewX} {
		checkNoAllocs(t, must(newAEAD(testKey())))
	}
}

// checkNoAllocs checks that Seal and Open of 1000 bytes with a's nonce size
// allocate nothing when dst has the capacity.
func checkNoAllocs(t *testing.T, a cipher.AEAD) {
	t.Helper()
	nonce := make([]byte, a.NonceSize())
	pt := make([]byte, 1000)
	buf := make([]byte, 0, 1000+a.Overhead())
	ct := a.Seal(nil, nonce, pt, nil)
	if n := testing.AllocsPerRun(20, func() { a.Seal(buf[:0], nonce, pt, nil) }); n != 0 {
		t.Errorf("%T Seal: %v allocations", a, n)
	}
	if n := testing.AllocsPerRun(20, func() { a.Open(buf[:0], nonce, ct, nil) }); n != 0 {
		t.Errorf("%T Open: %v allocations", a, n)
	}
}
