//go:build gc && !purego

package wipe

import (
	"unsafe"

	"github.com/chachakit/chachakit/internal/impl"
)

// useRV64Unrolled selects the assembly of memclr. It needs nothing
// beyond the RV64I base ISA, so every riscv64 CPU has it.
var useRV64Unrolled = true

func init() {
	impl.Register("memclr", "RV64Unrolled", &useRV64Unrolled)
}

// memclr zeroes n bytes at p: byte, halfword and word stores up to an
// 8-byte boundary, then 64 bytes per loop iteration in eight doubleword
// stores, then 32/16/8/4/2/1-byte tails. It is in memclr_riscv64.s.
//
// It is also the dispatcher: its first instructions test useRV64Unrolled,
// and when the toggle is off it is a tail call to memclrGeneric instead.
// Unlike the other dispatchers of the library, the test is not a Go if
// statement: a Go function with two calls in it is over the inlining budget,
// so it would be a function of its own, and its stack frame, stack check
// and argument copies would cost more riscv64 instructions than a whole
// 256-byte clear (the bar is to cost no more than the runtime's memclr).
// With the test in the assembly, Memclr inlines into its caller, which calls
// this function directly.
//
//go:noescape
func memclr(p unsafe.Pointer, n uintptr)

// memclrBytes hands b to the assembly (or, when the registry has switched
// it off, the assembly's jump to memclrGeneric).
func memclrBytes(b []byte) { memclr(unsafe.Pointer(unsafe.SliceData(b)), uintptr(len(b))) }
