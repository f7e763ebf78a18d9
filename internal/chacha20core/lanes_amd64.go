//go:build gc && !purego

package chacha20core

// laneBlocks is the dispatcher of LaneBlocks. The vector paths are to come;
// until then, the portable code.
func laneBlocks(l *LaneSet, out *[Lanes][BlockSize]byte, n int) { laneBlocksGeneric(l, out, n) }

func laneBlocksFast() bool { return false }
