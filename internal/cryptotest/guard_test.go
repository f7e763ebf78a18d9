package cryptotest

import (
	"os"
	"testing"
	"unsafe"
)

// TestGuardLayout checks the guards' placements: len == cap == n, an
// end-at-guard slice ending at a page boundary (where the inaccessible page
// begins), a start-at-guard slice starting at one, every byte of the slice
// usable, and Intact noticing a store just outside it.
func TestGuardLayout(t *testing.T) {
	page := os.Getpagesize()
	size := 2*page + 100
	g := NewGuard(t, "buf", size)
	for _, at := range Placements {
		for _, n := range []int{0, 1, 15, 16, 63, 64, 100, page - 1, page, page + 1, size} {
			b := g.Slice(at, n)
			if len(b) != n || cap(b) != n || b == nil {
				t.Fatalf("%s %d: len %d, cap %d, nil %v", at, n, len(b), cap(b), b == nil)
			}
			start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
			switch at {
			case EndAtGuard:
				if end := start + uintptr(n); end%uintptr(page) != 0 {
					t.Fatalf("%s %d: the slice ends at %#x, not at a page boundary", at, n, end)
				}
			case StartAtGuard:
				if start%uintptr(page) != 0 {
					t.Fatalf("%s %d: the slice starts at %#x, not at a page boundary", at, n, start)
				}
			}
			for i := range b {
				b[i] = byte(i)
			}
			for i := range b {
				if b[i] != byte(i) {
					t.Fatalf("%s %d: byte %d does not hold what was stored", at, n, i)
				}
			}
			if !g.Intact() {
				t.Fatalf("%s %d: pattern broken by stores inside the slice", at, n)
			}
			if n == size {
				continue // no room beside it on the mapped side
			}
			// A store just outside the slice, on the mapped side.
			var outside *byte
			if at == EndAtGuard {
				outside = (*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), -1))
			} else {
				outside = (*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), n))
			}
			*outside ^= 0xff
			if g.Intact() {
				t.Fatalf("%s %d: Intact missed a store just outside the slice", at, n)
			}
			*outside ^= 0xff
		}
	}
}

// TestGuardLengths checks the suites' length list: every length 0..maxLen
// in order, then the longer ones, the longest GuardMaxLen.
func TestGuardLengths(t *testing.T) {
	l := GuardLengths()
	for n := 0; n <= maxLen; n++ {
		if l[n] != n {
			t.Fatalf("GuardLengths()[%d] = %d", n, l[n])
		}
	}
	if l[len(l)-1] != GuardMaxLen {
		t.Fatalf("the longest length is %d, GuardMaxLen %d", l[len(l)-1], GuardMaxLen)
	}
}
