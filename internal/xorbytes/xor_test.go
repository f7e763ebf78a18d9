package xorbytes

import (
	"bytes"
	stdsubtle "crypto/subtle"
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/chachakit/chachakit/internal/cryptotest"
	"github.com/chachakit/chachakit/internal/impl"
)

const (
	maxLen    = 1100 // longest length of the sweeps
	allOffLen = 130  // up to this length every offset triple is tried (40 with -short)
	maxOff    = 7    // largest offset of each slice
	guardLen  = 40   // pattern bytes after dst[:n]
)

// xorRef is the byte-at-a-time reference.
func xorRef(dst, x, y []byte) int {
	n := min(len(x), len(y))
	for i := range n {
		dst[i] = x[i] ^ y[i]
	}
	return n
}

// sweep holds the buffers of one length/offset sweep, allocated once.
type sweep struct {
	t         *testing.T
	r         *rand.Rand
	xb, yb    []byte // inputs: random data
	db, guard []byte // destination buffer and its pattern
	want      []byte
}

func newSweep(t *testing.T) *sweep {
	s := &sweep{t: t, r: rand.New(rand.NewPCG(1, 2))}
	size := maxOff + maxLen + guardLen
	s.xb, s.yb = make([]byte, size), make([]byte, size)
	s.db, s.guard, s.want = make([]byte, size), make([]byte, size), make([]byte, size)
	for i := range s.xb {
		s.xb[i], s.yb[i] = byte(s.r.Uint32()), byte(s.r.Uint32())
		s.guard[i] = byte(0xA5 ^ i*7)
	}
	return s
}

// check XORs n bytes with dst, x and y at offsets od, ox, oy, and compares
// the return value and every byte of dst's buffer, before, inside and after
// dst[:n], with the reference. x or y (by extra's sign) is one byte longer
// than n, so that n comes from min(len(x), len(y)); dst is always longer.
func (s *sweep) check(n, od, ox, oy, extra int) {
	x, y := s.xb[ox:ox+n], s.yb[oy:oy+n]
	if extra > 0 {
		x = s.xb[ox : ox+n+extra]
	} else if extra < 0 {
		y = s.yb[oy : oy+n-extra]
	}
	w := od + n + guardLen // the window of dst's buffer that is checked
	db, want := s.db[:w], s.want[:w]
	copy(db, s.guard)
	copy(want, s.guard)
	xorRef(want[od:od+n], x, y)
	dst := db[od : od+n+guardLen/2]
	if got := XORBytes(dst, x, y); got != n {
		s.t.Fatalf("n=%d od=%d ox=%d oy=%d: returned %d", n, od, ox, oy, got)
	}
	if bytes.Equal(db, want) {
		return
	}
	for i := range db {
		if db[i] != want[i] {
			s.t.Fatalf("n=%d od=%d ox=%d oy=%d: dst buffer byte %d (dst[%d]) = %#x, want %#x",
				n, od, ox, oy, i, i-od, db[i], want[i])
		}
	}
}

// TestXORBytes compares every implementation with the byte-at-a-time
// reference at every length 0..1100. Offsets: up to 130 bytes (every
// small-size case and every remainder block of every path) all 8×8×8
// offset triples of dst, x and y; above, each slice's offset 0..7 in turn
// with the other two at 0, plus four random triples per length. So every
// length meets every offset of each slice, and mixed offsets everywhere, in
// a tenth of the 1101×512 full product. With -short (the race detector and
// qemu runs) the full triples stop at 40 bytes.
func TestXORBytes(t *testing.T) {
	allOff := allOffLen
	if testing.Short() {
		allOff = 40
	}
	cryptotest.Run(t, "subtle", func(t *testing.T) {
		s := newSweep(t)
		for n := 0; n <= maxLen; n++ {
			extra := n%3 - 1 // -1, 0, +1: which input is longer
			if n <= allOff {
				for od := 0; od <= maxOff; od++ {
					for ox := 0; ox <= maxOff; ox++ {
						for oy := 0; oy <= maxOff; oy++ {
							s.check(n, od, ox, oy, extra)
						}
					}
				}
				continue
			}
			for o := 0; o <= maxOff; o++ {
				s.check(n, o, 0, 0, extra)
				s.check(n, 0, o, 0, extra)
				s.check(n, 0, 0, o, extra)
			}
			for range 4 {
				s.check(n, s.r.IntN(maxOff+1), s.r.IntN(maxOff+1), s.r.IntN(maxOff+1), extra)
			}
		}
	})
}

// TestXORBytesGeneric checks the portable twin on its own, with the same
// sweep, whatever the dispatcher would pick. cryptotest.Run's "Go" subtest
// reaches it through XORBytes too, except on amd64 without purego, where
// XORBytes is crypto/subtle's and this test is the only one that runs it.
func TestXORBytesGeneric(t *testing.T) {
	x, y := make([]byte, maxLen+maxOff), make([]byte, maxLen+maxOff)
	for i := range x {
		x[i], y[i] = byte(i*13+1), byte(i*29+7)
	}
	want, got := make([]byte, maxLen), make([]byte, maxLen+maxOff)
	for n := 0; n <= maxLen; n++ {
		for o := 0; o <= maxOff; o++ {
			xorRef(want, x[o:o+n], y[:n])
			xorBytesGeneric(got[o:o+n], x[o:o+n], y[:n])
			if string(got[o:o+n]) != string(want[:n]) {
				t.Fatalf("n=%d offset %d: wrong", n, o)
			}
		}
	}
}

