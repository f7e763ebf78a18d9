package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/chachakit/chachakit/internal/impl"
	"github.com/chachakit/chachakit/internal/xorbytes"
)

// A family is one kind of operation as a user sees it, and the registry
// package whose selection decides its path.
type family struct {
	label string // printed at the start of the line
	pkg   string // the registry's package name
}

// families are printed in this order, each on one line; a package that is
// neither here nor registered prints nothing.
var families = []family{
	{"AEAD", "aead"},
	{"ChaCha20", "chacha20"},
	{"Poly1305", "poly1305"},
	{"XOR", "subtle"},
	{"Wipe", "memclr"},
}

// pathWords says what each registered path is, in words a user understands;
// the key is "pkg/Name". A path missing here prints its registry name.
var pathWords = map[string]string{
	"aead/AVX512Stitched": "one-pass AVX-512 assembly",
	"aead/AVX2Stitched":   "one-pass AVX2 assembly",
	"aead/NEONStitched":   "one-pass NEON assembly",
	"aead/SVE2Stitched":   "one-pass SVE2 assembly",
	"aead/Go":             "separate ChaCha20 and Poly1305 passes",

	"chacha20/AVX512":    "AVX-512 assembly, 16 blocks per pass",
	"chacha20/AVX2":      "AVX2 assembly, 8 blocks per pass",
	"chacha20/SSSE3":     "SSSE3 assembly, 4 blocks per pass",
	"chacha20/NEON6x2":   "NEON assembly, 6 vector + 2 scalar blocks a pass",
	"chacha20/NEON4x1":   "NEON assembly, 4 vector and 1 scalar block per pass",
	"chacha20/LASXFused": "LASX assembly, XOR inside the keystream loop",
	"chacha20/LASX":      "LASX assembly, then a separate XOR",
	"chacha20/LSXFused":  "LSX assembly, XOR inside the keystream loop",
	"chacha20/LSX":       "LSX assembly, then a separate XOR",
	"chacha20/RVV":       "RISC-V vector assembly",
	"chacha20/VSXPaired": "POWER10 paired-vector assembly",
	"chacha20/VSX":       "VSX vector assembly",
	"chacha20/VX":        "z/Architecture vector assembly",
	"chacha20/Go":        "portable Go",

	"poly1305/AVX2":     "AVX2 assembly, 4 blocks per step",
	"poly1305/Scalar":   "64-bit integer assembly",
	"poly1305/Scalar64": "64-bit integer assembly",
	"poly1305/NEON":     "NEON assembly for long inputs, 64-bit integer below",
	"poly1305/Go":       "portable Go",

	"subtle/NEON":   "NEON assembly",
	"subtle/LASX":   "LASX assembly",
	"subtle/LSX":    "LSX assembly",
	"subtle/RVV":    "RISC-V vector assembly",
	"subtle/Scalar": "scalar assembly",
	"subtle/Go":     "portable Go, a word at a time",

	"memclr/RV64Unrolled": "unrolled riscv64 assembly the compiler cannot remove",
	"memclr/Go":           "clear(), which the compiler cannot remove",
}

// pathLines returns one line per operation family: the path this process
// runs and why, each about 100 characters. The registry names and every
// per-length detail are -v's.
func pathLines(p platform, sel []selection) []string {
	var lines []string
	for _, f := range families {
		s := selection{Package: f.pkg, Selected: impl.Portable}
		if i := slices.IndexFunc(sel, func(s selection) bool { return s.Package == f.pkg }); i >= 0 {
			s = sel[i]
		}
		what := pathWords[s.Package+"/"+s.Selected]
		if what == "" {
			what = s.Selected
		}
		why := pathReason(p, s)
		if f.pkg == "subtle" && xorbytes.Std {
			// amd64: XORBytes is the standard library's, registering nothing.
			what, why = "the standard library's crypto/subtle.XORBytes", "chachakit has no XOR assembly of its own for "+p.GOARCH
		}
		if f.pkg == "aead" && s.Selected != impl.Portable && (!impl.AtDefault("chacha20") || !impl.AtDefault("poly1305")) {
			// The one-pass kernels carry their own ChaCha20 and Poly1305
			// and run only when neither is forced (impl.AtDefault).
			what, why = pathWords["aead/Go"], "a forced ChaCha20 or Poly1305 path turns the one-pass code off"
		}
		lines = append(lines, fmt.Sprintf("%-10s %s: %s", f.label+":", what, why))
	}
	return lines
}

// pathReason says why the selection is what it is, most specific first: a
// forced path, a build without assembly, an architecture without any, the
// best left after the CPU or GODEBUG took the faster ones away, a choice
// the CPU's family makes (archReason), or the best path the CPU has.
func pathReason(p platform, s selection) string {
	var better, passed []string
	registered := false
	for _, i := range s.Implementations {
		if i.Name == impl.Portable {
			continue
		}
		registered = true
		if i.Name == s.Selected {
			break
		}
		if n := featureWord(i.Name); !i.Available && !slices.Contains(better, n) {
			better = append(better, n)
		} else if i.Available {
			passed = append(passed, n)
		}
	}
	switch {
	case registered && !impl.AtDefault(s.Package):
		return "forced (-impl or CHACHAKIT_IMPL)"
	case slices.Contains(strings.Split(p.Build["-tags"], ","), "purego"):
		return "built with -tags purego, so no assembly"
	case !registered:
		return "no assembly for " + p.GOARCH
	}
	if len(better) > 0 {
		why := "the CPU lacks"
		if strings.Contains(os.Getenv("GODEBUG"), "cpu.") {
			why = "the CPU or GODEBUG rules out"
		}
		return fmt.Sprintf("fastest left; %s %s", why, strings.Join(better, ", "))
	}
	if r := archReason(s.Package, s.Selected); r != "" {
		return r
	}
	if len(passed) > 0 {
		// Available but off by default, for a reason archReason does not
		// name: a choice by CPU family (internal/cpuid's tables).
		return fmt.Sprintf("%s left off on this CPU family (slower in context)", strings.Join(passed, ", "))
	}
	return "the fastest path this CPU has"
}

// featureWord turns a registry name into the instruction set it needs, as
// a user would write it: AVX512Stitched and AVX512 are "AVX-512".
func featureWord(name string) string {
	for _, suffix := range []string{"Stitched", "Fused", "4x1", "6x2", "Paired"} {
		name = strings.TrimSuffix(name, suffix)
	}
	if rest, ok := strings.CutPrefix(name, "AVX512"); ok {
		return strings.TrimSpace("AVX-512 " + rest)
	}
	return name
}
