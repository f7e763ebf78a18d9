package chacha20core

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
)

// TestLaneBlocks compares LaneBlocks, under every keystream implementation,
// with blockGeneric lane by lane: every lane count, lanes sharing a key and
// lanes with their own, counters at the 32-bit edge (2^32-1, 0) and random
// ones, and lanes past n holding other blocks' input. It also checks that
// the LaneSet is left as it was, and that LaneBlocksFast reports the
// vector paths (AVX-512 and AVX2 on amd64, NEON4x1 on arm64) and no other.
func TestLaneBlocks(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		vector := strings.HasSuffix(t.Name(), "/AVX512") || strings.HasSuffix(t.Name(), "/AVX2") ||
			strings.HasSuffix(t.Name(), "/NEON4x1")
		if LaneBlocksFast() != vector {
			t.Errorf("LaneBlocksFast() = %v under %s", LaneBlocksFast(), t.Name())
		}
		r := rand.New(rand.NewPCG(1, 2))
		counters := []func(i int) uint32{
			func(i int) uint32 { return math.MaxUint32 - uint32(i%2) },
			func(int) uint32 { return 0 },
			func(i int) uint32 {
				if i%3 == 0 {
					return math.MaxUint32
				}
				return r.Uint32()
			},
		}
		for n := 1; n <= Lanes; n++ {
			for _, shared := range []bool{true, false} {
				for c, counter := range counters {
					var l LaneSet
					want := make([]State, Lanes)
					key := randState(r).Key
					for i := range Lanes {
						s := randState(r)
						if shared {
							s.Key = key
						}
						s.Counter = counter(i)
						want[i] = s
						l.SetKey(i, &s.Key)
						l.SetBlock(i, s.Counter, &s.Nonce)
					}
					in := l
					var out [Lanes][BlockSize]byte
					LaneBlocks(&l, &out, n)
					if l != in {
						t.Fatalf("n=%d shared=%v counters=%d: LaneBlocks changed the LaneSet", n, shared, c)
					}
					for i := range n {
						var ref [BlockSize]byte
						blockGeneric(&want[i], &ref)
						if out[i] != ref {
							t.Fatalf("n=%d shared=%v counters=%d: lane %d differs from blockGeneric", n, shared, c, i)
						}
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

// BenchmarkLaneBlocks measures one LaneBlocks call of n lanes (lanes=n)
// against n calls of Block (blocks=n), the cost without batching, on the
// path the dispatcher picks (GODEBUG=cpu.avx512f=off for AVX2).
func BenchmarkLaneBlocks(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	var l LaneSet
	states := make([]State, Lanes)
	for i := range states {
		states[i] = randState(r)
		l.SetKey(i, &states[i].Key)
		l.SetBlock(i, states[i].Counter, &states[i].Nonce)
	}
	var out [Lanes][BlockSize]byte
	for _, n := range []int{1, 2, 4, 8, 16} {
		b.Run(fmt.Sprintf("n=%d/lanes", n), func(b *testing.B) {
			b.SetBytes(int64(BlockSize * n))
			b.ReportAllocs()
			for b.Loop() {
				LaneBlocks(&l, &out, n)
			}
		})
		b.Run(fmt.Sprintf("n=%d/blocks", n), func(b *testing.B) {
			b.SetBytes(int64(BlockSize * n))
			b.ReportAllocs()
			for b.Loop() {
				for i := range n {
					Block(&states[i], &out[i])
				}
			}
		})
	}
}

// TestLaneBlocks2 compares LaneBlocks2, under every keystream
// implementation, with blockGeneric lane by lane: both LaneSets with a key
// per lane or one shared key, counters at the 32-bit edge and random ones.
func TestLaneBlocks2(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		if LaneBlocks2Fast() {
			t.Errorf("LaneBlocks2Fast() = true under %s", t.Name())
		}
		r := rand.New(rand.NewPCG(3, 4))
		for _, shared := range []bool{true, false} {
			for c := range 3 {
				var l [2]LaneSet
				var want [2 * Lanes]State
				key := randState(r).Key
				for i := range want {
					s := randState(r)
					if shared {
						s.Key = key
					}
					switch c {
					case 0:
						s.Counter = math.MaxUint32 - uint32(i%2)
					case 1:
						s.Counter = uint32(i)
					}
					want[i] = s
					l[i/Lanes].SetKey(i%Lanes, &s.Key)
					l[i/Lanes].SetBlock(i%Lanes, s.Counter, &s.Nonce)
				}
				in := l
				var out [2 * Lanes][BlockSize]byte
				LaneBlocks2(&l, &out)
				if l != in {
					t.Fatalf("shared=%v counters=%d: LaneBlocks2 changed the LaneSets", shared, c)
				}
				for i := range want {
					var ref [BlockSize]byte
					blockGeneric(&want[i], &ref)
					if out[i] != ref {
						t.Fatalf("shared=%v counters=%d: lane %d differs from blockGeneric", shared, c, i)
					}
				}
			}
		}
	})
}

// TestSetRun compares SetRun, under every keystream implementation, with
// SetBlock lane by lane: every run of lanes, counters across the 32-bit
// edge, and lanes outside the run left as they were.
func TestSetRun(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		r := rand.New(rand.NewPCG(7, 8))
		for j := range Lanes {
			for k := 1; j+k <= Lanes; k++ {
				for _, counter := range []uint32{0, math.MaxUint32 - 3, r.Uint32()} {
					var got LaneSet
					for w := range got.W {
						for i := range got.W[w] {
							got.W[w][i] = r.Uint32()
						}
					}
					want := got
					nonce := [3]uint32{r.Uint32(), r.Uint32(), r.Uint32()}
					got.SetRun(j, k, counter, &nonce)
					for i := range k {
						want.SetBlock(j+i, counter+uint32(i), &nonce)
					}
					if got != want {
						t.Fatalf("SetRun(%d, %d, %#x) differs from SetBlock", j, k, counter)
					}
				}
			}
		}
		for _, jk := range [][2]int{{-1, 1}, {0, 0}, {15, 2}, {0, 17}} {
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("SetRun(%d, %d) did not panic", jk[0], jk[1])
					}
				}()
				var l LaneSet
				l.SetRun(jk[0], jk[1], 0, &[3]uint32{})
			}()
		}
	})
}
