package trace

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/cpu"
)

var flagPtrace = flag.Bool("trace.ptrace", false, "run TestPtrace, the amd64 trace check")

// TestPtrace runs TestChild of this test binary under ptrace and checks
// that every case gives one trace (and that every planted leak gives
// more). It covers whatever implementations this CPU can run: on an
// AVX-512 machine every AVX-512 and IFMA kernel, which valgrind cannot
// execute.
func TestPtrace(t *testing.T) {
	if !*flagPtrace || *flagChild {
		t.Skip("single-steps every case for minutes: run by scripts/ct-trace.sh (-trace.ptrace)")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	syms, err := loadSymbols(exe)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"-test.run=^TestChild$", "-trace.child", fmt.Sprintf("-trace.runs=%d", *flagRuns),
		fmt.Sprintf("-trace.long=%t", *flagLong)}
	if *flagCases != "" {
		args = append(args, "-trace.cases="+*flagCases)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), childEnv...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	col := newCollector(syms)
	steps, err := ptraceRun(cmd, syms, col)
	if err != nil {
		t.Logf("child output:\n%s", out.Bytes())
		t.Fatal(err)
	}
	m, err := parseManifest(out.Bytes())
	if err != nil {
		t.Logf("child output:\n%s", out.Bytes())
		t.Fatal(err)
	}
	t.Logf("%d instructions single-stepped", steps)
	if !report(os.Stdout, "amd64 ptrace", m, col) {
		t.Fail()
	}
	if *flagCases == "" {
		checkCoverage(t, col)
	}
}

// checkCoverage fails t unless the regions entered every assembly function
// of the module in the binary but CPUID's and internal/ct's own (neither
// sees a secret): on a CPU with every x86 feature the kernels use, so that
// no kernel escapes the trace check. On other CPUs it names the missed
// ones only.
func checkCoverage(t *testing.T, col *collector) {
	traced := map[string]bool{}
	for _, n := range col.assembly() {
		traced[n] = true
	}
	var missed []string
	for _, n := range col.moduleAssembly() {
		if !traced[n] && n != "internal/cpuid.cpuid" {
			missed = append(missed, n)
		}
	}
	if len(missed) == 0 {
		fmt.Printf("amd64 ptrace: every assembly function of the module ran in a traced region\n")
		return
	}
	x := cpu.X86
	if x.HasAVX512F && x.HasAVX512VL && x.HasAVX512BW && x.HasAVX512IFMA && x.HasAVX2 && x.HasBMI2 {
		t.Errorf("assembly functions no traced region entered: %s", strings.Join(missed, " "))
		return
	}
	fmt.Printf("amd64 ptrace: not traced on this CPU (it lacks their features): %s\n", strings.Join(missed, " "))
}

// childEnv is the environment of a traced child: no garbage collection,
// no asynchronous preemption (a signal that would run the preemption
// handler inside the region), one P.
var childEnv = []string{"GOGC=off", "GOMAXPROCS=1", "GODEBUG=asyncpreemptoff=1"}

// ptrace requests and options that package syscall does not name.
const (
	ptracePeekUser  = 3
	ptraceOExitKill = 0x100000
	ripOffset       = 16 * 8 // rip's offset in struct user_regs_struct
)

