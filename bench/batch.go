package main

import (
	"crypto/cipher"
	"encoding/binary"

	"github.com/chachakit/chachakit/aead"
)

// A batchCase is one workload of aead.Batch: the messages' lengths, sealed
// or opened in one call (SealBatch, OpenBatch) or in a loop of Seal or Open
// calls. Every message has its own nonce and no additional data, as in
// WireGuard's transport messages.
type batchCase struct {
	name    string
	desc    string
	lengths []int
	inPlace bool // Seal in place, as wireguard-go does
}

// batchCases are the workloads: 64 small and 64 MTU-sized messages,
// and a WireGuard-like container of 128 packets, half keepalive-to-ACK
// sized (32..80 bytes), half full (1420 bytes), alternating, sealed in
// place.
var batchCases = []batchCase{
	{"64x64B", "64 messages of 64 B", repeat(64, 64), false},
	{"64x1350B", "64 messages of 1350 B", repeat(64, 1350), false},
	{"wireguard128", "128 packets: half 32-80 B, half 1420 B, in place", wireGuardLengths(), true},
}

func repeat(n, size int) []int {
	l := make([]int, n)
	for i := range l {
		l[i] = size
	}
	return l
}

func wireGuardLengths() []int {
	l := make([]int, 128)
	for i := range l {
		if i%2 == 0 {
			l[i] = 32 + (i/2)%49
		} else {
			l[i] = 1420
		}
	}
	return l
}

func (c batchCase) bytes() int {
	n := 0
	for _, l := range c.lengths {
		n += l
	}
	return n
}

// batchRun returns a function that seals (or opens) the case's messages n
// times: through aead.Batch when batch is set, else in a loop of calls.
// All allocation happens here.
func batchRun(a cipher.AEAD, c batchCase, open, batch bool) func(n int) {
	msgs := make([]aead.Message, len(c.lengths))
	for i, l := range c.lengths {
		m := &msgs[i]
		m.Nonce = make([]byte, a.NonceSize())
		binary.LittleEndian.PutUint64(m.Nonce[4:], uint64(i))
		pt := pattern(l, byte(i))
		switch {
		case open:
			m.Text = a.Seal(nil, m.Nonce, pt, nil)
			m.Dst = make([]byte, 0, l)
		case c.inPlace:
			buf := make([]byte, l+aead.Overhead)
			copy(buf, pt)
			m.Text, m.Dst = buf[:l], buf[:0]
		default:
			m.Text, m.Dst = pt, make([]byte, 0, l+aead.Overhead)
		}
	}
	b, _ := a.(aead.Batch)
	switch {
	case batch && open:
		return func(n int) {
			for range n {
				if b.OpenBatch(msgs) != nil {
					panic("bench: OpenBatch fails on its own messages")
				}
			}
		}
	case batch:
		return func(n int) {
			for range n {
				b.SealBatch(msgs)
			}
		}
	case open:
		return func(n int) {
			for range n {
				for i := range msgs {
					m := &msgs[i]
					var err error
					if m.Out, err = a.Open(m.Dst, m.Nonce, m.Text, m.AdditionalData); err != nil {
						panic("bench: Open fails on its own messages")
					}
				}
			}
		}
	}
	return func(n int) {
		for range n {
			for i := range msgs {
				m := &msgs[i]
				m.Out = a.Seal(m.Dst, m.Nonce, m.Text, m.AdditionalData)
			}
		}
	}
}
