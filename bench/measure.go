package main

import (
	"runtime"
	"slices"
	"time"
)

// A row is the result of one operation at one size.
type row struct {
	Op            string    `json:"op"`
	Size          int       `json:"size"`
	ChachakitMBps float64   `json:"chachakit_mbps"` // median over the rounds
	XCryptoMBps   float64   `json:"xcrypto_mbps"`   // median over the rounds
	Ratio         float64   `json:"ratio"`          // chachakit/xcrypto; > 1 is faster
	ChachakitRuns []float64 `json:"chachakit_rounds_mbps"`
	XCryptoRuns   []float64 `json:"xcrypto_rounds_mbps"`
	ChachakitIter int       `json:"chachakit_iterations_per_round"`
	XCryptoIter   int       `json:"xcrypto_iterations_per_round"`
	Noisy         bool      `json:"noisy"` // a side's rounds spread by more than noiseLimit
}

// noiseLimit is the spread (max-min)/median of one side's rounds above which
// a row is marked noisy.
const noiseLimit = 0.25

// spread returns (max-min)/median of x.
func spread(x []float64) float64 {
	m := median(x)
	if m == 0 {
		return 0
	}
	return (slices.Max(x) - slices.Min(x)) / m
}

// timed returns how long run(n) takes.
func timed(run func(int), n int) time.Duration {
	start := time.Now()
	run(n)
	return time.Since(start)
}

// maxIterations bounds the iterations of one timed round.
const maxIterations = 1 << 30

// calibrate returns the number of iterations that take about d, given
// timeN(n), the time n iterations take.
func calibrate(timeN func(n int) time.Duration, d time.Duration) int {
	const maxN = maxIterations
	n := 1
	for {
		t := max(timeN(n), time.Nanosecond)
		if t >= d/4 || n >= maxN {
			return int(min(max(float64(n)*float64(d)/float64(t), 1), maxN))
		}
		// Aim at d/2 with the rate seen so far, growing at least 2x and at
		// most 100x per step (as the testing package does).
		next := float64(n) * float64(d/2) / float64(t)
		n = int(min(max(next, 2*float64(n)), 100*float64(n), maxN))
	}
}

// measure runs op for both libraries at size bytes (see interleave) and
// reports the median throughput of each side.
func measure(op operation, size int, d time.Duration, rounds int) row {
	r := row{Op: op.name, Size: size}
	var ours, theirs []float64
	ours, theirs, r.ChachakitIter, r.XCryptoIter = interleave(op.prepare(chachakit, size), op.prepare(xcrypto, size), d, rounds)
	mbps := func(ns float64) float64 { return float64(size) / ns * 1e3 }
	for i := range ours {
		r.ChachakitRuns = append(r.ChachakitRuns, mbps(ours[i]))
		r.XCryptoRuns = append(r.XCryptoRuns, mbps(theirs[i]))
	}
	r.ChachakitMBps = median(r.ChachakitRuns)
	r.XCryptoMBps = median(r.XCryptoRuns)
	if r.XCryptoMBps > 0 {
		r.Ratio = r.ChachakitMBps / r.XCryptoMBps
	}
	r.Noisy = spread(r.ChachakitRuns) > noiseLimit || spread(r.XCryptoRuns) > noiseLimit
	return r
}

// interleave times ours and theirs (each runs its call n times): both are
// calibrated to take about d per round, then rounds rounds alternate
// between them, switching which goes first, so that a noisy neighbour or a
// frequency change hits both sides alike. It returns each round's time per
// call in nanoseconds and each side's calls per round.
func interleave(ours, theirs func(int), d time.Duration, rounds int) (oursNs, theirsNs []float64, nOurs, nTheirs int) {
	runtime.GC()
	ours(1) // warm up caches and lazy initialisation
	theirs(1)
	nOurs = calibrate(func(n int) time.Duration { return timed(ours, n) }, d)
	nTheirs = calibrate(func(n int) time.Duration { return timed(theirs, n) }, d)
	ns := func(run func(int), n int) float64 {
		return float64(max(timed(run, n), time.Nanosecond)) / float64(n)
	}
	for i := range rounds {
		if i%2 == 0 {
			oursNs = append(oursNs, ns(ours, nOurs))
			theirsNs = append(theirsNs, ns(theirs, nTheirs))
		} else {
			theirsNs = append(theirsNs, ns(theirs, nTheirs))
			oursNs = append(oursNs, ns(ours, nOurs))
		}
	}
	return oursNs, theirsNs, nOurs, nTheirs
}

// A constructionRow is the result of one construction pattern.
type constructionRow struct {
	Pattern         string    `json:"pattern"`
	ChachakitNs     float64   `json:"chachakit_ns"` // median over the rounds
	XCryptoNs       float64   `json:"xcrypto_ns"`
	Ratio           float64   `json:"ratio"` // xcrypto/chachakit time; > 1 is faster
	ChachakitAllocs float64   `json:"chachakit_allocs"`
	XCryptoAllocs   float64   `json:"xcrypto_allocs"`
	ChachakitRuns   []float64 `json:"chachakit_rounds_ns"`
	XCryptoRuns     []float64 `json:"xcrypto_rounds_ns"`
	Noisy           bool      `json:"noisy"`
}

// measureConstruction times c for both libraries (see interleave) and
// counts their heap allocations per pattern.
func measureConstruction(c construction, d time.Duration, rounds int) constructionRow {
	r := constructionRow{Pattern: c.name}
	r.ChachakitRuns, r.XCryptoRuns, _, _ = interleave(c.ours, c.theirs, d, rounds)
	r.ChachakitNs, r.XCryptoNs = median(r.ChachakitRuns), median(r.XCryptoRuns)
	if r.ChachakitNs > 0 {
		r.Ratio = r.XCryptoNs / r.ChachakitNs
	}
	r.ChachakitAllocs, r.XCryptoAllocs = allocsPerCall(c.ours), allocsPerCall(c.theirs)
	r.Noisy = spread(r.ChachakitRuns) > noiseLimit || spread(r.XCryptoRuns) > noiseLimit
	return r
}

// allocsPerCall returns the mean number of heap allocations of one call of
// run, over enough calls to show an allocation made once per many calls.
func allocsPerCall(run func(int)) float64 {
	const n = 4096
	run(1)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	run(n)
	runtime.ReadMemStats(&after)
	return float64(after.Mallocs-before.Mallocs) / n
}

func median(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(x))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
