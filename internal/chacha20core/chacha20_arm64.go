//go:build gc && !purego

package chacha20core

// xorBlocks is the dispatcher. Keystream assembly for this architecture
// replaces this file with a chain of if statements over its registered
// toggles that ends in xorBlocksGeneric; until then it is the portable code.
func xorBlocks(s *State, dst, src []byte) { xorBlocksGeneric(s, dst, src) }
