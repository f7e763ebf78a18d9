//go:build gc && !purego

package chacha20core

import (
	"github.com/chachakit/chachakit/internal/impl"
	"golang.org/x/sys/unix"
)

// The ppc64le keystream paths (chacha20_ppc64le.s): four blocks per
// iteration and one at a time for the last one to three. VSX needs only
// the POWER8 instruction set, which Go's ppc64le port requires, so it is
// always available. VSXPaired is the same code with the four-block loop's
// message loads and stores done 32 bytes at a time by the POWER10
// instructions LXVP and STXVP, which saves 16 of its about 860 instructions.
// The dispatcher takes the first enabled one in the order they are
// registered.
var (
	useVSXPaired = isPOWER10()
	useVSX       = true
)

// isPOWER10 reports whether the CPU implements Power ISA 3.1 (POWER10), from
// the kernel's AT_HWCAP2 bit PPC_FEATURE2_ARCH_3_1. golang.org/x/sys/cpu has
// the same bit as PPC64.IsPOWER10 only from versions that require Go 1.26,
// above this module's go line.
func isPOWER10() bool {
	const (
		atHWCAP2       = 26
		featureArch3_1 = 0x00040000
	)
	auxv, _ := unix.Auxv()
	for _, kv := range auxv {
		if kv[0] == atHWCAP2 {
			return kv[1]&featureArch3_1 != 0
		}
	}
	return false
}

func init() {
	impl.Register("chacha20", "VSXPaired", &useVSXPaired)
	impl.Register("chacha20", "VSX", &useVSX)
}

// xorBlocksVSX XORs 64*blocks bytes of src with the keystream blocks
// s.Counter, s.Counter+1, ... (mod 2^32) into dst (dst is src or does not
// overlap it) and advances s.Counter by blocks. blocks >= 1. paired
// selects the four-block loop of VSXPaired, which needs POWER10.
//
//go:noescape
func xorBlocksVSX(s *State, dst, src *byte, blocks int, paired bool)

// xorBlocks is the dispatcher. Both paths are the one assembly function.
func xorBlocks(s *State, dst, src []byte) {
	if useVSXPaired || useVSX {
		if n := len(src) / BlockSize; n > 0 {
			xorBlocksVSX(s, &dst[0], &src[0], n, useVSXPaired)
		}
	} else {
		xorBlocksGeneric(s, dst, src)
	}
}
