//go:build gc && !purego

package aead

import (
	"bytes"
	"crypto/cipher"
	"testing"

	"github.com/chachakit/chachakit/internal/aeadasm"
)

// TestSmallRoutes: up to each small kernel's reach with at most 64 bytes of
// additional data, the route takes the AVX-512 small kernel where it runs
// and the AVX2 one only where it does not, and with AVX2 only an Open of
// 321 to 576 bytes takes OpenFirstAVX2; and every length 0..600 with
// additional data of 0..69 bytes seals and opens as x/crypto's does.
func TestSmallRoutes(t *testing.T) {
	k := aeadasm.Available()
	ours, ref, nonce := routeAEADs(3)
	for n := 0; n <= 600; n++ {
		for _, adLen := range []int{0, 13, 64, 65} {
			for _, open := range []bool{false, true} {
				got := pick(n, adLen, open)
				var want aeadasm.Kernel
				switch {
				case adLen > aeadasm.SmallADMax:
				case k.Has(aeadasm.SmallAVX512) && n <= aeadasm.SmallAVX512Max:
					want = aeadasm.SmallAVX512
				case open && !k.Has(aeadasm.StitchedAVX512) && k.Has(aeadasm.OpenFirstAVX2) && n > 5*64 && n <= aeadasm.OpenFirstAVX2Max:
					want = aeadasm.OpenFirstAVX2
				case !k.Has(aeadasm.SmallAVX512) && k.Has(aeadasm.SmallAVX2) && n <= aeadasm.SmallAVX2Max:
					want = aeadasm.SmallAVX2
				}
				if want != aeadasm.None && got != want || want == aeadasm.None && (got == aeadasm.SmallAVX512 || got == aeadasm.SmallAVX2 || got == aeadasm.OpenFirstAVX2) {
					t.Fatalf("n=%d, ad=%d, open %v: route %d, want %d", n, adLen, open, got, want)
				}
			}
		}
		pt := make([]byte, n)
		for i := range pt {
			pt[i] = byte(n ^ i)
		}
		nonce[1] = byte(n)
		checkRoute(t, ours, ref, nonce, pt, make([]byte, n%70), "small routes")
	}
}

// routeAEADs returns ChaCha20-Poly1305 of chachakit and of x/crypto with
// the key i*mult, i = 0..31, and a zero nonce.
func routeAEADs(mult int) (ours, ref cipher.AEAD, nonce []byte) {
	key := make([]byte, KeySize)
	for i := range key {
		key[i] = byte(i * mult)
	}
	ours, _ = New(key)
	ref, _ = xcpNew(key)
	return ours, ref, make([]byte, NonceSize)
}

// checkRoute seals pt in place with ours and compares it with ref's Seal,
// opens the result in place and into a fresh slice, and opens a forged
// copy into a dst that must come back zeroed; what names the case.
func checkRoute(t *testing.T, ours, ref cipher.AEAD, nonce, pt, ad []byte, what string) {
	t.Helper()
	n := len(pt)
	want := ref.Seal(nil, nonce, pt, ad)
	buf := append(bytes.Clone(pt), make([]byte, Overhead)...)
	got := ours.Seal(buf[:0], nonce, buf[:n], ad)
	if !bytes.Equal(got, want) {
		t.Fatalf("%s, n=%d, ad=%d: Seal in place differs from x/crypto", what, n, len(ad))
	}
	if p, err := ours.Open(nil, nonce, want, ad); err != nil || !bytes.Equal(p, pt) {
		t.Fatalf("%s, n=%d: Open: %v", what, n, err)
	}
	if p, err := ours.Open(got[:0], nonce, got, ad); err != nil || !bytes.Equal(p, pt) {
		t.Fatalf("%s, n=%d: Open in place: %v", what, n, err)
	}
	bad := bytes.Clone(want)
	bad[n/2] ^= 4
	dst := bytes.Repeat([]byte{0xaa}, n)
	if _, err := ours.Open(dst[:0], nonce, bad, ad); err == nil || !bytes.Equal(dst, make([]byte, n)) {
		t.Fatalf("%s, n=%d: forged Open: %v, dst not zeroed", what, n, err)
	}
}
