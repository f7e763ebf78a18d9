//go:build !(amd64 || arm64) || !gc || purego

package chacha20core

// laneBlocks is the dispatcher: without a vector path for lanes, the
// portable code.
func laneBlocks(l *LaneSet, out *[Lanes][BlockSize]byte, n int) { laneBlocksGeneric(l, out, n) }

func laneBlocksFast() bool { return false }
