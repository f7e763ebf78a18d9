//go:build !arm64 || !gc || purego

package cpuid

// MIDR reports false: MIDR_EL1 exists only on arm64, and purego builds do
// not read it.
func MIDR() (uint64, bool) { return 0, false }
