//go:build !(amd64 || arm64) || !gc || purego

package aead

// laneMax elsewhere: the lanes are the portable code, used in tests only
// (forceLanes); the amd64 limit, so that the groups are tested alike.
const laneMax = 4 * 64

// batchLoop: no core here prefers the loop where the lanes are fast.
const batchLoop = false

// batchKernel: the batch kernel is amd64's.
func batchKernel() bool { return false }

const kernelMin = 1

// batchWide: the long group's LaneBlocks2 interleaves only on amd64.
const batchWide = false
