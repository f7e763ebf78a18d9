package aead

import (
	"encoding/binary"
	"unsafe"

	"github.com/chachakit/chachakit/internal/alias"
	"github.com/chachakit/chachakit/internal/chacha20core"
	"github.com/chachakit/chachakit/internal/poly1305"
	"github.com/chachakit/chachakit/internal/wipe"
)

// The long group: messages longer than laneMax, up to longMax bytes, share
// 32-lane passes (chacha20core.LaneBlocks2) for their blocks, in
// consecutive lanes like the short ones, and two Poly1305 chains over the
// ciphertext of messages that earlier passes finished (lanes2MAC, up to
// 640 bytes each); each message's MAC ends in its turn among the group's
// writes. A long message's text is read in flush, as a short message's is;
// a Seal whose output no pending message writes or reads gets its
// ciphertext there directly (joinLong). No route takes the group now
// (batchWide is false everywhere: the 32-lane kernels it was written for
// ran on one CPU model and were removed, bench/README.md "Kernels
// removed"); the tests run it (forceLong), so that it stays correct until
// it earns a route or goes.

// longMax is the longest message of the long group: 24 text blocks.
const longMax = 1536

// longLaneMax is the most lanes of the long group: eight passes, which
// leave seven for the MAC chains; 256 lanes measured faster than 128 at
// 1350 bytes (bench/README.md, "Batches").
const longLaneMax = 256

// longLane marks a pending message of the long group (its index in the
// group's messages in slot).
const longLane = -3

// longLanes are the long group's lanes, keystream and messages; a batch
// with long messages keeps them on its stack (runLanes).
type longLanes struct {
	ls    [longLaneMax / (2 * chacha20core.Lanes)][2]chacha20core.LaneSet
	ks    [longLaneMax][chacha20core.BlockSize]byte
	msgs  [chacha20core.Lanes]longMsg // one per pending message at most
	n     int                         // lanes taken
	open  bool                        // the batch is OpenBatch
	nm    int                         // messages
	keyed bool                        // every lane holds the key of ChaCha20-Poly1305
	used  bool                        // ks holds keystream: wipe it

	// A second MAC chain for a pass with one message to MAC: a MAC under
	// the zero key over zeros, whose result nothing reads.
	dummy   poly1305.MAC
	dummyOn bool
	zeros   [lanes2MACMax]byte
}

