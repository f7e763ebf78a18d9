package wipe

import (
	"runtime"
	"unsafe"
)

// memclrGeneric is the portable Memclr of n bytes at p: the runtime's
// memclr, reached through clear(). It is the reference the assembly is
// tested against. It takes a pointer and a length, like the assembly, so
// that the assembly can jump to it with its own arguments.
//
// It must stay a separate, non-inlined function: that is what makes the
// clear impossible to remove (see Memclr). Were it inlined into a caller
// whose buffer is a local array that the caller never reads again, the
// compiler would be entitled to delete the stores as dead.
//
//go:noinline
func memclrGeneric(p unsafe.Pointer, n uintptr) {
	clear(unsafe.Slice((*byte)(p), n))
	// Belt and braces: the memory stays live until the stores above are
	// done, so no optimization can consider it dead before them.
	runtime.KeepAlive(p)
}
