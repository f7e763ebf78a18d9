package main

import (
	"fmt"

	"github.com/chachakit/chachakit/internal/aeadasm"
	"github.com/chachakit/chachakit/internal/chacha20core"
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
// library takes it for, and the AEAD routing that core gets.
func cpuDetails() map[string]string {
	x, _ := cpuid.ReadX86()
	c := x.Core()
	r := cpuid.X86AEADFor(c)
	k := cpuid.X86ChaCha20For(c)
	h := "in the row code's vector registers"
	if k.HChaCha20Scalar {
		h = "by the portable code's scalar rounds, before the AEAD kernels"
	} else if k.XMMBlocks && !cpu.X86.HasAVX512F {
		h = "in one xmm row set, before the small AEAD kernels"
	}
	ks := ""
	if r.KeyScalar && !(r.Prold && r.ProldMin == 0) {
		ks = " (up to 64 bytes with the key block in general-purpose registers too)"
	}
	switch {
	case r.OpenKeyFirst && r.SealHandoff:
		ks += " (up to 64 bytes the key block first in general-purpose registers: an Open's MAC during the rest of the rounds, a Seal's message block ending its rounds there too)"
	case r.OpenKeyFirst:
		ks += " (Opens up to 64 bytes: the key block first in general-purpose registers, the MAC during the rest of the rounds)"
	case r.SealHandoff:
		ks += " (Seals up to 64 bytes: the key block first in general-purpose registers, the message block ending its rounds there too)"
	}
	if r.SmallMax > aeadasm.SmallMax {
		ks = fmt.Sprintf(" (from %d bytes: AVX-512, the key block and the message in an 8-lane ymm batch, with IFMA the MAC in IFMA lanes from 257; AVX2, three ymm row sets, four from %d)", aeadasm.SmallMax+1, 5*64+1)
	}
	b := "in the row code (two for the price of one)"
	if k.BlockScalar {
		b = "in general-purpose registers, and a cipher's first call takes one block"
	}
	z2 := "an 8-lane ymm batch"
	if k.RowsZ2 {
		z2 = "two zmm row sets"
	}
	y := "one zmm row set"
	if k.RowsY {
		y = "two ymm row sets"
	}
	wide := "17 at a time (16 zmm lanes and one block on the integer units)"
	if k.Lanes2 {
		wide = "from 18 blocks on, 32 at a time in two interleaved 16-lane zmm batches (a last pass for a rest of 18 or more, the 16+1 batch for less)"
	}
	rounds := map[bool]string{false: "shift-pair rotation", true: "VPROLD"}[r.Prold]
	if r.Prold && r.ProldMin > 0 {
		rounds = fmt.Sprintf("shift-pair rotation rounds below %d bytes and VPROLD", r.ProldMin)
	}
	if k.XMMBlocks && !k.BlockScalar {
		b = "in the SSSE3 code's xmm registers, and a cipher's first call takes one block"
		z2 = "xmm registers for five (SSSE3's 4-lane batch and a row), an 8-lane ymm batch for six to eight"
	}
	short := ", the short path above them up to 448 bytes"
	if r.SmallMax >= 448 {
		short = ""
	}
	mid := "no mid-size kernel"
	switch set := aeadasm.Available(); {
	case set.Has(aeadasm.MidAVX512):
		mid = fmt.Sprintf("%d-960 bytes (additional data up to 256) and %d-%d (up to 512): the mid-size kernel, two keystream batches and the MAC in IFMA lanes in one call (an Open in place through a copy of the ciphertext)",
			aeadasm.MidAVX512Min, aeadasm.MidAVX512SmallMax+1, aeadasm.MidAVX512Max)
	case set.Has(aeadasm.MidAVX2):
		mid = "from 449 bytes: the mid-size AVX2 kernel for every Seal and for the Opens below 8 KiB that the key-first kernel below does not take, except those 0-63 bytes past a multiple of 1 KiB from 1 KiB on"
	}
	avx2 := fmt.Sprintf("with the AVX2 kernels, small kernels up to %d bytes", r.SmallMaxAVX2)
	if r.KeyScalar {
		avx2 += " (up to 64 bytes with the key block in general-purpose registers too"
		if r.OpenKeyFirst {
			avx2 += ", for Opens first, and the MAC during the rest of the rounds"
		}
		if r.SealHandoff {
			avx2 += ", for Seals first, and the message block's last rounds there too"
		}
		avx2 += ")"
	}
	if r.OpenFirstMin > 0 {
		avx2 += fmt.Sprintf(" and Opens of %d-%d bytes the key block first, then the MAC beside the rounds of the rest (from 961 bytes to 8 KiB, where that takes fewer batches than the mid-size kernel or from 1760 bytes, the key block first and each batch MACing its own ciphertext)", r.OpenFirstMin, aeadasm.OpenFirstAVX2Max)
	}
	mac := "Poly1305 of the separate passes: the widest vector path"
	if m := cpuid.X86Poly1305For(c).AVX2Min; m > 0 {
		mac = fmt.Sprintf("Poly1305 of the separate passes: AVX2 lanes from %d bytes, the integer units below", m)
	}
	if r.BatchWide && chacha20core.LaneBlocks2Fast() {
		mac += "; aead.Batch: messages of 257-1536 bytes share 32-lane keystream passes of two interleaved zmm batches, two Poly1305 chains on the integer units beside each"
	}
	// The small kernels' rounds, the layout of five to eight blocks and the
	// stitched loop's MAC are choices among AVX-512 kernels: with AVX-512
	// off (GODEBUG) the AVX2 kernels run instead, and the route line says
	// so.
	off := ""
	if !cpu.X86.HasAVX512F || !cpu.X86.HasAVX512BW || !cpu.X86.HasAVX512VL {
		off = "AVX-512 off, so the AVX2 kernels run, and the choices among AVX-512 kernels below (rounds, zmm row sets, IFMA) do not apply: "
	}
	return map[string]string{
		"cpuid": fmt.Sprintf("%s family %#x model %#x stepping %d, AMX %v%s%s", x.Vendor, x.Family, x.Model, x.Stepping, x.AMX, perfIDs(x), brand()),
		"core":  c.String(),
		"route": off + fmt.Sprintf("AEAD small kernels up to %d bytes with %s rounds%s%s; %s; %s; three or four keystream blocks in %s, five to eight in %s, long keystreams %s; long messages: the stitched loop with the MAC %s, its tail's keystream (up to 960 bytes, 192 with AVX2) computed with the key block; XChaCha20's subkey %s; a lone keystream block %s; %s (the core's rows of internal/cpuid's X86AEADFor, X86ChaCha20For and X86Poly1305For)",
			r.SmallMax, rounds, ks, short, mid, avx2, y, z2, wide,
			map[bool]string{false: "on the integer units", true: "in IFMA lanes from 8 KiB"}[r.LoopIFMA], h, b, mac),
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
	x, _ := cpuid.ReadX86()
	c := x.Core()
	switch {
	case pkg == "aead" && selected != "Go":
		return "the fastest here, size limits tuned for the core above"
	case pkg == "poly1305" && selected == "AVX2" && cpuid.X86Poly1305For(c).AVX2Min > 0:
		return fmt.Sprintf("the fastest here; on this core vector lanes only from %d bytes", cpuid.X86Poly1305For(c).AVX2Min)
	}
	return ""
}