// TestXORBytesExactOverlap checks dst == x, dst == y and dst == x == y at
// every length: the one kind of overlap the contract allows.
func TestXORBytesExactOverlap(t *testing.T) {
	cryptotest.Run(t, "subtle", func(t *testing.T) {
		r := rand.New(rand.NewPCG(3, 4))
		x := make([]byte, maxOff+maxLen)
		y := make([]byte, maxOff+maxLen)
		want := make([]byte, maxLen)
		for i := range x {
			x[i], y[i] = byte(r.Uint32()), byte(r.Uint32())
		}
		a := make([]byte, maxLen)
		c := make([]byte, len(x))
		for n := 0; n <= maxLen; n++ {
			o := n % (maxOff + 1)
			xs, ys := x[o:o+n], y[maxOff-o:maxOff-o+n]
			xorRef(want, xs, ys)

			a = append(a[:0], xs...)
			if XORBytes(a, a, ys) != n || string(a) != string(want[:n]) {
				t.Fatalf("n=%d: XORBytes(a, a, y) wrong", n)
			}
			a = append(a[:0], ys...)
			if XORBytes(a, xs, a) != n || string(a) != string(want[:n]) {
				t.Fatalf("n=%d: XORBytes(a, x, a) wrong", n)
			}
			// In place at offset o of a larger buffer: nothing around moves.
			copy(c, x)
			cs := c[o : o+n]
			if XORBytes(cs, cs, ys) != n || string(cs) != string(want[:n]) {
				t.Fatalf("n=%d: in-place XORBytes at offset %d wrong", n, o)
			}
			if string(c[:o]) != string(x[:o]) || string(c[o+n:]) != string(x[o+n:]) {
				t.Fatalf("n=%d: in-place XORBytes wrote outside dst[:n]", n)
			}
			if XORBytes(cs, cs, cs) != n {
				t.Fatalf("n=%d: XORBytes(c, c, c) wrong count", n)
			}
			for i, v := range cs {
				if v != 0 {
					t.Fatalf("n=%d: XORBytes(c, c, c)[%d] = %#x, want 0", n, i, v)
				}
			}
		}
	})
}

func TestXORBytesAllocs(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation allocates")
	}
	cryptotest.Run(t, "subtle", func(t *testing.T) {
		x, y, d := make([]byte, 4096), make([]byte, 4096), make([]byte, 4096)
		for _, n := range []int{1, 8, 15, 16, 129, 4096} {
			if a := testing.AllocsPerRun(100, func() { XORBytes(d[:n], x[:n], y[:n]) }); a != 0 {
				t.Errorf("n=%d: %v allocations per call", n, a)
			}
		}
	})
}

// TestXORBytesExpected checks the default choice against CHACHAKIT_EXPECT
// (set by the cross-architecture script for each CPU model), and where
// XORBytes is crypto/subtle's (amd64) that nothing registers.
func TestXORBytesExpected(t *testing.T) {
	cryptotest.CheckExpected(t, "subtle")
	if Std {
		// Nothing to select: a registration would be a toggle no code reads.
		if l := impl.List("subtle"); len(l) > 0 {
			t.Errorf("XORBytes is crypto/subtle.XORBytes, yet %d implementations of subtle are registered", len(l))
		}
		t.Log("subtle: XORBytes is crypto/subtle.XORBytes")
		return
	}
	var l []string
	for _, i := range impl.List("subtle") {
		l = append(l, fmt.Sprintf("%s(available=%v)", i.Name, i.Available))
	}
	t.Logf("subtle: default %s; registered %v", impl.Preferred("subtle"), l)
}

// Benchmarks. Names line up with crypto/subtle's own (XORBytes/8Bytes,
// XORBytesAlignment/128Bytes3Offset); the implementation is a last name
// component impl=NAME, where std is crypto/subtle.XORBytes in the same
// binary and the others are this package's paths, forced one at a time (on
// amd64, where XORBytes is crypto/subtle's, impl=Go is std again).
// `benchstat -col /impl` puts them side by side, one row per size, with
// std as the base column; `-bench 'XORBytes$/^2048Bytes$/^impl=LASX$'` runs
// one path (each level of the pattern needs its own anchors).

// icount makes the benchmark loops yield after every operation, for
// instruction counting under qemu (bench/scripts/qemu-icount.sh): the Go
// scheduler's monitor asks a goroutine that has run for 10 ms without a
// reschedule to stop at its next function prologue, which then takes the
// stack-growth path of XORBytes: a few dozen instructions counted at random.
var icount = flag.Bool("icount", false, "yield between operations (for qemu-icount.sh)")

