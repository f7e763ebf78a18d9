package aead

import (
	"bytes"
	"runtime"
	"testing"
	"time"
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
		return a.k
	case *xchacha20poly1305:
		return a.k
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

// TestWipeAtGC drops an AEAD and waits, boundedly, for the garbage collector
// to run the cleanup that wipes its key.
func TestWipeAtGC(t *testing.T) {
	for _, x := range []bool{false, true} {
		k := func() *[KeySize]byte {
			var a any
			if x {
				a, _ = NewX(testKey())
			} else {
				a, _ = New(testKey())
			}
			return keyOf(t, a)
		}()
		if isZero(k[:]) {
			t.Fatal("key not stored")
		}
		deadline := time.Now().Add(10 * time.Second)
		for !isZero(k[:]) {
			if time.Now().After(deadline) {
				t.Fatalf("X=%v: key memory not wiped 10 s after the AEAD became unreachable: %x", x, k[:])
			}
			runtime.GC()
			time.Sleep(time.Millisecond)
		}
	}
}

// TestSealOpenAllocs checks that the wipes added nothing per call.
func TestSealOpenAllocs(t *testing.T) {
	for _, f := range []func([]byte) (interface {
		Seal(dst, nonce, plaintext, ad []byte) []byte
		Open(dst, nonce, ciphertext, ad []byte) ([]byte, error)
		NonceSize() int
	}, error){
		func(k []byte) (interface {
			Seal(dst, nonce, plaintext, ad []byte) []byte
			Open(dst, nonce, ciphertext, ad []byte) ([]byte, error)
			NonceSize() int
		}, error) {
			return New(k)
		},
		func(k []byte) (interface {
			Seal(dst, nonce, plaintext, ad []byte) []byte
			Open(dst, nonce, ciphertext, ad []byte) ([]byte, error)
			NonceSize() int
		}, error) {
			return NewX(k)
		},
	} {
		a, _ := f(testKey())
		nonce := make([]byte, a.NonceSize())
		pt := make([]byte, 1000)
		buf := make([]byte, 0, 2000)
		ct := a.Seal(nil, nonce, pt, nil)
		if n := testing.AllocsPerRun(20, func() { a.Seal(buf[:0], nonce, pt, nil) }); n != 0 {
			t.Errorf("Seal: %v allocations", n)
		}
		if n := testing.AllocsPerRun(20, func() { a.Open(buf[:0], nonce, ct, nil) }); n != 0 {
			t.Errorf("Open: %v allocations", n)
		}
	}
}
