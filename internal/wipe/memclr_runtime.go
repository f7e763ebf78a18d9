//go:build gc && !purego && !riscv64 && !race && !msan && !asan

package wipe

// memclrBytes is clear(b) itself on these architectures: the runtime's
// memclr (memclrNoHeapPointers) is already the fastest code there is, and
// inlined into Memclr's caller it compiles to exactly the instructions of a
// clear() written there (a length test and a call, or, for a length the
// compiler knows, the same few vector stores). BenchmarkMemclr compares the
// two through one shared loop.
//
// Why the compiler cannot drop it is explained in Memclr. Two earlier
// designs were measured and dropped: clear() in a //go:noinline function
// (an extra call, measurably slower than clear() for short slices:
// BenchmarkMemclr, bench/README.md "runtimehooks.Memclr") and a
// linkname to runtime.memclrNoHeapPointers, which the compiler recognizes
// by name and treats exactly as clear() anyway (it too becomes inline
// stores for a constant length), so it added a linkname and nothing else.
//
// Builds with -race, -msan or -asan use memclrGeneric instead, so that the
// detectors see the wipe through the instrumented clear() of a separate
// function.
func memclrBytes(b []byte) { clear(b) }
