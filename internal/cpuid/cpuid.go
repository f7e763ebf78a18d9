// Package cpuid identifies arm64 cores from their Main ID Register
// (MIDR_EL1, Arm Architecture Reference Manual for A-profile, D23.2.122)
// and x86 cores from CPUID (x86.go), and holds the tables that map a core
// to the code it runs best: the ChaCha20 keystream mix on arm64, the AEAD
// kernels' choices on x86.
//
// Reading MIDR_EL1 from user space traps to the kernel, which emulates the
// read only when it advertises HWCAP_CPUID; elsewhere (other kernels, darwin,
// other architectures) [MIDR] reports false and callers keep their default.
package cpuid

// MIDR_EL1 fields (Arm ARM, D23.2.122).
const (
	implementerShift = 24
	variantShift     = 20
	partShift        = 4
)

// Implementer returns the implementer code of midr (bits 31:24): 0x41 for
// Arm, 0x43 for Cavium, 0x61 for Apple, ...
func Implementer(midr uint64) uint32 { return uint32(midr>>implementerShift) & 0xff }

// Part returns the primary part number of midr (bits 15:4), which names the
// core within its implementer's range.
func Part(midr uint64) uint32 { return uint32(midr>>partShift) & 0xfff }

// Revision returns the variant (bits 23:20) and revision (bits 3:0) of midr,
// the "rNpM" of the core's documentation.
func Revision(midr uint64) (variant, revision uint32) {
	return uint32(midr>>variantShift) & 0xf, uint32(midr) & 0xf
}

// ChaCha20Mix is the mix of NEON and general-purpose ChaCha20 blocks that a
// core runs best on large inputs.
type ChaCha20Mix int

const (
	// MixDefault is the rule for every core not known to prefer another mix
	// (and for an unreadable MIDR): 6 NEON + 2 scalar blocks per 512-byte
	// batch, 4 NEON + 1 scalar for a 320..511-byte remainder, as OpenSSL's
	// chacha-armv8.pl does.
	MixDefault ChaCha20Mix = iota
	// Mix4x1 is 4 NEON + 1 scalar block per 320-byte batch for every batch.
	Mix4x1
)

func (m ChaCha20Mix) String() string {
	switch m {
	case MixDefault:
		return "6+2 (default)"
	case Mix4x1:
		return "4+1"
	}
	return "ChaCha20Mix(?)"
}

// AEADLoop is how a core runs the main loop of a long ChaCha20-Poly1305
// Seal or Open.
type AEADLoop int

const (
	// LoopStitched is the rule for every core not known to prefer the
	// separate passes (and for an unreadable MIDR): the stitched loop of
	// internal/aeadasm, 6 NEON keystream blocks with the Poly1305 of 24
	// 16-byte blocks on the integer multiplier in each iteration. It wins
	// on the out-of-order cores, which run both side by side.
	LoopStitched AEADLoop = iota
	// LoopSeparate is the keystream pass, then the Poly1305 pass.
	LoopSeparate
	// LoopStitchedSVE2 is the stitched loop with SVE2's XAR for the
	// ChaCha20 rotations (internal/aeadasm's xorMACSVE2), on the cores
	// where llvm-mca's models say it beats the NEON one (Neoverse N2 and
	// V2). A core listed with it but without SVE2 (the kernel's HWCAP2)
	// runs LoopStitched.
	LoopStitchedSVE2
)

func (l AEADLoop) String() string {
	switch l {
	case LoopStitched:
		return "stitched (default)"
	case LoopSeparate:
		return "separate passes"
	case LoopStitchedSVE2:
		return "stitched, SVE2"
	}
	return "AEADLoop(?)"
}

// A core is one row of the identification table.
type core struct {
	implementer uint32
	part        uint32
	name        string
	chacha20    ChaCha20Mix
	aead        AEADLoop
}

