//go:build gc && !purego

package aead

// laneMax on arm64: a key block and two blocks of text. A NEON pass computes
// four lanes in about the time of one NEON4x1 iteration, which makes five
// consecutive blocks of one message, so the lanes only pay for messages
// of up to three blocks with their key block (bench/README.md, "Batches").
const laneMax = 2 * 64

// batchLoop: no core here prefers the loop where the lanes are fast.
const batchLoop = false

// batchKernel: the batch kernel is amd64's.
func batchKernel() bool { return false }

const kernelMin = 1

// batchWide: the long group's LaneBlocks2 interleaves only on amd64.
const batchWide = false
