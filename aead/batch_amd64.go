//go:build gc && !purego

package aead

import (
	"github.com/chachakit/chachakit/internal/aeadasm"
	"github.com/chachakit/chachakit/internal/chacha20core"
	"github.com/chachakit/chachakit/internal/poly1305"
)

// laneMax on amd64: a key block and four blocks of text. Up to 256 bytes
// three or more messages share a 16-lane AVX-512 pass (two 8-lane AVX2
// passes) and the batch beats the loop of calls; from 320 bytes only two
// do, and a message's own call, whose keystream takes about half a pass,
// is as fast or faster (bench/README.md, "Batches", the 320-byte rows with
// AVX-512 and with AVX2).
const laneMax = 4 * 64

// batchLoop makes the batches a loop of single calls on this core
// (internal/cpuid's X86AEAD.BatchLoop).
var batchLoop = x86AEAD().BatchLoop

// batchKernel reports whether the groups give their ChaCha20-Poly1305
// messages of up to 64 bytes (kernelMessage) to aeadasm's batch kernel:
// eight messages' blocks in one 16-lane pass, their tags in IFMA lanes
// and nothing of either in Go (AVX-512BW and IFMA).
func batchKernel() bool { return aeadasm.Available().Has(aeadasm.LanesAVX512) }

// kernelMin is the fewest messages a kernel call takes: its cost is about
// that of two or three 64-byte Seals whatever the count, so it beats the
// messages' own calls from three messages on and a group with fewer gives
// them their own calls (bench/README.md, "Batches", the kernel rows of two
// and three messages).
const kernelMin = 3

// batchWide gives a batch's messages of laneMax+1 to longMax bytes to the
// long group on this core (internal/cpuid's X86AEAD.BatchWide).
var batchWide = x86AEAD().BatchWide

// lanes2MACChunk and lanes2MACMax are aeadasm.LaneBlocks2MAC's.
const (
	lanes2MACChunk = aeadasm.Lanes2MACChunk
	lanes2MACMax   = aeadasm.Lanes2MACMax
)

// lanes2MAC is aeadasm.LaneBlocks2MAC where it runs, else its reference.
func lanes2MAC(l *[2]chacha20core.LaneSet, out *[2 * chacha20core.Lanes][chacha20core.BlockSize]byte, a, b *poly1305.MAC, ma, mb []byte) {
	if aeadasm.Available().Has(aeadasm.Lanes2MAC) {
		aeadasm.LaneBlocks2MAC(l, out, a, b, ma, mb)
		return
	}
	lanes2MACGeneric(l, out, a, b, ma, mb)
}