// cores lists the cores the library knows by name, and the ChaCha20 mix
// and AEAD loop of those that do not follow the default rules.
//
// The Mix4x1 rows follow OpenSSL's published cycles per byte
// (crypto/chacha/asm/chacha-armv8.pl: Cortex-A53 4.06 with 4xNEON+1xIALU
// against 4.45 with 6xNEON+2xIALU, Cortex-A57 4.15 against 4.40) and the
// proposal to OpenSSL that sent Cortex-A53, A55, A57 and A72 to the 4+1 path
// (+4% to +10% at 8 KiB on those cores). The LoopSeparate rows are the
// in-order Cortex-A53 and A55, which keep the paths hardware figures chose
// for them (NEON4x1, NEON Poly1305): by llvm-mca's resource bound, the
// figure that matches those cores, the stitched loop is only 1-2% faster,
// less than the model resolves there. On the out-of-order Cortex-A57 (and
// the A72, which LLVM models as an A57) it is 30% faster by the scheduled
// estimate and runs fewer guest instructions under QEMU (bench/README.md,
// "arm64: ChaCha20-Poly1305"). The LoopStitchedSVE2 rows are the
// Neoverse N2 and V2, by llvm-mca's models of those two cores (the loop's
// XARs take one vector instruction for two or three; the other SVE2 cores
// have no model of their own in LLVM 19, which runs N2's or V2's for
// them). A hardware
// measurement that moves a core changes its row, nothing else.
var cores = []core{
	// Arm Ltd (implementer 0x41).
	{0x41, 0xd01, "Arm Cortex-A32", MixDefault, LoopStitched},
	{0x41, 0xd02, "Arm Cortex-A34", MixDefault, LoopStitched},
	{0x41, 0xd03, "Arm Cortex-A53", Mix4x1, LoopSeparate},
	{0x41, 0xd04, "Arm Cortex-A35", MixDefault, LoopStitched},
	{0x41, 0xd05, "Arm Cortex-A55", Mix4x1, LoopSeparate},
	{0x41, 0xd06, "Arm Cortex-A65", MixDefault, LoopStitched},
	{0x41, 0xd07, "Arm Cortex-A57", Mix4x1, LoopStitched},
	{0x41, 0xd08, "Arm Cortex-A72", Mix4x1, LoopStitched},
	{0x41, 0xd09, "Arm Cortex-A73", MixDefault, LoopStitched},
	{0x41, 0xd0a, "Arm Cortex-A75", MixDefault, LoopStitched},
	{0x41, 0xd0b, "Arm Cortex-A76", MixDefault, LoopStitched},
	{0x41, 0xd0c, "Arm Neoverse N1", MixDefault, LoopStitched},
	{0x41, 0xd0d, "Arm Cortex-A77", MixDefault, LoopStitched},
	{0x41, 0xd40, "Arm Neoverse V1", MixDefault, LoopStitched},
	{0x41, 0xd41, "Arm Cortex-A78", MixDefault, LoopStitched},
	{0x41, 0xd44, "Arm Cortex-X1", MixDefault, LoopStitched},
	{0x41, 0xd46, "Arm Cortex-A510", MixDefault, LoopStitched},
	{0x41, 0xd47, "Arm Cortex-A710", MixDefault, LoopStitched},
	{0x41, 0xd48, "Arm Cortex-X2", MixDefault, LoopStitched},
	{0x41, 0xd49, "Arm Neoverse N2", MixDefault, LoopStitchedSVE2},
	{0x41, 0xd4a, "Arm Neoverse E1", MixDefault, LoopStitched},
	{0x41, 0xd4d, "Arm Cortex-A715", MixDefault, LoopStitched},
	{0x41, 0xd4e, "Arm Cortex-X3", MixDefault, LoopStitched},
	{0x41, 0xd4f, "Arm Neoverse V2", MixDefault, LoopStitchedSVE2},
	{0x41, 0xd80, "Arm Cortex-A520", MixDefault, LoopStitched},
	{0x41, 0xd81, "Arm Cortex-A720", MixDefault, LoopStitched},
	{0x41, 0xd82, "Arm Cortex-X4", MixDefault, LoopStitched},
	{0x41, 0xd84, "Arm Neoverse V3", MixDefault, LoopStitched},
	{0x41, 0xd8e, "Arm Neoverse N3", MixDefault, LoopStitched},
	// Broadcom (0x42), Cavium/Marvell (0x43).
	{0x42, 0x516, "Broadcom Vulcan", MixDefault, LoopStitched},
	{0x43, 0x0a1, "Cavium ThunderX", MixDefault, LoopStitched},
	{0x43, 0x0af, "Cavium ThunderX2", MixDefault, LoopStitched},
	{0x43, 0x0b8, "Marvell ThunderX3", MixDefault, LoopStitched},
	// Fujitsu (0x46), HiSilicon (0x48), NVIDIA (0x4e), Qualcomm (0x51).
	{0x46, 0x001, "Fujitsu A64FX", MixDefault, LoopStitched},
	{0x48, 0xd01, "HiSilicon TaiShan v110", MixDefault, LoopStitched},
	{0x4e, 0x003, "NVIDIA Denver 2", MixDefault, LoopStitched},
	{0x4e, 0x004, "NVIDIA Carmel", MixDefault, LoopStitched},
	{0x51, 0xc00, "Qualcomm Falkor", MixDefault, LoopStitched},
	{0x51, 0x001, "Qualcomm Oryon", MixDefault, LoopStitched},
	// Apple (0x61), as Linux reports the M1 and M2 clusters.
	{0x61, 0x022, "Apple M1 Icestorm", MixDefault, LoopStitched},
	{0x61, 0x023, "Apple M1 Firestorm", MixDefault, LoopStitched},
	{0x61, 0x032, "Apple M2 Blizzard", MixDefault, LoopStitched},
	{0x61, 0x033, "Apple M2 Avalanche", MixDefault, LoopStitched},
	// Ampere (0xc0).
	{0xc0, 0xac3, "Ampere-1", MixDefault, LoopStitched},
	{0xc0, 0xac4, "Ampere-1A", MixDefault, LoopStitched},
}

