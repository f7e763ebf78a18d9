package main

import "golang.org/x/sys/cpu"

// cpuinfoModelKeys are the /proc/cpuinfo keys naming the core.
var cpuinfoModelKeys = []string{"uarch"}

// cpuFeatures returns the RISC-V extensions the ChaCha20 paths use.
func cpuFeatures() []feature {
	return []feature{
		{"V", cpu.RISCV64.HasV},
	}
}

// cpuDetails returns per-architecture facts printed after the features:
// none here.
func cpuDetails() map[string]string { return nil }

// archReason adds nothing on this architecture: the paths depend on the
// CPU's features only.
func archReason(pkg, selected string) string { return "" }
