package chacha20core

import (
	"encoding/binary"
	"math/bits"

	"github.com/chachakit/chachakit/internal/wipe"
)

// qr is the ChaCha20 quarter round (RFC 8439, Section 2.1).
func qr(a, b, c, d uint32) (uint32, uint32, uint32, uint32) {
	a += b
	d = bits.RotateLeft32(d^a, 16)
	c += d
	b = bits.RotateLeft32(b^c, 12)
	a += b
	d = bits.RotateLeft32(d^a, 8)
	c += d
	b = bits.RotateLeft32(b^c, 7)
	return a, b, c, d
}

// xorBlocksGeneric is the reference for every assembly path: one block at a
// time, each XORed into the message word by word as it leaves the
// registers, so that the keystream is never stored. dst and src overlap
// exactly or not at all: each word is read before it is written. Both
// techniques, and the cached first column round below, are those of
// golang.org/x/crypto/chacha20's portable code.
//
// f, like the State, holds key material: a quarter round can be inverted,
// so it gives away the key words it mixed. Where it is computed for the call
// (builds with keystream assembly, firstCopied) it is cleared before
// returning; elsewhere it is the State's own cache, which State.Wipe clears.
func xorBlocksGeneric(s *State, dst, src []byte) {
	var tmp [12]uint32
	f := s.firstColumnsIn(&tmp)
	for len(src) >= BlockSize {
		// The first column round: column 0 with the counter, columns 1
		// to 3 from f; then the first diagonal round.
		x0, x4, x8, x12 := qr(c0, s.Key[0], s.Key[4], s.Counter)
		x1, x5, x9, x13 := f[0], f[1], f[2], f[3]
		x2, x6, x10, x14 := f[4], f[5], f[6], f[7]
		x3, x7, x11, x15 := f[8], f[9], f[10], f[11]
		x0, x5, x10, x15 = qr(x0, x5, x10, x15)
		x1, x6, x11, x12 = qr(x1, x6, x11, x12)
		x2, x7, x8, x13 = qr(x2, x7, x8, x13)
		x3, x4, x9, x14 = qr(x3, x4, x9, x14)

		for range 9 {
			// Column round.
			x0, x4, x8, x12 = qr(x0, x4, x8, x12)
			x1, x5, x9, x13 = qr(x1, x5, x9, x13)
			x2, x6, x10, x14 = qr(x2, x6, x10, x14)
			x3, x7, x11, x15 = qr(x3, x7, x11, x15)
			// Diagonal round.
			x0, x5, x10, x15 = qr(x0, x5, x10, x15)
			x1, x6, x11, x12 = qr(x1, x6, x11, x12)
			x2, x7, x8, x13 = qr(x2, x7, x8, x13)
			x3, x4, x9, x14 = qr(x3, x4, x9, x14)
		}

		// The input state added back, XORed into the message.
		in, out := (*[BlockSize]byte)(src), (*[BlockSize]byte)(dst)
		le := binary.LittleEndian
		le.PutUint32(out[0:], le.Uint32(in[0:])^(x0+c0))
		le.PutUint32(out[4:], le.Uint32(in[4:])^(x1+c1))
		le.PutUint32(out[8:], le.Uint32(in[8:])^(x2+c2))
		le.PutUint32(out[12:], le.Uint32(in[12:])^(x3+c3))
		le.PutUint32(out[16:], le.Uint32(in[16:])^(x4+s.Key[0]))
		le.PutUint32(out[20:], le.Uint32(in[20:])^(x5+s.Key[1]))
		le.PutUint32(out[24:], le.Uint32(in[24:])^(x6+s.Key[2]))
		le.PutUint32(out[28:], le.Uint32(in[28:])^(x7+s.Key[3]))
		le.PutUint32(out[32:], le.Uint32(in[32:])^(x8+s.Key[4]))
		le.PutUint32(out[36:], le.Uint32(in[36:])^(x9+s.Key[5]))
		le.PutUint32(out[40:], le.Uint32(in[40:])^(x10+s.Key[6]))
		le.PutUint32(out[44:], le.Uint32(in[44:])^(x11+s.Key[7]))
		le.PutUint32(out[48:], le.Uint32(in[48:])^(x12+s.Counter))
		le.PutUint32(out[52:], le.Uint32(in[52:])^(x13+s.Nonce[0]))
		le.PutUint32(out[56:], le.Uint32(in[56:])^(x14+s.Nonce[1]))
		le.PutUint32(out[60:], le.Uint32(in[60:])^(x15+s.Nonce[2]))

		s.Counter++
		dst, src = dst[BlockSize:], src[BlockSize:]
	}
	if firstCopied {
		wipe.Wipe(tmp[:])
	}
}

