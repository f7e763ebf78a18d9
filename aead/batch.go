package aead

import (
	"crypto/subtle"
	"strconv"
	"unsafe"

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
// would, in order, and on amd64 faster, by computing the ChaCha20 blocks of
// several short messages side by side in the lanes of one vector register
// set.
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

func (c *chacha20poly1305) SealBatch(msgs []Message)  { sealBatch(&c.key, NonceSize, msgs) }
func (x *xchacha20poly1305) SealBatch(msgs []Message) { sealBatch(&x.key, NonceSizeX, msgs) }

func (c *chacha20poly1305) OpenBatch(msgs []Message) error {
	return openBatch(&c.key, NonceSize, msgs)
}

func (x *xchacha20poly1305) OpenBatch(msgs []Message) error {
	return openBatch(&x.key, NonceSizeX, msgs)
}

// sealBatch seals the messages in order, as a loop of Seal calls: a
// message Seal would panic on panics (naming its index) once the messages
// before it are done. The lane groups, where they pay, are sealLanes.
func sealBatch(k *key, nonceSize int, msgs []Message) {
	if batchLanes() {
		sealLanes(k, nonceSize, msgs)
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
func openBatch(k *key, nonceSize int, msgs []Message) error {
	if batchLanes() {
		return openLanes(k, nonceSize, msgs)
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

// sealLanes is sealBatch with lane groups.
func sealLanes(k *key, nonceSize int, msgs []Message) {
	var g group
	g.init(k, nonceSize, false)
	for i := range msgs {
		m := &msgs[i]
		if why := checkSeal(nonceSize, m); why != "" {
			g.flush()
			g.wipe()
			panicAt(why, i)
		}
		g.seal(m)
	}
	g.flush()
	g.wipe()
}

// openLanes is openBatch with lane groups.
func openLanes(k *key, nonceSize int, msgs []Message) error {
	var g group
	g.init(k, nonceSize, true)
	for i := range msgs {
		m := &msgs[i]
		if why := checkOpen(nonceSize, m); why != "" {
			g.flush()
			g.wipe()
			panicAt(why, i)
		}
		g.open(m)
	}
	g.flush()
	g.wipe()
	for i := range msgs {
		if msgs[i].Err != nil {
			return msgs[i].Err
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

// A group is the messages of a batch whose ChaCha20 blocks share one
// LaneBlocks call: each message takes a lane for its block 0 (the Poly1305
// key) and one per block of its text, in consecutive lanes. A message too
// long for the lanes (batchLanesMax) takes its own seal or open call.
//
// Messages are finished in order when the group is flushed. Their nonces,
// though, are read when they join, and a message with its own call runs
// before the group's earlier messages are finished, so a message whose
// buffers overlap a pending one's (in a way where the order matters) first
// flushes the group: the batch stays the loop of calls it stands for.
type group struct {
	k       *key
	key     *[KeySize]byte // k's, once a message needs it
	x       bool           // XChaCha20: each message has its own subkey
	opening bool
	lanes   int
	n       int
	pending [chacha20core.Lanes]pendingMsg
	ls      chacha20core.LaneSet
	ks      [chacha20core.Lanes][chacha20core.BlockSize]byte
	outSpan span // of the pending messages' outputs
	inSpan  span // of their nonces, texts and additional data
	poly    poly1305.LaneScratch
}

// A pendingMsg is a message of the group: its lanes and its output region.
type pendingMsg struct {
	m     *Message
	lane  int
	ret   []byte // what Out becomes
	out   []byte // the region of ret written
	blobs int    // the number of lanes after block 0
}

// A span is the address range [lo, hi) that a set of buffers lies in
// (lo == hi when empty): the cheap test that rules out most overlaps.
type span struct{ lo, hi uintptr }

func (s *span) add(b []byte) {
	if len(b) == 0 {
		return
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	hi := lo + uintptr(len(b))
	if s.lo == s.hi {
		*s = span{lo, hi}
		return
	}
	s.lo, s.hi = min(s.lo, lo), max(s.hi, hi)
}

func (s span) overlaps(b []byte) bool {
	if len(b) == 0 || s.lo == s.hi {
		return false
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return lo < s.hi && s.lo < lo+uintptr(len(b))
}

func (g *group) init(k *key, nonceSize int, opening bool) {
	g.k, g.opening = k, opening
	g.x = nonceSize == NonceSizeX
}

// getKey returns the AEAD's key (panicking after Wipe, as Seal and Open
// would) and, for ChaCha20-Poly1305, puts it in every lane.
func (g *group) getKey() *[KeySize]byte {
	if g.key == nil {
		g.key = g.k.get()
		if !g.x {
			var s chacha20core.State
			s.Init(g.key, &[12]byte{}, 0)
			for i := range chacha20core.Lanes {
				g.ls.SetKey(i, &s.Key)
			}
			s.Wipe()
		}
	}
	return g.key
}

func (g *group) wipe() {
	g.ls.Wipe()
	wipe.Memclr(unsafe.Slice(&g.ks[0][0], len(g.ks)*chacha20core.BlockSize))
}

// seal seals m in the group, or in its own call if it is too long.
func (g *group) seal(m *Message) {
	if !laneMessage(len(m.Text)) {
		g.flushIfDepends(m, len(m.Text)+Overhead)
		m.Out, m.Err = seal(g.getKey(), m.Nonce, m.Dst, m.Text, m.AdditionalData, -1), nil
		return
	}
	g.join(m, len(m.Text), len(m.Text)+Overhead)
}

// open opens m in the group, or in its own call if it is too long.
func (g *group) open(m *Message) {
	if len(m.Text) < Overhead {
		m.Out, m.Err = nil, errOpen
		return
	}
	n := len(m.Text) - Overhead
	if !laneMessage(n) {
		g.flushIfDepends(m, n)
		m.Out, m.Err = open(g.getKey(), m.Nonce, m.Dst, m.Text, m.AdditionalData, -1)
		return
	}
	g.join(m, n, n)
}

// join adds a message of n text bytes and outLen output bytes to the group,
// flushing it first if its lanes are full or the order matters.
func (g *group) join(m *Message, n, outLen int) {
	blocks := (n + chacha20core.BlockSize - 1) / chacha20core.BlockSize
	if g.lanes+1+blocks > chacha20core.Lanes {
		g.flush()
	}
	g.flushIfDepends(m, outLen)
	ret, out := alias.SliceForAppend(m.Dst, outLen)

	lane := g.lanes
	var nonce [3]uint32
	key := g.getKey()
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
	g.pending[g.n] = pendingMsg{m: m, lane: lane, ret: ret, out: out, blobs: blocks}
	g.n++
	g.lanes += 1 + blocks
	g.outSpan.add(out)
	g.inSpan.add(m.Nonce)
	g.inSpan.add(m.Text)
	g.inSpan.add(m.AdditionalData)
}

// flushIfDepends flushes the group if m, whose output is outLen bytes
// appended to m.Dst, reads what a pending message writes, or writes what a
// pending message reads or writes. The span test decides most cases; the
// pairwise test only runs when the spans meet.
func (g *group) flushIfDepends(m *Message, outLen int) {
	if g.n == 0 {
		return
	}
	var out []byte
	if cap(m.Dst)-len(m.Dst) >= outLen {
		out = m.Dst[len(m.Dst) : len(m.Dst)+outLen]
	}
	if !g.outSpan.overlaps(m.Nonce) && !g.outSpan.overlaps(m.Text) && !g.outSpan.overlaps(m.AdditionalData) &&
		!g.outSpan.overlaps(out) && !g.inSpan.overlaps(out) {
		return
	}
	for _, p := range g.pending[:g.n] {
		pm := p.m
		if alias.AnyOverlap(p.out, m.Nonce) || alias.AnyOverlap(p.out, m.Text) ||
			alias.AnyOverlap(p.out, m.AdditionalData) || alias.AnyOverlap(p.out, out) ||
			alias.AnyOverlap(out, pm.Nonce) || alias.AnyOverlap(out, pm.Text) ||
			alias.AnyOverlap(out, pm.AdditionalData) {
			g.flush()
			return
		}
	}
}

// flush computes the group's blocks and finishes its messages in order:
// Seal encrypts every message and then computes the tags, eight at a time
// side by side where the CPU has poly1305's lanes; Open computes the tags
// first and decrypts the messages whose tag matches.
func (g *group) flush() {
	if g.n == 0 {
		return
	}
	chacha20core.LaneBlocks(&g.ls, &g.ks, g.lanes)
	flat := unsafe.Slice(&g.ks[0][0], len(g.ks)*chacha20core.BlockSize)
	var tags [chacha20core.Lanes][Overhead]byte
	var jobs [chacha20core.Lanes]poly1305.AEADJob
	for i, p := range g.pending[:g.n] {
		m := p.m
		var ct []byte
		if g.opening {
			ct = m.Text[:len(p.out)]
		} else {
			ct = p.out[:len(m.Text)]
			xorBytes(ct, m.Text, flat[(p.lane+1)*chacha20core.BlockSize:])
		}
		jobs[i] = poly1305.AEADJob{Tag: &tags[i], Key: (*[32]byte)(g.ks[p.lane][:32]), AD: m.AdditionalData, CT: ct}
	}
	for i := 0; i < g.n; i += poly1305.Lanes {
		poly1305.SumAEADLanes(&g.poly, jobs[i:min(g.n, i+poly1305.Lanes)])
	}
	for i, p := range g.pending[:g.n] {
		m := p.m
		if !g.opening {
			copy(p.out[len(m.Text):], tags[i][:])
			m.Out, m.Err = p.ret, nil
			continue
		}
		if subtle.ConstantTimeCompare(tags[i][:], m.Text[len(p.out):]) != 1 {
			clear(p.out)
			m.Out, m.Err = nil, errOpen
			continue
		}
		xorBytes(p.out, m.Text[:len(p.out)], flat[(p.lane+1)*chacha20core.BlockSize:])
		m.Out, m.Err = p.ret, nil
	}
	clear(g.pending[:g.n])
	g.n, g.lanes = 0, 0
	g.outSpan, g.inSpan = span{}, span{}
}

func le32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

// forceLanes makes the batches use lane groups even where LaneBlocks is the
// portable code, so that tests reach the group code on every architecture.
var forceLanes = false
