//go:build gc && !purego

package chacha20core

// laneBlocksNEON computes four lanes per pass (lanes_arm64.s).
//
//go:noescape
func laneBlocksNEON(l *LaneSet, out *[Lanes][BlockSize]byte, n int)

// laneBlocks is the dispatcher of LaneBlocks: the NEON passes with the NEON
// keystream (useNEON4x1, which forcing a path switches like the rest of
// it), else the portable code.
func laneBlocks(l *LaneSet, out *[Lanes][BlockSize]byte, n int) {
	if useNEON4x1 {
		laneBlocksNEON(l, out, n)
	} else {
		laneBlocksGeneric(l, out, n)
	}
}

func laneBlocksFast() bool { return useNEON4x1 }
