package aead

import (
	"crypto/subtle"
	"encoding/binary"
	"strconv"
	"unsafe"

	"github.com/chachakit/chachakit/internal/aeadasm"
	"github.com/chachakit/chachakit/internal/alias"
	"github.com/chachakit/chachakit/internal/chacha20core"
	"github.com/chachakit/chachakit/internal/poly1305"
	"github.com/chachakit/chachakit/internal/wipe"
)

// A Message is one Seal or Open of a batch: its arguments, and its results
// once the batch returns.
type Message struct {
	// Dst, Nonce, Text and AdditionalData are the arguments of Seal or
	// Open, in their order. Text is the plaintext for SealBatch, the
	// ciphertext (with its tag) for OpenBatch.
	Dst, Nonce, Text, AdditionalData []byte

	// Out is what Seal or Open would have returned: Dst with the sealed
	// or opened message appended, or nil after a failed Open.
	Out []byte

	// Err is what Open would have returned: nil, or the error of a message
	// that failed to authenticate. SealBatch sets it to nil.
	Err error
}

// Batch is implemented by the AEADs that New and NewX return: it seals or
// opens many messages in one call, as the same number of Seal or Open calls
// would, in order. Where the CPU has wide vector registers (amd64 with AVX2
// or AVX-512, arm64) a batch of short messages is faster than the loop: the
// ChaCha20 blocks of several messages are computed side by side in the
// lanes of the vector registers, and with AVX-512 IFMA and messages of up
// to 64 bytes their Poly1305 tags too. Elsewhere, and for long messages, a
// batch makes the calls a loop would (internal/aeadasm says which).
//
// New and NewX keep x/crypto's signature, returning a cipher.AEAD, so reach
// the methods with a type assertion:
//
//	b, ok := a.(aead.Batch)
//
// Each message gets exactly what its own call would give: the same bytes,
// the same Out and Err, the same zeroed dst region after a failed Open, the
// same aliasing rules between a message's own buffers. A message's buffers
// may also overlap another message's: the batch then behaves as the calls in
// order would (it processes the later message after the earlier one has
// been written). A message that Seal or Open would panic on makes the batch
// panic with x/crypto's text followed by the message's index, after the
// messages before it are done, as a loop would; the messages after it are
// left untouched. Both methods are safe for concurrent use, like Seal and
// Open, and allocate nothing when every Dst has the capacity.
//
// The names follow net.Conn's batch conventions only loosely: a Message is
// both the arguments and the results, as in golang.org/x/net/ipv4's
// ReadBatch, so that a caller reuses one slice of them for every batch.
type Batch interface {
	// SealBatch seals every message, setting Out and clearing Err.
	SealBatch(msgs []Message)

	// OpenBatch opens every message, setting Out and Err. It returns nil
	// when every message opened, and otherwise the error of the first one
	// that did not; every message is tried either way.
	OpenBatch(msgs []Message) error
}

func (c *chacha20poly1305) SealBatch(msgs []Message)      { sealBatch(c.ref(), NonceSize, msgs) }
func (x *xchacha20poly1305) SealBatch(msgs []Message)     { sealBatch(x.ref(), NonceSizeX, msgs) }
func (z *zeroChaCha20Poly1305) SealBatch(msgs []Message)  { sealBatch(z.ref(), NonceSize, msgs) }
func (z *zeroXChaCha20Poly1305) SealBatch(msgs []Message) { sealBatch(z.ref(), NonceSizeX, msgs) }

func (c *chacha20poly1305) OpenBatch(msgs []Message) error {
	return openBatch(c.ref(), NonceSize, msgs)
}

func (x *xchacha20poly1305) OpenBatch(msgs []Message) error {
	return openBatch(x.ref(), NonceSizeX, msgs)
}

func (z *zeroChaCha20Poly1305) OpenBatch(msgs []Message) error {
	return openBatch(z.ref(), NonceSize, msgs)
}

func (z *zeroXChaCha20Poly1305) OpenBatch(msgs []Message) error {
	return openBatch(z.ref(), NonceSizeX, msgs)
}

