package cpuid

// An X86 is what CPUID leaves 0 and 1 say about an x86 processor: the
// vendor string and the display family, model and stepping (Intel SDM Vol.
// 2A, "CPUID—CPU Identification", leaf 01H; AMD64 APM Vol. 3, CPUID
// Fn0000_0001_EAX).
type X86 struct {
	Vendor                  string // "GenuineIntel", "AuthenticAMD", "HygonGenuine", ...
	Family, Model, Stepping int
	AMX                     bool // leaf 07H EDX bit 24, AMX-TILE
	FP512                   bool // AMD: Fn8000_001A_EAX bit 3, 512-bit operations executed full width (X86PerfIDs)
}

// FP512 is the bit of CPUID Fn8000_001A_EAX (AMD's performance
// optimization identifiers: FP128, MOVU, FP256 in bits 0-2) that reports
// 512-bit instructions executed in full-width units rather than as two
// 256-bit halves. AMD Zen 5 can run either way (its hardware configuration
// register can make 512-bit operations issue like 256-bit ones), and the
// two measure as different cores (bench/README.md, "AMD EPYC Zen 5: two
// batches per keystream pass"); Zen 4 executes them as halves.
const FP512 = 1 << 3

// DecodeX86 decodes leaf 0's vendor registers (EBX, EDX, ECX in that order
// spell the vendor), leaf 1's EAX and leaf 7's EDX. The extended family is
// added to family 0xF only, and the extended model prefixes the model of
// families 6 and 0xF, as both vendors specify.
func DecodeX86(ebx0, edx0, ecx0, eax1, edx7 uint32) X86 {
	var v [12]byte
	for i, r := range [3]uint32{ebx0, edx0, ecx0} {
		for j := 0; j < 4; j++ {
			v[4*i+j] = byte(r >> (8 * j))
		}
	}
	family := int(eax1>>8) & 0xf
	model := int(eax1>>4) & 0xf
	if family == 0xf {
		family += int(eax1>>20) & 0xff
	}
	if family == 0x6 || family >= 0xf {
		model += int(eax1>>16) & 0xf << 4
	}
	return X86{Vendor: string(v[:]), Family: family, Model: model, Stepping: int(eax1) & 0xf, AMX: edx7>>24&1 == 1}
}

// X86Core names an x86 microarchitecture, as far as the library tells them
// apart.
type X86Core int

const (
	X86Unknown X86Core = iota
	IntelHaswell
	IntelBroadwell
	IntelSkylake        // client Skylake and its refreshes (Kaby, Coffee, Comet Lake)
	IntelSkylakeX       // Skylake-SP, Cascade Lake, Cooper Lake
	IntelIceLake        // client and server (Sunny Cove)
	IntelTigerLake      // Willow Cove
	IntelRocketLake     // Cypress Cove
	IntelAlderLake      // and Raptor Lake: hybrid, no AVX-512
	IntelSapphireRapids // and Emerald and Granite Rapids: the server cores with AMX
	AMDZen1             // Zen, Zen+ and Hygon Dhyana
	AMDZen2
	AMDZen3
	AMDZen4
	AMDZen5
	AMDZen5Wide // Zen 5 that reports full-width 512-bit execution (X86.FP512)
)

var x86Names = [...]string{
	X86Unknown:          "unknown",
	IntelHaswell:        "Intel Haswell",
	IntelBroadwell:      "Intel Broadwell",
	IntelSkylake:        "Intel Skylake (client)",
	IntelSkylakeX:       "Intel Skylake-SP / Cascade Lake",
	IntelIceLake:        "Intel Ice Lake",
	IntelTigerLake:      "Intel Tiger Lake",
	IntelRocketLake:     "Intel Rocket Lake",
	IntelAlderLake:      "Intel Alder Lake / Raptor Lake",
	IntelSapphireRapids: "Intel Sapphire / Emerald / Granite Rapids",
	AMDZen1:             "AMD Zen / Zen+",
	AMDZen2:             "AMD Zen 2",
	AMDZen3:             "AMD Zen 3",
	AMDZen4:             "AMD Zen 4",
	AMDZen5:             "AMD Zen 5",
	AMDZen5Wide:         "AMD Zen 5 (full-width 512-bit units)",
}

func (c X86Core) String() string {
	if c >= 0 && int(c) < len(x86Names) {
		return x86Names[c]
	}
	return "X86Core(?)"
}

// intelFamily6 maps Intel's family 6 display models to cores (the model
// lists of Intel's SDM Vol. 4, Table 2-1, and Linux's
// arch/x86/include/asm/intel-family.h).
var intelFamily6 = map[int]X86Core{
	0x3c: IntelHaswell, 0x3f: IntelHaswell, 0x45: IntelHaswell, 0x46: IntelHaswell,
	0x3d: IntelBroadwell, 0x47: IntelBroadwell, 0x4f: IntelBroadwell, 0x56: IntelBroadwell,
	0x4e: IntelSkylake, 0x5e: IntelSkylake, 0x8e: IntelSkylake, 0x9e: IntelSkylake, 0xa5: IntelSkylake, 0xa6: IntelSkylake,
	0x55: IntelSkylakeX,
	0x6a: IntelIceLake, 0x6c: IntelIceLake, 0x7d: IntelIceLake, 0x7e: IntelIceLake,
	0x8c: IntelTigerLake, 0x8d: IntelTigerLake,
	0xa7: IntelRocketLake, 0xa8: IntelRocketLake,
	0x97: IntelAlderLake, 0x9a: IntelAlderLake, 0xb7: IntelAlderLake, 0xba: IntelAlderLake, 0xbf: IntelAlderLake,
	0x8f: IntelSapphireRapids, 0xcf: IntelSapphireRapids, 0xad: IntelSapphireRapids, 0xae: IntelSapphireRapids,
}

// Core returns the microarchitecture of x, or X86Unknown. An Intel
// processor with AMX is a Sapphire Rapids-class server core whatever its
// model says: hypervisors present other model numbers (the Xeon this
// project measured as model 167, Rocket Lake's, has AMX and a 480 MiB L3).
func (x X86) Core() X86Core {
	switch x.Vendor {
	case "GenuineIntel":
		if x.AMX {
			return IntelSapphireRapids
		}
		if x.Family == 6 {
			return intelFamily6[x.Model]
		}
	case "AuthenticAMD", "HygonGenuine":
		switch x.Family {
		case 0x17:
			if x.Model < 0x30 {
				return AMDZen1
			}
			return AMDZen2
		case 0x18:
			return AMDZen1 // Hygon Dhyana
		case 0x19:
			// Zen 4 is models 0x10-0x1f, 0x60-0x7f and 0xa0-0xaf; the
			// rest of family 0x19 is Zen 3 (and Zen 3+).
			if m := x.Model; m >= 0x10 && m <= 0x1f || m >= 0x60 && m <= 0x7f || m >= 0xa0 && m <= 0xaf {
				return AMDZen4
			}
			return AMDZen3
		case 0x1a:
			if x.FP512 {
				return AMDZen5Wide
			}
			return AMDZen5
		}
	}
	return X86Unknown
}
