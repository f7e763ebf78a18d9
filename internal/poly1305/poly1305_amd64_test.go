//go:build gc && !purego

package poly1305

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/chachakit/chachakit/internal/cryptotest"
	//lint:ignore SA1019 the deprecated package is the reference this one is tested against
	xpoly "golang.org/x/crypto/poly1305"
	"golang.org/x/sys/cpu"
)

// amd64Paths are the assembly block functions with whether this CPU runs
// them. They are called directly here, whatever the registry says.
// clampMaxR is the largest r clamping allows, as the state holds it.
var clampMaxR = [2]uint64{clampMaxR0, clampMaxR1}

func amd64Paths() []struct {
	name string
	ok   bool
	f    func(*state, []byte, uint64)
} {
	return []struct {
		name string
		ok   bool
		f    func(*state, []byte, uint64)
	}{
		{"Scalar", true, blocksScalar},
		{"AVX2", cpu.X86.HasAVX2, blocksAVX2},
	}
}

// hValue returns h as a number, and checks the partial reduction that
// finalize and every other path rely on (h2 < 8).
func hValue(t *testing.T, st *state) *big.Int {
	t.Helper()
	if st.h[2] >= 8 {
		t.Fatalf("h2 = %d, want < 8", st.h[2])
	}
	v := new(big.Int).SetUint64(st.h[2])
	v.Lsh(v, 64).Or(v, new(big.Int).SetUint64(st.h[1]))
	v.Lsh(v, 64).Or(v, new(big.Int).SetUint64(st.h[0]))
	return v
}

// TestBlocksAgainstGeneric compares each assembly block function with
// blocksGeneric, its Go twin, from random partly reduced accumulators
// (h2 up to 7) and edge ones, for every length 0..1100 (len/16 blocks are
// absorbed, the rest must be ignored), offsets 0..7, full and padded blocks.
// The accumulators must agree modulo 2^130 − 5.
func TestBlocksAgainstGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	buf := make([]byte, 1100+8)
	for i := range buf {
		buf[i] = byte(r.Uint32())
	}
	edgeH := [][3]uint64{
		{0, 0, 0},
		{^uint64(0), ^uint64(0), 7},
		{0xFFFFFFFFFFFFFFFB, ^uint64(0), 3}, // p
		{0xFFFFFFFFFFFFFFFA, ^uint64(0), 3}, // p − 1
		{^uint64(0), ^uint64(0), 3},         // 2^130 − 1
	}
	for _, p := range amd64Paths() {
		t.Run(p.name, func(t *testing.T) {
			if !p.ok {
				t.Skipf("%s is not available on this CPU", p.name)
			}
			for n := 0; n <= 1100; n++ {
				for off := 0; off < 8; off++ {
					var st state
					if n%7 == 0 {
						st.h = edgeH[(n/7+off)%len(edgeH)]
					} else {
						st.h = [3]uint64{r.Uint64(), r.Uint64(), r.Uint64N(8)}
					}
					st.r = [2]uint64{r.Uint64() & 0x0FFFFFFC0FFFFFFF, r.Uint64() & 0x0FFFFFFC0FFFFFFC}
					if n%5 == 0 {
						st.r = clampMaxR
					}
					full := (n+off)%3 != 0
					var hibit uint64
					if full {
						hibit = 1
					}
					want := st
					got := st
					msg := buf[off : off+n]
					blocksGeneric(&want, msg, full)
					p.f(&got, msg, hibit)
					if got.r != st.r || got.s != st.s {
						t.Fatalf("len %d: r or s changed", n)
					}
					g, w := hValue(t, &got), hValue(t, &want)
					if g.Mod(g, p1305).Cmp(w.Mod(w, p1305)) != 0 {
						t.Fatalf("len %d, offset %d, full %v, h %x, r %x: h %x, want %x (mod p)", n, off, full, st.h, st.r, g, w)
					}
				}
			}
		})
	}
}

