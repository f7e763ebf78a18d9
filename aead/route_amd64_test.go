//go:build gc && !purego

package aead

import (
	"testing"

	"github.com/chachakit/chachakit/internal/aeadasm"
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
