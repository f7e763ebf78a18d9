//go:build !(amd64 || arm64 || loong64 || ppc64le || riscv64 || s390x) || !gc || purego

package chacha20core

// xorBlocks is the dispatcher: without keystream assembly it is the
// portable code.
func xorBlocks(s *State, dst, src []byte) { xorBlocksGeneric(s, dst, src) }
