package chacha20

import (
	"bytes"
	"runtime"
	"testing"
	"time"
)

func isZero(b []byte) bool { return bytes.Equal(b, make([]byte, len(b))) }

// secretBytes returns the bytes of the key-derived allocation: the state and
// the keystream buffer.
func secretBytes(k *secrets) []byte {
	var b []byte
	for _, w := range k.s.Key {
		b = append(b, byte(w), byte(w>>8), byte(w>>16), byte(w>>24))
	}
	for _, w := range k.s.Nonce {
		b = append(b, byte(w), byte(w>>8), byte(w>>16), byte(w>>24))
	}
	b = append(b, byte(k.s.Counter))
	return append(b, k.buf[:]...)
}

func newTestCipher(t *testing.T, nonceSize int) *Cipher {
	key := bytes.Repeat([]byte{7}, KeySize)
	c, err := NewUnauthenticatedCipher(key, bytes.Repeat([]byte{9}, nonceSize))
	if err != nil {
		t.Fatal(err)
	}
	// Leave keystream in the buffer.
	buf := make([]byte, 10)
	c.XORKeyStream(buf, buf)
	return c
}

func TestWipe(t *testing.T) {
	for _, n := range []int{NonceSize, NonceSizeX} {
		c := newTestCipher(t, n)
		k := c.k
		if isZero(secretBytes(k)) {
			t.Fatal("nothing to wipe")
		}
		c.Wipe()
		if !isZero(secretBytes(k)) {
			t.Errorf("nonce %d: secrets after Wipe: %x", n, secretBytes(k))
		}
		for name, f := range map[string]func(){
			"XORKeyStream":        func() { c.XORKeyStream(make([]byte, 1), make([]byte, 1)) },
			"XORKeyStream(empty)": func() { c.XORKeyStream(nil, nil) },
			"SetCounter":          func() { c.SetCounter(100) },
		} {
			func() {
				defer func() {
					if r := recover(); r != "chacha20: use of a Cipher after Wipe" {
						t.Errorf("%s after Wipe: panic %v", name, r)
					}
				}()
				f()
			}()
		}
	}
}

func TestWipeAtGC(t *testing.T) {
	for _, n := range []int{NonceSize, NonceSizeX} {
		k := func() *secrets { return newTestCipher(t, n).k }()
		deadline := time.Now().Add(10 * time.Second)
		for !isZero(secretBytes(k)) {
			if time.Now().After(deadline) {
				t.Fatalf("nonce %d: secrets not wiped 10 s after the Cipher became unreachable", n)
			}
			runtime.GC()
			time.Sleep(time.Millisecond)
		}
	}
}
