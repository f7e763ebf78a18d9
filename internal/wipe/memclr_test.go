package wipe

import (
	"runtime"
	"testing"
	"unsafe"

	"github.com/chachakit/chachakit/internal/cryptotest"
)

const (
	guard     = 64 // guard bytes on each side of the cleared range
	maxLen    = 1100
	maxOffset = 7
)

// fill writes a non-zero pattern that differs from byte to byte.
func fill(b []byte) {
	for i := range b {
		b[i] = byte(i*7+1) | 0x80
	}
}

// checkCleared checks that buf[lo:hi] is zero and that every other byte of
// buf still holds the pattern written by fill.
func checkCleared(t *testing.T, buf []byte, lo, hi, off int) {
	t.Helper()
	for i, v := range buf {
		want := byte(i*7+1) | 0x80
		if i >= lo && i < hi {
			want = 0
		}
		if v != want {
			where := "inside"
			if i < lo {
				where = "before"
			} else if i >= hi {
				where = "after"
			}
			t.Fatalf("offset %d length %d: byte %d (%s the range [%d,%d)) is %#x, want %#x", off, hi-lo, i, where, lo, hi, v, want)
		}
	}
}

// alignedGuard returns the first index at or after guard whose address is a
// multiple of 8, so that offsets 0..7 from it cover every alignment
// whatever the alignment of buf itself.
func alignedGuard(buf []byte) int {
	i := guard
	for uintptr(unsafe.Pointer(&buf[i]))%8 != 0 {
		i++
	}
	return i
}

// TestMemclr clears every length 0..1100 at every offset 0..7 from an
// 8-byte boundary, with non-zero guard bytes on both sides, under
// every implementation.
func TestMemclr(t *testing.T) {
	cryptotest.Run(t, "memclr", func(t *testing.T) {
		buf := make([]byte, 8+guard+maxOffset+maxLen+guard)
		base := alignedGuard(buf)
		for off := 0; off <= maxOffset; off++ {
			for n := 0; n <= maxLen; n++ {
				fill(buf)
				lo := base + off
				// The slice keeps the capacity beyond its length: Memclr
				// must stop at len.
				Memclr(buf[lo : lo+n])
				checkCleared(t, buf, lo, lo+n, off)
			}
		}
	})
}

// TestMemclrGeneric runs the sweep of TestMemclr over memclrGeneric itself:
// on the architectures without assembly, Memclr calls the runtime's memclr
// directly (memclr_runtime.go), and the portable code runs only with the
// purego tag or gccgo, so it is tested here on every build.
func TestMemclrGeneric(t *testing.T) {
	buf := make([]byte, 8+guard+maxOffset+maxLen+guard)
	base := alignedGuard(buf)
	for off := 0; off <= maxOffset; off++ {
		for n := 0; n <= maxLen; n++ {
			fill(buf)
			lo := base + off
			memclrGeneric(unsafe.Pointer(unsafe.SliceData(buf[lo:lo+n])), uintptr(n))
			checkCleared(t, buf, lo, lo+n, off)
		}
	}
}

// TestMemclrLarge clears 1 MiB and 64 MiB (plus a few bytes around them and
// at odd offsets), skipped in -short.
func TestMemclrLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the 1 MiB and 64 MiB clears in -short mode")
	}
	cryptotest.Run(t, "memclr", func(t *testing.T) {
		for _, size := range []int{1 << 20, 64 << 20} {
			buf := make([]byte, 8+guard+maxOffset+size+1+guard)
			base := alignedGuard(buf)
			for _, c := range []struct{ off, n int }{{0, size}, {3, size}, {5, size + 1}, {7, size - 1}} {
				fill(buf)
				lo := base + c.off
				Memclr(buf[lo : lo+c.n])
				checkCleared(t, buf, lo, lo+c.n, c.off)
			}
		}
	})
}

// TestMemclrNil checks that nil and empty slices are accepted.
func TestMemclrNil(t *testing.T) {
	cryptotest.Run(t, "memclr", func(t *testing.T) {
		Memclr(nil)
		Memclr([]byte{})
		var b [4]byte
		Memclr(b[2:2])
		Wipe[uint32](nil)
		Wipe([]uint64{})
	})
}

