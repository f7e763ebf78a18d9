package chacha20

import (
	"bytes"
	"testing"
	"unsafe"
)

func isZero(b []byte) bool { return bytes.Equal(b, make([]byte, len(b))) }

// secretBytes returns the key-derived part of c: the state and the
// keystream buffer.
func secretBytes(c *Cipher) []byte {
	s := unsafe.Slice((*byte)(unsafe.Pointer(&c.s)), unsafe.Sizeof(c.s))
	return append(bytes.Clone(s), c.buf[:]...)
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

// TestWipe looks at the Cipher's memory after Wipe, and checks that the
// Cipher can no longer be used.
func TestWipe(t *testing.T) {
	for _, n := range []int{NonceSize, NonceSizeX} {
		c := newTestCipher(t, n)
		if isZero(secretBytes(c)) {
			t.Fatal("nothing to wipe")
		}
		c.Wipe()
		if !isZero(secretBytes(c)) {
			t.Errorf("nonce %d: secrets after Wipe: %x", n, secretBytes(c))
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

// headerMask is QUIC header protection with ChaCha20 (RFC 9001, Section
// 5.4.4), written as quic-go writes it: a Cipher per packet that does not
// escape.
func headerMask(mask *[5]byte, hp, sample []byte) {
	c, err := NewUnauthenticatedCipher(hp, sample[4:])
	if err != nil {
		panic(err)
	}
	c.SetCounter(uint32(sample[0]) | uint32(sample[1])<<8 | uint32(sample[2])<<16 | uint32(sample[3])<<24)
	clear(mask[:])
	c.XORKeyStream(mask[:], mask[:])
}

// TestConstructorAllocs checks that a Cipher that does not escape costs no
// allocation, as with x/crypto, whose constructor inlines for that reason.
func TestConstructorAllocs(t *testing.T) {
	hp, sample := bytes.Repeat([]byte{1}, KeySize), bytes.Repeat([]byte{2}, 16)
	var mask [5]byte
	if n := testing.AllocsPerRun(100, func() { headerMask(&mask, hp, sample) }); n != 0 {
		t.Errorf("NewUnauthenticatedCipher, SetCounter and XORKeyStream: %v allocations", n)
	}
	x := bytes.Repeat([]byte{3}, NonceSizeX)
	if n := testing.AllocsPerRun(100, func() {
		c, _ := NewUnauthenticatedCipher(hp, x)
		c.XORKeyStream(mask[:], mask[:])
		c.Wipe()
	}); n != 0 {
		t.Errorf("XChaCha20 NewUnauthenticatedCipher, XORKeyStream and Wipe: %v allocations", n)
	}
	// A Cipher that escapes is one allocation, as with x/crypto.
	if n := testing.AllocsPerRun(100, func() {
		escaped, _ = NewUnauthenticatedCipher(hp, sample[4:])
		escaped.XORKeyStream(mask[:], mask[:])
	}); n != 1 {
		t.Errorf("escaping NewUnauthenticatedCipher and XORKeyStream: %v allocations, want 1", n)
	}
}

// escaped makes the Cipher of TestConstructorAllocs's last case escape.
var escaped *Cipher

// TestZeroCipher checks that a zero Cipher runs under the all-zero key and
// nonce, as x/crypto's does, and can be wiped.
func TestZeroCipher(t *testing.T) {
	var z Cipher
	got := make([]byte, 100)
	z.XORKeyStream(got, got)
	c, _ := NewUnauthenticatedCipher(make([]byte, KeySize), make([]byte, NonceSize))
	want := make([]byte, 100)
	c.XORKeyStream(want, want)
	if !bytes.Equal(got, want) {
		t.Errorf("zero Cipher gives %x, want %x", got, want)
	}
	z.Wipe()
	if !isZero(secretBytes(&z)) {
		t.Error("zero Cipher not wiped")
	}
}
