package cpuid

import "testing"

// The vendor registers of CPUID leaf 0 (EBX, EDX, ECX).
var (
	intel = [3]uint32{0x756e6547, 0x49656e69, 0x6c65746e} // "Genu" "ineI" "ntel"
	amd   = [3]uint32{0x68747541, 0x69746e65, 0x444d4163} // "Auth" "enti" "cAMD"
	hygon = [3]uint32{0x6f677948, 0x6e65476e, 0x656e6975} // "Hygo" "nGen" "uine"
)

// TestX86Cores decodes real CPUID signatures (leaf 1 EAX, as Intel's and
// AMD's documentation and Linux's /proc/cpuinfo list them; the first two
// Intel rows, the Zen 5 row, Naples and Genoa are the machines this project
// has run on)
// into the family, model and core of each.
func TestX86Cores(t *testing.T) {
	for _, c := range []struct {
		vendor        [3]uint32
		eax1          uint32
		family, model int
		core          X86Core
		edx7          uint32 // leaf 7 EDX: 1 << 24 for AMX-TILE
	}{
		{intel, 0x000a0671, 6, 0xa7, IntelSapphireRapids, 1 << 24}, // the KVM guest of 2026-12-01: model 167 with AMX
		{intel, 0x000a0671, 6, 0xa7, IntelRocketLake, 0},           // Xeon E-2300 class
		{intel, 0x000c06f2, 6, 0xcf, IntelSapphireRapids, 1 << 24}, // Emerald Rapids, model 207
		{amd, 0x00b00f21, 0x1a, 0x02, AMDZen5, 0},                  // EPYC 9005 (Turin)
		{intel, 0x000306c3, 6, 0x3c, IntelHaswell, 0},
		{intel, 0x000406f1, 6, 0x4f, IntelBroadwell, 0},
		{intel, 0x000506e3, 6, 0x5e, IntelSkylake, 0},
		{intel, 0x000906ea, 6, 0x9e, IntelSkylake, 0}, // Coffee Lake
		{intel, 0x00050654, 6, 0x55, IntelSkylakeX, 0},
		{intel, 0x00050657, 6, 0x55, IntelSkylakeX, 0}, // Cascade Lake
		{intel, 0x000606a6, 6, 0x6a, IntelIceLake, 0},  // Ice Lake-SP
		{intel, 0x000706e5, 6, 0x7e, IntelIceLake, 0},  // Ice Lake client
		{intel, 0x000806c1, 6, 0x8c, IntelTigerLake, 0},
		{intel, 0x00090672, 6, 0x97, IntelAlderLake, 0},
		{intel, 0x000b0671, 6, 0xb7, IntelAlderLake, 0}, // Raptor Lake
		{intel, 0x000806f8, 6, 0x8f, IntelSapphireRapids, 1 << 24},
		{intel, 0x000a06d1, 6, 0xad, IntelSapphireRapids, 1 << 24},                          // Granite Rapids
		{intel, 0x000b06e0, 6, 0xbe, X86Unknown, 0},                                         // Alder Lake-N (Gracemont only): not in the table
		{amd, 0x00800f12, 0x17, 0x01, AMDZen1, 0},                                           // Naples
		{amd, 0x00800f82, 0x17, 0x08, AMDZen1, 0},                                           // Zen+
		{amd, 0x00830f10, 0x17, 0x31, AMDZen2, 0},                                           // Rome
		{amd, 0x00870f10, 0x17, 0x71, AMDZen2, 0},                                           // Matisse
		{amd, 0x00a00f11, 0x19, 0x01, AMDZen3, 0},                                           // Milan
		{amd, 0x00a20f10, 0x19, 0x21, AMDZen3, 0},                                           // Vermeer
		{amd, 0x00a50f00, 0x19, 0x50, AMDZen3, 0},                                           // Cezanne
		{amd, 0x00a10f11, 0x19, 0x11, AMDZen4, 0},                                           // Genoa, the machine of 2026-12-04
		{amd, 0x00a60f12, 0x19, 0x61, AMDZen4, 0},                                           // Raphael
		{amd, 0x00aa0f02, 0x19, 0xa0, AMDZen4, 0},                                           // Bergamo
		{amd, 0x00b40f40, 0x1a, 0x44, AMDZen5, 0},                                           // Granite Ridge
		{hygon, 0x00900f01, 0x18, 0x00, AMDZen1, 0},                                         // Dhyana
		{[3]uint32{0x746e6543, 0x48727561, 0x736c7561}, 0x000006f2, 6, 0x0f, X86Unknown, 0}, // "CentaurHauls"
	} {
		x := DecodeX86(c.vendor[0], c.vendor[1], c.vendor[2], c.eax1, c.edx7)
		if x.Family != c.family || x.Model != c.model || x.Stepping != int(c.eax1&0xf) {
			t.Errorf("%#08x: family %#x model %#x stepping %d, want %#x %#x %d", c.eax1, x.Family, x.Model, x.Stepping, c.family, c.model, c.eax1&0xf)
		}
		if got := x.Core(); got != c.core {
			t.Errorf("%s %#08x: %v, want %v", x.Vendor, c.eax1, got, c.core)
		}
	}
}

// TestX86Zen5Wide: a Zen 5 whose Fn8000_001A_EAX has FP512 (the bhyve
// guest of 2026-12-02 to 12-05 reports 0xa: MOVU and FP512) is
// AMDZen5Wide; without it (the leaf absent, or the bit clear) AMDZen5.
func TestX86Zen5Wide(t *testing.T) {
	x := DecodeX86(amd[0], amd[1], amd[2], 0x00b00f21, 0)
	if got := x.Core(); got != AMDZen5 {
		t.Errorf("without FP512: %v, want %v", got, AMDZen5)
	}
	x.FP512 = 0xa&FP512 != 0
	if got := x.Core(); got != AMDZen5Wide {
		t.Errorf("with FP512: %v, want %v", got, AMDZen5Wide)
	}
}

// TestReadX86 checks that this machine's CPUID decodes to a known vendor
// string (on amd64).
func TestReadX86(t *testing.T) {
	x, ok := ReadX86()
	if !ok {
		t.Skip("CPUID is not read on this platform")
	}
	t.Logf("%s family %#x model %#x stepping %d: %v", x.Vendor, x.Family, x.Model, x.Stepping, x.Core())
	if len(x.Vendor) != 12 {
		t.Errorf("vendor %q", x.Vendor)
	}
}
