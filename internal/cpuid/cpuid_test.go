package cpuid

import (
	"slices"
	"testing"
)

// midrTests are MIDR_EL1 values read on real cores (and, for the Arm cores,
// the values QEMU's models of them return, which copy the silicon's):
// Linux's arch/arm64/include/asm/cputype.h names the part numbers; the
// variant and revision fields come from the cores' Technical Reference
// Manuals (section "Main ID Register").
var midrTests = []struct {
	midr     uint64
	name     string
	impl     uint32
	part     uint32
	variant  uint32
	revision uint32
	mix      ChaCha20Mix
	aead     AEADLoop
}{
	{0x410fd034, "Arm Cortex-A53", 0x41, 0xd03, 0, 4, Mix4x1, LoopSeparate}, // r0p4 (Raspberry Pi 3, QEMU cortex-a53)
	{0x412fd050, "Arm Cortex-A55", 0x41, 0xd05, 2, 0, Mix4x1, LoopSeparate}, // r2p0 (QEMU cortex-a55)
	{0x411fd070, "Arm Cortex-A57", 0x41, 0xd07, 1, 0, Mix4x1, LoopStitched}, // r1p0 (QEMU cortex-a57)
	{0x411fd071, "Arm Cortex-A57", 0x41, 0xd07, 1, 1, Mix4x1, LoopStitched}, // r1p1 (Jetson TX1)
	{0x410fd083, "Arm Cortex-A72", 0x41, 0xd08, 0, 3, Mix4x1, LoopStitched}, // r0p3 (Raspberry Pi 4, QEMU cortex-a72)
	{0x410fd034 | 0xf<<20, "Arm Cortex-A53", 0x41, 0xd03, 0xf, 4, Mix4x1, LoopSeparate},
	{0x410fd092, "Arm Cortex-A73", 0x41, 0xd09, 0, 2, MixDefault, LoopStitched},      // r0p2
	{0x414fd0b1, "Arm Cortex-A76", 0x41, 0xd0b, 4, 1, MixDefault, LoopStitched},      // r4p1 (Raspberry Pi 5)
	{0x413fd0c1, "Arm Neoverse N1", 0x41, 0xd0c, 3, 1, MixDefault, LoopStitched},     // r3p1 (AWS Graviton2, Ampere Altra)
	{0x414fd0c1, "Arm Neoverse N1", 0x41, 0xd0c, 4, 1, MixDefault, LoopStitched},     // r4p1 (QEMU neoverse-n1)
	{0x411fd401, "Arm Neoverse V1", 0x41, 0xd40, 1, 1, MixDefault, LoopStitched},     // r1p1 (AWS Graviton3)
	{0x411fd400, "Arm Neoverse V1", 0x41, 0xd40, 1, 0, MixDefault, LoopStitched},     // r1p0
	{0x410fd490, "Arm Neoverse N2", 0x41, 0xd49, 0, 0, MixDefault, LoopStitchedSVE2}, // r0p0 (Microsoft Cobalt 100)
	{0x410fd4f0, "Arm Neoverse V2", 0x41, 0xd4f, 0, 0, MixDefault, LoopStitchedSVE2}, // r0p0 (NVIDIA Grace, AWS Graviton4 r0p1)
	{0x431f0af1, "Cavium ThunderX2", 0x43, 0x0af, 1, 1, MixDefault, LoopStitched},    // B1
	{0x420f5160, "Broadcom Vulcan", 0x42, 0x516, 0, 0, MixDefault, LoopStitched},
	{0x461f0010, "Fujitsu A64FX", 0x46, 0x001, 1, 0, MixDefault, LoopStitched},          // QEMU a64fx
	{0x611f0221, "Apple M1 Icestorm", 0x61, 0x022, 1, 1, MixDefault, LoopStitched},      // Asahi Linux, M1 efficiency cores
	{0x611f0231, "Apple M1 Firestorm", 0x61, 0x023, 1, 1, MixDefault, LoopStitched},     // Asahi Linux, M1 performance cores
	{0x481fd010, "HiSilicon TaiShan v110", 0x48, 0xd01, 1, 0, MixDefault, LoopStitched}, // Kunpeng 920
	{0xc00fac30, "Ampere-1", 0xc0, 0xac3, 0, 0, MixDefault, LoopStitched},
	{0xc00fac40, "Ampere-1A", 0xc0, 0xac4, 0, 0, MixDefault, LoopStitched},
	// Unknown cores keep the default rule and have no name.
	{0x000f0510, "", 0x00, 0x051, 0, 0, MixDefault, LoopStitched}, // implementer 0: software use (QEMU max)
	{0x41fffff0, "", 0x41, 0xfff, 0xf, 0, MixDefault, LoopStitched},
	{0x0, "", 0, 0, 0, 0, MixDefault, LoopStitched},
	// An Arm part number under another implementer is another core.
	{0x430fd030, "", 0x43, 0xd03, 0, 0, MixDefault, LoopStitched},
	{0x480fd080, "", 0x48, 0xd08, 0, 0, MixDefault, LoopStitched},
}

