// Package trace is the trace half of the constant-time check (issue 46),
// for what valgrind cannot run: the AVX-512 and IFMA kernels of amd64 and
// every kernel of the other architectures.
//
// For fixed public inputs (lengths, offsets, additional-data length) and
// several random secrets (key, plaintext, and for Open the ciphertext and
// tag they give), the sequence of instruction addresses executed through a
// call must be the same: a branch that depends on a secret changes it. The
// package is all tests:
//
//   - TestChild (this file) runs every case of cases_test.go, each once or
//     twice untraced and then -trace.runs times between two marker calls,
//     traceBegin(id) and traceEnd, with new random secrets each time. It
//     prints the list of cases first, and does nothing unless -trace.child
//     is given: it is the program a tracer runs.
//   - TestPtrace (linux/amd64) runs TestChild of its own binary under
//     ptrace, puts a breakpoint on traceBegin and single-steps the thread
//     that hits it up to traceEnd, with every other thread of the child
//     stopped.
//   - TestQemu (linux/amd64) runs TestChild of a test binary of another
//     architecture under qemu user mode with its execution log, and reads
//     the sequence of translation blocks each marked region executed.
//
// Both print one line per case with the number of distinct traces, which
// must be 1 (and more than 1 for the planted leaks of planted_test.go).
// scripts/ct-trace.sh runs them.
package trace

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"regexp"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/chachakit/chachakit/internal/impl"
)

var (
	flagChild = flag.Bool("trace.child", false, "run the cases between the trace markers (for a tracer: TestPtrace or qemu)")
	flagRuns  = flag.Int("trace.runs", 3, "traced runs of each case, each with new random secrets")
	flagCases = flag.String("trace.cases", "", "regular expression: run only the cases whose names match")
	flagLong  = flag.Bool("trace.long", true, "include the long messages (8 KiB and 16 KiB)")
)

// traceBegin and traceEnd mark the traced region. They do nothing: a
// tracer finds their addresses in the binary's symbol table and watches
// for the thread that enters them. id, the case's index, is in the first
// integer argument register at traceBegin's entry (AX on amd64), where
// the ptrace tracer reads it; the qemu reader counts the regions instead.
//
//go:noinline
func traceBegin(id int) {}

//go:noinline
func traceEnd() {}

// A tcase is one traced call with fixed public inputs.
type tcase struct {
	name  string
	impls string // pkg=Name,... forced for the case; "" for this CPU's defaults
	leak  bool   // a planted leak: a tracer must find more than one trace

	// prep draws new secrets from rng and prepares the call's inputs
	// (an AEAD under the new key, the ciphertext to open) outside the
	// traced region.
	prep func(rng *rand.Rand)
	// run is the traced call; it returns an error (a failed Open) that
	// the child checks after the region.
	run func() error
}

// manifestLine is the format of the list TestChild prints before it runs:
// index, name, runs, and whether the case is a planted leak.
const manifestLine = "ct-trace case %d %s runs %d leak %t\n"

// TestChild runs the cases for a tracer. Each case forces its
// implementations, runs twice untraced (so that the stack has grown and
// every lazily initialised table exists), then -trace.runs times between
// the markers. The goroutine stays on one thread; the garbage collector is
// off (the tracers also set GOGC=off), so no allocation or collection
// differs from run to run; runtime.Gosched before each region gives it a
// new scheduling quantum, so that sysmon does not ask the goroutine to
// yield inside it (asynchronous preemption must be off too:
// GODEBUG=asyncpreemptoff=1).
func TestChild(t *testing.T) {
	if !*flagChild {
		t.Skip("the traced program: run by TestPtrace, TestQemu and scripts/ct-trace.sh")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))

	var filter *regexp.Regexp
	if *flagCases != "" {
		filter = regexp.MustCompile(*flagCases)
	}
	var cases []*tcase
	for _, c := range allCases() {
		if filter == nil || filter.MatchString(c.name) {
			cases = append(cases, c)
		}
	}
	runs := max(*flagRuns, 1)
	for i, c := range cases {
		fmt.Printf(manifestLine, i, c.name, runs, c.leak)
	}
	for i, c := range cases {
		if err := force(c.impls); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		rng := rand.New(rand.NewChaCha8(seed(i)))
		for range 2 {
			c.prep(rng)
			if err := c.run(); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}
		for range runs {
			c.prep(rng)
			runtime.Gosched()
			traceBegin(i)
			err := c.run()
			traceEnd()
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}
	}
	force("")
	fmt.Printf("ct-trace done %d cases\n", len(cases))
}

// seed gives case i its own stream of secrets, the same in every run of
// the child, so that a reported difference can be reproduced.
func seed(i int) (s [32]byte) {
	s[0], s[1] = byte(i), byte(i>>8)
	copy(s[2:], "chachakit constant-time trace")
	return s
}

// force makes every package use its default implementations, then those
// spec names ("pkg=Name,...").
func force(spec string) error {
	for _, pkg := range impl.Packages() {
		impl.Reset(pkg)
	}
	m, err := impl.ParseForced(spec)
	if err != nil {
		return err
	}
	for pkg, name := range m {
		if !impl.Select(pkg, name) {
			return fmt.Errorf("%s/%s is not available", pkg, name)
		}
	}
	return nil
}

// available reports whether implementation name of pkg can run here.
func available(pkg, name string) bool {
	if name == impl.Portable {
		return true
	}
	for _, i := range impl.List(pkg) {
		if i.Name == name {
			return i.Available
		}
	}
	return false
}

// names returns the implementations of pkg this CPU can run, and the
// portable one.
func names(pkg string) []string {
	var l []string
	for _, i := range impl.List(pkg) {
		if i.Available {
			l = append(l, i.Name)
		}
	}
	return append(l, impl.Portable)
}
