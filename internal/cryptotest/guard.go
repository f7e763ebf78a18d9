package cryptotest

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/chachakit/chachakit/internal/impl"
)

// Guard pages: memory-bounds checks for the assembly kernels.
//
// Go's bounds checks stop at the assembly's door: a kernel that loads a
// whole vector where its slice holds fewer bytes, or stores a block's tail
// past dst, reads or corrupts whatever lies next to the slice, and a test
// on ordinary heap buffers seldom notices (the byte read is usually
// mapped, and a stray store lands in padding). A [Guard] is a mapping of
// whole pages between two pages that may not be touched at all; a slice
// placed flush against one of them makes the first byte outside it, on that
// side, fault. The suites place every buffer both ways, so that an access
// one byte past either end of any slice faults.

// GuardLengths returns the message lengths of the guard suites: every
// length 0..1100 (maxLen: several of the largest SIMD batches with partial
// blocks on either side) and a few longer ones, around the stitched loops'
// 1 KiB and 384-byte batches (with tails short and long) and 4 KiB pages.
func GuardLengths() []int {
	long := []int{1350, 2047, 2048, 2049, 2111, 3071, 4095, 4096, 8191, GuardMaxLen}
	l := make([]int, 0, maxLen+1+len(long))
	for n := 0; n <= maxLen; n++ {
		l = append(l, n)
	}
	return append(l, long...)
}

// GuardMaxLen is the longest of GuardLengths.
const GuardMaxLen = 16384 + 63

// A Placement says which end of a guarded slice touches an inaccessible
// page.
type Placement int

const (
	// EndAtGuard places a slice so that it ends where the inaccessible
	// page after it begins: reading or writing the byte after its last
	// faults.
	EndAtGuard Placement = iota
	// StartAtGuard places a slice so that it starts where the inaccessible
	// page before it ends, at a page boundary: reading or writing the byte
	// before its first faults.
	StartAtGuard
)

// Placements lists both placements, for the suites' loops.
var Placements = []Placement{EndAtGuard, StartAtGuard}

func (p Placement) String() string {
	switch p {
	case EndAtGuard:
		return "end-at-guard"
	case StartAtGuard:
		return "start-at-guard"
	}
	return fmt.Sprintf("Placement(%d)", int(p))
}

// canaryLen is how many bytes beside a placed slice, on the side without
// the guard page, Slice fills with a pattern and Intact checks: there a
// stray store lands in mapped memory, and only the pattern shows it.
const canaryLen = 64

// A Guard is one mapping: size usable bytes (rounded up to whole pages)
// between two inaccessible pages. Slice hands out one slice of it at a time.
// A Guard is not safe for concurrent use; the mapping is removed when the
// test that made it ends.
type Guard struct {
	name string
	mem  []byte // the whole mapping, both guard pages included
	body []byte // the accessible pages between them
	size int    // the longest slice Slice hands out

	cur []byte    // the slice last handed out
	at  Placement // and its placement
	// canary is the pattern's stretch of body, [clo, chi).
	clo, chi int
}

// live holds the guards whose mappings exist, so that a fault can be
// described by the buffer it hit.
var live struct {
	sync.Mutex
	l []*Guard
}

// NewGuard maps a guard for slices of up to size bytes, named name in
// failure messages, and removes it when t ends. It skips t where the system
// has no mmap and mprotect (see guard_other.go).
func NewGuard(t testing.TB, name string, size int) *Guard {
	t.Helper()
	if size < 0 {
		panic("cryptotest: negative guard size")
	}
	mem, body, err := mapGuarded(size)
	if err != nil {
		if err == errNoGuards {
			t.Skipf("guard pages: %v", err)
		}
		t.Fatalf("guard pages for %s (%d bytes): %v", name, size, err)
	}
	g := &Guard{name: name, mem: mem, body: body, size: size}
	live.Lock()
	live.l = append(live.l, g)
	live.Unlock()
	t.Cleanup(func() {
		live.Lock()
		live.l = slices.DeleteFunc(live.l, func(x *Guard) bool { return x == g })
		live.Unlock()
		if err := unmapGuarded(g.mem); err != nil {
			t.Errorf("unmapping the guard pages of %s: %v", g.name, err)
		}
		g.mem, g.body, g.cur = nil, nil, nil
	})
	return g
}

