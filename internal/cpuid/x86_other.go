//go:build !amd64 || !gc || purego

package cpuid

// ReadX86 reports false: CPUID is read on amd64 only (and not in purego
// builds).
func ReadX86() (X86, bool) { return X86{}, false }

// X86Brand returns empty strings: CPUID is read on amd64 only.
func X86Brand() (brand, hypervisor string) { return "", "" }

// X86PerfIDs returns 0: CPUID is read on amd64 only.
func X86PerfIDs() uint32 { return 0 }