// A longMsg is a message of the long group.
type longMsg struct {
	m     *Message
	first int          // its first lane: the Poly1305 key block
	out   []byte       // a Seal's output region, where it writes its ciphertext in flush (direct)
	n     int          // text bytes
	mac   poly1305.MAC // keyed, over the additional data and ct[:done]
	done  int
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

// run computes the keystream of the lanes taken, 32 lanes per pass, and
// keys each message's MAC once the pass with its key block has run (a
// Seal's, once the pass with its last block has: its ciphertext is then
// XORed into its keystream's place). From the second pass on, the integer
// units MAC up to lanes2MACMax bytes of the ciphertext of each of two keyed
// messages beside the pass (lanes2MAC); the rest of each MAC runs in the
// message's turn among the writes.
func (l *longLanes) run(opening bool) {
	l.used, l.open = true, opening
	keyed := 0
	for p := 0; p < l.n; p += 2 * chacha20core.Lanes {
		ls := &l.ls[p/(2*chacha20core.Lanes)]
		out := (*[2 * chacha20core.Lanes][chacha20core.BlockSize]byte)(l.ks[p:])
		if a, b, ma, mb := l.macWork(keyed); a != nil {
			lanes2MAC(ls, out, a, b, ma, mb)
		} else if left := l.n - p; left <= chacha20core.Lanes {
			chacha20core.LaneBlocks(&ls[0], (*[chacha20core.Lanes][chacha20core.BlockSize]byte)(out[:chacha20core.Lanes]), left)
		} else {
			chacha20core.LaneBlocks2(ls, out)
		}
		end := min(p+2*chacha20core.Lanes, l.n)
		for ; keyed < l.nm; keyed++ {
			lm := &l.msgs[keyed]
			ks := unsafe.Slice(&l.ks[lm.first+1][0], lm.n)
			if opening && lm.first >= end || !opening && lm.first+1+blocks(lm.n) > end {
				break
			}
			lm.mac.Init((*[poly1305.KeySize]byte)(l.ks[lm.first][:]))
			lm.mac.WritePadded(lm.m.AdditionalData)
			switch {
			case opening:
			case lm.out != nil:
				xorBytes(lm.out, lm.m.Text, ks)
			default:
				xorBytes(ks, lm.m.Text, ks)
			}
		}
	}
}

// macWork returns the MAC work of a pass: the two keyed messages with the
// most whole chunks of ciphertext left (up to a pass's), or the first and
// the dummy MAC where the second has less than half as many; with the
// bytes each is to absorb. a is nil when there is none.
func (l *longLanes) macWork(keyed int) (a, b *poly1305.MAC, ma, mb []byte) {
	var ia, ib int
	var la, lb *longMsg
	for i := range keyed {
		lm := &l.msgs[i]
		c := min(lm.n-lm.done, lanes2MACMax) / lanes2MACChunk
		switch {
		case c > ia:
			la, ia, lb, ib = lm, c, la, ia
		case c > ib:
			lb, ib = lm, c
		}
	}
	if la == nil {
		return nil, nil, nil, nil
	}
	if lb == nil || 2*ib < ia {
		if !l.dummyOn {
			l.dummy.Init(&[poly1305.KeySize]byte{})
			l.dummyOn = true
		}
		k := ia * lanes2MACChunk
		ma = l.ct(la)[la.done : la.done+k]
		la.done += k
		return &la.mac, &l.dummy, ma, l.zeros[:k]
	}
	k := min(ia, ib) * lanes2MACChunk
	ma, mb = l.ct(la)[la.done:la.done+k], l.ct(lb)[lb.done:lb.done+k]
	la.done += k
	lb.done += k
	return &la.mac, &lb.mac, ma, mb
}

// ct returns the ciphertext of message lm: its text for an Open; for a
// Seal (once keyed), its output region where it writes there in flush,
// else its keystream's place in ks.
func (l *longLanes) ct(lm *longMsg) []byte {
	switch {
	case l.open:
		return lm.m.Text[:lm.n]
	case lm.out != nil:
		return lm.out[:lm.n]
	}
	return unsafe.Slice(&l.ks[lm.first+1][0], lm.n)
}

// blocks is the number of 64-byte blocks of n bytes.
func blocks(n int) int { return (n + chacha20core.BlockSize - 1) / chacha20core.BlockSize }

// finish absorbs the rest of message i's ciphertext and the lengths and
// writes its tag.
func (l *longLanes) finish(i int, tag *[Overhead]byte) {
	lm := &l.msgs[i]
	lm.mac.WritePadded(l.ct(lm)[lm.done:])
	var lens [16]byte
	binary.LittleEndian.PutUint64(lens[0:], uint64(len(lm.m.AdditionalData)))
	binary.LittleEndian.PutUint64(lens[8:], uint64(lm.n))
	lm.mac.Write(lens[:])
	lm.mac.Sum(tag)
}

func (l *longLanes) wipe() {
	if l.dummyOn {
		var t [Overhead]byte
		l.dummy.Sum(&t) // Sum wipes the MAC
	}
	clear(l.msgs[:])
	for i := range l.ls {
		l.ls[i][0].Wipe()
		l.ls[i][1].Wipe()
	}
	if l.used {
		wipe.Memclr(unsafe.Slice(&l.ks[0][0], len(l.ks)*len(l.ks[0])))
	}
}

// joinLong adds m, a message of n text bytes that Seal or Open would not
// panic on, to the group as a long message, flushing the group first if
// the long lanes or the pending messages are full or if m reads what a
// pending message writes: add's work for the long group.
func (g *group) joinLong(l *longLanes, m *Message, n int) {
	if !l.fits(n) || g.n == len(g.pending) || g.reads(m) {
		g.flush(l)
	}
	outLen := n
	if !g.opening {
		outLen += Overhead
	}
	var out span
	direct := false
	if cap(m.Dst)-len(m.Dst) >= outLen {
		out = spanOf(m.Dst[len(m.Dst) : len(m.Dst)+outLen])
		// A Seal may write its ciphertext in flush, before the messages
		// ahead of it write theirs, unless one of them writes there too
		// or reads there in its own call.
		direct = !g.opening && !g.writes(out)
		if g.outSpan.lo == g.outSpan.hi {
			g.outSpan = out
		} else if out.lo != out.hi {
			g.outSpan = span{min(g.outSpan.lo, out.lo), max(g.outSpan.hi, out.hi)}
		}
	}
	p := &g.pending[g.n]
	p.m, p.lane, p.slot, p.n = m, longLane, g.addLong(l, m, n, direct), n
	g.outs[g.n] = out
	g.n++
}

// addLong gives message m, of n text bytes with the given nonce, the
// next lanes of the long group: its block 0 and one lane per block of its
// text. The caller has flushed the group if they would not fit.
func (g *group) addLong(l *longLanes, m *Message, n int, direct bool) int {
	first := l.n
	blocks := 1 + blocks(n)
	if g.x {
		l.subkeyLanes(g.getKey(), m.Nonce, first, blocks)
	} else {
		if !l.keyed {
			l.key(g.getKey())
		}
		nonce := [3]uint32{binary.LittleEndian.Uint32(m.Nonce[0:]), binary.LittleEndian.Uint32(m.Nonce[4:]), binary.LittleEndian.Uint32(m.Nonce[8:])}
		l.runs(first, blocks, &nonce)
	}
	// Field by field (the MAC is keyed in run): a composite literal
	// would be built on the stack and copied with wider loads than its
	// stores, which stalls.
	lm := &l.msgs[l.nm]
	lm.m, lm.first, lm.n, lm.done, lm.out = m, first, n, 0, nil
	if direct {
		lm.out = m.Dst[len(m.Dst) : len(m.Dst)+n+Overhead]
	}
	l.nm++
	l.n += blocks
	return l.nm - 1
}

// runs sets the counters 0, 1, ... and the nonce of the blocks lanes from
// first, run by run within each LaneSet they reach.
func (l *longLanes) runs(first, blocks int, nonce *[3]uint32) {
	for i := 0; i < blocks; {
		ls, j := l.lane(first + i)
		k := min(blocks-i, chacha20core.Lanes-j)
		ls.SetRun(j, k, uint32(i), nonce)
		i += k
	}
}

// subkeyLanes sets the lanes of an XChaCha20-Poly1305 message: its subkey
// (HChaCha20 of the key and the nonce's first 16 bytes) in each of them,
// and the counters and the rest of the nonce as runs does.
func (l *longLanes) subkeyLanes(key *[KeySize]byte, nonce []byte, first, blocks int) {
	var s chacha20core.State
	s.InitFrom(key[:], nonce)
	for i := range blocks {
		ls, j := l.lane(first + i)
		ls.SetKey(j, &s.Key)
	}
	l.runs(first, blocks, &s.Nonce)
	s.Wipe()
}

// key puts the key of ChaCha20-Poly1305 in every lane, once per batch.
func (l *longLanes) key(key *[KeySize]byte) {
	var s chacha20core.State
	s.Init(key, &[12]byte{}, 0)
	for i := range l.ls {
		for h := range l.ls[i] {
			for w, v := range s.Key {
				fill(l.ls[i][h].W[w][:], v)
			}
		}
	}
	s.Wipe()
	l.keyed = true
}

// fill sets every word of row (a LaneSet row: 8-byte aligned, an even
// number of words) to v, two at a time.
func fill(row []uint32, v uint32) {
	pairs := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(row))), len(row)/2)
	v2 := uint64(v)<<32 | uint64(v)
	for i := range pairs {
		pairs[i] = v2
	}
}

