package main

import "golang.org/x/sys/cpu"

// cpuinfoModelKeys are the /proc/cpuinfo keys holding the CPU's model name.
var cpuinfoModelKeys = []string{"model name"}

// cpuFeatures returns the x86 features the ChaCha20 and Poly1305 paths use.
func cpuFeatures() []feature {
	return []feature{
		{"SSSE3", cpu.X86.HasSSSE3},
		{"AVX2", cpu.X86.HasAVX2},
		{"AVX512F", cpu.X86.HasAVX512F},
		{"AVX512VL", cpu.X86.HasAVX512VL},
		{"AVX512IFMA", cpu.X86.HasAVX512IFMA},
		{"BMI2", cpu.X86.HasBMI2},
	}
}

// cpuDetails returns per-architecture facts printed after the features:
// none here.
func cpuDetails() map[string]string { return nil }
