package fuzz

import (
	"testing"
	"unsafe"

	runtimehooks "github.com/chachakit/chachakit/runtime_hooks"
)

// memclrGuard is the number of guard bytes on each side of the largest
// range FuzzMemclr clears.
const memclrGuard = 64

// FuzzMemclr clears n bytes (mod 4097) at offset off (mod 64) from a 64-byte
// boundary with runtimehooks.Memclr, and checks that exactly those bytes are
// zero and that the guard bytes around them, including the capacity of the
// slice past its length (unless capped, bit 0 of mode), still hold the
// non-zero pattern written before.
func FuzzMemclr(f *testing.F) {
	addMemclrSeeds(f)
	f.Fuzz(func(t *testing.T, off, n uint16, mode uint8) {
		o, l := int(off%64), int(n%4097)
		forEachImpl(t, []string{"memclr"}, func(label string) {
			buf := make([]byte, 64+memclrGuard+64+4096+memclrGuard)
			base := memclrGuard
			for uintptr(unsafe.Pointer(&buf[base]))%64 != 0 {
				base++
			}
			pattern(buf, mode)
			lo, hi := base+o, base+o+l
			b := buf[lo:hi]
			if mode&1 != 0 {
				b = buf[lo:hi:hi]
			}
			if p := catch(func() { runtimehooks.Memclr(b) }); p != "" {
				t.Fatalf("%s: Memclr of %d bytes at offset %d panics: %s", label, l, o, p)
			}
			want := make([]byte, len(buf))
			pattern(want, mode)
			clear(want[lo:hi])
			if !sameBytes(buf, want) {
				t.Fatalf("%s: after Memclr of %d bytes at offset %d (range [%d,%d) of the buffer): %s", label, l, o, lo, hi, firstDiff(buf, want))
			}
		})
	})
}
