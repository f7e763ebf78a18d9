//go:build gc && !purego

package chacha20core

import (
	"math/rand/v2"
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
)

// TestXMMBlocks checks the routing X86ChaCha20.XMMBlocks sets (the SSSE3
// code for calls of one and five blocks while AVX2 is on) through the
// dispatcher on every CPU with AVX2, AVX-512 switched off for the test:
// one to nine blocks at the counters next to 2^32, source and destination
// offsets 0..7 and in place, against the portable code; then the keystream
// tests (every block count to 50, every length 0..1100 through
// XORKeyStream, the counter edge) with the choice off and on; and
// HChaCha20 through its dispatcher both ways (hChaCha20XMM or the AVX2
// kernel), against the portable code.
func TestXMMBlocks(t *testing.T) {
	if !avx2CPU {
		if cryptotest.Strict() && !cryptotest.AbsentAllowed("chacha20", "AVX2") {
			t.Fatal("no AVX2 on this CPU, and CHACHAKIT_STRICT=1 expects the AVX2 routing variants to run")
		}
		t.Skip("no AVX2 on this CPU")
	}
	defer func(a, b, c, x, s bool) { useAVX512, useAVX2, useSSSE3, xmmBlocks, blockScalar = a, b, c, x, s }(useAVX512, useAVX2, useSSSE3, xmmBlocks, blockScalar)
	useAVX512, useAVX2, useSSSE3, blockScalar = false, true, true, false
	r := rand.New(rand.NewPCG(13, 14))
	for _, on := range []bool{false, true} {
		xmmBlocks = on
		for blocks := 1; blocks <= 9; blocks++ {
			for _, c := range []uint32{0, 1 << 31, 1<<32 - 5, 1<<32 - 2, 1<<32 - 1} {
				s := randState(r)
				s.Counter = c
				src := randBytes(r, blocks*BlockSize)
				for srcOff := 0; srcOff < 8; srcOff++ {
					for dstOff := 0; dstOff < 8; dstOff++ {
						checkXORBlocks(t, s, src, srcOff, dstOff, false, false)
					}
					checkXORBlocks(t, s, src, 0, srcOff, true, false)
				}
			}
		}
	}
	defer func(v bool) { hChaCha20Scalar = v }(hChaCha20Scalar)
	hChaCha20Scalar = false
	for _, on := range []bool{false, true} {
		xmmBlocks = on
		for range 100 {
			var key, got, want [32]byte
			var nonce [16]byte
			copy(key[:], randBytes(r, 32))
			copy(nonce[:], randBytes(r, 16))
			HChaCha20(&got, &key, &nonce)
			hChaCha20Generic(&want, &key, &nonce)
			if got != want {
				t.Fatalf("xmmBlocks %v: HChaCha20 of key %x nonce %x: %x, want %x", on, key, nonce, got, want)
			}
		}
	}
	useAVX512 = avx512CPU
	keystreamBothWays(t, &xmmBlocks, [2]string{"ymm", "xmm"})
}

// BenchmarkXMMBlocks measures the choice X86ChaCha20For makes per core for
// calls of one and five blocks beside AVX2: the AVX2 code or the SSSE3
// code (run with GODEBUG=cpu.avx512f=off on a CPU with AVX-512).
func BenchmarkXMMBlocks(b *testing.B) {
	if !avx2CPU || useAVX512 {
		b.Skip("needs the AVX2 path as the default")
	}
	benchKnob(b, &xmmBlocks, "code", [2]string{"ymm", "xmm"}, 64, 320)
}
