// Package poly1305 is the one-time authenticator of RFC 8439, Section 2.5
// (https://www.rfc-editor.org/rfc/rfc8439#section-2.5), as the AEAD uses it.
//
// The block function is what each architecture may replace; the buffering of
// partial blocks and the final reduction are shared. The portable code is
// poly1305_generic.go.
package poly1305

import (
	"encoding/binary"
	"github.com/chachakit/chachakit/internal/align"
	"unsafe"

	"github.com/chachakit/chachakit/internal/wipe"
)

const (
	// TagSize is the size of a Poly1305 tag.
	TagSize = 16
	// KeySize is the size of a one-time key.
	KeySize = 32
	// BlockSize is the size of the blocks the accumulator absorbs.
	BlockSize = 16
)

// state is the accumulator h = h0 + h1·2^64 + h2·2^128 (partly reduced:
// h2 stays below 8), the clamped multiplier r = r0 + r1·2^64 and the final
// addend s. Its layout is fixed: assembly reads it by offset.
type state struct {
	h [3]uint64
	r [2]uint64
	s [2]uint64
}

// MAC computes a Poly1305 tag incrementally. The zero value is not usable:
// call Init. A MAC holds key material; Sum wipes it.
type MAC struct {
	st     state
	buf    [BlockSize]byte
	buffed int
}

// Init loads a one-time key: r is clamped as RFC 8439, Section 2.5 requires
// (the top four bits of bytes 3, 7, 11 and 15 and the bottom two bits of
// bytes 4, 8 and 12 cleared).
func (m *MAC) Init(key *[KeySize]byte) {
	m.st = state{}
	m.st.r[0] = binary.LittleEndian.Uint64(key[0:8]) & 0x0FFFFFFC0FFFFFFF
	m.st.r[1] = binary.LittleEndian.Uint64(key[8:16]) & 0x0FFFFFFC0FFFFFFC
	m.st.s[0] = binary.LittleEndian.Uint64(key[16:24])
	m.st.s[1] = binary.LittleEndian.Uint64(key[24:32])
	m.buffed = 0
}

// Write absorbs p. It never fails.
func (m *MAC) Write(p []byte) {
	if m.buffed > 0 {
		n := copy(m.buf[m.buffed:], p)
		m.buffed += n
		p = p[n:]
		if m.buffed < BlockSize {
			return
		}
		blocks(&m.st, m.buf[:], true)
		m.buffed = 0
	}
	if full := len(p) &^ (BlockSize - 1); full > 0 {
		blocks(&m.st, p[:full], true)
		p = p[full:]
	}
	if len(p) > 0 {
		m.buffed = copy(m.buf[:], p)
	}
}

// WritePadded absorbs p followed by zeros up to a multiple of 16 bytes, as
// the AEAD construction pads the additional data and the ciphertext. It must
// not follow a Write that left a partial block.
func (m *MAC) WritePadded(p []byte) {
	if m.buffed != 0 {
		panic("poly1305: internal error: WritePadded after a partial Write")
	}
	full := len(p) &^ (BlockSize - 1)
	if full > 0 {
		blocks(&m.st, p[:full], true)
	}
	if tail := p[full:]; len(tail) > 0 {
		var ab align.Buffer[[BlockSize]byte]
		b := &ab.V
		copy(b[:], tail)
		blocks(&m.st, b[:], true)
		wipe.Memclr(b[:])
	}
}

// Sum writes the tag to out and wipes the MAC's key material.
func (m *MAC) Sum(out *[TagSize]byte) {
	if m.buffed > 0 {
		// The last partial block gets its 1 bit right after the message
		// instead of at 2^128.
		clear(m.buf[m.buffed:])
		m.buf[m.buffed] = 1
		blocks(&m.st, m.buf[:], false)
	}
	finalize(out, &m.st)
	wipe.Memclr(unsafe.Slice((*byte)(unsafe.Pointer(m)), unsafe.Sizeof(*m)))
}

// Sum computes the tag of msg under key in one call.
func Sum(out *[TagSize]byte, msg []byte, key *[KeySize]byte) {
	var m MAC
	m.Init(key)
	m.Write(msg)
	m.Sum(out)
}
