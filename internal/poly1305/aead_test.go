package poly1305

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
	//lint:ignore SA1019 the deprecated package is the reference this one is tested against
	xpoly "golang.org/x/crypto/poly1305"
)

// TestSumAEAD compares SumAEAD with x/crypto/poly1305 over the padded input
// built byte by byte, for additional data of 0..40 bytes and ciphertexts
// of 0..300 bytes (both sides of the one-buffer limit), under every
// implementation.
func TestSumAEAD(t *testing.T) {
	cryptotest.Run(t, "poly1305", func(t *testing.T) {
		r := rand.New(rand.NewPCG(21, 22))
		data := make([]byte, 400)
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		for adLen := 0; adLen <= 40; adLen++ {
			for ctLen := 0; ctLen <= 300; ctLen += 1 + ctLen/40 {
				var key [KeySize]byte
				for i := range key {
					key[i] = byte(r.Uint32())
				}
				ad, ct := data[:adLen], data[100:100+ctLen]
				var in []byte
				in = append(in, ad...)
				in = append(in, make([]byte, padded(adLen)-adLen)...)
				in = append(in, ct...)
				in = append(in, make([]byte, padded(ctLen)-ctLen)...)
				in = binary.LittleEndian.AppendUint64(in, uint64(adLen))
				in = binary.LittleEndian.AppendUint64(in, uint64(ctLen))
				var want, got [TagSize]byte
				xpoly.Sum(&want, in, &key)
				SumAEAD(&got, &key, ad, ct)
				if got != want {
					t.Fatalf("ad %d ct %d: tag %x, want %x", adLen, ctLen, got, want)
				}
			}
		}
	})
}

func TestSumAEADAllocs(t *testing.T) {
	var key [KeySize]byte
	var out [TagSize]byte
	ad, ct := make([]byte, 13), make([]byte, 1350)
	if n := testing.AllocsPerRun(20, func() {
		SumAEAD(&out, &key, ad, ct[:64])
		SumAEAD(&out, &key, ad, ct)
	}); n != 0 {
		t.Fatalf("%v allocations per run, want 0", n)
	}
}
