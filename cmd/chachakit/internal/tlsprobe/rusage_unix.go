//go:build unix

package main

import (
	"fmt"
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user+sys) that the process has used so
// far, every thread of it.
func cpuTime() (time.Duration, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, fmt.Errorf("getrusage: %w", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), nil
}