// TestWipe checks Wipe on each element size, with guards.
func TestWipe(t *testing.T) {
	cryptotest.Run(t, "memclr", func(t *testing.T) {
		type keyWord uint32 // a named type, as the constraint allows
		var (
			u8  [3 + 11 + 3]uint8
			u16 [3 + 11 + 3]uint16
			u32 [3 + 11 + 3]uint32
			k32 [3 + 11 + 3]keyWord
			u64 [3 + 11 + 3]uint64
			i64 [3 + 11 + 3]int64
		)
		for i := range u8 {
			u8[i] = 0xa5
			u16[i] = 0xa5a5
			u32[i] = 0xa5a5a5a5
			k32[i] = 0xa5a5a5a5
			u64[i] = 0xa5a5a5a5a5a5a5a5
			i64[i] = -1
		}
		Wipe(u8[3:14])
		Wipe(u16[3:14])
		Wipe(u32[3:14])
		Wipe(k32[3:14])
		Wipe(u64[3:14])
		Wipe(i64[3:14])
		for i := range u8 {
			inside := i >= 3 && i < 14
			if (u8[i] == 0) != inside || (u16[i] == 0) != inside || (u32[i] == 0) != inside ||
				(k32[i] == 0) != inside || (u64[i] == 0) != inside || (i64[i] == 0) != inside {
				t.Fatalf("element %d: u8 %#x u16 %#x u32 %#x k32 %#x u64 %#x i64 %#x; want zero only in [3,14)",
					i, u8[i], u16[i], u32[i], k32[i], u64[i], i64[i])
			}
		}
	})
}

// peek returns n bytes at address addr. The address is held as a uintptr so
// that the compiler cannot see the read: a wipe that it had judged dead
// (because no Go code reads the memory again) would show up here. The
// conversion goes through the uintptr's storage to keep vet's unsafeptr
// check quiet; the memory is kept alive by the caller.
func peek(addr uintptr, n int) []byte {
	p := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
	return unsafe.Slice((*byte)(p), n)
}

var testKey = [32]byte{
	0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f,
	0x90, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9d, 0x9e, 0x9f,
}

// sink is read by nothing; it only gives useKey's result somewhere to go.
var sink byte

// useKeyThenWipe reads the key, wipes it and never touches it again: the
// pattern of a cipher object being destroyed. It is inlinable, so the
// compiler sees the whole life of the memory when it inlines it.
func useKeyThenWipe(k []byte) {
	var x byte
	for _, v := range k {
		x ^= v
	}
	sink = x
	Memclr(k)
}

// TestWipeSurvivesHeap writes a key into a heap slice, lets a function
// that wipes it drop it, and reads the memory back through a retained
// pointer.
func TestWipeSurvivesHeap(t *testing.T) {
	cryptotest.Run(t, "memclr", func(t *testing.T) {
		k := new([32]byte)
		*k = testKey
		addr := uintptr(unsafe.Pointer(k))
		useKeyThenWipe(k[:])
		for i, v := range peek(addr, len(k)) {
			if v != 0 {
				t.Fatalf("byte %d of the key is %#x after the wipe", i, v)
			}
		}
		runtime.KeepAlive(k)
	})
}

// stackKeyThenWipe copies the key into a local array, uses it, wipes it
// and never reads it again in Go code, then lets check look at the array
// through its address held as a uintptr. A compiler that deleted the wipe
// as a dead store would leave the key there for check to find.
func stackKeyThenWipe(check func(addr uintptr)) {
	k := testKey
	addr := uintptr(unsafe.Pointer(&k))
	useKeyThenWipe(k[:])
	check(addr)
}

// stackWordsThenWipe does the same with key words and Wipe.
func stackWordsThenWipe(check func(addr uintptr)) {
	var k [8]uint32
	for i := range k {
		k[i] = 0x80808080 | uint32(i)
	}
	var x uint32
	for _, v := range k {
		x ^= v
	}
	sink = byte(x)
	addr := uintptr(unsafe.Pointer(&k))
	Wipe(k[:])
	check(addr)
}

func TestWipeSurvivesStack(t *testing.T) {
	cryptotest.Run(t, "memclr", func(t *testing.T) {
		checked := 0
		check := func(addr uintptr) {
			checked++
			for i, v := range peek(addr, 32) {
				if v != 0 {
					t.Errorf("byte %d of the stack key is %#x after the wipe", i, v)
				}
			}
		}
		stackKeyThenWipe(check)
		stackWordsThenWipe(check)
		if checked != 2 {
			t.Fatalf("check ran %d times, want 2", checked)
		}
	})
}

// TestMemclrAllocs checks that Memclr and Wipe allocate nothing, and in
// particular do not move a caller's stack buffer to the heap.
func TestMemclrAllocs(t *testing.T) {
	cryptotest.Run(t, "memclr", func(t *testing.T) {
		heap := make([]byte, 4096)
		words := make([]uint32, 100)
		n := testing.AllocsPerRun(100, func() {
			var stack [300]byte
			stack[7] = 1
			Memclr(stack[:])
			var key [8]uint32
			key[3] = 1
			Wipe(key[:])
			Memclr(heap[3:])
			Wipe(words)
		})
		if n != 0 {
			t.Fatalf("Memclr and Wipe allocate %v times per run, want 0", n)
		}
	})
}

// TestExpected compares the default implementation with CHACHAKIT_EXPECT.
func TestExpected(t *testing.T) {
	cryptotest.CheckExpected(t, "memclr")
}
