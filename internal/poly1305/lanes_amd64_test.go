//go:build gc && !purego

package poly1305

import (
	"math/big"
	"testing"
)

// TestLimbs64 checks the conversion from 44-bit limbs at the limbs' bounds.
func TestLimbs64(t *testing.T) {
	for _, l := range [][3]uint64{{0, 0, 0}, {mask44, mask44, mask42}, {1<<60 - 1, 1<<60 - 1, 1<<60 - 1}, {1 << 44, 1 << 44, 1 << 42}} {
		got := limbs64(l[0], l[1], l[2])
		// Both forms, reduced modulo 2^130-5 by big.Int arithmetic.
		if !sameMod(got, l) {
			t.Errorf("limbs64(%x) = %x", l, got)
		}
	}
}

// sameMod reports whether h (64-bit limbs) and l (44-bit limbs) are the
// same number modulo 2^130-5.
func sameMod(h, l [3]uint64) bool {
	p := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 130), big.NewInt(5))
	num := func(limbs [3]uint64, bits uint) *big.Int {
		x := new(big.Int)
		for i := 2; i >= 0; i-- {
			x.Lsh(x, bits)
			x.Add(x, new(big.Int).SetUint64(limbs[i]))
		}
		return x.Mod(x, p)
	}
	return num(h, 64).Cmp(num(l, 44)) == 0
}
