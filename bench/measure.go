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

// measure runs op for both libraries, interleaved: rounds short timed runs
// of d each, alternating which library goes first, so that a noisy
// neighbour or a frequency change hits both sides alike. It reports the
// median throughput of each side.
func measure(op operation, size int, d time.Duration, rounds int) row {
	ours := op.prepare(chachakit, size)
	theirs := op.prepare(xcrypto, size)
	runtime.GC()
	ours(1) // warm up caches and lazy initialisation
	theirs(1)
	nOurs := calibrate(func(n int) time.Duration { return timed(ours, n) }, d)
	nTheirs := calibrate(func(n int) time.Duration { return timed(theirs, n) }, d)

	r := row{Op: op.name, Size: size, ChachakitIter: nOurs, XCryptoIter: nTheirs}
	mbps := func(n int, t time.Duration) float64 {
		return float64(n) * float64(size) / max(t, time.Nanosecond).Seconds() / 1e6
	}
	for i := range rounds {
		if i%2 == 0 {
			r.ChachakitRuns = append(r.ChachakitRuns, mbps(nOurs, timed(ours, nOurs)))
			r.XCryptoRuns = append(r.XCryptoRuns, mbps(nTheirs, timed(theirs, nTheirs)))
		} else {
			r.XCryptoRuns = append(r.XCryptoRuns, mbps(nTheirs, timed(theirs, nTheirs)))
			r.ChachakitRuns = append(r.ChachakitRuns, mbps(nOurs, timed(ours, nOurs)))
		}
	}
	r.ChachakitMBps = median(r.ChachakitRuns)
	r.XCryptoMBps = median(r.XCryptoRuns)
	if r.XCryptoMBps > 0 {
		r.Ratio = r.ChachakitMBps / r.XCryptoMBps
	}
	r.Noisy = spread(r.ChachakitRuns) > noiseLimit || spread(r.XCryptoRuns) > noiseLimit
	return r
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