// ptraceRun starts cmd under ptrace and traces it to its end: every time
// a thread enters traceBegin, the other threads are stopped (so that
// sysmon cannot ask the traced goroutine to yield, and no thread changes
// what the traced one reads), and the thread is single-stepped up to
// traceEnd, its instruction addresses going to col under the case index
// that traceBegin received. It returns the number of steps.
//
// Every ptrace request comes from this goroutine's locked thread, the
// tracer of the child.
func ptraceRun(cmd *exec.Cmd, syms *symbols, col *collector) (steps int, err error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	restore, err := pinToOneCPU()
	if err != nil {
		return 0, err
	}
	defer restore()
	cmd.SysProcAttr = &syscall.SysProcAttr{Ptrace: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	pid := cmd.Process.Pid
	defer func() {
		if err != nil {
			cmd.Process.Kill()
		}
		// Reap the child for cmd (its Wait returns the error of a
		// process already waited for; the output is in cmd's buffers).
		cmd.Wait()
	}()
	var ws syscall.WaitStatus
	if _, err := syscall.Wait4(pid, &ws, syscall.WALL, nil); err != nil {
		return 0, err
	}
	if !ws.Stopped() || ws.StopSignal() != syscall.SIGTRAP {
		return 0, fmt.Errorf("child did not stop at exec: %v", ws)
	}
	if err := syscall.PtraceSetOptions(pid, syscall.PTRACE_O_TRACECLONE|ptraceOExitKill); err != nil {
		return 0, err
	}
	tr := &tracer{pid: pid, threads: map[int]bool{pid: true}, syms: syms, col: col}
	if err := tr.setBreakpoint(); err != nil {
		return 0, err
	}
	if err := syscall.PtraceCont(pid, 0); err != nil {
		return 0, err
	}
	for len(tr.threads) > 0 {
		tid, err := syscall.Wait4(-1, &ws, syscall.WALL, nil)
		if err != nil {
			return tr.steps, err
		}
		if err := tr.event(tid, ws); err != nil {
			return tr.steps, err
		}
	}
	return tr.steps, nil
}

// A tracer is the state of one traced child.
type tracer struct {
	pid     int
	threads map[int]bool // the child's live threads
	syms    *symbols
	col     *collector
	orig    [8]byte // the word at traceBegin before the breakpoint
	steps   int
}

// event handles a stop or the end of thread tid outside a traced region.
func (tr *tracer) event(tid int, ws syscall.WaitStatus) error {
	switch {
	case ws.Exited() || ws.Signaled():
		delete(tr.threads, tid)
		if tid == tr.pid && ws.Signaled() {
			return fmt.Errorf("child killed by %v", ws.Signal())
		}
		return nil
	case !ws.Stopped():
		return nil
	}
	sig := ws.StopSignal()
	switch {
	case sig == syscall.SIGTRAP && ws.TrapCause() == syscall.PTRACE_EVENT_CLONE:
		msg, err := syscall.PtraceGetEventMsg(tid)
		if err != nil {
			return err
		}
		tr.threads[int(msg)] = true
		return syscall.PtraceCont(tid, 0)
	case sig == syscall.SIGTRAP:
		rip, err := peekRIP(tid)
		if err != nil {
			return err
		}
		if rip-1 != tr.syms.begin {
			return fmt.Errorf("thread %d: SIGTRAP at %#x (%s), not at traceBegin", tid, rip, tr.syms.describe(rip))
		}
		return tr.region(tid)
	case sig == syscall.SIGSTOP:
		// A new thread's first stop, or what is left of a stop of ours.
		tr.threads[tid] = true
		return syscall.PtraceCont(tid, 0)
	}
	return syscall.PtraceCont(tid, int(sig)) // the child's own signal
}

// region traces thread tid, stopped just after the breakpoint at
// traceBegin, up to traceEnd.
func (tr *tracer) region(tid int) error {
	resume, err := tr.stopOthers(tid)
	if err != nil {
		return err
	}
	var regs syscall.PtraceRegs
	if err := syscall.PtraceGetRegs(tid, &regs); err != nil {
		return err
	}
	id := int(regs.Rax) // traceBegin's argument
	regs.Rip = tr.syms.begin
	if err := syscall.PtraceSetRegs(tid, &regs); err != nil {
		return err
	}
	if _, err := syscall.PtracePokeText(tid, uintptr(tr.syms.begin), tr.orig[:]); err != nil {
		return err
	}
	run := tr.col.start(id)
	rip := tr.syms.begin
	const limit = 50_000_000
	for n := 0; rip != tr.syms.end; n++ {
		if n == limit {
			return fmt.Errorf("case %d: no traceEnd after %d steps (at %s)", id, n, tr.syms.describe(rip))
		}
		run.add(rip)
		if err := syscall.PtraceSingleStep(tid); err != nil {
			return err
		}
		var ws syscall.WaitStatus
		if _, err := syscall.Wait4(tid, &ws, syscall.WALL, nil); err != nil {
			return err
		}
		if !ws.Stopped() || ws.StopSignal() != syscall.SIGTRAP {
			return fmt.Errorf("case %d: the traced thread left its steps (%v) at %s", id, ws, tr.syms.describe(rip))
		}
		if rip, err = peekRIP(tid); err != nil {
			return err
		}
		tr.steps++
	}
	tr.col.finish(run)
	if err := tr.setBreakpoint(); err != nil {
		return err
	}
	if err := syscall.PtraceCont(tid, 0); err != nil {
		return err
	}
	return resume()
}

// stopOthers stops every thread of the child but tid, with SIGSTOP, and
// returns the function that lets them go on, each with the signal it had
// stopped for if that was not ours.
func (tr *tracer) stopOthers(tid int) (resume func() error, err error) {
	pending := map[int]bool{}
	for t := range tr.threads {
		if t != tid {
			if err := syscall.Tgkill(tr.pid, t, syscall.SIGSTOP); err != nil && !errors.Is(err, syscall.ESRCH) {
				return nil, err
			}
			pending[t] = true
		}
	}
	stopped := map[int]syscall.Signal{} // thread -> signal to deliver on resume
	for len(pending) > 0 {
		var ws syscall.WaitStatus
		t, err := syscall.Wait4(-1, &ws, syscall.WALL, nil)
		if err != nil {
			return nil, err
		}
		switch {
		case ws.Exited() || ws.Signaled():
			delete(tr.threads, t)
			delete(pending, t)
		case ws.Stopped():
			sig := ws.StopSignal()
			if sig == syscall.SIGTRAP && ws.TrapCause() == syscall.PTRACE_EVENT_CLONE {
				msg, err := syscall.PtraceGetEventMsg(t)
				if err != nil {
					return nil, err
				}
				n := int(msg)
				if _, ok := stopped[n]; !ok {
					if tr.threads[n] {
						// Its first stop came and went before this
						// event: it runs, and needs a stop of ours.
						if err := syscall.Tgkill(tr.pid, n, syscall.SIGSTOP); err != nil && !errors.Is(err, syscall.ESRCH) {
							return nil, err
						}
					}
					tr.threads[n] = true
					pending[n] = true
				}
				sig = 0
			} else if sig == syscall.SIGTRAP {
				return nil, fmt.Errorf("thread %d hit a trap while thread %d was traced", t, tid)
			} else if sig == syscall.SIGSTOP {
				sig = 0
			}
			tr.threads[t] = true
			stopped[t] = sig
			delete(pending, t)
		}
	}
	return func() error {
		for t, sig := range stopped {
			if err := syscall.PtraceCont(t, int(sig)); err != nil && !errors.Is(err, syscall.ESRCH) {
				return err
			}
		}
		return nil
	}, nil
}

// setBreakpoint writes INT3 over the first byte of traceBegin.
func (tr *tracer) setBreakpoint() error {
	if _, err := syscall.PtracePeekText(tr.pid, uintptr(tr.syms.begin), tr.orig[:]); err != nil {
		return err
	}
	w := tr.orig
	w[0] = 0xcc
	_, err := syscall.PtracePokeText(tr.pid, uintptr(tr.syms.begin), w[:])
	return err
}

// pinToOneCPU binds the calling thread, and so the child it forks, to
// the first CPU it may run on, and returns the function that restores its
// mask. Each step is a round trip between tracer and child: on one CPU it
// is a switch of tasks, across two a wake-up of the other CPU, which costs
// more than the step itself in a virtual machine.
func pinToOneCPU() (restore func(), err error) {
	var mask, one [16]uint64 // up to 1024 CPUs
	size := unsafe.Sizeof(mask)
	if _, _, e := syscall.RawSyscall(syscall.SYS_SCHED_GETAFFINITY, 0, size, uintptr(unsafe.Pointer(&mask))); e != 0 {
		return nil, e
	}
	for i, w := range mask {
		if w != 0 {
			one[i] = w & -w
			break
		}
	}
	if _, _, e := syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, 0, size, uintptr(unsafe.Pointer(&one))); e != 0 {
		return nil, e
	}
	return func() {
		syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, 0, size, uintptr(unsafe.Pointer(&mask)))
	}, nil
}

// peekRIP reads the instruction pointer of stopped thread tid: one
// request, where PTRACE_GETREGS copies every register.
func peekRIP(tid int) (uint64, error) {
	var rip uint64
	_, _, e := syscall.Syscall6(syscall.SYS_PTRACE, ptracePeekUser, uintptr(tid), ripOffset,
		uintptr(unsafe.Pointer(&rip)), 0, 0)
	if e != 0 {
		return 0, e
	}
	return rip, nil
}