// sealBatch seals the messages in order, as a loop of Seal calls: a
// message Seal would panic on panics (naming its index) once the messages
// before it are done. The lane groups, where they pay, are runLanes.
func sealBatch(k keyRef, nonceSize int, msgs []Message) {
	if batchLanes() {
		runLanes(k, nonceSize, msgs, false)
		return
	}
	for i := range msgs {
		m := &msgs[i]
		if why := checkSizes(nonceSize, m, false); why != "" {
			panicAt(why, i)
		}
		m.Out, m.Err = seal(k.get(), m.Nonce, m.Dst, m.Text, m.AdditionalData, i), nil
	}
}

// openBatch is sealBatch for Open. It returns the first message's error.
func openBatch(k keyRef, nonceSize int, msgs []Message) error {
	if batchLanes() {
		return runLanes(k, nonceSize, msgs, true)
	}
	var err error
	for i := range msgs {
		m := &msgs[i]
		if why := checkSizes(nonceSize, m, true); why != "" {
			panicAt(why, i)
		}
		if len(m.Text) < Overhead {
			m.Out, m.Err = nil, errOpen
		} else {
			m.Out, m.Err = open(k.get(), m.Nonce, m.Dst, m.Text, m.AdditionalData, i)
		}
		if err == nil {
			err = m.Err
		}
	}
	return err
}

// runLanes runs sealBatch (or openBatch) with lane groups, returning
// Open's first error.
func runLanes(k keyRef, nonceSize int, msgs []Message, opening bool) error {
	if longOn() && hasLong(msgs, opening) {
		var l longLanes
		return runGroups(k, nonceSize, msgs, opening, &l)
	}
	return runGroups(k, nonceSize, msgs, opening, nil)
}

// runGroups is runLanes, with the long group in l or without one (nil).
func runGroups(k keyRef, nonceSize int, msgs []Message, opening bool, l *longLanes) error {
	var g group
	g.init(k, nonceSize, opening)
	for i := 0; i < len(msgs); i++ {
		if g.kernel && g.n == 0 && g.kernelAhead(msgs[i:]) {
			if i = g.kernelRun(msgs, i); i == len(msgs) {
				break
			}
		}
		m := &msgs[i]
		n := len(m.Text)
		if opening {
			n -= Overhead
		}
		if g.n == 0 && n >= 0 && !laneMessage(n) && (l == nil || !longMessage(n)) {
			// A long message with nothing pending: its own call, as in
			// the loop, without the group's bookkeeping.
			if why := checkSizes(nonceSize, m, opening); why != "" {
				panicAt(why, i)
			}
			if opening {
				m.Out, m.Err = open(k.get(), m.Nonce, m.Dst, m.Text, m.AdditionalData, i)
			} else {
				m.Out, m.Err = seal(k.get(), m.Nonce, m.Dst, m.Text, m.AdditionalData, i), nil
			}
			continue
		}
		why := ""
		if opening {
			why = checkOpen(nonceSize, m)
		} else {
			why = checkSeal(nonceSize, m)
		}
		if why != "" {
			g.flush(l)
			g.wipe()
			if l != nil {
				l.wipe()
			}
			panicAt(why, i)
		}
		if l != nil && n >= 0 && longMessage(n) {
			g.joinLong(l, m, n)
		} else if opening {
			g.open(m, l)
		} else {
			g.seal(m, l)
		}
	}
	g.flush(l)
	g.wipe()
	if l != nil {
		l.wipe()
	}
	if opening {
		for i := range msgs {
			if msgs[i].Err != nil {
				return msgs[i].Err
			}
		}
	}
	return nil
}

// panicAt panics with Seal or Open's text, naming the batch's message i
// when i >= 0.
func panicAt(why string, i int) {
	if i >= 0 {
		why += " (batch message " + strconv.Itoa(i) + ")"
	}
	panic(why)
}

