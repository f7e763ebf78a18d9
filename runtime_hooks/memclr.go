// Package runtimehooks is where chachakit meets the Go runtime: it wipes key
// material from memory.
//
// [Memclr] zeroes a byte slice, and [Wipe] zeroes a slice of key words (such
// as the uint32 key words of a ChaCha20 state) through the same code. Both
// are built so that the Go compiler can never remove the wipe, whatever the
// caller does with the memory afterwards (see [Memclr] for why), and both
// allocate nothing.
//
// x/crypto has no counterpart: its ciphers keep their keys until the memory
// is reused. chachakit's packages wipe through this one.
//
// On riscv64 Memclr is hand-written assembly. On the other architectures it
// is clear() itself, inlined into the caller, so it costs exactly what
// clear() costs. With the purego build tag, with gccgo, and in
// -race/-msan/-asan builds it is clear() inside a non-inlined function. No
// GODEBUG setting changes it; the build tag chachakit_impl_env with
// CHACHAKIT_IMPL=memclr=Go makes riscv64 use clear() too.
//
// # What a wipe does and does not guarantee
//
// A wipe zeroes exactly the bytes it is given, before it returns. It cannot
// reach copies that the program, the compiler or the runtime made elsewhere:
// values held in registers or spilled to stack temporaries, stack frames
// left behind when the runtime grows (copies) a goroutine stack, slices that
// were reallocated by append, or pages the operating system swapped out.
// Go 1.26's runtime/secret experiment (GOEXPERIMENT=runtimesecret) is the
// tool for the registers and the stack; this package only clears the memory
// the library owns.
package runtimehooks

import "github.com/chachakit/chachakit/internal/wipe"

// Memclr sets every byte of b to zero. It touches only b[0:len(b)], never the
// rest of b's capacity, and allocates nothing.
//
// The compiler never removes the stores, even when the caller does not read
// b again (the usual case for a key that is being discarded), and they are
// all done when Memclr returns. Memclr is not synchronized: wiping memory
// that another goroutine is using is a data race, as with any other write.
//
// Memclr is what the library uses to destroy keys, key-derived values and
// keystream; see the package documentation for what a wipe cannot reach.
func Memclr(b []byte) {
	// The code, and why the compiler cannot remove the wipe, are in
	// internal/wipe. This call inlines into the caller and leaves there
	// exactly what a call of wipe.Memclr leaves.
	wipe.Memclr(b)
}

// Wipe sets every element of p to zero through [Memclr], and so with the
// same guarantees: the compiler cannot remove it, it allocates nothing, and
// it touches only p[0:len(p)]. It is meant for key material held as words
// rather than bytes, and takes arrays through a slice of them, for example
// the parts of a chacha20core.State and a cipher's buffers:
//
//	runtimehooks.Wipe(s.Key[:])   // [8]uint32
//	runtimehooks.Wipe(s.Nonce[:]) // [3]uint32
//	runtimehooks.Wipe(buf[:])     // [64]byte keystream
//	runtimehooks.Wipe(key)        // []byte, same as Memclr(key)
//
// T is restricted to integer types, which hold no pointers: zeroing memory
// that holds pointers behind the garbage collector's back would be unsafe.
func Wipe[T ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~int8 | ~int16 | ~int32 | ~int64](p []T) {
	wipe.Wipe(p)
}