func TestMIDRTable(t *testing.T) {
	for _, tt := range midrTests {
		if got := Implementer(tt.midr); got != tt.impl {
			t.Errorf("Implementer(%#x) = %#x, want %#x", tt.midr, got, tt.impl)
		}
		if got := Part(tt.midr); got != tt.part {
			t.Errorf("Part(%#x) = %#x, want %#x", tt.midr, got, tt.part)
		}
		if v, r := Revision(tt.midr); v != tt.variant || r != tt.revision {
			t.Errorf("Revision(%#x) = r%dp%d, want r%dp%d", tt.midr, v, r, tt.variant, tt.revision)
		}
		if got := CoreName(tt.midr); got != tt.name {
			t.Errorf("CoreName(%#x) = %q, want %q", tt.midr, got, tt.name)
		}
		if got := ChaCha20MixFor(tt.impl, tt.part); got != tt.mix {
			t.Errorf("ChaCha20MixFor(%#x, %#x) = %v, want %v", tt.impl, tt.part, got, tt.mix)
		}
		if got := AEADLoopFor(tt.impl, tt.part); got != tt.aead {
			t.Errorf("AEADLoopFor(%#x, %#x) = %v, want %v", tt.impl, tt.part, got, tt.aead)
		}
	}
}

// TestMix4x1Cores pins the exact set of cores sent to the 4+1 path, so that a
// change to the table is a deliberate one.
func TestMix4x1Cores(t *testing.T) {
	var got []string
	for _, c := range cores {
		if c.chacha20 == Mix4x1 {
			got = append(got, c.name)
		}
	}
	want := []string{"Arm Cortex-A53", "Arm Cortex-A55", "Arm Cortex-A57", "Arm Cortex-A72"}
	if len(got) != len(want) {
		t.Fatalf("4+1 cores = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("4+1 cores = %q, want %q", got, want)
		}
	}
}

// TestAEADLoopCores pins the exact sets of cores sent to the separate
// passes and to the SVE2 stitched loop, as TestMix4x1Cores does for the
// 4+1 path.
func TestAEADLoopCores(t *testing.T) {
	var got []string
	for _, c := range cores {
		if c.aead == LoopSeparate {
			got = append(got, c.name)
		}
	}
	want := []string{"Arm Cortex-A53", "Arm Cortex-A55"}
	if !slices.Equal(got, want) {
		t.Fatalf("separate-pass cores = %q, want %q", got, want)
	}
	got = nil
	for _, c := range cores {
		if c.aead == LoopStitchedSVE2 {
			got = append(got, c.name)
		}
	}
	want = []string{"Arm Neoverse N2", "Arm Neoverse V2"}
	if !slices.Equal(got, want) {
		t.Fatalf("SVE2 stitched-loop cores = %q, want %q", got, want)
	}
}

func TestCoreTableUnique(t *testing.T) {
	seen := map[[2]uint32]string{}
	for _, c := range cores {
		k := [2]uint32{c.implementer, c.part}
		if prev, ok := seen[k]; ok {
			t.Errorf("implementer %#x part %#x listed twice: %q and %q", c.implementer, c.part, prev, c.name)
		}
		seen[k] = c.name
		if c.implementer > 0xff || c.part > 0xfff || c.name == "" {
			t.Errorf("bad row %+v", c)
		}
	}
}

// TestMIDRHere reads this machine's MIDR_EL1 (under QEMU, the emulated
// model's) and logs what the table makes of it. Set CHACHAKIT_EXPECT_MIDR to
// a hex value (as the cross-architecture script does per QEMU model) to make
// the read value a checked one.
func TestMIDRHere(t *testing.T) {
	midr, ok := MIDR()
	if !ok {
		t.Logf("MIDR_EL1 not readable here; ChaCha20 mix %v, AEAD loop %v", ChaCha20MixHere(), AEADLoopHere())
		if want := expectedMIDR(t); want != 0 {
			t.Errorf("MIDR not readable, CHACHAKIT_EXPECT_MIDR=%#x", want)
		}
		return
	}
	v, r := Revision(midr)
	t.Logf("MIDR_EL1 %#08x: implementer %#x part %#x r%dp%d %q, ChaCha20 mix %v, AEAD loop %v",
		midr, Implementer(midr), Part(midr), v, r, CoreName(midr), ChaCha20MixHere(), AEADLoopHere())
	if want := expectedMIDR(t); want != 0 && midr != want {
		t.Errorf("MIDR_EL1 = %#x, CHACHAKIT_EXPECT_MIDR=%#x", midr, want)
	}
}