// blockGeneric computes the keystream block numbered s.Counter, leaving the
// counter as it is.
func blockGeneric(s *State, out *[BlockSize]byte) {
	*out = [BlockSize]byte{}
	c := s.Counter
	xorBlocksGeneric(s, out[:], out[:])
	s.Counter = c
}

// firstColumns writes to f the first column round of columns 1, 2 and 3,
// which do not involve the counter (word 12 is in column 0), so that a call
// computes them once for all its blocks, or a State once for all its calls
// (firstCache): words 1, 5, 9, 13, then 2, 6, 10, 14, then 3, 7, 11, 15.
// It writes through a pointer rather than returning the array, which the
// compiler would zero first and then copy from a temporary: the words go
// straight to the State's cache or to the caller's tmp (firstColumnsIn),
// and no other copy of them is left on the stack unwiped.
func firstColumns(s *State, f *[12]uint32) {
	f[0], f[1], f[2], f[3] = qr(c1, s.Key[1], s.Key[5], s.Nonce[0])
	f[4], f[5], f[6], f[7] = qr(c2, s.Key[2], s.Key[6], s.Nonce[1])
	f[8], f[9], f[10], f[11] = qr(c3, s.Key[3], s.Key[7], s.Nonce[2])
}

// HChaCha20 derives a 32-byte subkey from a key and the first 16 bytes of an
// XChaCha20 nonce (draft-irtf-cfrg-xchacha-03, Section 2.2): the ChaCha20
// rounds on a state whose last row is the nonce, with no final addition,
// keeping rows 0 and 3. It has no assembly: it runs once per XChaCha20
// key and nonce, and the AEAD's small kernels derive the subkey in their
// own registers.
func HChaCha20(out *[32]byte, key *[32]byte, nonce *[16]byte) {
	le := binary.LittleEndian
	x0, x1, x2, x3 := c0, c1, c2, c3
	x4, x5, x6, x7 := le.Uint32(key[0:]), le.Uint32(key[4:]), le.Uint32(key[8:]), le.Uint32(key[12:])
	x8, x9, x10, x11 := le.Uint32(key[16:]), le.Uint32(key[20:]), le.Uint32(key[24:]), le.Uint32(key[28:])
	x12, x13, x14, x15 := le.Uint32(nonce[0:]), le.Uint32(nonce[4:]), le.Uint32(nonce[8:]), le.Uint32(nonce[12:])

	for range 10 {
		x0, x4, x8, x12 = qr(x0, x4, x8, x12)
		x1, x5, x9, x13 = qr(x1, x5, x9, x13)
		x2, x6, x10, x14 = qr(x2, x6, x10, x14)
		x3, x7, x11, x15 = qr(x3, x7, x11, x15)
		x0, x5, x10, x15 = qr(x0, x5, x10, x15)
		x1, x6, x11, x12 = qr(x1, x6, x11, x12)
		x2, x7, x8, x13 = qr(x2, x7, x8, x13)
		x3, x4, x9, x14 = qr(x3, x4, x9, x14)
	}

	le.PutUint32(out[0:], x0)
	le.PutUint32(out[4:], x1)
	le.PutUint32(out[8:], x2)
	le.PutUint32(out[12:], x3)
	le.PutUint32(out[16:], x12)
	le.PutUint32(out[20:], x13)
	le.PutUint32(out[24:], x14)
	le.PutUint32(out[28:], x15)
}
