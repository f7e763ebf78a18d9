//go:build !amd64 || !gc || purego

package chacha20core

// laneBlocks2 is the dispatcher of LaneBlocks2: without an interleaved
// path, two LaneBlocks calls.
func laneBlocks2(l *[2]LaneSet, out *[2 * Lanes][BlockSize]byte) { laneBlocks2Generic(l, out) }

func laneBlocks2Fast() bool { return false }

func setRun(l *LaneSet, j, k int, counter uint32, nonce *[3]uint32) {
	setRunGeneric(l, j, k, counter, nonce)
}
