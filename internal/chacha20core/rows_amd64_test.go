//go:build gc && !purego

package chacha20core

import (
	"strconv"
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
)

// needAVX512 skips a test of an AVX-512 row variant on a CPU without
// AVX-512, or fails it in strict mode unless CHACHAKIT_ABSENT names
// chacha20/AVX512 (the qemu rows of CPUs without it do).
func needAVX512(t *testing.T) {
	t.Helper()
	if avx512CPU {
		return
	}
	if cryptotest.Strict() && !cryptotest.AbsentAllowed("chacha20", "AVX512") {
		t.Fatal("no AVX-512 on this CPU, and CHACHAKIT_STRICT=1 expects the AVX-512 row variants to run")
	}
	t.Skip("no AVX-512 on this CPU")
}

// TestRowProld runs the keystream tests (every block count to 50 at offsets
// 0..7 and in place, every length 0..1100 through XORKeyStream, the counter
// edge) with both row codes of the AVX512 path for one and two blocks (one
// block in the row code even where the core prefers xorBlockScalar),
// whichever this core prefers, so that xorRowsProldAVX512 is checked
// against the portable code on every CPU with AVX-512.
func TestRowProld(t *testing.T) {
	needAVX512(t)
	defer func(v bool) { blockScalar = v }(blockScalar)
	blockScalar = false // one block in the row code too
	keystreamBothWays(t, &rowProld, [2]string{"shifts", "prold"})
}

// keystreamBothWays runs the keystream tests as two subtests, named by
// names, with *knob false and then true, and restores *knob.
func keystreamBothWays(t *testing.T, knob *bool, names [2]string) {
	defer func(v bool) { *knob = v }(*knob)
	for i, on := range []bool{false, true} {
		*knob = on
		t.Run(names[i], func(t *testing.T) {
			TestXORBlocks(t)
			TestXORKeyStreamLengths(t)
			TestCounterWrap(t)
		})
	}
}

// BenchmarkRowProld measures the choice X86ChaCha20For makes per core: one
// and two blocks and HChaCha20 with either row code (also where the core
// takes the scalar code for one block and HChaCha20).
func BenchmarkRowProld(b *testing.B) {
	if !avx512CPU {
		b.Skip("no AVX-512 on this CPU")
	}
	defer func(v, w, h bool) { rowProld, blockScalar, hChaCha20Scalar = v, w, h }(rowProld, blockScalar, hChaCha20Scalar)
	blockScalar, hChaCha20Scalar = false, false // the row code for one block and HChaCha20 too
	for _, prold := range []bool{false, true} {
		rounds := map[bool]string{false: "shifts", true: "prold"}[prold]
		for _, n := range []int{64, 128} {
			benchXORBlocks(b, "op=XORBlocks/rounds="+rounds+"/size="+strconv.Itoa(n), n, func() { rowProld = prold })
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

// benchXORBlocks runs XORBlocks of n bytes in place as sub-benchmark name,
// after set has chosen the variant.
func benchXORBlocks(b *testing.B, name string, n int, set func()) {
	b.Run(name, func(b *testing.B) {
		set()
		var s State
		buf := make([]byte, n)
		b.SetBytes(int64(n))
		for b.Loop() {
			XORBlocks(&s, buf, buf)
		}
	})
}

// TestRowsZ2 runs the keystream tests with and without xorRowsZ2AVX512 for
// five to eight blocks, whichever this core prefers.
func TestRowsZ2(t *testing.T) {
	needAVX512(t)
	keystreamBothWays(t, &rowsZ2, [2]string{"vl8", "z2"})
}

// BenchmarkRowsZ2 measures the choice X86ChaCha20For makes per core for
// five to eight blocks: the 8-lane ymm batch or two zmm row sets.
func BenchmarkRowsZ2(b *testing.B) {
	if !avx512CPU {
		b.Skip("no AVX-512 on this CPU")
	}
	benchKnob(b, &rowsZ2, "layout", [2]string{"vl8", "z2"}, 320, 448, 512)
}

// TestRowsY runs the keystream tests with and without xorRowsYAVX512 for
// three or four blocks, whichever this core prefers.
func TestRowsY(t *testing.T) {
	needAVX512(t)
	keystreamBothWays(t, &rowsY, [2]string{"z", "y2"})
}

// BenchmarkRowsY measures the choice X86ChaCha20For makes per core for
// three and four blocks: one zmm row set or two ymm row sets.
func BenchmarkRowsY(b *testing.B) {
	if !avx512CPU {
		b.Skip("no AVX-512 on this CPU")
	}
	benchKnob(b, &rowsY, "layout", [2]string{"z", "y2"}, 192, 256)
}

// benchKnob runs XORBlocks of each size with *knob false and then true,
// as sub-benchmarks <name>=<names[v]>/size=<n>, and restores *knob.
func benchKnob(b *testing.B, knob *bool, name string, names [2]string, sizes ...int) {
	defer func(v bool) { *knob = v }(*knob)
	for i, v := range []bool{false, true} {
		for _, n := range sizes {
			benchXORBlocks(b, name+"="+names[i]+"/size="+strconv.Itoa(n), n, func() { *knob = v })
		}
	}
}
