//go:build gc && !purego

package aeadasm

import (
	"math/rand/v2"
	"testing"

	"github.com/chachakit/chachakit/internal/chacha20core"
	"github.com/chachakit/chachakit/internal/poly1305"
)

// TestLaneBlocks2MAC compares LaneBlocks2MAC with its reference,
// chacha20core.LaneBlocks2 and the MACs' Write: every iteration count
// 0..10, random lanes (a key per lane and one shared, counters at the
// 32-bit edge), keys whose r has every clamped bit set or random, and
// messages of all-0xff blocks, which carry the accumulator furthest.
func TestLaneBlocks2MAC(t *testing.T) {
	if !Available().Has(Lanes2MAC) {
		t.Skip("Lanes2MAC not available")
	}
	r := rand.New(rand.NewPCG(5, 6))
	for iters := 0; iters <= Lanes2MACMax/Lanes2MACChunk; iters++ {
		for trial := range 6 {
			var l [2]chacha20core.LaneSet
			for i := range 2 * chacha20core.Lanes {
				var key [8]uint32
				var nonce [3]uint32
				for j := range key {
					key[j] = r.Uint32()
				}
				for j := range nonce {
					nonce[j] = r.Uint32()
				}
				ctr := r.Uint32()
				if trial%2 == 0 {
					ctr = ^uint32(0) - uint32(i%2)
				}
				l[i/chacha20core.Lanes].SetKey(i%chacha20core.Lanes, &key)
				l[i/chacha20core.Lanes].SetBlock(i%chacha20core.Lanes, ctr, &nonce)
			}
			var keys [2][32]byte
			msgs := [2][]byte{make([]byte, iters*Lanes2MACChunk), make([]byte, iters*Lanes2MACChunk)}
			for c := range 2 {
				for j := range keys[c] {
					keys[c][j] = byte(r.Uint32())
					if trial >= 4 {
						keys[c][j] = 0xff
					}
				}
				for j := range msgs[c] {
					msgs[c][j] = byte(r.Uint32())
					if trial >= 2 {
						msgs[c][j] = 0xff
					}
				}
			}
			// A prefix (additional data) absorbed before, as aead does.
			prefix := make([]byte, 16*(trial%3))
			var got, want [2]poly1305.MAC
			for c := range 2 {
				got[c].Init(&keys[c])
				want[c].Init(&keys[c])
				got[c].Write(prefix)
				want[c].Write(prefix)
			}
			var out, ref [2 * chacha20core.Lanes][chacha20core.BlockSize]byte
			in := l
			LaneBlocks2MAC(&l, &out, &got[0], &got[1], msgs[0], msgs[1])
			chacha20core.LaneBlocks2(&l, &ref)
			if l != in {
				t.Fatalf("iters %d: LaneBlocks2MAC changed the LaneSets", iters)
			}
			if out != ref {
				t.Fatalf("iters %d trial %d: keystream differs from LaneBlocks2", iters, trial)
			}
			for c := range 2 {
				want[c].Write(msgs[c])
				var g, w [16]byte
				got[c].Sum(&g)
				want[c].Sum(&w)
				if g != w {
					t.Fatalf("iters %d trial %d: MAC %d: tag %x, want %x", iters, trial, c, g, w)
				}
			}
		}
	}
}

func TestLaneBlocks2MACLengths(t *testing.T) {
	if !Available().Has(Lanes2MAC) {
		t.Skip("Lanes2MAC not available")
	}
	var l [2]chacha20core.LaneSet
	var out [2 * chacha20core.Lanes][chacha20core.BlockSize]byte
	var k [32]byte
	var a, b poly1305.MAC
	a.Init(&k)
	b.Init(&k)
	for _, n := range [][2]int{{48, 96}, {16, 16}, {Lanes2MACMax + Lanes2MACChunk, Lanes2MACMax + Lanes2MACChunk}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("LaneBlocks2MAC(%d, %d bytes) did not panic", n[0], n[1])
				}
			}()
			LaneBlocks2MAC(&l, &out, &a, &b, make([]byte, n[0]), make([]byte, n[1]))
		}()
	}
}

// BenchmarkLaneBlocks2MAC measures LaneBlocks2MAC with ten chunks of MAC
// per chain against LaneBlocks2 alone and against LaneBlocks2 followed by
// the same MAC work through poly1305's own path.
func BenchmarkLaneBlocks2MAC(b *testing.B) {
	if !Available().Has(Lanes2MAC) {
		b.Skip("Lanes2MAC not available")
	}
	var l [2]chacha20core.LaneSet
	var out [2 * chacha20core.Lanes][chacha20core.BlockSize]byte
	var k [32]byte
	k[0] = 1
	var ma, mb poly1305.MAC
	ma.Init(&k)
	mb.Init(&k)
	msg := make([]byte, Lanes2MACMax)
	b.Run("impl=LaneBlocks2MAC", func(b *testing.B) {
		for b.Loop() {
			LaneBlocks2MAC(&l, &out, &ma, &mb, msg, msg)
		}
	})
	b.Run("impl=LaneBlocks2", func(b *testing.B) {
		for b.Loop() {
			chacha20core.LaneBlocks2(&l, &out)
		}
	})
	b.Run("impl=LaneBlocks2+Write", func(b *testing.B) {
		for b.Loop() {
			chacha20core.LaneBlocks2(&l, &out)
			ma.Write(msg)
			mb.Write(msg)
		}
	})
}
