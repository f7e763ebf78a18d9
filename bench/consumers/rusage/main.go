// Command rusage runs a command and prints, after it exits, the CPU time
// (user+sys, from the kernel's accounting of the child) and the wall time
// of the whole process, start to exit, in the format of package phase:
//
//	rusage cpu-ms=X wall-ms=Y
//
// bench/scripts/consumers.sh uses it for the consumer whose benchmark is a
// test binary it does not control (wireguard-go's BenchmarkThroughput).
// The line goes to standard error; the command's output passes through.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: rusage command [args...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, "rusage:", err)
		os.Exit(1)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	fmt.Fprintf(os.Stderr, "rusage cpu-ms=%.3f wall-ms=%.3f\n", float64(cpu)/1e6, float64(wall)/1e6)
	if err != nil {
		fmt.Fprintln(os.Stderr, "rusage:", err)
		os.Exit(1)
	}
}
