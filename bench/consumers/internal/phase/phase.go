// Package phase measures a phase of a benchmark program from inside the
// process: CPU time (user+sys of the whole process, from getrusage, so
// every goroutine and the garbage collector count) and wall time, both
// taken around the phase alone, so process start, key generation and
// handshakes are left out.
package phase

import (
	"fmt"
	"syscall"
	"time"
)

// Mark is a point in time on both clocks.
type Mark struct {
	cpu  time.Duration
	wall time.Time
}

// Now reads both clocks. It panics if getrusage fails, which it does not
// on the systems these programs run on.
func Now() Mark {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return Mark{cpu: time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), wall: time.Now()}
}

// Print writes the line that bench/scripts/consumers.sh parses: the CPU
// and wall time from start to now, per operation, in milliseconds.
//
//	result NAME ops=N cpu-ms=X wall-ms=Y
func Print(name string, ops int, start Mark) {
	end := Now()
	cpu := float64(end.cpu-start.cpu) / 1e6 / float64(ops)
	wall := float64(end.wall.Sub(start.wall)) / 1e6 / float64(ops)
	fmt.Printf("result %s ops=%d cpu-ms=%.4f wall-ms=%.4f\n", name, ops, cpu, wall)
}