func lookup(midr uint64) (core, bool) {
	impl, part := Implementer(midr), Part(midr)
	for _, c := range cores {
		if c.implementer == impl && c.part == part {
			return c, true
		}
	}
	return core{}, false
}

// CoreName returns the name of the core midr identifies, or "" if the table
// does not know it.
func CoreName(midr uint64) string {
	c, _ := lookup(midr)
	return c.name
}

// ChaCha20MixFor returns the ChaCha20 mix for the core with the given
// implementer and part number: [Mix4x1] for the cores measured to prefer it,
// [MixDefault] for every other core.
func ChaCha20MixFor(implementer, part uint32) ChaCha20Mix {
	c, _ := lookup(uint64(implementer)<<implementerShift | uint64(part)<<partShift)
	return c.chacha20
}

// AEADLoopFor returns the AEAD loop for the core with the given implementer
// and part number: [LoopSeparate] or [LoopStitchedSVE2] for the cores
// listed with it, [LoopStitched] for every other core. It does not look at
// the CPU's features: the caller falls back from LoopStitchedSVE2 without
// SVE2.
func AEADLoopFor(implementer, part uint32) AEADLoop {
	c, _ := lookup(uint64(implementer)<<implementerShift | uint64(part)<<partShift)
	return c.aead
}

// AEADLoopHere returns the AEAD loop for the core this code runs on:
// [LoopStitched] when MIDR_EL1 cannot be read (Apple's cores under macOS,
// where EL0 cannot read it, are wide cores of the kind the stitched loop
// is for).
func AEADLoopHere() AEADLoop {
	midr, ok := MIDR()
	if !ok {
		return LoopStitched
	}
	return AEADLoopFor(Implementer(midr), Part(midr))
}

// ChaCha20MixHere returns the ChaCha20 mix for the core this code runs on:
// [MixDefault] when MIDR_EL1 cannot be read.
func ChaCha20MixHere() ChaCha20Mix {
	midr, ok := MIDR()
	if !ok {
		return MixDefault
	}
	return ChaCha20MixFor(Implementer(midr), Part(midr))
}
