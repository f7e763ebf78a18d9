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

// X86AEAD is how the amd64 AEAD routes messages on a core, where that
// differs between cores (aead/route_amd64.go reads it once).
type X86AEAD struct {
	// SmallMax is the longest message that takes the one-call small
	// kernels (key block, encryption and MAC from key and nonce): 192
	// bytes on most cores measured (a core where the separate passes won
	// from 65 bytes on would have 64). Up to 192 bytes the kernels compute
	// in row sets; above, in an 8-lane ymm batch (AVX-512) or three and
	// four ymm row sets (AVX2), which beat the short path's separate calls
	// on AMD Zen 1 up to 448 bytes (Seal of 256 bytes: 560 against 680 ns,
	// x/crypto 510; of 448: 790 against 895, x/crypto 720) and on AMD Zen 4
	// up to 384 (Seal of 256 bytes: 218 against 244 ns, x/crypto 229;
	// with AVX-512 off, the AVX2 kernels 252 against 300), and there up to
	// 448 since the AVX-512 kernel MACs in IFMA lanes from 257 bytes (Seal
	// of 448 bytes: 230 against 253 ns, x/crypto 310).
	SmallMax int

	// SmallMaxAVX2 is SmallMax for the AVX2 small kernels (CPUs without
	// AVX-512BW, or with it off): a core's own SmallMax where it was
	// measured with them, and 448, their limit, elsewhere. On AMD Zen 4
	// with AVX-512 off the short path's separate passes they replace are
	// 10-25% slower than x/crypto from 193 bytes on, the three- and
	// four-set kernels level with it or ahead (Seal of 400 bytes: 311
	// against 321 ns, x/crypto 298); on AMD Zen 5 with AVX-512 off the
	// same (Seal of 320 bytes: 288 against 323 ns, x/crypto 286), and on
	// the Intel Xeon of model 167 (bench/README.md, "Tight loop").
	// x/crypto's AVX2 code computes short messages in the same row sets,
	// so a core not measured takes them.
	SmallMaxAVX2 int

	// OpenFirstMin is the shortest Open that takes aeadasm.OpenFirstAVX2
	// (the key block first, then the MAC beside the rounds of the rest:
	// x/crypto's AVX2 Open from 321 bytes), or 0 for none, on cores with
	// the AVX2 kernels only. On AMD Zen 4 with AVX-512 off: 321 (at 320
	// level with the three-set small kernel; Open of 448 bytes 274 against
	// 357 ns, x/crypto 289). Cores not measured take it from 321, as
	// x/crypto does; the measured cores without AVX2 measurements of it
	// (Zen 1, Sapphire Rapids) keep their routes. On AMD Zen 5 with
	// AVX-512 off it loses (Open of 448 bytes 353 against 330 ns in the
	// four-set small kernel; of 1024, 573 against 523 in the mid-size
	// kernel), so 0 there. It also gates the
	// longer key-first Open, aeadasm.OpenAheadAVX2 (from 961 bytes where
	// it needs fewer batches than the mid-size kernel; on Zen 4 with
	// AVX-512 off, Open of 1000-2500 bytes 7-17% faster).
	OpenFirstMin int

	// Prold selects the small kernels whose rounds rotate with VPROLD
	// (aeadasm.SmallProldAVX512) over the ones that rotate with two shifts
	// and a VPTERNLOGD off the chain, which win only where VPROLD takes
	// two cycles and the shifts one (the AMD Zen 5 that
	// issues 512-bit operations as halves). On the Zen 5 with full-width
	// 512-bit units every one of them takes two cycles and VPROLD wins:
	// Seal of 64 bytes 175.7 ns against 182.0 for the key-scalar kernel
	// and 189.2 for the shift pairs, 96 to 192 bytes 7-9% faster (medians
	// of 5, bench/README.md, "AMD EPYC Zen 5: two batches per keystream
	// pass").
	Prold bool

	// ProldMin is the shortest message that takes the VPROLD kernels where
	// Prold is set: 0, or 65 on AMD Zen 4, where the shift pair wins for
	// one row set (Seal of 64 bytes: 118 against 136 ns) and VPROLD for
	// two (96 to 160 bytes: 2-8% faster; bench/README.md, "AMD EPYC Zen 4").
	ProldMin int

	// KeyScalar selects, for messages of up to 64 bytes with a 12-byte
	// nonce, the small kernel that also computes the Poly1305 key block in
	// general-purpose registers beside its vector rounds
	// (aeadasm.SmallKeyScalarAVX512, and aeadasm.SmallKeyScalarAVX2 with
	// the AVX2 kernels), where that chain is the shorter one: r and s are
	// then ready before the vector rounds end (AMD Zen 5, whose simple
	// vector instructions take two cycles; with AVX-512 off there, Seal and
	// Open of 64 bytes 3% faster than aeadasm.SmallAVX2). Where Prold is
	// set from 0 bytes (the Zen 5 with full-width units) the VPROLD kernel
	// takes the AVX-512 side, and KeyScalar serves the AVX2 kernels.
	KeyScalar bool

	// OpenKeyFirst selects, for an Open of up to 64 bytes with a 12-byte
	// nonce, the small kernel that computes the Poly1305 key block first in
	// general-purpose registers (two scalar double rounds per vector one)
	// and absorbs the whole MAC during the second half of the vector rounds
	// (aeadasm.SmallKeyFirstAVX512 over the VPROLD kernel, and
	// aeadasm.SmallKeyFirstAVX2 with the AVX2 kernels), where the vector
	// chain is the long one (AMD Zen 5 with full-width units, whose simple
	// vector instructions take two cycles: bench/README.md, "The key block
	// first"). A Seal's MAC needs the ciphertext, which comes at the end of
	// the vector chain: for Seals see SealHandoff.
	OpenKeyFirst bool

	// SealHandoff selects, for a Seal of up to 64 bytes with a 12-byte
	// nonce, the key-first kernel that also computes the message block's
	// last four double rounds in general-purpose registers, after the key
	// block's (aeadasm.SmallHandoffAVX512, and aeadasm.SmallHandoffAVX2
	// with the AVX2 kernels): the ciphertext, and with it the rest of the
	// MAC, comes that much earlier where a scalar double round takes about
	// half the cycles of a vector one (the same Zen 5: bench/README.md,
	// "The message block's last rounds on the integer units").
	SealHandoff bool

	// LoopIFMA selects the stitched loop with the MAC in AVX-512 IFMA lanes
	// (aeadasm.StitchedIFMA) for long messages over the one with the MAC on
	// the integer units, which on Intel's Golden Cove cores compete with
	// the 512-bit vector work for its ports.
	LoopIFMA bool

	// BatchLoop makes aead's SealBatch and OpenBatch a loop of single
	// calls instead of lane groups (several messages' blocks in one
	// LaneBlocks call, tags one at a time): on AMD Zen 1 the groups' own
	// work outweighed what the lanes save over the small kernels (64
	// messages of 64 bytes: 0.89-0.92 of the loop's rate).
	BatchLoop bool

	// BatchWide gives aead's SealBatch and OpenBatch messages of 257 to
	// 1536 bytes to 32-lane keystream passes of two interleaved 16-lane zmm
	// batches (chacha20core.LaneBlocks2), with two Poly1305 chains on the
	// integer units beside each pass (aeadasm.LaneBlocks2MAC), instead of
	// each message's own kernel: on AMD Zen 5 with full-width 512-bit
	// units, whose two-cycle vector instructions leave one batch's chain
	// half the ports, 32 blocks take 207 ns against 309 for two batches,
	// and 64 Seals of 257 to 1536 bytes 1.09-1.45 times the loop's rate
	// (bench/README.md, "Batches"). Not on the Zen 5 that issues 512-bit
	// operations as halves, where one batch fills the ports (Lanes2).
	BatchWide bool
}

