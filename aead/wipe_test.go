package aead

import (
	"bytes"
	"crypto/cipher"
	"fmt"
	"reflect"
	"testing"
)

func testKey() []byte {
	k := make([]byte, KeySize)
	for i := range k {
		k[i] = byte(i + 1)
	}
	return k
}

func keyOf(t *testing.T, a any) *[KeySize]byte {
	r, ok := a.(interface{ ref() keyRef })
	if !ok {
		t.Fatalf("unexpected type %T", a)
	}
	return r.ref().k.bytes()
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

// constructors pairs each constructor with x/crypto's.
var constructors = []struct {
	name       string
	ours, xref func([]byte) (cipher.AEAD, error)
}{
	{"New", New, xcpNew},
	{"NewX", NewX, xcpNewX},
}

// TestConstructorAllocs checks that New and NewX allocate no more than
// x/crypto's.
func TestConstructorAllocs(t *testing.T) {
	key := testKey()
	for _, c := range constructors {
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

// TestZeroKey checks the AEADs made from the all-zero key, which x/crypto
// accepts: their all-zero key must not read as wiped until Wipe runs, in
// Seal, Open and the batches; keys with some zero words are ordinary keys.
func TestZeroKey(t *testing.T) {
	keys := map[string][]byte{"zero": make([]byte, KeySize)}
	for _, w := range []int{0, 1, 2, 3} {
		k := make([]byte, KeySize)
		k[w*8+7] = 0x80 // one bit set, in word w
		keys[fmt.Sprintf("bit in word %d", w)] = k
	}
	for name, key := range keys {
		for _, c := range constructors {
			t.Run(name+"/"+c.name, func(t *testing.T) {
				ours, theirs := must(c.ours(key)), must(c.xref(key))
				nonce := make([]byte, ours.NonceSize())
				var msgs []Message
				for _, n := range []int{0, 1, 64, 300, 1100} {
					pt := make([]byte, n)
					want := theirs.Seal(nil, nonce, pt, []byte("ad"))
					if got := ours.Seal(nil, nonce, pt, []byte("ad")); !bytes.Equal(got, want) {
						t.Fatalf("Seal of %d bytes differs from x/crypto's", n)
					}
					if _, err := ours.Open(nil, nonce, want, []byte("ad")); err != nil {
						t.Fatalf("Open of %d bytes: %v", n, err)
					}
					msgs = append(msgs, Message{Nonce: nonce, Text: want, AdditionalData: []byte("ad")})
				}
				if err := ours.(Batch).OpenBatch(msgs); err != nil {
					t.Fatalf("OpenBatch: %v", err)
				}
				ours.(Wiper).Wipe()
				if k := keyOf(t, ours); !isZero(k[:]) {
					t.Errorf("key memory after Wipe: %x", k[:])
				}
				for what, f := range map[string]func(){
					"Seal":      func() { ours.Seal(nil, nonce, nil, nil) },
					"Open":      func() { ours.Open(nil, nonce, make([]byte, 16), nil) },
					"SealBatch": func() { ours.(Batch).SealBatch(msgs[:1]) },
				} {
					func() {
						defer func() {
							if r := recover(); r != "chacha20poly1305: use of an AEAD after Wipe" {
								t.Errorf("%s after Wipe: panic %v", what, r)
							}
						}()
						f()
					}()
				}
			})
		}
	}
	r := must(NewXWithRandomNonce(make([]byte, KeySize)))
	ct := r.Seal(nil, nil, []byte("x"), nil)
	if pt, err := must(xcpNewX(make([]byte, KeySize))).Open(nil, ct[:NonceSizeX], ct[NonceSizeX:], nil); err != nil || string(pt) != "x" {
		t.Errorf("NewXWithRandomNonce with the zero key: %q, %v", pt, err)
	}
	r.(Wiper).Wipe()
	defer func() {
		if p := recover(); p != "chacha20poly1305: use of an AEAD after Wipe" {
			t.Errorf("NewXWithRandomNonce Seal after Wipe: panic %v", p)
		}
	}()
	r.Seal(nil, nil, nil, nil)
}

// TestAEADSize checks that the AEAD objects are no bigger than x/crypto's,
// which keeps New's allocation in the same size class.
func TestAEADSize(t *testing.T) {
	key := testKey()
	for _, c := range constructors {
		ours := reflect.TypeOf(must(c.ours(key))).Elem().Size()
		theirs := reflect.TypeOf(must(c.xref(key))).Elem().Size()
		if ours > theirs {
			t.Errorf("%s: %d-byte object, x/crypto's is %d", c.name, ours, theirs)
		}
	}
}
