package main

import "golang.org/x/sys/cpu"

// cpuinfoModelKeys is empty: arm64 Linux has no model name in /proc/cpuinfo
// (the part number is in MIDR_EL1), and under qemu the file is the host's.
var cpuinfoModelKeys []string

// cpuFeatures returns the arm64 features the ChaCha20 paths use.
func cpuFeatures() []feature {
	return []feature{
		{"ASIMD", cpu.ARM64.HasASIMD},
		{"CPUID", cpu.ARM64.HasCPUID},
	}
}

// cpuDetails returns per-architecture facts printed after the features.
// (MIDR_EL1, which names the core, goes here: not read yet.)
func cpuDetails() map[string]string { return nil }