// checkSizes returns the text Seal (or Open) would panic with on m's
// nonce or text length, or "".
func checkSizes(nonceSize int, m *Message, opening bool) string {
	switch {
	case len(m.Nonce) != nonceSize && opening:
		return "chacha20poly1305: bad nonce length passed to Open"
	case len(m.Nonce) != nonceSize:
		return "chacha20poly1305: bad nonce length passed to Seal"
	case opening && uint64(len(m.Text)) > maxCiphertext:
		return "chacha20poly1305: ciphertext too large"
	case !opening && uint64(len(m.Text)) > maxPlaintext:
		return "chacha20poly1305: plaintext too large"
	}
	return ""
}

// checkSeal returns the text Seal would panic with on m, or "".
func checkSeal(nonceSize int, m *Message) string {
	if why := checkSizes(nonceSize, m, false); why != "" {
		return why
	}
	return checkOverlap(m.Dst, len(m.Text)+Overhead, m.Text, m.AdditionalData)
}

// checkOpen returns the text Open would panic with on m, or "".
func checkOpen(nonceSize int, m *Message) string {
	switch {
	case len(m.Nonce) != nonceSize:
		return "chacha20poly1305: bad nonce length passed to Open"
	case len(m.Text) < Overhead:
		return "" // not a panic: Open returns an error
	case uint64(len(m.Text)) > maxCiphertext:
		return "chacha20poly1305: ciphertext too large"
	}
	return checkOverlap(m.Dst, len(m.Text)-Overhead, m.Text[:len(m.Text)-Overhead], m.AdditionalData)
}

// checkOverlap returns the panic text of seal and open's buffer checks for
// an n-byte result appended to dst. An output that does not fit in dst's
// capacity is a new allocation, which overlaps nothing.
func checkOverlap(dst []byte, n int, in, ad []byte) string {
	if cap(dst)-len(dst) < n {
		return ""
	}
	out := dst[len(dst) : len(dst)+n]
	if alias.InexactOverlap(out, in) {
		return "chacha20poly1305: invalid buffer overlap of output and input"
	}
	if alias.AnyOverlap(out, ad) {
		return "chacha20poly1305: invalid buffer overlap of output and additional data"
	}
	return ""
}

// A group is consecutive messages of a batch finished together; runGroups
// passes it the long group's lanes (l, batch_long.go) where messages of
// laneMax+1 to longMax bytes take them. Where the
// batch kernel runs (kernel), ChaCha20-Poly1305 messages of up to 64 bytes
// with up to 64 of additional data (kernelMessage) go eight at a time
// through aeadasm.SealLanes or OpenLanes, which leave their output texts
// and tags in kl; with fewer than kernelMin of them at the flush, each
// takes its own call in its turn. The other short ones (laneMessage) share
// one LaneBlocks call, each taking a lane for its block 0 (the Poly1305
// key) and one per block of its text, in consecutive lanes, and their tags
// share SumAEADLanes calls; a long one takes its own seal or open call when
// its turn comes. An Open's plaintext reaches dst only after its tag
// matched.
//
// flush reads every short message (its text and additional data) before it
// writes any message, and a message's nonce is read when it joins. So that
// the batch stays the loop of calls it stands for, a short message that
// reads bytes a pending message will write first flushes the group. That is
// the only order that can differ: the writes, and the long messages, come in
// the messages' order.
type group struct {
	k          keyRef
	key        *[KeySize]byte // k's, once a message needs it
	lanesKeyed bool           // keyLanes has run
	x          bool           // XChaCha20: each message has its own subkey
	opening    bool
	lanes      int
	n          int
	pending    [chacha20core.Lanes]pendingMsg
	outs       [chacha20core.Lanes]span // the region each pending message writes
	outSpan    span                     // the span of outs
	ls         chacha20core.LaneSet
	ks         [chacha20core.Lanes * chacha20core.BlockSize]byte
	poly       poly1305.LaneScratch

	// The batch kernel's messages (kernel: ChaCha20-Poly1305 where
	// batchKernel), each a slot of kl.
	kernel    bool
	kernelRan bool // kl.Out holds output texts (an Open's plaintexts): wipe it
	kl        aeadasm.Lanes
}

