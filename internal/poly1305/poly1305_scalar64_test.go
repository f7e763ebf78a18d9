//go:build gc && !purego && (loong64 || ppc64 || ppc64le || riscv64)

package poly1305

import (
	"math/rand/v2"
	"testing"
)

// scalar64EdgeH are extreme accumulators for TestScalar64AgainstGeneric:
// zero, every limb at its largest (h2 up to 7, the portable code's bound),
// p, p - 1, 2^130 - 1 and 2^130 + 4 (the largest value a block function
// leaves with h2 = 4).
var scalar64EdgeH = [][3]uint64{
	{0, 0, 0},
	{^uint64(0), ^uint64(0), 7},
	{^uint64(0), ^uint64(0), 4},
	{0xFFFFFFFFFFFFFFFB, ^uint64(0), 3}, // p
	{0xFFFFFFFFFFFFFFFA, ^uint64(0), 3}, // p − 1
	{^uint64(0), ^uint64(0), 3},         // 2^130 − 1
	{4, 0, 4},                           // 2^130 + 4
}

// scalar64EdgeR are clamped multipliers at their largest and smallest, and
// with only r0 or only r1 set (s1 = 0 or r0 = 0).
var scalar64EdgeR = [][2]uint64{
	{clampMaxR0, clampMaxR1},
	{0, 0},
	{1, 0},
	{0, 4},
	{clampMaxR0, 0},
	{0, clampMaxR1},
}

// TestScalar64AgainstGeneric compares blocksScalar64 with blocksGeneric, its
// Go twin, at every length 0..1100 (len/16 blocks are absorbed, the rest
// must be ignored) and offsets 0..7 (the unaligned loads), for full and
// padded blocks, from random partly reduced accumulators (h2 up to 7) and the
// edge ones above, under random and edge multipliers, with random, all-ones
// and all-zero messages. The two may leave h in different partly reduced
// forms, so they are compared modulo 2^130 − 5; the assembly's own bound,
// h2 <= 4 (so that h < 2p for finalize), is checked too, and a call without
// a whole block must leave the state alone.
func TestScalar64AgainstGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	random := make([]byte, 1100+8)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	ones := make([]byte, len(random))
	for i := range ones {
		ones[i] = 0xFF
	}
	zeros := make([]byte, len(random))
	for n := 0; n <= 1100; n++ {
		for off := 0; off < 8; off++ {
			var st state
			if (n+off)%3 == 0 {
				st.h = scalar64EdgeH[(n/3+off)%len(scalar64EdgeH)]
			} else {
				st.h = [3]uint64{rng.Uint64(), rng.Uint64(), rng.Uint64N(8)}
			}
			if (n+off)%4 == 0 {
				st.r = scalar64EdgeR[(n/4+off)%len(scalar64EdgeR)]
			} else {
				st.r = [2]uint64{rng.Uint64() & clampMaxR0, rng.Uint64() & clampMaxR1}
			}
			st.s = [2]uint64{rng.Uint64(), rng.Uint64()}
			buf := random
			switch (n + 2*off) % 7 {
			case 0:
				buf = ones
			case 3:
				buf = zeros
			}
			full := (n+off)%5 != 0
			var hibit uint64
			if full {
				hibit = 1
			}
			msg := buf[off : off+n]
			want, got := st, st
			blocksGeneric(&want, msg, full)
			blocksScalar64(&got, msg, hibit)
			if got.r != st.r || got.s != st.s {
				t.Fatalf("len %d, offset %d: r or s changed", n, off)
			}
			if n < BlockSize {
				if got != st {
					t.Fatalf("len %d, offset %d: the state changed without a whole block", n, off)
				}
				continue
			}
			if got.h[2] > 4 {
				t.Fatalf("len %d, offset %d, h %x, r %x: h2 = %d, want <= 4", n, off, st.h, st.r, got.h[2])
			}
			g, w := stateValue(&got), stateValue(&want)
			if g.Mod(g, bigP).Cmp(w.Mod(w, bigP)) != 0 {
				t.Fatalf("len %d, offset %d, full %v, h %x, r %x: h = %#x, want %#x (mod p)", n, off, full, st.h, st.r, g, w)
			}
		}
	}
}
