package aead

import (
	"github.com/chachakit/chachakit/internal/chacha20core"
	"github.com/chachakit/chachakit/internal/poly1305"
)

// The long group's MAC chunks.
const (
	lanes2MACChunk = 64
	lanes2MACMax   = 10 * lanes2MACChunk
)

// lanes2MAC is the two MACs' Write beside LaneBlocks2 (lanes2MACGeneric).
func lanes2MAC(l *[2]chacha20core.LaneSet, out *[2 * chacha20core.Lanes][chacha20core.BlockSize]byte, a, b *poly1305.MAC, ma, mb []byte) {
	lanes2MACGeneric(l, out, a, b, ma, mb)
}