// A pendingMsg is a message of the group and its first lane, -1 for a
// long message, or kernelLane for a message of the batch kernel (its
// slot in kl).
type pendingMsg struct {
	m    *Message
	lane int
	slot int
	n    int // text bytes: the plaintext of a Seal, the ciphertext (without tag) of an Open
}

// kernelLane marks a pending message of the batch kernel.
const kernelLane = -2

// A span is the address range [lo, hi) of a buffer, or of a set of
// buffers, empty when lo == hi.
type span struct{ lo, hi uintptr }

func spanOf(b []byte) span {
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return span{lo, lo + uintptr(len(b))}
}

// overlaps reports whether b has a byte in s.
func (s span) overlaps(b []byte) bool {
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return len(b) > 0 && lo < s.hi && s.lo < lo+uintptr(len(b))
}

func (g *group) init(k keyRef, nonceSize int, opening bool) {
	g.k, g.opening = k, opening
	g.x = nonceSize == NonceSizeX
	g.kernel = !g.x && !noKernel && batchKernel()
}

// getKey returns the AEAD's key, panicking after Wipe as Seal and Open
// would.
func (g *group) getKey() *[KeySize]byte {
	if g.key == nil {
		g.key = g.k.get()
	}
	return g.key
}

// keyLanes puts the key of ChaCha20-Poly1305 in every lane of the LaneSet,
// once, before the first message takes lanes (XChaCha20-Poly1305's
// messages each put their own subkey in theirs).
func (g *group) keyLanes(key *[KeySize]byte) {
	if g.lanesKeyed || g.x {
		return
	}
	g.lanesKeyed = true
	var s chacha20core.State
	s.Init(key, &[12]byte{}, 0)
	for i := range chacha20core.Lanes {
		g.ls.SetKey(i, &s.Key)
	}
	s.Wipe()
}

func (g *group) wipe() {
	g.ls.Wipe()
	wipe.Memclr(g.ks[:])
	if g.kernelRan {
		wipe.Memclr(unsafe.Slice(&g.kl.Out[0][0], len(g.kl.Out)*len(g.kl.Out[0])))
	}
}

// seal adds m, a message Seal would not panic on, to the group.
func (g *group) seal(m *Message, l *longLanes) {
	g.add(m, len(m.Text), len(m.Text)+Overhead, l)
}

// open adds m, a message Open would not panic on, to the group; a
// ciphertext shorter than a tag fails at once, as in Open.
func (g *group) open(m *Message, l *longLanes) {
	if len(m.Text) < Overhead {
		m.Out, m.Err = nil, errOpen
		return
	}
	n := len(m.Text) - Overhead
	g.add(m, n, n, l)
}

// add adds a message of n text bytes and outLen output bytes to the group,
// flushing it first if it is full or if m reads what a pending message
// writes.
func (g *group) add(m *Message, n, outLen int, l *longLanes) {
	key := g.getKey()
	lane, slot, blocks := -1, 0, 0
	if g.kernel && kernelMessage(n, len(m.AdditionalData)) {
		if g.kl.Len() == aeadasm.LanesMax || g.n == len(g.pending) || g.reads(m) {
			g.flush(l)
		}
		lane, slot = kernelLane, g.kl.Len()
		g.kl.Add(m.Nonce, m.Text[:n], m.AdditionalData)
	} else if laneMessage(n) {
		g.keyLanes(key)
		blocks = (n + chacha20core.BlockSize - 1) / chacha20core.BlockSize
		if g.lanes+1+blocks > chacha20core.Lanes || g.reads(m) {
			g.flush(l)
		}
		lane = g.lanes
	}
	if g.n == len(g.pending) {
		g.flush(l)
		lane = min(lane, 0)
	}
	if lane >= 0 {
		var nonce [3]uint32
		if g.x {
			var s chacha20core.State
			s.InitFrom(key[:], m.Nonce)
			for i := range 1 + blocks {
				g.ls.SetKey(lane+i, &s.Key)
			}
			nonce = s.Nonce
			s.Wipe()
		} else {
			nonce = [3]uint32{le32(m.Nonce[0:]), le32(m.Nonce[4:]), le32(m.Nonce[8:])}
		}
		for i := range 1 + blocks {
			g.ls.SetBlock(lane+i, uint32(i), &nonce)
		}
		g.lanes += 1 + blocks
	}
	// The region the message will write, if it fits in Dst's capacity (a
	// new allocation overlaps nothing).
	var out span
	if cap(m.Dst)-len(m.Dst) >= outLen {
		out = spanOf(m.Dst[len(m.Dst) : len(m.Dst)+outLen])
		if g.outSpan.lo == g.outSpan.hi {
			g.outSpan = out
		} else if out.lo != out.hi {
			g.outSpan = span{min(g.outSpan.lo, out.lo), max(g.outSpan.hi, out.hi)}
		}
	}
	p := &g.pending[g.n]
	p.m, p.lane, p.slot, p.n = m, lane, slot, n
	g.outs[g.n] = out
	g.n++
}

