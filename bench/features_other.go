//go:build !(amd64 || arm64 || loong64 || riscv64)

package main

// cpuinfoModelKeys are the /proc/cpuinfo keys holding the CPU's model name.
var cpuinfoModelKeys = []string{"model name"}

// cpuFeatures returns nothing: only portable Go runs on this architecture.
func cpuFeatures() []feature { return nil }

// cpuDetails returns per-architecture facts printed after the features:
// none here.
func cpuDetails() map[string]string { return nil }

// archReason adds nothing on this architecture: the paths depend on the
// CPU's features only.
func archReason(pkg, selected string) string { return "" }
