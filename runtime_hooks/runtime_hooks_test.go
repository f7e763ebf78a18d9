package runtimehooks_test

import (
	"bytes"
	"testing"
	"unsafe"

	"github.com/chachakit/chachakit/internal/cryptotest"
	runtimehooks "github.com/chachakit/chachakit/runtime_hooks"
)

// These tests check the public API as users call it, through the faces.
// The exhaustive sweeps of the implementation (every length to 1100 at every
// alignment, 64 MiB, the portable code on its own) and the codegen check are
// in internal/wipe.

// TestMemclrFace clears b[lo:hi] of a buffer full of 0xa5 for a spread of
// lengths and offsets, under every implementation, and checks that exactly
// those bytes are zero: not the guard bytes before, nor the capacity after.
func TestMemclrFace(t *testing.T) {
	cryptotest.Run(t, "memclr", func(t *testing.T) {
		buf := make([]byte, 600)
		for _, n := range []int{0, 1, 5, 7, 8, 16, 31, 32, 63, 64, 65, 100, 256, 511} {
			for off := range 8 {
				for i := range buf {
					buf[i] = 0xa5
				}
				lo := 40 + off
				runtimehooks.Memclr(buf[lo : lo+n])
				want := bytes.Repeat([]byte{0xa5}, len(buf))
				clear(want[lo : lo+n])
				if !bytes.Equal(buf, want) {
					t.Fatalf("Memclr of %d bytes at offset %d cleared the wrong bytes", n, lo)
				}
			}
		}
		runtimehooks.Memclr(nil)
	})
}

// TestWipeFace wipes the middle of arrays of several element types, one of
// them a named type, and checks the elements around stay.
func TestWipeFace(t *testing.T) {
	type word uint32
	u16 := []uint16{1, 2, 3, 4}
	w32 := []word{1, 2, 3, 4}
	i64 := []int64{-1, -2, -3, -4}
	runtimehooks.Wipe(u16[1:3])
	runtimehooks.Wipe(w32[1:3])
	runtimehooks.Wipe(i64[1:3])
	runtimehooks.Wipe[uint8](nil)
	if u16[0] != 1 || u16[1] != 0 || u16[2] != 0 || u16[3] != 4 ||
		w32[0] != 1 || w32[1] != 0 || w32[2] != 0 || w32[3] != 4 ||
		i64[0] != -1 || i64[1] != 0 || i64[2] != 0 || i64[3] != -4 {
		t.Fatalf("after Wipe of [1:3]: %v %v %v", u16, w32, i64)
	}
}

// discardKey copies a key into a local array, uses it, clears it through
// the public Memclr and never reads it again in Go code; seen reads the
// array through an address held as a uintptr, which the compiler cannot
// follow. The face adds a level of inlining: this checks that the wipe
// still survives it.
func discardKey(seen func(addr uintptr)) {
	k := [32]byte{0: 0x80, 7: 0x87, 31: 0x9f}
	addr := uintptr(unsafe.Pointer(&k))
	sum := byte(0)
	for _, v := range k {
		sum += v
	}
	keySink = sum
	runtimehooks.Memclr(k[:])
	seen(addr)
}

var keySink byte

func TestMemclrFaceSurvivesStack(t *testing.T) {
	cryptotest.Run(t, "memclr", func(t *testing.T) {
		discardKey(func(addr uintptr) {
			p := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
			if k := unsafe.Slice((*byte)(p), 32); !bytes.Equal(k, make([]byte, 32)) {
				t.Errorf("the stack key is %x after the wipe", k)
			}
		})
	})
}

// TestDo checks that Do runs f once, before it returns.
func TestDo(t *testing.T) {
	calls := 0
	runtimehooks.Do(func() { calls++ })
	if calls != 1 {
		t.Fatalf("Do ran f %d times, want 1", calls)
	}
}

// TestFacesAllocs checks that the faces allocate nothing.
func TestFacesAllocs(t *testing.T) {
	heap := make([]byte, 100)
	n := testing.AllocsPerRun(100, func() {
		var key [32]byte
		key[3] = 1
		runtimehooks.Memclr(key[:])
		var words [8]uint32
		words[5] = 1
		runtimehooks.Wipe(words[:])
		runtimehooks.Memclr(heap)
		runtimehooks.Do(func() { heap[0] = 1 })
	})
	if n != 0 {
		t.Fatalf("Memclr, Wipe and Do allocate %v times per run, want 0", n)
	}
}
