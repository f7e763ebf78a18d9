package trace

import (
	"bufio"
	"bytes"
	"debug/elf"
	"debug/gosym"
	"fmt"
	"go/build"
	"io"
	"path/filepath"
	"slices"
	"strings"
)

// Names of the marker functions in the symbol table.
const (
	beginSymbol = "github.com/chachakit/chachakit/internal/ct/trace.traceBegin"
	endSymbol   = "github.com/chachakit/chachakit/internal/ct/trace.traceEnd"
)

// symbols are what the tracers need from the traced binary: the marker
// functions' addresses, runtime.morestack's (a call to it inside a region
// means the runtime grew the stack or asked the goroutine to yield, not
// that the kernel branched), and a line table to name the place of a
// difference.
type symbols struct {
	begin, end, morestack uint64
	lines                 *gosym.Table
}

// loadSymbols reads the symbols of the executable at path. The binary
// must not be position-independent: the tracers compare the addresses it
// executes with those of its symbol table.
func loadSymbols(path string) (*symbols, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if f.Type != elf.ET_EXEC {
		return nil, fmt.Errorf("%s: %v, want a non-PIE executable (ET_EXEC)", path, f.Type)
	}
	syms, err := f.Symbols()
	if err != nil {
		return nil, err
	}
	s := &symbols{}
	for _, sym := range syms {
		switch sym.Name {
		case beginSymbol:
			s.begin = sym.Value
		case endSymbol:
			s.end = sym.Value
		case "runtime.morestack", "runtime.morestack.abi0":
			s.morestack = sym.Value
		}
	}
	if s.begin == 0 || s.end == 0 || s.morestack == 0 {
		return nil, fmt.Errorf("%s: no %s, %s or runtime.morestack in the symbol table", path, beginSymbol, endSymbol)
	}
	text, pcln := f.Section(".text"), f.Section(".gopclntab")
	if text != nil && pcln != nil {
		if data, err := pcln.Data(); err == nil {
			s.lines, _ = gosym.NewTable(nil, gosym.NewLineTable(data, text.Addr))
		}
	}
	return s, nil
}

// moduleRoot is the module's directory, which the tests run three levels
// below: describe names the module's files relative to it.
var moduleRoot, _ = filepath.Abs("../../..")

// describe names the function, offset and source line of pc.
func (s *symbols) describe(pc uint64) string {
	if s.lines == nil {
		return fmt.Sprintf("%#x", pc)
	}
	file, line, fn := s.lines.PCToLine(pc)
	if fn == nil {
		return fmt.Sprintf("%#x", pc)
	}
	if rel, ok := strings.CutPrefix(file, moduleRoot+"/"); ok {
		file = rel
	} else if rel, ok := strings.CutPrefix(file, build.Default.GOROOT+"/"); ok {
		file = "$GOROOT/" + rel
	}
	return fmt.Sprintf("%#x %s+%#x (%s:%d)", pc, fn.Name, pc-fn.Entry, file, line)
}

// A collector groups the traced regions by case. It keeps the whole
// address sequence of the first clean run of the case being traced, to
// name the first place where a later run differs, and of every run a
// hash and a length.
type collector struct {
	syms  *symbols
	cases map[int]*caseResult
	cur   *caseResult
	seen  map[uint64]bool // every address of every region
}

type traceKey struct {
	hash uint64
	n    int
}

// A caseResult is what the runs of one case gave.
type caseResult struct {
	traces    map[traceKey]int // distinct traces, and how many runs gave each
	disturbed int              // runs that went through runtime.morestack
	steps     int              // the length of the first clean run
	first     []uint64         // the first clean run's addresses
	diff      string           // where a run first left the first one
}

func newCollector(syms *symbols) *collector {
	return &collector{syms: syms, cases: map[int]*caseResult{}, seen: map[uint64]bool{}}
}

// A runTrace is one region being recorded.
type runTrace struct {
	c         *caseResult
	syms      *symbols
	seen      map[uint64]bool
	h         uint64
	n         int
	keep      bool
	seq       []uint64
	disturbed bool
	prev      uint64
	diff      string
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// start begins a region of case id.
func (col *collector) start(id int) *runTrace {
	c := col.cases[id]
	if c == nil {
		c = &caseResult{traces: map[traceKey]int{}}
		col.cases[id] = c
	}
	if col.cur != nil && col.cur != c {
		col.cur.first = nil // only the current case keeps a sequence
	}
	col.cur = c
	return &runTrace{c: c, syms: col.syms, seen: col.seen, h: fnvOffset, keep: c.first == nil}
}

// add records the next executed address of the region.
func (r *runTrace) add(pc uint64) {
	r.h = (r.h ^ pc) * fnvPrime
	r.seen[pc] = true
	if pc == r.syms.morestack {
		r.disturbed = true
	}
	if r.keep {
		r.seq = append(r.seq, pc)
	} else if r.diff == "" && (r.n >= len(r.c.first) || r.c.first[r.n] != pc) {
		r.diff = r.divergence(pc)
	}
	r.prev = pc
	r.n++
}

// divergence says where this run, about to execute pc, left the first.
func (r *runTrace) divergence(pc uint64) string {
	d := r.syms.describe
	if r.n >= len(r.c.first) {
		return fmt.Sprintf("after step %d, at %s, the first run had ended; this one goes on to %s", r.n, d(r.prev), d(pc))
	}
	if r.n == 0 {
		return fmt.Sprintf("at the first step: %s instead of %s", d(pc), d(r.c.first[0]))
	}
	return fmt.Sprintf("after step %d, at %s: to %s instead of %s", r.n, d(r.prev), d(pc), d(r.c.first[r.n]))
}

// finish ends the region and counts its trace.
func (col *collector) finish(r *runTrace) {
	c := r.c
	if r.disturbed {
		c.disturbed++
		return
	}
	if r.keep {
		c.first, c.steps = r.seq, r.n
	} else if r.diff == "" && r.n != len(c.first) {
		r.diff = fmt.Sprintf("the first run ended after %d steps, at %s; this one goes on", len(c.first), col.syms.describe(c.first[len(c.first)-1]))
	}
	if r.diff != "" && c.diff == "" {
		c.diff = r.diff
	}
	c.traces[traceKey{r.h, r.n}]++
}

// A manifestEntry is one line of TestChild's list of cases.
type manifestEntry struct {
	id   int
	name string
	runs int
	leak bool
}

// parseManifest reads the list of cases from the child's output, and
// checks that the child got to its end.
func parseManifest(out []byte) ([]manifestEntry, error) {
	var m []manifestEntry
	done := false
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e manifestEntry
		if _, err := fmt.Sscanf(sc.Text(), manifestLine, &e.id, &e.name, &e.runs, &e.leak); err == nil {
			m = append(m, e)
		}
		var n int
		if _, err := fmt.Sscanf(sc.Text(), "ct-trace done %d cases", &n); err == nil {
			done = n == len(m)
		}
	}
	if len(m) == 0 || !done {
		return m, fmt.Errorf("the child did not run its %d cases to the end", len(m))
	}
	return m, nil
}

