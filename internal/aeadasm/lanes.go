package aeadasm

import (
	"encoding/binary"
	"unsafe"
)

// The batch kernel's contract: at most LanesMax messages per call, each of
// at most LanesTextMax bytes of text and LanesADMax bytes of additional
// data, all under one ChaCha20-Poly1305 key with 12-byte nonces.
const (
	LanesMax     = 8
	LanesTextMax = 64
	LanesADMax   = 64
)

// Lanes is the input and output of SealLanes and OpenLanes: up to
// LanesMax messages, added in order with Add. Its first fields are the
// kernel's layout (_asm/lanes_aead.go; a test checks the offsets): the
// nonces word by word, the messages' pointers and lengths, and what the
// kernel computes: the tags and the output texts. After an Open, Out holds
// plaintext whether or not the tags match: the caller wipes it.
type Lanes struct {
	nonce    [3][LanesMax]uint32
	in, ad   [LanesMax]*byte
	n, adLen [LanesMax]uint64
	Tags     [LanesMax][16]byte
	Out      [LanesMax][LanesTextMax]byte // the output texts, zero-padded

	count          int
	adMax, textMax int
}

// Len is the number of messages added since the last Reset.
func (l *Lanes) Len() int { return l.count }

// Reset empties l.
func (l *Lanes) Reset() { l.count, l.adMax, l.textMax = 0, 0, 0 }

// Add adds a message and returns its index: its 12-byte nonce, its text in
// (at most LanesTextMax bytes) and its additional data (at most LanesADMax
// bytes). l must not be full.
func (l *Lanes) Add(nonce, in, ad []byte) int {
	i := l.count
	if uint(i) >= LanesMax || len(nonce) != 12 || len(in) > LanesTextMax || len(ad) > LanesADMax {
		panic("chacha20poly1305: internal error: bad message for the batch kernel")
	}
	l.nonce[0][i] = binary.LittleEndian.Uint32(nonce[0:4])
	l.nonce[1][i] = binary.LittleEndian.Uint32(nonce[4:8])
	l.nonce[2][i] = binary.LittleEndian.Uint32(nonce[8:12])
	l.in[i], l.ad[i] = base(in), base(ad)
	l.n[i], l.adLen[i] = uint64(len(in)), uint64(len(ad))
	l.textMax, l.adMax = max(l.textMax, len(in)), max(l.adMax, len(ad))
	l.count++
	return i
}

// base returns the address the kernel gets for b. An empty slice's base
// may be nil: the kernel's loads of no bytes are masked, but a
// masked access at address 0 can take a microcode assist, so they get the
// address of emptyBase (which the kernel never reads).
func base(b []byte) *byte {
	if len(b) == 0 {
		return &emptyBase
	}
	return unsafe.SliceData(b)
}

var emptyBase byte
