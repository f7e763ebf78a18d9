//go:build gc && !purego

package aeadasm

import (
	"github.com/chachakit/chachakit/internal/chacha20core"
	"github.com/chachakit/chachakit/internal/poly1305"
)

//go:generate go run -C ../../_asm . -gen lanesaead -out ../internal/aeadasm/lanes_amd64.s -pkg aeadasm

// sealLanesAVX512 and openLanesAVX512 (lanes_amd64.s, _asm/lanes_aead.go):
// the count messages of l under key, in one 16-lane batch of key and text
// blocks and eight IFMA lanes of MACs; adBlocks and ctBlocks are the most
// 16-byte blocks of additional data and of text of any message. Each
// message's output text goes to l.Out and its tag to l.Tags.
//
//go:noescape
func sealLanesAVX512(key *[32]byte, l *Lanes, count, adBlocks, ctBlocks int)

//go:noescape
func openLanesAVX512(key *[32]byte, l *Lanes, count, adBlocks, ctBlocks int)

// SealLanes seals the messages of l (at least one) under key, as Seal would
// each: message i's ciphertext goes to l.Out[i] and its tag to l.Tags[i].
// LanesAVX512 must be available.
func SealLanes(key *[32]byte, l *Lanes) {
	sealLanesAVX512(key, l, l.checkCount(), blocks(l.adMax), blocks(l.textMax))
}

// OpenLanes decrypts the messages of l (at least one) under key into l.Out
// and puts the tag each ciphertext should have in l.Tags: the caller
// compares it with the message's tag and copies out only the plaintexts
// whose tags match, and wipes l.Out. LanesAVX512 must be available.
func OpenLanes(key *[32]byte, l *Lanes) {
	openLanesAVX512(key, l, l.checkCount(), blocks(l.adMax), blocks(l.textMax))
}

func (l *Lanes) checkCount() int {
	if l.count < 1 || l.count > LanesMax {
		panic("chacha20poly1305: internal error: bad message count for the batch kernel")
	}
	return l.count
}

// blocks is the number of 16-byte blocks of n bytes.
func blocks(n int) int { return (n + 15) / 16 }

// laneBlocks2MACAVX512 (lanes_amd64.s, _asm/lanes2_mac.go) computes the
// keystream blocks of the 32 lanes of l into out, and in its first iters
// double rounds absorbs lanes2MACChunk bytes from macA into the
// accumulator hA (multiplier rA) and as many from macB into hB (rB) each.
//
//go:noescape
func laneBlocks2MACAVX512(l *[2]chacha20core.LaneSet, out *[2 * chacha20core.Lanes][chacha20core.BlockSize]byte, iters int,
	macA *byte, hA *[3]uint64, rA *[2]uint64, macB *byte, hB *[3]uint64, rB *[2]uint64)

// Lanes2MACChunk is what LaneBlocks2MAC absorbs into each MAC per double
// round: four 16-byte blocks.
const Lanes2MACChunk = 64

// Lanes2MACMax is the most LaneBlocks2MAC absorbs into each MAC: ten
// double rounds' chunks.
const Lanes2MACMax = 10 * Lanes2MACChunk

// LaneBlocks2MAC computes chacha20core.LaneBlocks2(l, out), and beside it
// on the integer units absorbs ma into a and mb into b, as their Write
// would: len(ma) == len(mb), a multiple of Lanes2MACChunk up to
// Lanes2MACMax. Neither MAC may have a partial block buffered. Lanes2MAC
// must be available.
func LaneBlocks2MAC(l *[2]chacha20core.LaneSet, out *[2 * chacha20core.Lanes][chacha20core.BlockSize]byte, a, b *poly1305.MAC, ma, mb []byte) {
	iters := len(ma) / Lanes2MACChunk
	if len(mb) != len(ma) || iters*Lanes2MACChunk != len(ma) || iters > Lanes2MACMax/Lanes2MACChunk {
		panic("chacha20poly1305: internal error: bad MAC lengths for LaneBlocks2MAC")
	}
	ha, ra := a.Accumulator()
	hb, rb := b.Accumulator()
	var pa, pb *byte
	if iters > 0 {
		pa, pb = &ma[0], &mb[0]
	}
	laneBlocks2MACAVX512(l, out, iters, pa, ha, ra, pb, hb, rb)
}