// report prints one line per case, the number of distinct traces first,
// and a summary, and reports whether every case gave one trace in every
// run and every planted leak more than one.
func report(w io.Writer, row string, m []manifestEntry, col *collector) bool {
	bad, caught, leaks := 0, 0, 0
	for _, e := range m {
		c := col.cases[e.id]
		if c == nil {
			c = &caseResult{traces: map[traceKey]int{}}
		}
		clean := 0
		for _, k := range c.traces {
			clean += k
		}
		distinct := len(c.traces)
		var verdict, note string
		switch {
		case e.leak && distinct > 1:
			verdict, note = "ok", "planted leak caught"
			caught++
		case e.leak:
			verdict, note = "FAIL", "planted leak NOT caught"
		case distinct == 1 && clean == e.runs:
			verdict = "ok"
		case distinct == 1 && clean >= 2:
			verdict, note = "ok", fmt.Sprintf("%d runs disturbed by the runtime, not counted", c.disturbed)
		case distinct <= 1:
			verdict, note = "FAIL", fmt.Sprintf("only %d of %d runs traced cleanly (%d disturbed)", clean, e.runs, c.disturbed)
		default:
			verdict, note = "FAIL", "secret-dependent: "+c.diff
		}
		if e.leak {
			leaks++
		}
		if verdict != "ok" {
			bad++
		}
		line := fmt.Sprintf("%-4s %d trace(s) %-48s %d runs, %d steps", verdict, distinct, e.name, clean, c.steps)
		if note != "" {
			line += "; " + note
		}
		if e.leak && distinct > 1 && c.diff != "" {
			line += "\n     (" + c.diff + ")"
		}
		fmt.Fprintln(w, line)
	}
	ids := make([]int, 0, len(col.cases))
	for id := range col.cases {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	if len(ids) != len(m) {
		fmt.Fprintf(w, "FAIL %s: %d cases listed, %d traced\n", row, len(m), len(ids))
		bad++
	}
	if asm := col.assembly(); len(asm) > 0 {
		fmt.Fprintf(w, "%s: the regions ran %d assembly functions of the module: %s\n", row, len(asm), strings.Join(asm, " "))
	}
	fmt.Fprintf(w, "%s: %d cases, %d with other than one trace; %d of %d planted leaks caught\n",
		row, len(m)-leaks, bad-(leaks-caught), caught, leaks)
	return bad == 0
}

// moduleAssembly lists every assembly function of the module (but
// internal/ct's) in the binary, package.function.
func (col *collector) moduleAssembly() []string {
	if col.syms.lines == nil {
		return nil
	}
	const prefix = "github.com/chachakit/chachakit/"
	var l []string
	for _, fn := range col.syms.lines.Funcs {
		file, _, _ := col.syms.lines.PCToLine(fn.Entry)
		if strings.HasSuffix(file, ".s") && strings.HasPrefix(fn.Name, prefix) && !strings.HasPrefix(fn.Name, prefix+"internal/ct/") {
			l = append(l, strings.TrimPrefix(fn.Name, prefix))
		}
	}
	slices.Sort(l)
	return slices.Compact(l)
}

// assembly lists the module's assembly functions (those whose source is a
// .s file) that the regions entered, package.function: evidence of which
// kernels the row traced.
func (col *collector) assembly() []string {
	if col.syms.lines == nil {
		return nil
	}
	const prefix = "github.com/chachakit/chachakit/"
	names := map[string]bool{}
	for pc := range col.seen {
		file, _, fn := col.syms.lines.PCToLine(pc)
		if fn != nil && strings.HasSuffix(file, ".s") && strings.HasPrefix(fn.Name, prefix) &&
			!strings.HasPrefix(fn.Name, prefix+"internal/ct/") {
			names[strings.TrimPrefix(fn.Name, prefix)] = true
		}
	}
	l := make([]string, 0, len(names))
	for n := range names {
		l = append(l, n)
	}
	slices.Sort(l)
	return l
}
