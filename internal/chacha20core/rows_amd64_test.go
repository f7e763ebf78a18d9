//go:build gc && !purego

package chacha20core

import (
	"bytes"
	"math"
	"math/rand/v2"
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

// TestRowsAVX512 calls the two row codes of the AVX512 path for one and two
// blocks itself, xorRowsProldAVX512 (the dispatcher's for calls of that
// length) and xorBlocksAVX512's own (the tails of its longer calls), apart
// and in place, at source and destination offsets 0..7, from counters next
// to 2^32: the blocks, the bytes around them and the final counter must be
// the portable code's, on every CPU with AVX-512.
func TestRowsAVX512(t *testing.T) {
	needAVX512(t)
	r := rand.New(rand.NewPCG(11, 12))
	for _, k := range []struct {
		name string
		f    func(s *State, dst, src []byte)
	}{
		{"xorBlocksAVX512", xorBlocksAVX512},
		{"xorRowsProldAVX512", xorRowsProldAVX512},
	} {
		for blocks := 0; blocks <= 2; blocks++ {
			for _, ctr := range []uint32{0, 1 << 20, math.MaxUint32 - 1, math.MaxUint32} {
				for off := 0; off < 8; off++ {
					s := randState(r)
					s.Counter = ctr
					n := blocks * BlockSize
					src := randBytes(r, n+8)
					want := append([]byte(nil), src...)
					ws := s
					xorBlocksGeneric(&ws, want[off:off+n], src[off:off+n])

					got := bytes.Repeat([]byte{guardByte}, n+8)
					gs := s
					k.f(&gs, got[7-off:7-off+n], src[off:off+n])
					if !bytes.Equal(got[7-off:7-off+n], want[off:off+n]) || gs.Counter != ws.Counter {
						t.Fatalf("%s: counter %#x, %d blocks: keystream or counter (%#x, want %#x) differs", k.name, ctr, blocks, gs.Counter, ws.Counter)
					}
					if !bytes.Equal(got[:7-off], bytes.Repeat([]byte{guardByte}, 7-off)) || !bytes.Equal(got[7-off+n:], bytes.Repeat([]byte{guardByte}, off+1)) {
						t.Fatalf("%s: counter %#x, %d blocks: wrote outside dst", k.name, ctr, blocks)
					}

					in := append([]byte(nil), src...)
					is := s
					k.f(&is, in[off:off+n], in[off:off+n])
					if !bytes.Equal(in, want) || is.Counter != ws.Counter {
						t.Fatalf("%s: counter %#x, %d blocks in place: differs", k.name, ctr, blocks)
					}
				}
			}
		}
	}
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

// BenchmarkRowsAVX512 measures the two row codes of the AVX512 path for one
// and two blocks: xorBlocksAVX512's, whose rotations are two shifts and a
// VPTERNLOGD, and xorRowsProldAVX512's VPROLD.
func BenchmarkRowsAVX512(b *testing.B) {
	if !avx512CPU {
		b.Skip("no AVX-512 on this CPU")
	}
	for _, k := range []struct {
		rounds string
		f      func(s *State, dst, src []byte)
	}{
		{"shifts", xorBlocksAVX512},
		{"prold", xorRowsProldAVX512},
	} {
		for _, n := range []int{64, 128} {
			b.Run("rounds="+k.rounds+"/size="+strconv.Itoa(n), func(b *testing.B) {
				var s State
				buf := make([]byte, n)
				b.SetBytes(int64(n))
				for b.Loop() {
					k.f(&s, buf, buf)
				}
			})
		}
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

// BenchmarkRowsZ2 measures rowsZ2's choice for five to eight blocks: the
// 8-lane ymm batch or two zmm row sets.
func BenchmarkRowsZ2(b *testing.B) {
	if !avx512CPU {
		b.Skip("no AVX-512 on this CPU")
	}
	benchKnob(b, &rowsZ2, "layout", [2]string{"vl8", "z2"}, 320, 448, 512)
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