// fits reports whether a message of n text bytes fits in the long
// group's free lanes.
func (l *longLanes) fits(n int) bool {
	return l.n+1+blocks(n) <= longLaneMax && l.nm < len(l.msgs)
}

// sealLong writes the Seal of message m, long message slot of the group
// with n text bytes, whose ciphertext is in the long lanes or already in
// its output, to its dst.
func (g *group) sealLong(l *longLanes, m *Message, slot, n int) {
	lm := &l.msgs[slot]
	if lm.out != nil {
		l.finish(slot, (*[Overhead]byte)(lm.out[n:]))
		m.Out, m.Err = m.Dst[:len(m.Dst)+len(lm.out)], nil
		return
	}
	ret, out := alias.SliceForAppend(m.Dst, n+Overhead)
	copy(out, l.ct(lm))
	l.finish(slot, (*[Overhead]byte)(out[n:]))
	m.Out, m.Err = ret, nil
}

// openLong writes the Open of message m, long message slot of the group
// with n text bytes, whose keystream is in the long lanes, to its dst if
// its tag matches.
func (g *group) openLong(l *longLanes, m *Message, slot, n int) {
	var tag [Overhead]byte
	l.finish(slot, &tag)
	if !tagEqual(&tag, m.Text[n:]) {
		g.openFailed(m, n)
		return
	}
	ret, out := alias.SliceForAppend(m.Dst, n)
	xorBytes(out, m.Text[:n], unsafe.Slice(&l.ks[l.msgs[slot].first+1][0], n))
	m.Out, m.Err = ret, nil
}

// forceLong makes the batches use the long group wherever lanes run, so
// that tests reach it on every core and architecture.
var forceLong = false

// lanes2MACGeneric is LaneBlocks2 and the two MACs' Write.
func lanes2MACGeneric(l *[2]chacha20core.LaneSet, out *[2 * chacha20core.Lanes][chacha20core.BlockSize]byte, a, b *poly1305.MAC, ma, mb []byte) {
	chacha20core.LaneBlocks2(l, out)
	a.Write(ma)
	b.Write(mb)
}
