package trace

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

var (
	flagQemu    = flag.String("trace.qemu", "", "TestQemu: the qemu user-mode emulator, such as qemu-aarch64-static")
	flagCPU     = flag.String("trace.cpu", "", "TestQemu: the emulated CPU model (qemu's -cpu)")
	flagGuest   = flag.String("trace.guest", "", "TestQemu: the test binary of this package built for the emulated architecture")
	flagRow     = flag.String("trace.row", "", "TestQemu: the row's name in the report")
	flagGodebug = flag.String("trace.godebug", "", "TestQemu: settings added to the guest's GODEBUG, such as cpu.lasx=off")
)

// TestQemu runs TestChild of a test binary of another architecture under
// qemu user mode, with the execution log of every translation block
// (-d exec,nochain: without chaining, qemu logs each block each time it
// runs it), and checks that every case gives one sequence of blocks.
//
// A translation block is straight-line guest code from a block start to
// the first branch, so the sequence of the blocks' start addresses fixes
// the sequence of executed instructions and changes with the outcome of
// any conditional branch: both the taken target and the fall-through
// start a block. Each guest thread is one emulated CPU, whose index
// prefixes its log lines; a region is the blocks of the thread that
// entered traceBegin, up to traceEnd. The log does not give registers, so
// the regions are matched to cases by their order: TestChild runs every
// case -trace.runs times in the order of its list.
func TestQemu(t *testing.T) {
	if *flagQemu == "" || *flagGuest == "" {
		t.Skip("needs -trace.qemu and -trace.guest: run by scripts/ct-trace.sh")
	}
	syms, err := loadSymbols(*flagGuest)
	if err != nil {
		t.Fatal(err)
	}
	runs := max(*flagRuns, 1)
	args := []string{}
	if *flagCPU != "" {
		args = append(args, "-cpu", *flagCPU)
	}
	args = append(args, "-d", "exec,nochain", "-D", "/dev/fd/3", *flagGuest,
		"-test.run=^TestChild$", "-trace.child", fmt.Sprintf("-trace.runs=%d", runs),
		fmt.Sprintf("-trace.long=%t", *flagLong))
	if *flagCases != "" {
		args = append(args, "-trace.cases="+*flagCases)
	}
	cmd := exec.Command(*flagQemu, args...)
	godebug := "asyncpreemptoff=1"
	if *flagGodebug != "" {
		godebug += "," + *flagGodebug
	}
	env := []string{"GOGC=off", "GOMAXPROCS=1", "GODEBUG=" + godebug}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOGC=") && !strings.HasPrefix(kv, "GOMAXPROCS=") &&
			!strings.HasPrefix(kv, "GODEBUG=") && !strings.HasPrefix(kv, "QEMU_") {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	col := newCollector(syms)
	blocks, perr := readExecLog(r, syms, col, runs)
	r.Close()
	werr := cmd.Wait()
	if werr != nil || perr != nil {
		t.Logf("guest output:\n%s", out.Bytes())
		t.Fatal(errors.Join(werr, perr))
	}
	m, err := parseManifest(out.Bytes())
	if err != nil {
		t.Logf("guest output:\n%s", out.Bytes())
		t.Fatal(err)
	}
	for _, e := range m {
		if e.runs != runs {
			t.Fatalf("case %s: %d runs, want %d", e.name, e.runs, runs)
		}
	}
	row := *flagRow
	if row == "" {
		row = *flagQemu + " " + *flagCPU
	}
	t.Logf("%d translation blocks in the traced regions", blocks)
	if !report(os.Stdout, row, m, col) {
		t.Fail()
	}
}

// readExecLog reads qemu's exec log,
//
//	Trace CPU: HOSTPTR [CSBASE/PC/FLAGS/CFLAGS] SYMBOL
//
// and gives col the block addresses of each region: region i (counting
// from 0) is run i%runs of case i/runs. It returns the number of blocks
// in the regions.
func readExecLog(r io.Reader, syms *symbols, col *collector, runs int) (int, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	var (
		cur     *runTrace
		cpu     string
		regions int
		blocks  int
	)
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			for err == bufio.ErrBufferFull { // a line too long to be a block's: skip it
				_, err = br.ReadSlice('\n')
			}
			continue
		}
		if len(line) > 0 {
			c, pc, ok := parseExecLine(line)
			switch {
			case !ok:
			case cur == nil && pc == syms.begin:
				cur, cpu = col.start(regions/runs), string(c)
				regions++
				cur.add(pc)
				blocks++
			case cur != nil && string(c) == cpu:
				if pc == syms.end {
					col.finish(cur)
					cur = nil
					break
				}
				cur.add(pc)
				blocks++
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return blocks, err
		}
	}
	if cur != nil {
		return blocks, fmt.Errorf("the log ends inside region %d", regions-1)
	}
	return blocks, nil
}

// parseExecLine returns the CPU index and guest address of an exec line.
func parseExecLine(line []byte) (cpu []byte, pc uint64, ok bool) {
	rest, found := bytes.CutPrefix(line, []byte("Trace "))
	if !found {
		return nil, 0, false
	}
	cpu, rest, found = bytes.Cut(rest, []byte(":"))
	if !found {
		return nil, 0, false
	}
	_, rest, found = bytes.Cut(rest, []byte("["))
	if !found {
		return nil, 0, false
	}
	_, rest, found = bytes.Cut(rest, []byte("/"))
	if !found {
		return nil, 0, false
	}
	field, _, found := bytes.Cut(rest, []byte("/"))
	if !found {
		return nil, 0, false
	}
	pc, err := strconv.ParseUint(string(field), 16, 64)
	return cpu, pc, err == nil
}
