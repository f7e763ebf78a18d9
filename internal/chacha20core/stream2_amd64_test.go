//go:build gc && !purego

package chacha20core

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestLanes2 runs the keystream tests (block counts to 50 at offsets 0..7
// and in place, every length 0..1100, the counter edge) through the
// dispatcher with and without xorLanes2AVX512, whichever this core
// prefers, and again with every rest worth a pass (lanes2Rest 1), so that
// its partial passes of 1..31 blocks are checked against the portable code
// on every CPU with AVX-512.
func TestLanes2(t *testing.T) {
	needAVX512(t)
	keystreamBothWays(t, &lanes2, [2]string{"hybrid", "lanes2"})
	defer func(l bool, r int) { lanes2, lanes2Rest = l, r }(lanes2, lanes2Rest)
	lanes2, lanes2Rest = true, 1
	t.Run("rest=1", func(t *testing.T) {
		TestXORBlocks(t)
		TestXORKeyStreamLengths(t)
		TestCounterWrap(t)
		TestXORBlocksThen(t)
	})
	lanes2Rest = 18
	t.Run("then", TestXORBlocksThen)
}

// TestXORLanes2SplitAVX512 calls xorLanes2SplitAVX512 itself for every
// split of up to 32 blocks between src and buf, from counters that wrap
// within the pass: dst, buf and the counter must be the portable code's.
func TestXORLanes2SplitAVX512(t *testing.T) {
	needAVX512(t)
	r := rand.New(rand.NewPCG(15, 16))
	for _, ctr := range []uint32{0, 1 << 20, math.MaxUint32 - 3, math.MaxUint32 - 20} {
		for total := 0; total <= 32; total++ {
			for m := 0; m <= total; m++ {
				s := randState(r)
				s.Counter = ctr
				src := randBytes(r, m*BlockSize)
				buf := randBytes(r, (total-m)*BlockSize)
				ws := s
				want := make([]byte, len(src))
				xorBlocksGeneric(&ws, want, src)
				wantBuf := append([]byte(nil), buf...)
				xorBlocksGeneric(&ws, wantBuf, wantBuf)

				got := make([]byte, len(src)+64)
				gs := s
				xorLanes2SplitAVX512(&gs, got[:len(src)], src, buf)
				if !bytes.Equal(got[:len(src)], want) || !bytes.Equal(buf, wantBuf) || gs.Counter != ws.Counter {
					t.Fatalf("counter %#x, %d blocks then %d: differs", ctr, m, total-m)
				}
				if !bytes.Equal(got[len(src):], make([]byte, 64)) {
					t.Fatalf("counter %#x, %d blocks then %d: wrote past dst", ctr, m, total-m)
				}
			}
		}
	}
}

// TestXORLanes2AVX512 calls xorLanes2AVX512 itself for 0..100 blocks (up to
// three whole passes and a partial one), apart and in place, at source and
// destination offsets 0..7, from counters that wrap past 2^32-1 within a
// pass or between passes: the blocks, the bytes around them and the final
// counter must be the portable code's.
func TestXORLanes2AVX512(t *testing.T) {
	needAVX512(t)
	r := rand.New(rand.NewPCG(11, 12))
	for _, ctr := range []uint32{0, 1 << 20, math.MaxUint32 - 15, math.MaxUint32 - 40, math.MaxUint32} {
		for blocks := 0; blocks <= 100; blocks++ {
			s := randState(r)
			s.Counter = ctr
			src := randBytes(r, blocks*BlockSize+8)
			off := blocks % 8
			want := append([]byte(nil), src...)
			ws := s
			xorBlocksGeneric(&ws, want[off:off+blocks*BlockSize], src[off:off+blocks*BlockSize])

			got := make([]byte, len(src)+8)
			gs := s
			xorLanes2AVX512(&gs, got[7-off:7-off+blocks*BlockSize], src[off:off+blocks*BlockSize])
			if !bytes.Equal(got[7-off:7-off+blocks*BlockSize], want[off:off+blocks*BlockSize]) || gs.Counter != ws.Counter {
				t.Fatalf("counter %#x, %d blocks: keystream or counter (%#x, want %#x) differs", ctr, blocks, gs.Counter, ws.Counter)
			}
			if !bytes.Equal(got[:7-off], make([]byte, 7-off)) || !bytes.Equal(got[7-off+blocks*BlockSize:], make([]byte, len(got)-(7-off+blocks*BlockSize))) {
				t.Fatalf("counter %#x, %d blocks: wrote outside dst", ctr, blocks)
			}

			in := append([]byte(nil), src...)
			is := s
			xorLanes2AVX512(&is, in[off:off+blocks*BlockSize], in[off:off+blocks*BlockSize])
			if !bytes.Equal(in, want) || is.Counter != ws.Counter {
				t.Fatalf("counter %#x, %d blocks in place: differs", ctr, blocks)
			}
		}
	}
}

// BenchmarkLanes2 measures the choice X86ChaCha20For makes per core: the
// dispatcher with and without xorLanes2AVX512 at the block counts around
// lanes2Rest and at whole passes.
func BenchmarkLanes2(b *testing.B) {
	if !avx512CPU {
		b.Skip("no AVX-512 on this CPU")
	}
	defer func(v bool) { lanes2 = v }(lanes2)
	for _, blocks := range []int{17, 18, 19, 20, 21, 22, 24, 32, 49, 50, 64, 256} {
		buf := make([]byte, blocks*BlockSize)
		var s State
		for _, on := range []bool{false, true} {
			b.Run(fmt.Sprintf("blocks=%d/lanes2=%v", blocks, on), func(b *testing.B) {
				lanes2 = on
				b.SetBytes(int64(len(buf)))
				for b.Loop() {
					xorBlocks(&s, buf, buf)
				}
			})
		}
	}
}
