package poly1305

import (
	"math/rand/v2"
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
)

// TestSumAEADLanes compares SumAEADLanes with SumAEAD job by job, under
// every implementation: 1 to 8 jobs of random and of edge lengths (some past
// LaneMaxBlocks), random keys, and keys and messages of all ones (the
// largest r, s and blocks, where a missed carry would show).
func TestSumAEADLanes(t *testing.T) {
	cryptotest.Run(t, "poly1305", func(t *testing.T) {
		r := rand.New(rand.NewPCG(3, 4))
		var sc LaneScratch
		edge := []int{0, 1, 15, 16, 17, 63, 64, 65, 447, 448, 449, 512}
		for trial := range 3000 {
			n := 1 + trial%Lanes
			jobs := make([]AEADJob, n)
			want := make([][TagSize]byte, n)
			got := make([][TagSize]byte, n)
			ones := trial%10 == 0
			for i := range jobs {
				ctLen, adLen := r.IntN(460), r.IntN(3)*r.IntN(40)
				if trial%3 == 0 {
					ctLen = edge[r.IntN(len(edge))]
				}
				j := &jobs[i]
				j.Key, j.Tag = new([KeySize]byte), &got[i]
				j.AD, j.CT = make([]byte, adLen), make([]byte, ctLen)
				for _, b := range [][]byte{j.Key[:], j.AD, j.CT} {
					for k := range b {
						b[k] = byte(r.Uint32())
						if ones {
							b[k] = 0xff
						}
					}
				}
				SumAEAD(&want[i], j.Key, j.AD, j.CT)
			}
			SumAEADLanes(&sc, jobs)
			for i := range jobs {
				if got[i] != want[i] {
					t.Fatalf("trial %d: job %d of %d (ad %d, ct %d bytes): %x, want %x",
						trial, i, n, len(jobs[i].AD), len(jobs[i].CT), got[i], want[i])
				}
			}
		}
	})
}

// BenchmarkSumAEADLanes computes eight tags of size-byte messages with 13
// bytes of additional data: in one SumAEADLanes call (lanes) and in a loop
// of SumAEAD (each). One op is eight tags.
func BenchmarkSumAEADLanes(b *testing.B) {
	for _, size := range []int{32, 64, 256, 448} {
		var keys [Lanes][KeySize]byte
		var tags [Lanes][TagSize]byte
		jobs := make([]AEADJob, Lanes)
		for i := range jobs {
			keys[i][0] = byte(i)
			jobs[i] = AEADJob{Tag: &tags[i], Key: &keys[i], AD: make([]byte, 13), CT: make([]byte, size)}
		}
		b.Run("size="+itoa(size)+"/impl=each", func(b *testing.B) {
			b.SetBytes(int64(Lanes * size))
			for b.Loop() {
				sumAEADEach(jobs)
			}
		})
		b.Run("size="+itoa(size)+"/impl=lanes", func(b *testing.B) {
			var sc LaneScratch
			b.SetBytes(int64(Lanes * size))
			for b.Loop() {
				SumAEADLanes(&sc, jobs)
			}
		})
	}
}
