//go:build gc && !purego

package chacha20core

import "testing"

// TestRowProld runs the keystream tests (every block count to 50 at offsets
// 0..7 and in place, every length 0..1100 through XORKeyStream, the counter
// edge) with both row codes of the AVX512 path for one and two blocks,
// whichever this core prefers, so that xorRowsProldAVX512 is checked
// against the portable code on every CPU with AVX-512.
func TestRowProld(t *testing.T) {
	if !avx512CPU {
		t.Skip("no AVX-512 on this CPU")
	}
	defer func(v bool) { rowProld = v }(rowProld)
	for _, prold := range []bool{false, true} {
		rowProld = prold
		t.Run(map[bool]string{false: "shifts", true: "prold"}[prold], func(t *testing.T) {
			TestXORBlocks(t)
			TestXORKeyStreamLengths(t)
			TestCounterWrap(t)
		})
	}
}
