//go:build !amd64 || !gc || purego

package chacha20core

// thenFused reports whether a path here computes XORBlocksThen's two parts
// in one engine call: none does.
const thenFused = false

// xorBlocksThen is never called here (thenFused).
func xorBlocksThen(s *State, dst, src, buf []byte) {
	xorBlocks(s, dst, src)
	xorBlocks(s, buf, buf)
}
