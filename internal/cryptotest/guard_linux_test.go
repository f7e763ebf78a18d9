package cryptotest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/chachakit/chachakit/subtle"
)

// The guard suites are only worth something if touching a guard page does
// stop the test. TestGuardCatches proves it, in child processes of this test
// binary (TestGuardChild, selected by guardChildEnv), since a fault that
// nothing catches ends the whole process:
//
//   - read-past-end: a load of the byte after an end-at-guard slice,
//     outside CatchFault, must kill the child with the runtime's
//     "unexpected fault address" at exactly that byte and a SIGSEGV report;
//   - write-before-start: a store to the byte before a start-at-guard
//     slice, inside CatchFault, must fail the child's test with a message
//     that names the case, the address and "byte -1" of the buffer;
//   - read-past-end-caught: the first case through CatchFault, "byte 10"
//     of a 10-byte buffer;
//   - asm-read-past-end-caught: subtle.XORBytes (assembly where the
//     platform has it) given a slice that claims one byte of the guard
//     page, through CatchFault: a fault inside a kernel is caught and
//     attributed to the buffer as well.
//
// Under qemu-user the child is started through qemu when the host cannot
// run the binary itself (see runChild), so that the emulated page
// protection is what is checked.

const guardChildEnv = "CHACHAKIT_GUARD_CHILD"

// guardSink keeps the child's stray load from being optimized away.
var guardSink byte

// TestGuardChild is the child's side of TestGuardCatches; it does nothing
// in an ordinary run.
func TestGuardChild(t *testing.T) {
	mode := os.Getenv(guardChildEnv)
	if mode == "" {
		t.Skip("only run as TestGuardCatches's child")
	}
	g := NewGuard(t, "probe", 100)
	what := func() string { return "deliberate " + mode }
	switch mode {
	case "read-past-end":
		b := g.Slice(EndAtGuard, 10)
		p := (*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), len(b)))
		fmt.Printf("expect fault at %#x (byte %d)\n", uintptr(unsafe.Pointer(p)), len(b))
		guardSink = *p
	case "read-past-end-caught":
		b := g.Slice(EndAtGuard, 10)
		p := (*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), len(b)))
		fmt.Printf("expect fault at %#x (byte %d)\n", uintptr(unsafe.Pointer(p)), len(b))
		CatchFault(t, what, func() { guardSink = *p })
	case "asm-read-past-end-caught":
		b := g.Slice(EndAtGuard, 100)
		lying := unsafe.Slice(unsafe.SliceData(b), len(b)+1)
		dst := make([]byte, len(lying))
		CatchFault(t, what, func() { subtle.XORBytes(dst, lying, lying) })
	case "write-before-start":
		b := g.Slice(StartAtGuard, 10)
		p := (*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), -1))
		fmt.Printf("expect fault at %#x (byte -1)\n", uintptr(unsafe.Pointer(p)))
		CatchFault(t, what, func() { *p = 1 })
	default:
		t.Fatalf("unknown %s=%s", guardChildEnv, mode)
	}
	t.Log("the stray access did not fault")
}

