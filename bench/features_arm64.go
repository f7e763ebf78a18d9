package main

import (
	"fmt"

	"github.com/chachakit/chachakit/internal/cpuid"
	"golang.org/x/sys/cpu"
)

// cpuinfoModelKeys is empty: arm64 Linux has no model name in /proc/cpuinfo
// (the part number is in MIDR_EL1), and under qemu the file is the host's.
var cpuinfoModelKeys []string

// cpuFeatures returns the arm64 features the ChaCha20 paths use.
func cpuFeatures() []feature {
	return []feature{
		{"ASIMD", cpu.ARM64.HasASIMD},
		{"CPUID", cpu.ARM64.HasCPUID},
		{"SVE2", cpu.ARM64.HasSVE2},
	}
}

// cpuDetails returns MIDR_EL1, the core it names where known, the
// ChaCha20 mix that core prefers and the AEAD loop its route takes (the
// registry's "aead" selection, printed with the other packages, is
// NEONStitched or SVE2Stitched for the stitched loop and Go for the
// separate passes).
func cpuDetails() map[string]string {
	midr, ok := cpuid.MIDR()
	if !ok {
		return map[string]string{
			"MIDR_EL1":     "not readable (no HWCAP_CPUID)",
			"ChaCha20 mix": cpuid.ChaCha20MixHere().String(),
			"AEAD loop":    cpuid.AEADLoopHere().String(),
		}
	}
	return map[string]string{
		"MIDR_EL1":     fmt.Sprintf("%#x", midr),
		"core":         cpuid.CoreName(midr),
		"ChaCha20 mix": cpuid.ChaCha20MixHere().String(),
		"AEAD loop":    cpuid.AEADLoopHere().String(),
	}
}

// archReason says why a selection differs from "the fastest path this CPU
// has": the MIDR_EL1 table picks the ChaCha20 mix and the AEAD loop per
// core; "" when it does not apply.
func archReason(pkg, selected string) string {
	core := "a core not in the MIDR table"
	if midr, ok := cpuid.MIDR(); !ok {
		core = "an unknown core (no MIDR)"
	} else if n := cpuid.CoreName(midr); n != "" {
		core = n
	}
	switch {
	case pkg == "chacha20" && selected == "NEON4x1" && cpuid.ChaCha20MixHere() == cpuid.Mix4x1:
		return "the 4+1 mix is faster on " + core
	case pkg == "chacha20" && selected == "NEON6x2":
		return "default mix, for " + core
	case pkg == "aead" && selected == "Go" && cpuid.AEADLoopHere() == cpuid.LoopSeparate:
		return "separate passes are faster on " + core
	case pkg == "aead" && selected != "Go":
		return "the one-pass loop, chosen for " + core
	}
	return ""
}
