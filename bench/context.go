package main

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"
)

// In context: an operation followed by other work, as in a program that
// seals a packet and then does its own work before the next one. Wide
// vector code can slow the code that runs after it (a lower clock after
// 512-bit instructions on some Intel cores; the vector units' power-up), a
// cost that a loop of the operation alone never shows. Each cell times, in
// interleaved rounds, four loops: the operation alone and the operation
// followed by the work, for chachakit and for x/crypto, plus the work alone.
// The after-cost is what the pair costs beyond its two parts:
// whole - op - work.

// contextWork is the work that follows the operation.
type contextWork struct {
	name string
	us   float64 // its length in microseconds, about
	run  func(iters int)
	per  int // iterations per microsecond, set by calibrateWork
}

// workSink keeps the integer work's results live.
var workSink uint64

// integerWork is a chain of multiplies, shifts and adds over a small
// table: general-purpose integer code with loads, like a program's own
// logic between packets.
func integerWork(iters int) {
	var table [64]uint64
	x := workSink | 1
	for i := range iters {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		table[i&63] += x * 0x9e3779b97f4a7c15
		x += table[(x>>58)&63]
	}
	workSink += x
}

var moveSrc, moveDst = make([]byte, 32<<10), make([]byte, 32<<10)

// memmoveWork copies 32 KiB per iteration: work for the vector units of
// memmove, as in a program that copies its buffers.
func memmoveWork(iters int) {
	for range iters {
		copy(moveDst, moveSrc)
		moveSrc[0]++
	}
}

// calibrateWork sets w.per so that w.run(w.per * us) takes about us
// microseconds.
func calibrateWork(w *contextWork, unitIters int) {
	n := unitIters
	for {
		start := time.Now()
		w.run(n)
		if d := time.Since(start); d >= 20*time.Millisecond {
			w.per = max(1, int(float64(n)/d.Seconds()/1e6))
			return
		}
		n *= 2
	}
}

// contextRow is one cell of the in-context table.
type contextRow struct {
	Op         string  `json:"op"`
	Size       int     `json:"size"`
	Work       string  `json:"work"`
	WorkNs     float64 `json:"work_ns"`
	OursOpNs   float64 `json:"chachakit_op_ns"`
	TheirOpNs  float64 `json:"xcrypto_op_ns"`
	OursNs     float64 `json:"chachakit_whole_ns"` // op then work
	TheirNs    float64 `json:"xcrypto_whole_ns"`
	Ratio      float64 `json:"ratio"` // xcrypto/chachakit whole-loop time; > 1 is faster
	OursAfter  float64 `json:"chachakit_after_ns"`
	TheirAfter float64 `json:"xcrypto_after_ns"`
}

// runContext measures every operation and size of ops and szs followed by
// each work of works; d is the length of one timed round of one loop.
func runContext(w io.Writer, ops []operation, szs []int, workUs []float64, d time.Duration, rounds int) []contextRow {
	ints := contextWork{name: "int", run: integerWork}
	moves := contextWork{name: "memmove", run: memmoveWork}
	calibrateWork(&ints, 1<<12)
	calibrateWork(&moves, 1<<4)
	var works []contextWork
	for _, us := range workUs {
		works = append(works, contextWork{name: fmt.Sprintf("int %gus", us), us: us, run: ints.run, per: ints.per})
	}
	if len(workUs) > 0 {
		us := workUs[len(workUs)/2]
		works = append(works, contextWork{name: fmt.Sprintf("memmove %gus", us), us: us, run: moves.run, per: moves.per})
	}

	var rows []contextRow
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "op\tsize\twork\twork ns\tck op ns\txc op ns\tck whole ns\txc whole ns\txc/ck whole\tck after ns\txc after ns\t")
	for _, op := range ops {
		for _, size := range szs {
			ours, theirs := op.prepare(chachakit, size), op.prepare(xcrypto, size)
			for _, wk := range works {
				iters := max(1, int(wk.us*float64(wk.per)))
				work := func(n int) {
					for range n {
						wk.run(iters)
					}
				}
				then := func(f func(int)) func(int) {
					return func(n int) {
						for range n {
							f(1)
							wk.run(iters)
						}
					}
				}
				ns := interleaveAll([]func(int){ours, theirs, then(ours), then(theirs), work}, d, rounds)
				r := contextRow{
					Op: op.name, Size: size, Work: wk.name,
					OursOpNs: ns[0], TheirOpNs: ns[1], OursNs: ns[2], TheirNs: ns[3], WorkNs: ns[4],
				}
				r.Ratio = r.TheirNs / r.OursNs
				r.OursAfter = r.OursNs - r.OursOpNs - r.WorkNs
				r.TheirAfter = r.TheirNs - r.TheirOpNs - r.WorkNs
				rows = append(rows, r)
				fmt.Fprintf(tw, "%s\t%d\t%s\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.3f\t%+.0f\t%+.0f\t\n",
					r.Op, r.Size, r.Work, r.WorkNs, r.OursOpNs, r.TheirOpNs, r.OursNs, r.TheirNs, r.Ratio, r.OursAfter, r.TheirAfter)
			}
		}
	}
	tw.Flush()
	return rows
}

// interleaveAll calibrates each loop of runs to take about d per round,
// then runs rounds rounds, each running every loop once in an order that
// rotates from round to round, and returns each loop's median time per
// iteration in nanoseconds.
func interleaveAll(runs []func(int), d time.Duration, rounds int) []float64 {
	n := make([]int, len(runs))
	for i, r := range runs {
		r(1)
		n[i] = calibrate(func(k int) time.Duration { return timed(r, k) }, d)
	}
	per := make([][]float64, len(runs))
	for round := range rounds {
		for j := range runs {
			i := (j + round) % len(runs)
			per[i] = append(per[i], float64(max(timed(runs[i], n[i]), time.Nanosecond))/float64(n[i]))
		}
	}
	med := make([]float64, len(runs))
	for i := range per {
		med[i] = median(per[i])
	}
	return med
}