// X86ChaCha20 is how the amd64 ChaCha20 keystream differs between cores
// (internal/chacha20core reads it once).
type X86ChaCha20 struct {
	// RowProld selects, for one or two blocks and for HChaCha20, the row
	// code that rotates with VPROLD over the one that rotates with two
	// shifts and a VPTERNLOGD: the same property of the core as
	// X86AEAD.Prold for the AEAD's one-row-set kernel (up to 64 bytes),
	// which it follows.
	RowProld bool

	// RowsY selects, for three or four blocks, two ymm row sets
	// (chacha20core's xorRowsYAVX512) over one zmm row set: on AMD Zen 4,
	// which runs each zmm operation as two 256-bit halves, 100 against 109
	// ns (bench/README.md, "AMD EPYC Zen 4").
	RowsY bool

	// HChaCha20Scalar selects the portable HChaCha20, in general-purpose
	// registers, over the row code, and makes XChaCha20-Poly1305 derive its
	// subkey that way before the small AEAD kernels (which then take the
	// 12-byte nonce form) instead of in their vector registers. It is set
	// where the vector row code loses to the scalar rounds: on AMD Zen 5
	// machines whose simple vector integer instructions take two cycles
	// (bench/README.md, the AMD EPYC Zen 5 sections).
	HChaCha20Scalar bool

	// RowsZ2 selects, for five to eight keystream blocks, two zmm row sets
	// (four blocks each, two latency-bound chains interleaved) over the
	// 8-lane ymm transposed batch: 5-15% faster on a Sapphire Rapids-class
	// Xeon (bench/README.md), while on Zen 5 the transposed batch measured
	// faster (_asm's transposedVL8).
	RowsZ2 bool

	// BlockScalar selects, for a call of one block, the block computed in
	// general-purpose registers (chacha20core's xorBlockScalar) over the
	// row code, and makes chacha20core.CheapBlocks 1, so that a cipher
	// asks for one block at a time. It is set where HChaCha20Scalar is,
	// for the same reason: a lone block's chain of dependent vector
	// instructions takes twice the cycles of the scalar one there.
	BlockScalar bool

	// Lanes2 selects, for 18 keystream blocks or more, passes of 32 blocks
	// in two 16-lane zmm batches with interleaved rounds (chacha20core's
	// xorLanes2AVX512) over the 16+1 hybrid batch. It is set on Zen 5 with
	// full-width 512-bit units, where a simple vector instruction takes two
	// cycles and one batch's chain of dependent rounds leaves the vector
	// ports half idle (256 blocks 1.50x as fast, bench/README.md,
	// "AMD EPYC Zen 5: two batches per keystream pass"). Where 512-bit
	// operations issue as halves (AMDZen5) one batch fills
	// the ports, and the hybrid's free 17th block wins (an estimate).
	Lanes2 bool

	// XMMBlocks selects, for calls of one block and of five, the SSSE3
	// code (xmm registers: one block in one row set; five as a 4-lane
	// batch and one row) over the AVX2 code, whose ymm registers compute
	// two blocks and eight for them. It is set on AMD Zen 1, which splits
	// every 256-bit instruction into two 128-bit halves: there the unused
	// lanes cost as much as used ones (bench/README.md, "AMD EPYC Zen 1").
	// Like RowProld it is a choice within the AVX2 path, and it makes
	// chacha20core.LoneBlocks 1. HChaCha20 then runs in one xmm row set
	// too (160 -> 124 ns there), and XChaCha20-Poly1305 derives its subkey
	// that way before the small kernels (3-7% faster at 64-256 bytes).
	XMMBlocks bool
}

