//go:build gc && !purego

package cpuid

import "bytes"

//go:generate go run -C ../../_asm . -gen cpuid -out ../internal/cpuid/cpuid_amd64.s -pkg cpuid

func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

// x86 is what ReadX86 returns, read once: under a hypervisor each CPUID
// instruction is a VM exit, and the packages' routing variables ask for it
// a dozen times at init.
var x86 = readX86()

// ReadX86 returns what CPUID leaves 0, 1 and 7 say about this processor,
// and true.
func ReadX86() (X86, bool) { return x86, true }

func readX86() X86 {
	maxLeaf, ebx, ecx, edx := cpuid(0, 0)
	var eax1, edx7 uint32
	if maxLeaf >= 1 {
		eax1, _, _, _ = cpuid(1, 0)
	}
	if maxLeaf >= 7 {
		_, _, _, edx7 = cpuid(7, 0)
	}
	x := DecodeX86(ebx, edx, ecx, eax1, edx7)
	x.FP512 = X86PerfIDs()&FP512 != 0 && x.Vendor == "AuthenticAMD"
	return x
}

// X86PerfIDs returns AMD's performance optimization identifiers, CPUID
// Fn8000_001A_EAX, or 0 where the leaf does not exist.
func X86PerfIDs() uint32 {
	if max, _, _, _ := cpuid(0x80000000, 0); max < 0x8000001a {
		return 0
	}
	eax, _, _, _ := cpuid(0x8000001a, 0)
	return eax
}

// X86Brand returns the processor's brand string (CPUID leaves 80000002H
// to 80000004H) and, when leaf 1 sets the hypervisor bit, the hypervisor's
// vendor string (leaf 40000000H), for reports such as go run ./bench: a
// virtual CPU may report another machine's family and model.
func X86Brand() (brand, hypervisor string) {
	if max, _, _, _ := cpuid(0x80000000, 0); max >= 0x80000004 {
		var b []byte
		for leaf := uint32(0x80000002); leaf <= 0x80000004; leaf++ {
			a, bx, c, d := cpuid(leaf, 0)
			b = appendWords(b, a, bx, c, d)
		}
		brand = trimBrand(b)
	}
	if _, _, ecx1, _ := cpuid(1, 0); ecx1&(1<<31) != 0 {
		_, bx, c, d := cpuid(0x40000000, 0)
		hypervisor = trimBrand(appendWords(nil, bx, c, d))
	}
	return brand, hypervisor
}

// appendWords appends the little-endian bytes of the words to b.
func appendWords(b []byte, words ...uint32) []byte {
	for _, w := range words {
		b = append(b, byte(w), byte(w>>8), byte(w>>16), byte(w>>24))
	}
	return b
}

// trimBrand returns the CPUID string in b up to its first NUL byte,
// without surrounding spaces.
func trimBrand(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(bytes.TrimSpace(b))
}
