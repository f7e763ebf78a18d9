//go:build gc && !purego

package chacha20core

import (
	"strconv"
	"testing"
)

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

// BenchmarkRowProld measures the choice X86ChaCha20For makes per core: one
// and two blocks and HChaCha20 with either row code.
func BenchmarkRowProld(b *testing.B) {
	if !avx512CPU {
		b.Skip("no AVX-512 on this CPU")
	}
	defer func(v bool) { rowProld = v }(rowProld)
	for _, prold := range []bool{false, true} {
		rounds := map[bool]string{false: "shifts", true: "prold"}[prold]
		for _, n := range []int{64, 128} {
			b.Run("op=XORBlocks/rounds="+rounds+"/size="+strconv.Itoa(n), func(b *testing.B) {
				rowProld = prold
				var s State
				buf := make([]byte, n)
				b.SetBytes(int64(n))
				for b.Loop() {
					XORBlocks(&s, buf, buf)
				}
			})
		}
		b.Run("op=HChaCha20/rounds="+rounds, func(b *testing.B) {
			rowProld = prold
			var out, key [32]byte
			var nonce [16]byte
			for b.Loop() {
				HChaCha20(&out, &key, &nonce)
			}
		})
	}
}