// Slice returns n bytes of g placed at at, with len == cap == n, so that
// Go's own bounds are exactly the slice's. Their contents are whatever the
// previous slices left; the canaryLen bytes beside them on the side
// without the guard page get a pattern that Intact checks. The slice handed
// out before is no longer valid. For n == 0 the slice is empty and not nil,
// its pointer at the guard page (EndAtGuard) or at the first accessible byte
// (StartAtGuard).
func (g *Guard) Slice(at Placement, n int) []byte {
	if n < 0 || n > g.size {
		panic(fmt.Sprintf("cryptotest: %d bytes do not fit guard %s of %d", n, g.name, g.size))
	}
	var off int
	switch at {
	case EndAtGuard:
		off = len(g.body) - n
		g.clo, g.chi = max(0, off-canaryLen), off
	case StartAtGuard:
		off = 0
		g.clo, g.chi = n, min(len(g.body), n+canaryLen)
	default:
		panic("cryptotest: bad placement")
	}
	for i := g.clo; i < g.chi; i++ {
		g.body[i] = canaryByte(i)
	}
	// unsafe.Slice rather than g.body[off:off+n:off+n]: Go keeps the base
	// pointer of a slice expression of capacity 0, which would put an
	// empty end-at-guard slice at the start of the body.
	g.cur = unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(g.body)), off)), n)
	g.at = at
	return g.cur
}

func canaryByte(i int) byte { return byte(i*167) ^ 0x3c }

// Intact reports whether the pattern beside the slice last handed out is
// unchanged: nothing was stored just outside it on the mapped side.
func (g *Guard) Intact() bool {
	for i := g.clo; i < g.chi; i++ {
		if g.body[i] != canaryByte(i) {
			return false
		}
	}
	return true
}

// CheckIntact fails t, naming the case what returns, for each guard whose
// pattern beside its current slice was overwritten.
func CheckIntact(t testing.TB, what func() string, guards ...*Guard) {
	t.Helper()
	for _, g := range guards {
		if !g.Intact() {
			t.Fatalf("%s: a byte just outside %s (len %d, %s) was overwritten", what(), g.name, len(g.cur), g.at)
		}
	}
}

// CatchFault runs f with memory faults turned into panics
// (debug.SetPanicOnFault) and turns such a panic into a fatal test failure
// that names the case (what is only called then), the faulting address and
// the guarded buffer it lies beside. Any other panic fails the test as
// well, with its value and stack. Without it a fault would still stop the
// test binary, with the runtime's "unexpected fault address" report, but
// without naming the case.
func CatchFault(t testing.TB, what func() string, f func()) {
	t.Helper()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if e, ok := r.(interface{ Addr() uintptr }); ok {
			t.Fatalf("%s: memory fault (SIGSEGV) at %#x: %s", what(), e.Addr(), describeAddr(e.Addr()))
		}
		if e, ok := r.(runtime.Error); ok && strings.HasPrefix(e.Error(), "runtime error: invalid memory address") {
			// A fault whose address did not reach the runtime (under
			// qemu-user on arm, ppc64 and ppc64le it reads 0), which
			// takes it for a nil pointer dereference.
			t.Fatalf("%s: memory fault (SIGSEGV), address not reported: %v\n%s", what(), r, debug.Stack())
		}
		t.Fatalf("%s: panic: %v\n%s", what(), r, debug.Stack())
	}()
	f()
}

// describeAddr says where addr lies relative to the live guards' current
// slices: "byte 37 of dst (len 37, end-at-guard), in the inaccessible
// page after it" for the first byte past a 37-byte slice, a negative index
// for the bytes before one. On s390x the kernel reports only the page of a
// fault (the address of its first byte), so there the page is what counts
// and the index is the page's.
func describeAddr(addr uintptr) string {
	live.Lock()
	defer live.Unlock()
	for _, g := range live.l {
		lo := uintptr(unsafe.Pointer(unsafe.SliceData(g.mem)))
		if addr < lo || addr-lo >= uintptr(len(g.mem)) {
			continue
		}
		base := uintptr(unsafe.Pointer(unsafe.SliceData(g.cur)))
		i := int(int64(addr - base)) // addr - base wraps for a negative index
		body := uintptr(unsafe.Pointer(unsafe.SliceData(g.body)))
		where := "in its accessible pages"
		switch {
		case addr < body:
			where = "in the inaccessible page before it"
		case addr >= body+uintptr(len(g.body)):
			where = "in the inaccessible page after it"
		}
		pageOnly := ""
		if runtime.GOARCH == "s390x" {
			pageOnly = "; s390x gives the fault's page, not its byte"
		}
		return fmt.Sprintf("byte %d of %s (len %d, %s), %s%s", i, g.name, len(g.cur), g.at, where, pageOnly)
	}
	return "in none of the guard mappings"
}

// Chosen names the implementation each of pkgs currently dispatches to,
// "chacha20=AVX2 poly1305=Go", for the guard suites' failure messages.
func Chosen(pkgs ...string) string {
	var b strings.Builder
	for i, p := range pkgs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(p + "=" + impl.Preferred(p))
	}
	return b.String()
}
