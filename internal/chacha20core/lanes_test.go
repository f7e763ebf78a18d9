package chacha20core

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
)

// TestLaneBlocks compares LaneBlocks, under every keystream implementation,
// with blockGeneric lane by lane: every lane count, lanes sharing a key and
// lanes with their own, and counters at the 32-bit edge.
func TestLaneBlocks(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, 2))
		for n := 1; n <= Lanes; n++ {
			for _, shared := range []bool{true, false} {
				var l LaneSet
				want := make([]State, n)
				key := randState(r).Key
				for i := range n {
					s := randState(r)
					if shared {
						s.Key = key
					}
					if i%3 == 0 {
						s.Counter = math.MaxUint32 - uint32(i%2)
					}
					want[i] = s
					l.SetKey(i, &s.Key)
					l.SetBlock(i, s.Counter, &s.Nonce)
				}
				var out [Lanes][BlockSize]byte
				LaneBlocks(&l, &out, n)
				for i := range n {
					var ref [BlockSize]byte
					blockGeneric(&want[i], &ref)
					if out[i] != ref {
						t.Fatalf("n=%d shared=%v: lane %d differs from blockGeneric", n, shared, i)
					}
				}
			}
		}
	})
}

func TestLaneBlocksCount(t *testing.T) {
	var l LaneSet
	var out [Lanes][BlockSize]byte
	for _, n := range []int{0, -1, Lanes + 1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("LaneBlocks(n=%d) did not panic", n)
				}
			}()
			LaneBlocks(&l, &out, n)
		}()
	}
}
