package main

import (
	"bytes"
	"crypto/cipher"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"os"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/crypto/chacha20"
	"golang.org/x/crypto/chacha20poly1305"
	"golang.org/x/crypto/poly1305"
)

// TestDigest seals, opens and encrypts a fixed set of messages and writes
// the SHA-256 of every output to the file $CONSUMER_DIGEST, so that the
// runs before and after the swap can be compared byte for byte.
func TestDigest(t *testing.T) {
	h := sha256.New()
	key := make([]byte, 32)
	for i := range key {
		key[i] = byte(i*7 + 1)
	}
	for _, x := range []bool{false, true} {
		var a cipher.AEAD
		var err error
		if x {
			a, err = chacha20poly1305.NewX(key)
		} else {
			a, err = chacha20poly1305.New(key)
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{0, 1, 15, 16, 63, 64, 65, 127, 128, 255, 256, 511, 1024, 1350, 4097} {
			nonce := bytes.Repeat([]byte{byte(n)}, a.NonceSize())
			msg := bytes.Repeat([]byte{byte(n + 3)}, n)
			ad := []byte(strings.Repeat("ad", n%7))
			ct := a.Seal(nil, nonce, msg, ad)
			h.Write(ct)
			pt, err := a.Open(nil, nonce, ct, ad)
			if err != nil || !bytes.Equal(pt, msg) {
				t.Fatalf("NewX=%v len %d: round trip failed: %v", x, n, err)
			}
			ct[0] ^= 1
			if _, err := a.Open(nil, nonce, ct, ad); err == nil {
				t.Fatalf("NewX=%v len %d: Open accepted a forged message", x, n)
			} else {
				h.Write([]byte(err.Error()))
			}
		}
	}
	for _, nonceSize := range []int{chacha20.NonceSize, chacha20.NonceSizeX} {
		c, err := chacha20.NewUnauthenticatedCipher(key, make([]byte, nonceSize))
		if err != nil {
			t.Fatal(err)
		}
		c.SetCounter(3)
		buf := make([]byte, 1000)
		for _, step := range []int{1, 63, 64, 65, 200, 607} {
			c.XORKeyStream(buf[:step], buf[:step])
			h.Write(buf[:step])
		}
	}
	sub, err := chacha20.HChaCha20(key, make([]byte, 16))
	if err != nil {
		t.Fatal(err)
	}
	h.Write(sub)
	if _, err := chacha20.NewUnauthenticatedCipher(key[:31], make([]byte, 12)); err != nil {
		h.Write([]byte(err.Error()))
	}
	if name := os.Getenv("CONSUMER_DIGEST"); name != "" {
		if err := os.WriteFile(name, []byte(hex.EncodeToString(h.Sum(nil))), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

// TestImplementation checks that the cipher types come from the packages
// whose path starts with $CONSUMER_WANT.
func TestImplementation(t *testing.T) {
	want := os.Getenv("CONSUMER_WANT")
	if want == "" {
		t.Skip("CONSUMER_WANT not set")
	}
	key := bytes.Repeat([]byte{1}, 32)
	a, _ := chacha20poly1305.New(key)
	x, _ := chacha20poly1305.NewX(key)
	c, _ := chacha20.NewUnauthenticatedCipher(key, make([]byte, 12))
	for _, v := range []any{a, x, c} {
		if p := reflect.TypeOf(v).Elem().PkgPath(); !strings.HasPrefix(p, want) {
			t.Errorf("%T comes from %s, want a package under %s", v, p, want)
		}
	}
}

// TestAllocs checks that the per-packet uses of chacha20 in QUIC header
// protection and in x/crypto/ssh's chacha20-poly1305 allocate nothing: the
// Cipher stays on the stack.
func TestAllocs(t *testing.T) {
	key := bytes.Repeat([]byte{2}, 32)
	var sample [16]byte
	var mask [5]byte
	quic := testing.AllocsPerRun(100, func() {
		sample[0]++
		c, _ := chacha20.NewUnauthenticatedCipher(key, sample[4:])
		c.SetCounter(binary.LittleEndian.Uint32(sample[:4]))
		c.XORKeyStream(mask[:], mask[:])
	})
	if quic != 0 {
		t.Errorf("QUIC header protection: %v allocations per packet, want 0", quic)
	}

	var lengthKey, contentKey [32]byte
	copy(contentKey[:], key)
	lengthKey[0] = 9
	payload := bytes.Repeat([]byte{5}, 100)
	packet := make([]byte, 4+1+len(payload)+16+poly1305.TagSize)
	seq := uint32(0)
	ssh := testing.AllocsPerRun(100, func() {
		seq++
		nonce := make([]byte, 12)
		binary.BigEndian.PutUint32(nonce[8:], seq)
		s, _ := chacha20.NewUnauthenticatedCipher(contentKey[:], nonce)
		var polyKey, discard [32]byte
		s.XORKeyStream(polyKey[:], polyKey[:])
		s.XORKeyStream(discard[:], discard[:])
		end := len(packet) - poly1305.TagSize
		binary.BigEndian.PutUint32(packet, uint32(end-4))
		ls, _ := chacha20.NewUnauthenticatedCipher(lengthKey[:], nonce)
		ls.XORKeyStream(packet[:4], packet[:4])
		copy(packet[5:], payload)
		s.XORKeyStream(packet[4:end], packet[4:end])
		var mac [poly1305.TagSize]byte
		poly1305.Sum(&mac, packet[:end], &polyKey)
		copy(packet[end:], mac[:])
	})
	if ssh != 0 {
		t.Errorf("x/crypto/ssh chacha20-poly1305 packet: %v allocations per packet, want 0", ssh)
	}
}
