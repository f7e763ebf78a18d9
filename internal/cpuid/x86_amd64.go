//go:build gc && !purego

package cpuid

//go:generate go run -C ../../_asm . -gen cpuid -out ../internal/cpuid/cpuid_amd64.s -pkg cpuid

func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

// ReadX86 returns what CPUID leaves 0, 1 and 7 say about this processor,
// and true.
func ReadX86() (X86, bool) {
	maxLeaf, ebx, ecx, edx := cpuid(0, 0)
	var eax1, edx7 uint32
	if maxLeaf >= 1 {
		eax1, _, _, _ = cpuid(1, 0)
	}
	if maxLeaf >= 7 {
		_, _, _, edx7 = cpuid(7, 0)
	}
	return DecodeX86(ebx, edx, ecx, eax1, edx7), true
}
