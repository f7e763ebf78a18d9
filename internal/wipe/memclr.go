// Package wipe holds the implementation of package runtimehooks
// (runtime_hooks): Memclr, Wipe and Do, which the library's own packages
// call directly so that none of them depends on a public package. The
// public functions are one-line faces over these; their documentation, in
// runtime_hooks, says what a wipe guarantees and what it cannot reach.
//
// On riscv64 Memclr is hand-written assembly (registered with internal/impl
// as memclr/RV64Unrolled); on the other architectures it is clear() itself,
// inlined into the caller; with purego, gccgo, -race, -msan and -asan it is
// clear() inside a non-inlined function.
package wipe

import "unsafe"

// Memclr sets every byte of b to zero, touching only b[0:len(b)] and
// allocating nothing, with stores the compiler never removes. It is
// runtimehooks.Memclr, whose documentation gives the guarantees.
func Memclr(b []byte) {
	// Why the wipe cannot be removed. Go's compiler deletes a store in
	// two cases only (cmd/compile/internal/ssa/deadstore.go): when a later
	// store overwrites the same bytes before anything reads them, and when
	// a local variable is never read at all and its address is never handed
	// to a call. The first cannot apply to a wipe: nothing writes the
	// memory after it, and if something did, the key would be overwritten
	// anyway. In the second case the compiler deletes every store to that
	// variable, including those that would have put the key there: the key
	// never reaches the variable's memory, so there is nothing to wipe.
	// Whatever put a key into memory the compiler cannot see through (a
	// call, assembly, a read of the variable) keeps all its stores, the
	// wipe included. Memclr (and runtimehooks.Memclr, which only calls
	// it) inlines into its caller, and leaves there:
	//
	//   - on riscv64, a call of the assembly function memclr
	//     (memclr_riscv64.s), which the compiler cannot remove;
	//   - on the other architectures, clear(b) (memclr_runtime.go): a call of
	//     the runtime's memclr, or for a length known at compile time the
	//     same stores inline, under the rules above;
	//   - with purego, gccgo, -race, -msan or -asan: a call of
	//     memclrGeneric, a //go:noinline function that runs clear() on
	//     memory it receives through a parameter (memclr_generic.go).
	//
	// TestWipeSurvivesStack checks it on a local array that no Go code
	// reads after the wipe, through an address the compiler cannot see.
	memclrBytes(b)
}

// Wipe sets every element of p to zero through [Memclr], with the same
// guarantees. It is runtimehooks.Wipe; T is restricted to integer types,
// which hold no pointers: zeroing memory that holds pointers behind the
// garbage collector's back would be unsafe.
func Wipe[T ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~int8 | ~int16 | ~int32 | ~int64](p []T) {
	if len(p) == 0 {
		return
	}
	var zero T
	Memclr(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(p))), uintptr(len(p))*unsafe.Sizeof(zero)))
}
