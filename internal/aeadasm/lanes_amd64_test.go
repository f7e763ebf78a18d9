//go:build gc && !purego

package aeadasm

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/chachakit/chachakit/internal/cryptotest"
	"github.com/chachakit/chachakit/internal/poly1305"
)

// Twin tests of the batch kernel (LanesAVX512, _asm/lanes_aead.go) against
// the portable code: each message's keystream from xorBlocksGeneric
// (blocks 0 and 1 of its key and nonce: the kernel's counters are always
// 0 and 1, so the 2^32-1 counter edge of the other kernels has no
// counterpart here), its tag from poly1305.SumAEAD.

// needLanesAVX512 skips a test on a CPU without what the kernel needs
// (AVX-512BW and IFMA), or fails it in strict mode unless CHACHAKIT_ABSENT
// names aead/AVX512Stitched.
func needLanesAVX512(t *testing.T) {
	t.Helper()
	if !LanesAVX512Available() {
		if cryptotest.Strict() && !cryptotest.AbsentAllowed("aead", "AVX512Stitched") {
			t.Fatal("LanesAVX512 is not available on this CPU, and CHACHAKIT_STRICT=1 expects it to run")
		}
		t.Skip("LanesAVX512 is not available on this CPU")
	}
}

// TestLanesLayout checks Lanes against the offsets the kernel reads it by
// (_asm/lanes_aead.go).
func TestLanesLayout(t *testing.T) {
	var l Lanes
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"nonce", unsafe.Offsetof(l.nonce), 0},
		{"in", unsafe.Offsetof(l.in), 96},
		{"ad", unsafe.Offsetof(l.ad), 160},
		{"n", unsafe.Offsetof(l.n), 224},
		{"adLen", unsafe.Offsetof(l.adLen), 288},
		{"Tags", unsafe.Offsetof(l.Tags), 352},
		{"Out", unsafe.Offsetof(l.Out), 480},
	} {
		if c.got != c.want {
			t.Errorf("Lanes.%s at offset %d, the kernel reads it at %d", c.name, c.got, c.want)
		}
	}
}

// A lanesMsg is one message of a kernel call and what it must produce.
type lanesMsg struct {
	key                 [32]byte
	nonce, in, ad, want []byte
	tag                 [16]byte
}

// newLanesMsg makes a message of n bytes of text at offset off of its
// buffer and adLen bytes of additional data, and its expected output and
// tag.
func newLanesMsg(r *rand.Rand, key *[32]byte, n, adLen, off int, open bool) *lanesMsg {
	rnd := func(k int) []byte {
		b := make([]byte, k)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	m := &lanesMsg{key: *key, nonce: rnd(12), ad: rnd(adLen), in: rnd(off + n)[off:]}
	var s State
	s.Init(key, (*[12]byte)(m.nonce), 0)
	ks := make([]byte, 128)
	xorBlocksGeneric(&s, ks, ks)
	m.want = make([]byte, n)
	for i := range m.in {
		m.want[i] = m.in[i] ^ ks[64+i]
	}
	ct := m.want
	if open {
		ct = m.in
	}
	poly1305.SumAEAD(&m.tag, (*[32]byte)(ks[:32]), m.ad, ct)
	return m
}

// runLanes runs the kernel on msgs (one key) and checks every output, its
// zero padding, every tag, and that the inputs are unchanged.
func runLanes(t *testing.T, msgs []*lanesMsg, open bool, what string) {
	t.Helper()
	var l Lanes
	for i := range l.Out {
		for j := range l.Out[i] {
			l.Out[i][j] = 0x5a
		}
	}
	var ins [][]byte
	for _, m := range msgs {
		l.Add(m.nonce, m.in, m.ad)
		ins = append(ins, bytes.Clone(m.in))
	}
	if open {
		OpenLanes(&msgs[0].key, &l)
	} else {
		SealLanes(&msgs[0].key, &l)
	}
	for i, m := range msgs {
		n := len(m.in)
		switch {
		case l.Tags[i] != m.tag:
			t.Fatalf("%s: message %d of %d (n=%d ad=%d): tag differs", what, i, len(msgs), n, len(m.ad))
		case !bytes.Equal(l.Out[i][:n], m.want):
			t.Fatalf("%s: message %d of %d (n=%d ad=%d): output differs", what, i, len(msgs), n, len(m.ad))
		case !bytes.Equal(l.Out[i][n:], make([]byte, LanesTextMax-n)):
			t.Fatalf("%s: message %d of %d (n=%d): output not zero-padded", what, i, len(msgs), n)
		case !bytes.Equal(m.in, ins[i]):
			t.Fatalf("%s: message %d: input written", what, i)
		}
	}
	for i := len(msgs); i < LanesMax; i++ {
		if !bytes.Equal(l.Out[i][:], bytes.Repeat([]byte{0x5a}, LanesTextMax)) {
			t.Fatalf("%s: Out[%d] written, but only %d messages", what, i, len(msgs))
		}
	}
}

// TestLanesAVX512 runs every text length 0..64 with every additional data
// length 0..64 (both longer than 16 bytes for one pair in seven, to keep the
// run short; the lengths of a batch's messages differ), at offsets 0..7, in
// batches of 1..8 messages, sealing and opening.
func TestLanesAVX512(t *testing.T) {
	needLanesAVX512(t)
	r := rand.New(rand.NewPCG(1, 2))
	var key [32]byte
	for _, open := range []bool{false, true} {
		var msgs []*lanesMsg
		size := 1
		flush := func() {
			if len(msgs) > 0 {
				runLanes(t, msgs, open, map[bool]string{false: "Seal", true: "Open"}[open])
			}
			msgs = msgs[:0]
			size = size%LanesMax + 1
		}
		for n := 0; n <= LanesTextMax; n++ {
			for adLen := 0; adLen <= LanesADMax; adLen++ {
				if n > 16 && adLen > 16 && (n+adLen)%7 != 0 {
					continue
				}
				for i := range key {
					key[i] = byte(r.Uint32())
				}
				if len(msgs) > 0 {
					key = msgs[0].key
				}
				msgs = append(msgs, newLanesMsg(r, &key, n, adLen, (n+adLen)%8, open))
				if len(msgs) == size {
					flush()
				}
			}
		}
		flush()
	}
}

// TestLanesAVX512Random runs batches of random lengths, counts and
// offsets, under random keys.
func TestLanesAVX512Random(t *testing.T) {
	needLanesAVX512(t)
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		var key [32]byte
		for i := range key {
			key[i] = byte(r.Uint32())
		}
		open := r.IntN(2) == 1
		msgs := make([]*lanesMsg, 1+r.IntN(LanesMax))
		for i := range msgs {
			msgs[i] = newLanesMsg(r, &key, r.IntN(LanesTextMax+1), r.IntN(LanesADMax+1), r.IntN(8), open)
		}
		runLanes(t, msgs, open, "random")
	}
}

// BenchmarkLanesAVX512 measures one kernel call of eight 64-byte messages
// without additional data (the batch's unit for 64-byte packets).
func BenchmarkLanesAVX512(b *testing.B) {
	if !LanesAVX512Available() {
		b.Skip("LanesAVX512 is not available on this CPU")
	}
	var key [32]byte
	var nonce [12]byte
	var in [LanesMax][64]byte
	b.SetBytes(LanesMax * 64)
	b.ReportAllocs()
	for b.Loop() {
		var l Lanes
		for i := range LanesMax {
			l.Add(nonce[:], in[i][:], nil)
		}
		SealLanes(&key, &l)
	}
}
