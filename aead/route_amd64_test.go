//go:build gc && !purego

package aead

import (
	"bytes"
	"testing"

	"github.com/chachakit/chachakit/internal/aeadasm"
	xcp "golang.org/x/crypto/chacha20poly1305"
)

// BenchmarkSmallMax measures the choice X86AEADFor makes per core: Seal and
// Open of 65..192-byte messages through the small kernels (smallMax 192)
// against the short path (smallMax 64), with 13 bytes of additional data.
func BenchmarkSmallMax(b *testing.B) {
	if !aeadasm.Available().Has(aeadasm.SmallAVX512) && !aeadasm.Available().Has(aeadasm.SmallAVX2) {
		b.Skip("no small kernel on this CPU")
	}
	a, _ := New(make([]byte, KeySize))
	nonce := make([]byte, NonceSize)
	ad := make([]byte, 13)
	defer func(m int) { smallMax = m }(smallMax)
	for _, size := range []int{64, 96, 128, 160, 192} {
		pt := make([]byte, size)
		ct := a.Seal(nil, nonce, pt, ad)
		dst := make([]byte, size+Overhead)
		for _, m := range []int{192, 64} {
			smallMax = m
			name := map[int]string{192: "kernel", 64: "short"}[m]
			b.Run("op=Seal/route="+name+"/size="+itoa(size), func(b *testing.B) {
				smallMax = m
				b.SetBytes(int64(size))
				for b.Loop() {
					a.Seal(dst[:0], nonce, pt, ad)
				}
			})
			b.Run("op=Open/route="+name+"/size="+itoa(size), func(b *testing.B) {
				smallMax = m
				b.SetBytes(int64(size))
				for b.Loop() {
					if _, err := a.Open(dst[:0], nonce, ct, ad); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestSmallMaxRoutes runs Seal and Open of 0..200 bytes against x/crypto
// with the small kernels' reach at both values X86AEADFor gives, so that
// the route of every core is tested on every CPU: results, in-place use,
// and a forged message's zeroed dst.
func TestSmallMaxRoutes(t *testing.T) {
	defer func(m int) { smallMax = m }(smallMax)
	key := make([]byte, KeySize)
	for i := range key {
		key[i] = byte(i * 7)
	}
	ours, _ := New(key)
	ref, _ := xcp.New(key)
	nonce := make([]byte, NonceSize)
	for _, m := range []int{64, 192} {
		smallMax = m
		for n := 0; n <= 200; n++ {
			ad := make([]byte, n%70)
			pt := make([]byte, n)
			for i := range pt {
				pt[i] = byte(n + i)
			}
			nonce[0] = byte(n)
			want := ref.Seal(nil, nonce, pt, ad)
			buf := append(bytes.Clone(pt), make([]byte, Overhead)...)
			got := ours.Seal(buf[:0], nonce, buf[:n], ad)
			if !bytes.Equal(got, want) {
				t.Fatalf("smallMax %d, n=%d: Seal in place differs from x/crypto", m, n)
			}
			if p, err := ours.Open(got[:0], nonce, got, ad); err != nil || !bytes.Equal(p, pt) {
				t.Fatalf("smallMax %d, n=%d: Open in place: %v", m, n, err)
			}
			bad := bytes.Clone(want)
			bad[len(bad)-1] ^= 1
			dst := bytes.Repeat([]byte{0xaa}, n)
			if _, err := ours.Open(dst[:0], nonce, bad, ad); err == nil || !bytes.Equal(dst, make([]byte, n)) {
				t.Fatalf("smallMax %d, n=%d: forged Open: %v, dst not zeroed", m, n, err)
			}
		}
	}
}
