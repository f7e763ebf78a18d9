package chacha20core

import (
	"encoding/binary"
	"math/bits"

	runtimehooks "github.com/chachakit/chachakit/runtime_hooks"
	"github.com/chachakit/chachakit/subtle"
)

// batchBlocks is how many blocks the portable code generates before one
// subtle.XORBytes call: 4 blocks amortise the call and keep the buffer small.
const batchBlocks = 4

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

// xorBlocksGeneric is the reference for every assembly path: it generates up
// to batchBlocks keystream blocks into a stack buffer, XORs them into the
// message through subtle.XORBytes (SIMD where the CPU has it), and clears the
// buffer before it returns.
func xorBlocksGeneric(s *State, dst, src []byte) {
	var ks [batchBlocks * BlockSize]byte
	for len(src) > 0 {
		n := min(len(src), len(ks))
		for i := 0; i < n; i += BlockSize {
			blockGeneric(s, (*[BlockSize]byte)(ks[i:]))
			s.Counter++
		}
		subtle.XORBytes(dst[:n], src[:n], ks[:n])
		dst, src = dst[n:], src[n:]
	}
	runtimehooks.Memclr(ks[:])
}

// blockGeneric computes the keystream block numbered s.Counter (RFC 8439,
// Section 2.3): twenty rounds, alternating column and diagonal quarter
// rounds, then the input state added back word by word.
func blockGeneric(s *State, out *[BlockSize]byte) {
	x0, x1, x2, x3 := c0, c1, c2, c3
	x4, x5, x6, x7 := s.Key[0], s.Key[1], s.Key[2], s.Key[3]
	x8, x9, x10, x11 := s.Key[4], s.Key[5], s.Key[6], s.Key[7]
	x12, x13, x14, x15 := s.Counter, s.Nonce[0], s.Nonce[1], s.Nonce[2]

	for range 10 {
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

	le := binary.LittleEndian
	le.PutUint32(out[0:], x0+c0)
	le.PutUint32(out[4:], x1+c1)
	le.PutUint32(out[8:], x2+c2)
	le.PutUint32(out[12:], x3+c3)
	le.PutUint32(out[16:], x4+s.Key[0])
	le.PutUint32(out[20:], x5+s.Key[1])
	le.PutUint32(out[24:], x6+s.Key[2])
	le.PutUint32(out[28:], x7+s.Key[3])
	le.PutUint32(out[32:], x8+s.Key[4])
	le.PutUint32(out[36:], x9+s.Key[5])
	le.PutUint32(out[40:], x10+s.Key[6])
	le.PutUint32(out[44:], x11+s.Key[7])
	le.PutUint32(out[48:], x12+s.Counter)
	le.PutUint32(out[52:], x13+s.Nonce[0])
	le.PutUint32(out[56:], x14+s.Nonce[1])
	le.PutUint32(out[60:], x15+s.Nonce[2])
}

// HChaCha20 derives a 32-byte subkey from a key and the first 16 bytes of an
// XChaCha20 nonce (draft-irtf-cfrg-xchacha-03, Section 2.2): the ChaCha20
// rounds on a state whose last row is the nonce, with no final addition,
// keeping rows 0 and 3. The amd64 assembly paths have their own
// (hChaCha20AVX512, hChaCha20AVX2).
func HChaCha20(out *[32]byte, key *[32]byte, nonce *[16]byte) {
	if hChaCha20Asm(out, key, nonce) {
		return
	}
	hChaCha20Generic(out, key, nonce)
}

// hChaCha20Generic is the portable HChaCha20.
func hChaCha20Generic(out *[32]byte, key *[32]byte, nonce *[16]byte) {
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
