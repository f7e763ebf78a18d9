package aead

import (
	"unsafe"

	"github.com/chachakit/chachakit/internal/alias"
	"github.com/chachakit/chachakit/internal/chacha20core"
	"github.com/chachakit/chachakit/internal/poly1305"
	"github.com/chachakit/chachakit/internal/wipe"
)

// The long group: messages longer than laneMax, up to longMax bytes, share
// 32-lane LaneBlocks2 calls (two 16-lane batches with interleaved rounds)
// for their blocks, in consecutive lanes like the short ones, on cores
// where that beats each message's own kernel (batchWide): where one
// batch's chain of two-cycle vector instructions leaves half the ports
// idle. Their tags are then separate passes of the vector Poly1305, one
// message at a time, in their turn among the group's writes: a long
// message reads its text only then, as its own call would. The MAC not
// overlapping the keystream is what limits it: on AMD Zen 5 under bhyve
// the group wins from 257 bytes (64 Seals of 257 bytes 1.46 times the
// loop's rate, of 832 1.40) to 1152 (level), and loses beyond (1350 bytes
// 0.97, 2047 0.85; bench/README.md, "Batches").

// longMax is the longest message of the long group: 18 text blocks.
const longMax = 1152

// longLaneMax is the most lanes of the long group: four LaneBlocks2
// calls.
const longLaneMax = 128

// longLane marks a pending message of the long group (its first lane in
// slot).
const longLane = -3

// longLanes are the long group's lanes and keystream; a batch with long
// messages keeps them on its stack (runLanes).
type longLanes struct {
	ls    [longLaneMax / (2 * chacha20core.Lanes)][2]chacha20core.LaneSet
	ks    [longLaneMax][chacha20core.BlockSize]byte
	n     int  // lanes taken
	keyed bool // every lane holds the key of ChaCha20-Poly1305
	used  bool // ks holds keystream: wipe it
}

// longOn reports whether SealBatch and OpenBatch give long messages to the
// long group: where LaneBlocks2 interleaves and the core's row asks for it
// (batchWide), or in tests (forceLong).
func longOn() bool { return forceLong || batchWide && chacha20core.LaneBlocks2Fast() }

// longMessage reports whether a message of n text bytes fits the long
// group.
func longMessage(n int) bool { return n > laneMax && n <= longMax }

// hasLong reports whether msgs has a message for the long group.
func hasLong(msgs []Message, opening bool) bool {
	for i := range msgs {
		n := len(msgs[i].Text)
		if opening {
			n -= Overhead
		}
		if longMessage(n) {
			return true
		}
	}
	return false
}

// lane returns the LaneSet and index of long lane i.
func (l *longLanes) lane(i int) (*chacha20core.LaneSet, int) {
	return &l.ls[i/(2*chacha20core.Lanes)][i/chacha20core.Lanes%2], i % chacha20core.Lanes
}

// blocks computes the keystream blocks of the lanes taken.
func (l *longLanes) blocks() {
	l.used = true
	for p := 0; p < l.n; p += 2 * chacha20core.Lanes {
		out := (*[2 * chacha20core.Lanes][chacha20core.BlockSize]byte)(l.ks[p:])
		if left := l.n - p; left <= chacha20core.Lanes {
			chacha20core.LaneBlocks(&l.ls[p/(2*chacha20core.Lanes)][0], (*[chacha20core.Lanes][chacha20core.BlockSize]byte)(out[:chacha20core.Lanes]), left)
		} else {
			chacha20core.LaneBlocks2(&l.ls[p/(2*chacha20core.Lanes)], out)
		}
	}
}

// stream returns the keystream of the text of the message whose first
// lane is lane, n bytes, and its Poly1305 key.
func (l *longLanes) stream(lane, n int) ([]byte, *[poly1305.KeySize]byte) {
	ks := unsafe.Slice(&l.ks[lane+1][0], n)
	return ks, (*[poly1305.KeySize]byte)(l.ks[lane][:])
}

func (l *longLanes) wipe() {
	for i := range l.ls {
		l.ls[i][0].Wipe()
		l.ls[i][1].Wipe()
	}
	if l.used {
		wipe.Memclr(unsafe.Slice(&l.ks[0][0], len(l.ks)*len(l.ks[0])))
	}
}

// addLong gives message m, of n text bytes with the given nonce, the
// next lanes of the long group: its block 0 and one lane per block of its
// text. The caller has flushed the group if they would not fit.
func (g *group) addLong(l *longLanes, m *Message, n int) int {
	key := g.getKey()
	first := l.n
	blocks := 1 + (n+chacha20core.BlockSize-1)/chacha20core.BlockSize
	var s chacha20core.State
	if g.x {
		s.InitFrom(key[:], m.Nonce)
	} else {
		s.Init(key, (*[12]byte)(m.Nonce), 0)
	}
	if !g.x && !l.keyed {
		for i := range longLaneMax {
			ls, j := l.lane(i)
			ls.SetKey(j, &s.Key)
		}
		l.keyed = true
	}
	// Row by row within each LaneSet the message's lanes reach: the
	// counters 0, 1, ... and the nonce (and XChaCha20's subkey).
	for i := 0; i < blocks; {
		ls, j := l.lane(first + i)
		k := min(blocks-i, chacha20core.Lanes-j)
		for c := range k {
			ls.W[8][j+c] = uint32(i + c)
		}
		for w, v := range s.Nonce {
			row := ls.W[9+w][j : j+k]
			for c := range row {
				row[c] = v
			}
		}
		if g.x {
			for w, v := range s.Key {
				row := ls.W[w][j : j+k]
				for c := range row {
					row[c] = v
				}
			}
		}
		i += k
	}
	s.Wipe()
	l.n += blocks
	return first
}

// fits reports whether a message of n text bytes fits in the long
// group's free lanes.
func (l *longLanes) fits(n int) bool {
	return l.n+1+(n+chacha20core.BlockSize-1)/chacha20core.BlockSize <= longLaneMax
}

// sealLong writes the Seal of pending long message p, whose keystream is
// in the long lanes, to its dst.
func (g *group) sealLong(l *longLanes, p *pendingMsg) {
	m := p.m
	ks, key := l.stream(p.slot, p.n)
	ret, out := alias.SliceForAppend(m.Dst, p.n+Overhead)
	xorBytes(out, m.Text, ks)
	poly1305.SumAEAD((*[Overhead]byte)(out[p.n:]), key, m.AdditionalData, out[:p.n])
	m.Out, m.Err = ret, nil
}

// openLong writes the Open of pending long message p, whose keystream is
// in the long lanes, to its dst if its tag matches.
func (g *group) openLong(l *longLanes, p *pendingMsg) {
	m := p.m
	ks, key := l.stream(p.slot, p.n)
	var tag [Overhead]byte
	poly1305.SumAEAD(&tag, key, m.AdditionalData, m.Text[:p.n])
	if !tagEqual(&tag, m.Text[p.n:]) {
		g.openFailed(m, p.n)
		return
	}
	ret, out := alias.SliceForAppend(m.Dst, p.n)
	xorBytes(out, m.Text[:p.n], ks)
	m.Out, m.Err = ret, nil
}

// forceLong makes the batches use the long group wherever lanes run, so
// that tests reach it on every core and architecture.
var forceLong = false