// writes reports whether a pending message writes a byte of o, or may
// read one in its own call in flush (a message of lane -1, or of the batch
// kernel, which takes its own call when too few run).
func (g *group) writes(o span) bool {
	if o.lo == o.hi {
		return false
	}
	if o.lo < g.outSpan.hi && g.outSpan.lo < o.hi {
		for _, w := range g.outs[:g.n] {
			if w.lo < o.hi && o.lo < w.hi {
				return true
			}
		}
	}
	for _, p := range g.pending[:g.n] {
		if p.lane != -1 && p.lane != kernelLane {
			continue
		}
		if o.overlaps(p.m.Text) || o.overlaps(p.m.AdditionalData) || o.overlaps(p.m.Nonce) {
			return true
		}
	}
	return false
}

// reads reports whether m's nonce, text or additional data, which a short
// message reads when it joins or early in flush, overlaps what a pending
// message writes.
func (g *group) reads(m *Message) bool {
	if !g.outSpan.overlaps(m.Nonce) && !g.outSpan.overlaps(m.Text) && !g.outSpan.overlaps(m.AdditionalData) {
		return false
	}
	for _, o := range g.outs[:g.n] {
		if o.overlaps(m.Nonce) || o.overlaps(m.Text) || o.overlaps(m.AdditionalData) {
			return true
		}
	}
	return false
}

