package wipe

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// The benchmarks are named after those of Go's runtime
// (src/runtime/memmove_test.go: BenchmarkMemclr, BenchmarkMemclrRange),
// which measured the riscv64 memclr change this package's assembly follows.
// Each size runs twice in the same binary, as sub-benchmarks keyed by
// impl: impl=clear is the baseline, the built-in clear() (the runtime's
// memclrNoHeapPointers), and impl=Memclr is this package's Memclr with the
// default dispatch. Compare them with
//
//	benchstat -col /impl results.txt
//
// which prints one row per size (Memclr/5, MemclrRange/1K_2K, ...) and the
// change from clear to Memclr.
//
// The loops are b.N loops rather than b.Loop: bench/scripts/qemu-icount.sh
// counts instructions per operation from two runs with -test.benchtime=Nx,
// assuming the testing package's extra first iteration of b.N benchmarks.

// benchBoth runs clear(x) and Memclr(x) as the impl=clear and impl=Memclr
// sub-benchmarks of b, each clearing every slice of xs per iteration.
func benchBoth(b *testing.B, bytes int, xs [][]byte) {
	for _, impl := range []string{"clear", "Memclr"} {
		b.Run("impl="+impl, func(b *testing.B) {
			b.SetBytes(int64(bytes))
			b.ReportAllocs()
			// The b.N operations run in chunks of about 256 KiB; the
			// fastest chunk gives best-ns/op, the time per operation
			// least disturbed by other work on a shared machine.
			chunk := max(1, (256<<10)/max(1, bytes))
			best := math.Inf(1)
			for done := 0; done < b.N; {
				n := min(chunk, b.N-done)
				start := time.Now()
				clearLoop(n, xs, impl == "Memclr")
				if n == chunk {
					best = min(best, float64(time.Since(start).Nanoseconds())/float64(n))
				}
				done += n
			}
			if !math.IsInf(best, 1) {
				b.ReportMetric(best, "best-ns/op")
			}
		})
	}
}

// clearLoop clears every slice of xs n times, with Memclr if memclr is
// set and with clear() otherwise. Both sub-benchmarks run this one loop:
// with a copy of the loop in each (the first version of this file) the two
// copies compiled to the same instructions, and yet on amd64 one of them
// ran 13-22% slower at 5 to 64 bytes, whichever operation it held (an A/A
// run of clear() in both copies showed the same gap): the loop's position
// relative to 64-byte boundaries, not the operation. The test of memclr is
// the same every iteration, so the branch predictor takes it for free.
//
//go:noinline
func clearLoop(n int, xs [][]byte, memclr bool) {
	for range n {
		for _, x := range xs {
			if memclr {
				Memclr(x)
			} else {
				clear(x)
			}
		}
	}
}

func BenchmarkMemclr(b *testing.B) {
	type size struct {
		name string
		n    int
	}
	var sizes []size
	for _, n := range []int{5, 16, 64, 256, 4096, 65536} {
		sizes = append(sizes, size{fmt.Sprint(n), n})
	}
	for _, m := range []int{1, 4, 8, 16, 64} {
		sizes = append(sizes, size{fmt.Sprint(m, "M"), m << 20})
	}
	for _, s := range sizes {
		b.Run(s.name, func(b *testing.B) {
			x := make([]byte, s.n)
			benchBoth(b, s.n, [][]byte{x})
		})
	}
}

// BenchmarkMemclrRange clears, per iteration, a fixed list of lengths drawn
// from [lo, hi), all from the start of one buffer: like the runtime's
// benchmark of the same name, it measures a mix of lengths that does not
// let the branch predictor learn one tail. The lengths are drawn here from a
// seeded generator, so every run clears the same ones.
func BenchmarkMemclrRange(b *testing.B) {
	for i, r := range []struct {
		name   string
		lo, hi int
		count  int
	}{
		{"1K_2K", 1 << 10, 2 << 10, 64},
		{"2K_8K", 2 << 10, 8 << 10, 64},
		{"4K_16K", 4 << 10, 16 << 10, 32},
		{"160K_228K", 160 << 10, 228 << 10, 8},
	} {
		rng := rand.New(rand.NewPCG(0x6d656d636c72, uint64(i)))
		buf := make([]byte, r.hi)
		xs := make([][]byte, r.count)
		total := 0
		for j := range xs {
			n := r.lo + rng.IntN(r.hi-r.lo)
			xs[j] = buf[:n]
			total += n
		}
		b.Run(r.name, func(b *testing.B) {
			benchBoth(b, total, xs)
		})
	}
}

// clearByteLoop is the simplest possible wipe, one byte store per iteration.
// It is the yardstick for the shortest clears (the riscv64 bar is to cost no
// more instructions than it at 5 bytes). It is written as a three-clause
// loop because the compiler turns `for i := range b { b[i] = 0 }` into a
// call to the runtime's memclr.
//
//go:noinline
func clearByteLoop(b []byte) {
	for i := 0; i < len(b); i++ {
		b[i] = 0
	}
}

// BenchmarkByteLoop runs clearByteLoop at the short sizes of BenchmarkMemclr;
// it exists to be counted under qemu beside them, not to be compared by
// benchstat.
func BenchmarkByteLoop(b *testing.B) {
	for _, n := range []int{5, 16, 64} {
		x := make([]byte, n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for range b.N {
				clearByteLoop(x)
			}
		})
	}
}
