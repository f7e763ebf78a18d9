package main

import "golang.org/x/sys/cpu"

// cpuinfoModelKeys are the /proc/cpuinfo keys holding the CPU's model name.
var cpuinfoModelKeys = []string{"Model Name"}

// cpuFeatures returns the loong64 vector extensions the ChaCha20 paths use.
func cpuFeatures() []feature {
	return []feature{
		{"LSX", cpu.Loong64.HasLSX},
		{"LASX", cpu.Loong64.HasLASX},
	}
}

// cpuDetails returns per-architecture facts printed after the features:
// none here.
func cpuDetails() map[string]string { return nil }

// archReason adds nothing on this architecture: the paths depend on the
// CPU's features only.
func archReason(pkg, selected string) string { return "" }
