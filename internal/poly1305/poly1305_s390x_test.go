//go:build gc && !purego

package poly1305

import (
	"math/rand/v2"
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
	"github.com/chachakit/chachakit/internal/impl"
)

// TestS390XRegistered: Scalar64 is the one registered path, and
// CHACHAKIT_EXPECT names the default pick.
func TestS390XRegistered(t *testing.T) {
	l := impl.List("poly1305")
	if len(l) != 1 || l[0].Name != "Scalar64" || !l[0].Available {
		t.Fatalf("registered: %v", l)
	}
	cryptotest.CheckExpected(t, "poly1305")
}

// s390xStates are the extreme starting states of TestS390XAgainstGeneric:
// h zero, every limb at its largest (h2 up to 7, the portable code's
// bound), just below p, and r at the largest and smallest clamped values.
var s390xStates = []state{
	{},
	{h: [3]uint64{^uint64(0), ^uint64(0), 7}, r: [2]uint64{clampMaxR0, clampMaxR1}},
	{h: [3]uint64{0xFFFFFFFFFFFFFFFB, ^uint64(0), 3}, r: [2]uint64{clampMaxR0, clampMaxR1}},
	{h: [3]uint64{^uint64(0), ^uint64(0), 4}, r: [2]uint64{1, 0}},
	{h: [3]uint64{1, 0, 0}, r: [2]uint64{0, clampMaxR1}},
	{h: [3]uint64{^uint64(0), 0, 7}, r: [2]uint64{clampMaxR0, 0}},
}

// TestS390XAgainstGeneric compares blocksScalar64 with blocksGeneric at
// every length 0..1100 (the bytes past the last whole block are ignored),
// at message offsets 0..7, for both values of hibit, from the extreme
// states above and random ones, on random and all-ones messages. The two
// leave h in different partly reduced forms, so they are compared modulo
// 2^130 - 5; the assembly's bound h2 <= 4 after a block is checked too.
func TestS390XAgainstGeneric(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	buf := make([]byte, 1100+8)
	for n := 0; n <= 1100; n++ {
		off := n % 8
		msg := buf[off : off+n]
		for i := range msg {
			msg[i] = byte(rng.Uint32())
		}
		if n%3 == 0 {
			for i := range msg {
				msg[i] = 0xFF
			}
		}
		st := s390xStates[n%len(s390xStates)]
		if n%4 == 3 {
			st = state{
				h: [3]uint64{rng.Uint64(), rng.Uint64(), rng.Uint64N(8)},
				r: [2]uint64{rng.Uint64() & clampMaxR0, rng.Uint64() & clampMaxR1},
			}
		}
		st.s = [2]uint64{rng.Uint64(), rng.Uint64()}
		for _, full := range []bool{true, false} {
			var hibit uint64
			if full {
				hibit = 1
			}
			want, got := st, st
			blocksGeneric(&want, msg, full)
			blocksScalar64(&got, msg, hibit)
			if n < BlockSize {
				if got != st {
					t.Fatalf("len %d: state changed without a block", n)
				}
				continue
			}
			if got.h[2] > 4 {
				t.Fatalf("len %d: h2 = %d after blocksScalar64, want <= 4", n, got.h[2])
			}
			g, w := stateValue(&got), stateValue(&want)
			if g.Mod(g, bigP).Cmp(w.Mod(w, bigP)) != 0 {
				t.Fatalf("len %d off %d full %v (h %x r %x): h = %#x mod p, want %#x", n, off, full, st.h, st.r, g, w)
			}
			if got.r != st.r || got.s != st.s {
				t.Fatalf("len %d: r or s changed", n)
			}
		}
	}
}