// X86ChaCha20For returns the keystream routing of core c.
func X86ChaCha20For(c X86Core) X86ChaCha20 {
	a := X86AEADFor(c)
	return X86ChaCha20{
		RowProld:        a.Prold && a.ProldMin <= 64,
		RowsZ2:          c == IntelSapphireRapids,
		RowsY:           c == AMDZen4,
		HChaCha20Scalar: zen5(c),
		BlockScalar:     zen5(c),
		Lanes2:          c == AMDZen5Wide,
		XMMBlocks:       c == AMDZen1,
	}
}

// zen5 reports whether c is AMD Zen 5 with either execution of 512-bit
// instructions: the rows measured before the two were told apart hold for
// both.
func zen5(c X86Core) bool { return c == AMDZen5 || c == AMDZen5Wide }

// X86Poly1305 is how the amd64 Poly1305 of the separate passes differs
// between cores (internal/poly1305 reads it once); the AEAD kernels carry
// their own MAC code.
type X86Poly1305 struct {
	// AVX2Min is the shortest input the AVX2 function takes while the
	// scalar assembly is on too: 0 where the AVX2 function's own
	// threshold decides, 8192 on AMD Zen 1, whose double-pumped ymm lanes
	// lose to the integer units below 8 KiB (BenchmarkBlocks there,
	// integer units against AVX2: 320 bytes 164 against 300 ns, 4 KiB 2.08
	// against 2.11 µs, 8 KiB 4.15 against 4.09, 16 KiB 8.39 against 8.04).
	AVX2Min int
}

// X86Poly1305For returns the Poly1305 routing of core c.
func X86Poly1305For(c X86Core) X86Poly1305 {
	if c == AMDZen1 {
		return X86Poly1305{AVX2Min: 8192}
	}
	return X86Poly1305{}
}

// X86IFMAMin returns the shortest message whose ChaCha20-Poly1305 Seal or
// Open runs AVX-512 IFMA code by default on x: 0 (wherever the kernels
// reach) except on Intel's cores, 8 KiB. There a Seal or Open of a packet's
// length with the MAC in IFMA lanes slows the integer code that runs after
// it for tens of microseconds, by more than it saves, while the same
// operation with zmm ChaCha20 and the MAC on the integer units leaves no
// such cost; from 8 KiB (TLS records, age's chunks) the IFMA loop still wins
// inside the programs measured (bench/README.md, "In context"). A vendor
// exception to routing by features; the IFMA code stays available to be
// forced by name.
func X86IFMAMin(x X86) int {
	if x.Vendor == "GenuineIntel" {
		return 8 << 10
	}
	return 0
}

// X86AEADFor returns the AEAD routing of core c. Only measured cores have
// rows; every other core keeps the routing measured on Zen 5, where the
// kernels were written (bench/README.md has the measurements per CPU).
func X86AEADFor(c X86Core) X86AEAD {
	switch c {
	case IntelSapphireRapids:
		return X86AEAD{SmallMax: 192, SmallMaxAVX2: 448, Prold: true, LoopIFMA: true}
	case AMDZen5:
		return X86AEAD{SmallMax: 192, SmallMaxAVX2: 448, KeyScalar: true}
	case AMDZen5Wide:
		return X86AEAD{SmallMax: 192, SmallMaxAVX2: 448, Prold: true, KeyScalar: true, OpenKeyFirst: true, SealHandoff: true, BatchWide: true}
	case AMDZen4:
		return X86AEAD{SmallMax: 448, SmallMaxAVX2: 448, OpenFirstMin: 321, Prold: true, ProldMin: 65}
	case AMDZen1:
		return X86AEAD{SmallMax: 448, SmallMaxAVX2: 448, BatchLoop: true}
	}
	return X86AEAD{SmallMax: 192, SmallMaxAVX2: 448, OpenFirstMin: 321}
}