// flush finishes the group's messages: the short ones' blocks in one
// LaneBlocks call, their Seal ciphertexts in the keystream's place, their
// tags eight at a time (SumAEADLanes); then, in the messages' order, every
// output is written, and each long message gets its own call.
func (g *group) flush(l *longLanes) {
	if g.n == 0 {
		return
	}
	var tags [chacha20core.Lanes][Overhead]byte
	// The kernel pays from kernelMin messages; fewer take their own calls
	// in their turn below.
	kernelRan := g.kl.Len() >= kernelMin
	g.kernelRan = g.kernelRan || kernelRan
	if kernelRan && g.opening {
		aeadasm.OpenLanes(g.key, &g.kl)
	} else if kernelRan {
		aeadasm.SealLanes(g.key, &g.kl)
	}
	if g.lanes > 0 {
		chacha20core.LaneBlocks(&g.ls, (*[chacha20core.Lanes][chacha20core.BlockSize]byte)(unsafe.Pointer(&g.ks)), g.lanes)
		var jobs [chacha20core.Lanes]poly1305.AEADJob
		nj := 0
		for i, p := range g.pending[:g.n] {
			if p.lane < 0 {
				continue
			}
			m := p.m
			ks := g.ks[(p.lane+1)*chacha20core.BlockSize:][:p.n]
			ct := m.Text[:p.n]
			if !g.opening {
				xorBytes(ks, m.Text, ks) // the ciphertext, where the keystream was
				ct = ks
			}
			// Field by field: a composite literal is built on the stack and
			// copied with wider loads than its stores, which stalls.
			jobs[nj].Tag, jobs[nj].Key = &tags[i], (*[32]byte)(g.ks[p.lane*chacha20core.BlockSize:])
			jobs[nj].AD, jobs[nj].CT = m.AdditionalData, ct
			nj++
		}
		for i := 0; i < nj; i += poly1305.Lanes {
			poly1305.SumAEADLanes(&g.poly, jobs[i:min(nj, i+poly1305.Lanes)])
		}
	}
	if l != nil && l.n > 0 {
		l.run(g.opening)
	}
	for i, p := range g.pending[:g.n] {
		m := p.m
		switch {
		case p.lane == kernelLane && kernelRan && !g.opening:
			ret, out := alias.SliceForAppend(m.Dst, p.n+Overhead)
			copy(out, g.kl.Out[p.slot][:p.n])
			*(*[Overhead]byte)(out[p.n:]) = g.kl.Tags[p.slot]
			m.Out, m.Err = ret, nil
		case p.lane == kernelLane && kernelRan:
			if tagEqual(&g.kl.Tags[p.slot], m.Text[p.n:]) {
				ret, out := alias.SliceForAppend(m.Dst, p.n)
				copy(out, g.kl.Out[p.slot][:p.n])
				m.Out, m.Err = ret, nil
			} else {
				g.openFailed(m, p.n)
			}
		case p.lane < 0 && !g.opening: // a long message, or the kernel's when it did not run
			if p.lane == longLane {
				g.sealLong(l, m, p.slot, p.n)
			} else {
				m.Out, m.Err = seal(g.key, m.Nonce, m.Dst, m.Text, m.AdditionalData, -1), nil
			}
		case p.lane < 0:
			if p.lane == longLane {
				g.openLong(l, m, p.slot, p.n)
			} else {
				m.Out, m.Err = open(g.key, m.Nonce, m.Dst, m.Text, m.AdditionalData, -1)
			}
		case !g.opening:
			ret, out := alias.SliceForAppend(m.Dst, p.n+Overhead)
			copy(out, g.ks[(p.lane+1)*chacha20core.BlockSize:][:p.n])
			copy(out[p.n:], tags[i][:])
			m.Out, m.Err = ret, nil
		case tagEqual(&tags[i], m.Text[p.n:]):
			ret, out := alias.SliceForAppend(m.Dst, p.n)
			xorBytes(out, m.Text[:p.n], g.ks[(p.lane+1)*chacha20core.BlockSize:])
			m.Out, m.Err = ret, nil
		default:
			g.openFailed(m, p.n)
		}
	}
	clear(g.pending[:g.n])
	g.n, g.lanes, g.outSpan = 0, 0, span{}
	if l != nil {
		l.n, l.nm = 0, 0
	}
	g.kl.Reset()
}

// openFailed gives m, whose n-byte ciphertext did not authenticate, Open's
// result: an error, and the region of dst Open would have written zeroed.
func (g *group) openFailed(m *Message, n int) {
	if cap(m.Dst)-len(m.Dst) >= n {
		clear(m.Dst[len(m.Dst) : len(m.Dst)+n])
	}
	m.Out, m.Err = nil, errOpen
}

// tagEqual reports whether tag equals the 16 bytes of b, in time that does
// not depend on where they differ: subtle.ConstantTimeCompare's answer,
// with two 8-byte XORs in place of its byte loop, which cost a 64-byte
// OpenBatch message a fifth of its time.
func tagEqual(tag *[Overhead]byte, b []byte) bool {
	x := binary.LittleEndian.Uint64(tag[:8]) ^ binary.LittleEndian.Uint64(b[:8])
	x |= binary.LittleEndian.Uint64(tag[8:]) ^ binary.LittleEndian.Uint64(b[8:16])
	return subtle.ConstantTimeEq(int32(uint32(x>>32)|uint32(x)), 0) == 1
}

func le32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

// forceLanes makes the batches use lane groups even where LaneBlocks is the
// portable code, so that tests reach the group code on every architecture.
var forceLanes = false

// noKernel keeps the batch kernel out of the groups, so that tests reach
// the LaneBlocks lanes with short messages where the kernel runs.
var noKernel = false
