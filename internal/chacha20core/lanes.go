package chacha20core

import (
	"unsafe"

	"github.com/chachakit/chachakit/internal/wipe"
)

// Lanes is the most independent blocks one LaneBlocks call computes: the
// sixteen 32-bit lanes of an AVX-512 register.
const Lanes = 16

// A LaneSet is the input of up to Lanes independent ChaCha20 blocks, each
// with its own key, counter and nonce: the blocks of several messages, or
// of several QUIC header-protection samples, computed side by side.
//
// It is stored word by word, as the vector paths compute: W[j][i] is word
// 4+j of lane i's input matrix (RFC 8439, Section 2.3: words 4..11 the key,
// 12 the block counter, 13..15 the nonce), so a vector path loads each word
// of every lane with one instruction and no transposition. A batch that
// shares one key writes it into each lane once (SetKey) and then only the
// counter and nonce (SetBlock) of each block.
type LaneSet struct {
	W [12][Lanes]uint32
}

// SetKey sets the key words of lane i.
func (l *LaneSet) SetKey(i int, key *[8]uint32) {
	for j, w := range key {
		l.W[j][i] = w
	}
}

// SetBlock sets the counter and nonce of lane i.
func (l *LaneSet) SetBlock(i int, counter uint32, nonce *[3]uint32) {
	l.W[8][i] = counter
	l.W[9][i] = nonce[0]
	l.W[10][i] = nonce[1]
	l.W[11][i] = nonce[2]
}

// Wipe zeroes the LaneSet, whose lanes hold keys, in a way the compiler
// cannot remove.
func (l *LaneSet) Wipe() {
	wipe.Memclr(unsafe.Slice((*byte)(unsafe.Pointer(l)), unsafe.Sizeof(*l)))
}

// LaneBlocks writes the keystream block of lane i of l to out[i], for every
// i < n (0 < n <= Lanes). It may write keystream into out[n:] too: the
// caller wipes all of out, as it wipes any keystream.
func LaneBlocks(l *LaneSet, out *[Lanes][BlockSize]byte, n int) {
	if n <= 0 || n > Lanes {
		panic("chacha20: internal error: bad lane count")
	}
	laneBlocks(l, out, n)
}

// LaneBlocksFast reports whether LaneBlocks runs a vector path, which
// computes its lanes in about the time of one block, so that batching
// blocks of different messages pays. Without one it is the portable block
// function in a loop, no faster than each message's own call.
func LaneBlocksFast() bool { return laneBlocksFast() }

// laneBlocksGeneric is the reference of the vector paths: lane by lane,
// the portable block function.
func laneBlocksGeneric(l *LaneSet, out *[Lanes][BlockSize]byte, n int) {
	var s State
	for i := range n {
		for j := range s.Key {
			s.Key[j] = l.W[j][i]
		}
		s.Counter = l.W[8][i]
		s.Nonce = [3]uint32{l.W[9][i], l.W[10][i], l.W[11][i]}
		s.first = firstCache{}
		blockGeneric(&s, &out[i])
	}
	s.Wipe()
}

// LaneBlocks2 writes the keystream blocks of the 2*Lanes lanes of l[0] and
// l[1] to out, lane i of l[1] to out[Lanes+i]: two LaneBlocks calls of
// Lanes lanes.
func LaneBlocks2(l *[2]LaneSet, out *[2 * Lanes][BlockSize]byte) {
	laneBlocks(&l[0], (*[Lanes][BlockSize]byte)(out[:Lanes]), Lanes)
	laneBlocks(&l[1], (*[Lanes][BlockSize]byte)(out[Lanes:]), Lanes)
}

// LaneBlocks2Fast reports whether LaneBlocks2 takes less time than two
// LaneBlocks calls: no path interleaves the two batches, so never.
func LaneBlocks2Fast() bool { return false }

// SetRun sets the counters and nonce of the k lanes j, j+1, ..., j+k-1 of
// l (0 <= j, 0 < k, j+k <= Lanes): counter, counter+1, ... (modulo 2^32)
// and nonce, as SetBlock would lane by lane. A message's blocks in
// consecutive lanes are such a run.
func (l *LaneSet) SetRun(j, k int, counter uint32, nonce *[3]uint32) {
	if j < 0 || k <= 0 || j+k > Lanes {
		panic("chacha20: internal error: bad lane run")
	}
	for i := range k {
		l.SetBlock(j+i, counter+uint32(i), nonce)
	}
}