// benchImpls lists std first, then the portable code and every path this
// CPU can run.
func benchImpls() []string {
	l := []string{"std", impl.Portable}
	for _, i := range impl.List("subtle") {
		if i.Available {
			l = append(l, i.Name)
		}
	}
	return l
}

// benchXOR runs one benchmark of XORing x and y into d with implementation
// impName. Every loop calls its XORBytes directly, as users do (so the
// crypto/subtle wrapper is inlined, as it would be in their code).
func benchXOR(b *testing.B, name, impName string, d, x, y []byte) {
	b.Run(name+"/impl="+impName, func(b *testing.B) {
		b.SetBytes(int64(len(x)))
		b.ReportAllocs()
		std := impName == "std"
		if !std {
			if !impl.Select("subtle", impName) {
				b.Fatalf("cannot select %s", impName)
			}
			defer impl.Reset("subtle")
		}
		if *icount {
			runtime.Gosched() // clear any preemption request left by the set-up
		}
		switch {
		case *icount && std:
			for i := 0; i < b.N; i++ {
				stdsubtle.XORBytes(d, x, y)
				runtime.Gosched()
			}
		case *icount:
			for i := 0; i < b.N; i++ {
				XORBytes(d, x, y)
				runtime.Gosched()
			}
		case std:
			for i := 0; i < b.N; i++ {
				stdsubtle.XORBytes(d, x, y)
			}
		default:
			for i := 0; i < b.N; i++ {
				XORBytes(d, x, y)
			}
		}
	})
}

// benchBuffers returns dst, x and y of n bytes each, cut in this order from
// one allocation: the overlap checks of both XORBytes branch on how the
// three sit in memory, and a fixed layout makes instruction counts repeat.
func benchBuffers(n int) (dst, x, y []byte) {
	buf := make([]byte, 3*n)
	return buf[:n:n], buf[n : 2*n : 2*n], buf[2*n:]
}

func BenchmarkXORBytes(b *testing.B) {
	dst, data0, data1 := benchBuffers(1 << 15)
	for _, size := range []int{1 << 3, 1 << 7, 1 << 11, 1 << 13, 1 << 15} {
		for _, name := range benchImpls() {
			benchXOR(b, fmt.Sprintf("%dBytes", size), name, dst, data0[:size], data1[:size])
		}
	}
}

func BenchmarkXORBytesAlignment(b *testing.B) {
	dst, data0, data1 := benchBuffers(8 + 1<<11)
	for _, size := range []int{1 << 3, 1 << 7, 1 << 11} {
		for offset := range 8 {
			for _, name := range benchImpls() {
				benchXOR(b, fmt.Sprintf("%dBytes%dOffset", size, offset), name,
					dst[offset:offset+size], data0[offset:offset+size], data1[offset:offset+size])
			}
		}
	}
}

var paired = flag.Bool("paired", false, "log paired timings of each path against crypto/subtle (a report, not a check)")

// TestXORBytesPaired is a timing report for noisy shared machines, where
// benchstat's intervals are wider than the differences that matter: for
// each benchmark case and path it times a burst of calls of crypto/subtle's
// XORBytes and a burst of ours back to back (in alternating order), 301
// times, and logs the median and quartiles of the ratio ours/std. Noise that
// drifts over milliseconds hits both halves of a pair alike. It runs only
// with -paired and asserts nothing.
func TestXORBytesPaired(t *testing.T) {
	if !*paired {
		t.Skip("a timing report: run with -paired")
	}
	dst, x, y := benchBuffers(8 + 1<<15)
	type tc struct{ size, off int }
	var cases []tc
	for _, size := range []int{8, 128, 2048, 8192, 32768} {
		cases = append(cases, tc{size, -1})
	}
	for _, size := range []int{8, 128, 2048} {
		for off := range 8 {
			cases = append(cases, tc{size, off})
		}
	}
	defer impl.Reset("subtle")
	for _, name := range benchImpls()[2:] {
		impl.Select("subtle", name)
		for _, c := range cases {
			off, label := c.off, fmt.Sprintf("XORBytes/%dBytes", c.size)
			if off >= 0 {
				label = fmt.Sprintf("XORBytesAlignment/%dBytes%dOffset", c.size, off)
			} else {
				off = 0
			}
			d, a, b := dst[off:off+c.size], x[off:off+c.size], y[off:off+c.size]
			k := max(1, 20000/(c.size/4+20)) // a burst of roughly 20 µs or less
			ratios := make([]float64, 301)
			for r := range ratios {
				var ts, to time.Duration
				for j := range 2 {
					t0 := time.Now()
					if (r+j)%2 == 0 {
						for range k {
							stdsubtle.XORBytes(d, a, b)
						}
						ts = time.Since(t0)
					} else {
						for range k {
							XORBytes(d, a, b)
						}
						to = time.Since(t0)
					}
				}
				ratios[r] = float64(to) / float64(ts)
			}
			slices.Sort(ratios)
			t.Logf("%-34s %-5s ours/std median %.3f (quartiles %.3f-%.3f)", label, name,
				ratios[len(ratios)/2], ratios[len(ratios)/4], ratios[3*len(ratios)/4])
		}
	}
}
