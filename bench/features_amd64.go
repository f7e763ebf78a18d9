package main

import (
	"fmt"

	"github.com/chachakit/chachakit/internal/aeadasm"
	"github.com/chachakit/chachakit/internal/cpuid"
	"golang.org/x/sys/cpu"
)

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

// cpuDetails returns what CPUID says (vendor, family, model), the core the
// library takes it for, and the routing this CPU gets.
func cpuDetails() map[string]string {
	x, _ := cpuid.ReadX86()
	c := x.Core()
	off := ""
	if !cpu.X86.HasAVX512F || !cpu.X86.HasAVX512BW || !cpu.X86.HasAVX512VL {
		off = "AVX-512 off, so the AVX2 kernels run: "
	}
	return map[string]string{
		"cpuid": fmt.Sprintf("%s family %#x model %#x stepping %d, AMX %v%s%s", x.Vendor, x.Family, x.Model, x.Stepping, x.AMX, perfIDs(x), brand()),
		"core":  c.String(),
		"route": off + fmt.Sprintf("AEAD small kernels up to %d bytes (AVX-512) or %d (AVX2), the short path above them up to 448 bytes; "+
			"with AVX2 only, the mid-size kernel for every Seal and Open from 449 bytes; "+
			"long messages: the stitched loop with the MAC on the integer units; five to eight keystream blocks in two zmm row sets; "+
			"Poly1305 of the separate passes: the widest vector path (no choice depends on the CPU model)",
			aeadasm.SmallAVX512Max, aeadasm.SmallAVX2Max),
	}
}

// perfIDs is the cpuid line's AMD performance optimization identifiers
// (Fn8000_001A_EAX), whose FP512 bit tells the two kinds of Zen 5 apart.
func perfIDs(x cpuid.X86) string {
	if x.Vendor != "AuthenticAMD" {
		return ""
	}
	return fmt.Sprintf(", Fn8000_001A_EAX %#x (FP512 %v)", cpuid.X86PerfIDs(), x.FP512)
}

// brand is the cpuid line's brand string and hypervisor, where CPUID has
// them: a virtual CPU may report another machine's family and model (two
// AMD Zen 5 machines of this project, one family and model, differed by a
// factor of two in vector latency; bench/README.md).
func brand() string {
	b, hv := cpuid.X86Brand()
	s := ""
	if b != "" {
		s += fmt.Sprintf(", brand %q", b)
	}
	if hv != "" {
		s += fmt.Sprintf(", hypervisor %q", hv)
	}
	return s
}

// archReason says why a selection differs from, or refines, "the fastest
// path this CPU has" on this core; "" when it does not.
func archReason(pkg, selected string) string {
	if pkg == "aead" && selected != "Go" {
		return "the fastest here; the route depends on CPU features and length only"
	}
	return ""
}