// BenchmarkBlocks times each path on block runs around the vector
// thresholds, to place them.
func BenchmarkBlocks(b *testing.B) {
	msg := make([]byte, 16384)
	for _, p := range append(amd64Paths(), struct {
		name string
		ok   bool
		f    func(*state, []byte, uint64)
	}{"Go", true, func(st *state, m []byte, _ uint64) { blocksGeneric(st, m, true) }}) {
		if !p.ok {
			continue
		}
		for _, n := range []int{64, 128, 192, 256, 320, 384, 512, 768, 1024, 1344, 4096, 8192, 16384} {
			b.Run("path="+p.name+"/size="+itoa(n), func(b *testing.B) {
				var st state
				st.r = clampMaxR
				b.SetBytes(int64(n))
				b.ReportAllocs()
				for b.Loop() {
					p.f(&st, msg[:n], 1)
				}
			})
		}
	}
}

// TestPathTimes prints, for each path and message size, the fastest of 300
// timed batches of calls (CHACHAKIT_MINTIME=1 only; it asserts nothing). On
// a shared, loaded machine the minimum is far steadier than a benchmark's
// mean, which is how the threshold avx2MinBlocks in _asm/poly1305.go was
// placed.
func TestPathTimes(t *testing.T) {
	if os.Getenv("CHACHAKIT_MINTIME") != "1" {
		t.Skip("set CHACHAKIT_MINTIME=1 to print per-path timings")
	}
	minTime := func(f func(), reps int) float64 {
		best := 1e18
		for i := 0; i < 300; i++ {
			t0 := time.Now()
			for j := 0; j < reps; j++ {
				f()
			}
			best = min(best, float64(time.Since(t0).Nanoseconds())/float64(reps))
		}
		return best
	}
	msg := make([]byte, 16384)
	paths := append(amd64Paths(), struct {
		name string
		ok   bool
		f    func(*state, []byte, uint64)
	}{"Go", true, func(st *state, m []byte, _ uint64) { blocksGeneric(st, m, true) }})
	fmt.Printf("%6s", "bytes")
	for _, p := range paths {
		fmt.Printf(" %14s", p.name)
	}
	fmt.Println(" (ns per call, fastest batch)")
	for _, n := range []int{64, 128, 192, 240, 256, 272, 288, 320, 384, 512, 1024, 1344, 4096, 8192, 16384} {
		fmt.Printf("%6d", n)
		for _, p := range paths {
			if !p.ok {
				fmt.Printf(" %14s", "-")
				continue
			}
			var st state
			st.r = clampMaxR
			fmt.Printf(" %14.1f", minTime(func() { p.f(&st, msg[:n], 1) }, 20000/(n/16+4)))
		}
		fmt.Println()
	}
}

// TestAVX2Min runs the Poly1305 tests with the dispatcher's threshold for
// the AVX2 function at 0 and at 8 KiB, so that both ways of splitting an
// input between the scalar and the AVX2 functions are tested: TestEdgeOffsets (every
// length 0..1100 at offsets 0..7, under every implementation) and lengths
// around 8 KiB and 16 KiB against x/crypto.
func TestAVX2Min(t *testing.T) {
	if !cpu.X86.HasAVX2 {
		if cryptotest.Strict() && !cryptotest.AbsentAllowed("poly1305", "AVX2") {
			t.Fatal("no AVX2 on this CPU, and CHACHAKIT_STRICT=1 expects the AVX2 routing to be tested")
		}
		t.Skip("no AVX2 on this CPU")
	}
	defer func(v int) { avx2Min = v }(avx2Min)
	msg := make([]byte, 16400)
	for i := range msg {
		msg[i] = byte(i*13 + 5)
	}
	key := [KeySize]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17}
	for _, m := range []int{0, 8192} {
		avx2Min = m
		t.Run("avx2Min="+itoa(m), func(t *testing.T) {
			TestEdgeOffsets(t)
			for _, n := range []int{8175, 8176, 8191, 8192, 8193, 8208, 16384, 16400} {
				var got, want [TagSize]byte
				Sum(&got, msg[:n], &key)
				xpoly.Sum(&want, msg[:n], &key)
				if got != want {
					t.Fatalf("length %d: %x, want %x", n, got, want)
				}
			}
		})
	}
}