func TestGuardCatches(t *testing.T) {
	if os.Getenv(guardChildEnv) != "" {
		t.Skip("in the child")
	}
	for _, c := range []struct {
		mode string
		// want are regular expressions the child's output must match:
		// {addr} stands for the address it touched, {index} for that
		// byte's index in its slice. noAddr replaces them where the
		// system reports no fault address (see addrReported).
		want, noAddr []string
	}{
		{
			"read-past-end",
			[]string{`unexpected fault address {addr}\b`, `signal SIGSEGV: segmentation violation code=\S+ addr={addr}\b`},
			[]string{`panic: runtime error: invalid memory address or nil pointer dereference`, `signal SIGSEGV`},
		},
		{
			"read-past-end-caught",
			[]string{`deliberate read-past-end-caught: memory fault \(SIGSEGV\) at {addr}: byte {index} of probe \(len 10, end-at-guard\), in the inaccessible page after it`},
			[]string{`deliberate read-past-end-caught: memory fault \(SIGSEGV\), address not reported`},
		},
		{
			"asm-read-past-end-caught",
			[]string{`deliberate asm-read-past-end-caught: memory fault \(SIGSEGV\) at 0x[0-9a-f]+: byte \d+ of probe \(len 100, end-at-guard\), in the inaccessible page after it`},
			[]string{`deliberate asm-read-past-end-caught: memory fault \(SIGSEGV\), address not reported`},
		},
		{
			"write-before-start",
			[]string{`deliberate write-before-start: memory fault \(SIGSEGV\) at {addr}: byte {index} of probe \(len 10, start-at-guard\), in the inaccessible page before it`},
			[]string{`deliberate write-before-start: memory fault \(SIGSEGV\), address not reported`},
		},
	} {
		t.Run(c.mode, func(t *testing.T) {
			out, how, err := runChild(t, guardChildEnv+"="+c.mode, "-test.run=^TestGuardChild$", "-test.v", "-test.count=1", "-test.timeout=2m")
			// The child's output is quoted line by line, so that its
			// "--- FAIL" lines do not read as this test's (go test -json).
			defer func() {
				if t.Failed() {
					t.Logf("child run %s; its output begins:\n%s", how, quote(out, 12))
				}
			}()
			if err == nil {
				t.Fatal("the child exited with status 0: the stray access went unnoticed")
			}
			if _, ok := err.(*exec.ExitError); !ok {
				t.Fatalf("running the child: %v", err)
			}
			want := c.want
			if !addrReported(how) {
				want = c.noAddr
				t.Logf("qemu-user gives %s no fault address: only the fault itself is checked", runtime.GOARCH)
			}
			// On s390x, where the kernel gives a fault's page and not
			// its byte, {addr} and {index} may be the page's.
			addr, index := "(?:no address given)", "(?:no index)"
			if m := regexp.MustCompile(`expect fault at 0x([0-9a-f]+) \(byte (-?\d+)\)`).FindSubmatch(out); m != nil {
				a, _ := strconv.ParseUint(string(m[1]), 16, 64)
				i, _ := strconv.Atoi(string(m[2]))
				addr, index = fmt.Sprintf("%#x", a), strconv.Itoa(i)
				if runtime.GOARCH == "s390x" {
					page := a &^ uint64(os.Getpagesize()-1)
					addr = fmt.Sprintf("(?:%#x|%#x)", a, page)
					index = fmt.Sprintf("(?:%d|%d)", i, i-int(a-page))
				}
			}
			for _, w := range want {
				re := regexp.MustCompile(strings.ReplaceAll(strings.ReplaceAll(w, "{addr}", addr), "{index}", index))
				if m := re.Find(out); m == nil {
					t.Errorf("the child's output does not match %q", re)
				} else {
					t.Logf("child run %s: %s", how, m)
				}
			}
			if strings.Contains(string(out), "the stray access did not fault") {
				t.Error("the stray access did not fault")
			}
		})
	}
}

// addrReported reports whether a child started as how (runChild) learns
// the address of its faults. On linux/arm, ppc64 and ppc64le the Go runtime
// reads it from the signal context (fault_address, DAR), which qemu-user
// leaves 0: the runtime then takes the fault for a nil pointer dereference,
// which still ends the test.
func addrReported(how string) bool {
	switch runtime.GOARCH {
	case "arm", "ppc64", "ppc64le":
		return how == "directly"
	}
	return true
}

// qemuName maps GOARCH to the suffix of the qemu-user binary.
var qemuName = map[string]string{
	"amd64": "x86_64", "386": "i386", "arm64": "aarch64", "arm": "arm",
	"loong64": "loongarch64", "riscv64": "riscv64", "ppc64le": "ppc64le",
	"ppc64": "ppc64", "s390x": "s390x", "mips": "mips", "mipsle": "mipsel",
	"mips64": "mips64", "mips64le": "mips64el",
}

// runChild runs this test binary again with args and the extra environment
// variable env, and returns its combined output, how it was started, and
// its error. Under qemu-user without a binfmt_misc handler the host cannot
// execute the binary (ENOEXEC): then the child runs through
// qemu-<arch>-static from PATH, which takes its CPU model from QEMU_CPU.
func runChild(t *testing.T, env string, args ...string) (out []byte, how string, err error) {
	t.Helper()
	run := func(name string, argv ...string) ([]byte, error) {
		cmd := exec.Command(name, argv...)
		cmd.Env = append(os.Environ(), env)
		return cmd.CombinedOutput()
	}
	out, err = run(os.Args[0], args...)
	if !errors.Is(err, syscall.ENOEXEC) {
		return out, "directly", err
	}
	qemu, lerr := exec.LookPath("qemu-" + qemuName[runtime.GOARCH] + "-static")
	if lerr != nil {
		t.Skipf("cannot run the child (%v) and found no qemu to run it with (%v)", err, lerr)
	}
	out, err = run(qemu, append([]string{os.Args[0]}, args...)...)
	return out, "through " + qemu, err
}

// quote returns the first n lines of b (a crashed child's report, without
// the tracebacks of every goroutine), each after "| ".
func quote(b []byte, n int) string {
	lines := strings.SplitN(string(b), "\n", n+1)
	lines = lines[:min(n, len(lines))]
	for i, l := range lines {
		lines[i] = "| " + l
	}
	return strings.Join(lines, "\n")
}
