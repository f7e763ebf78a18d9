//go:build gc && !purego

package aead

import (
	"github.com/chachakit/chachakit/internal/chacha20core"
	"github.com/chachakit/chachakit/internal/poly1305"
)

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

// The long group's MAC chunks, as on amd64 (lanes2MAC).
const (
	lanes2MACChunk = 64
	lanes2MACMax   = 10 * lanes2MACChunk
)

// lanes2MAC is the reference of amd64's aeadasm.LaneBlocks2MAC.
func lanes2MAC(l *[2]chacha20core.LaneSet, out *[2 * chacha20core.Lanes][chacha20core.BlockSize]byte, a, b *poly1305.MAC, ma, mb []byte) {
	lanes2MACGeneric(l, out, a, b, ma, mb)
}
