//go:build gc && !purego && !riscv64 && !race && !msan && !asan

package runtimehooks

import "unsafe"

// memclr is the runtime's memclr itself, runtime.memclrNoHeapPointers: on
// these architectures it is already the fastest code there is, and it is the
// function clear() calls. Memclr inlines into its caller, which calls it
// exactly as clear() would.
//
// It is reached through a linkname rather than through clear() inside
// memclrGeneric because the extra, non-inlinable call of memclrGeneric
// costs about a nanosecond: on amd64 it made 5- to 64-byte clears 50% to
// 150% slower than clear() (benchstat, 8 runs), against a bar of 3%.
//
// The call cannot be removed: the compiler sees no body for this function,
// so, as with assembly, it must assume that it reads and writes the memory
// it is given.
//
// The runtime keeps this linkname working on purpose: its doc comment says
// "Do not remove or change the type signature" and cites go.dev/issue/67401,
// and the function carries a push //go:linkname so the linker accepts the
// reference. The memory is bytes or integer words, never pointers, as the
// function's name requires.
//
// Builds with -race, -msan or -asan use memclrGeneric instead: clear() is
// instrumented there, so the race detector sees a wipe that races with a
// use of the key, while this direct call would be invisible to it.
//
//go:linkname memclr runtime.memclrNoHeapPointers
//go:noescape
func memclr(p unsafe.Pointer, n uintptr)
