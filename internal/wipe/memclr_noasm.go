//go:build !gc || purego || (!riscv64 && (race || msan || asan))

package wipe

import "unsafe"

// memclr is the dispatcher: the portable code, with the purego tag, with
// gccgo, and in the instrumented builds (-race, -msan, -asan) of the
// architectures that otherwise call the runtime's memclr directly (see
// memclr_runtime.go).
func memclr(p unsafe.Pointer, n uintptr) { memclrGeneric(p, n) }

// memclrBytes hands b to the portable code.
func memclrBytes(b []byte) { memclr(unsafe.Pointer(unsafe.SliceData(b)), uintptr(len(b))) }
