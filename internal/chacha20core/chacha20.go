// Package chacha20core is the ChaCha20 engine shared by the chacha20 and
// aead packages: the state, the block function and the multi-block keystream
// XOR that each architecture may replace, specified in RFC 8439, Section 2.3
// (https://www.rfc-editor.org/rfc/rfc8439#section-2.3).
//
// The engine holds no buffered keystream: callers pass whole 64-byte blocks to
// XORBlocks and use Block for a final partial block. Buffering across calls,
// the counter-overflow rules and all argument checks live in the callers.
package chacha20core

import (
	"encoding/binary"
	"unsafe"

	runtimehooks "github.com/chachakit/chachakit/runtime_hooks"
)

const (
	// BlockSize is the size of one ChaCha20 keystream block.
	BlockSize = 64

	// The constant first row of the state, "expand 32-byte k".
	c0 uint32 = 0x61707865
	c1 uint32 = 0x3320646e
	c2 uint32 = 0x79622d32
	c3 uint32 = 0x6b206574
)

// State is the part of the ChaCha20 input matrix that is not constant: the
// key (words 4..11), the block counter (word 12) and the nonce (words 13..15).
// Its layout is fixed: the assembly paths read it by offset.
type State struct {
	Key     [8]uint32
	Counter uint32
	Nonce   [3]uint32
}

// Init loads a 32-byte key and a 12-byte nonce, and sets the counter.
func (s *State) Init(key *[32]byte, nonce *[12]byte, counter uint32) {
	for i := range s.Key {
		s.Key[i] = binary.LittleEndian.Uint32(key[4*i:])
	}
	s.Counter = counter
	for i := range s.Nonce {
		s.Nonce[i] = binary.LittleEndian.Uint32(nonce[4*i:])
	}
}

// InitFrom loads a 32-byte key and a 12-byte ChaCha20 nonce, or a 24-byte
// XChaCha20 nonce (draft-irtf-cfrg-xchacha-03, Section 2.3: HChaCha20 turns
// the key and the first 16 nonce bytes into a subkey, and the last 8 nonce
// bytes follow 4 zero bytes as the ChaCha20 nonce), with the counter at 0.
// The caller has checked the lengths.
func (s *State) InitFrom(key, nonce []byte) {
	var n [12]byte
	if len(nonce) == 24 {
		var subkey [32]byte
		HChaCha20(&subkey, (*[32]byte)(key), (*[16]byte)(nonce))
		copy(n[4:], nonce[16:24])
		s.Init(&subkey, &n, 0)
		runtimehooks.Memclr(subkey[:])
		return
	}
	copy(n[:], nonce)
	s.Init((*[32]byte)(key), &n, 0)
}

// Wipe zeroes the whole state, key included, in a way the compiler cannot
// remove.
func (s *State) Wipe() {
	runtimehooks.Memclr(unsafe.Slice((*byte)(unsafe.Pointer(s)), unsafe.Sizeof(*s)))
}

// XORBlocks XORs src with the keystream starting at block s.Counter and
// writes the result to dst, advancing the counter by one for every 64 bytes.
// len(src) must be a multiple of BlockSize and len(dst) at least len(src);
// dst and src overlap exactly or not at all. The caller makes sure that the
// counter does not pass 2^32: after the block numbered 2^32-1 it wraps to 0.
func XORBlocks(s *State, dst, src []byte) {
	if len(src)%BlockSize != 0 || len(dst) < len(src) {
		panic("chacha20: internal error: wrong dst and/or src length")
	}
	xorBlocks(s, dst[:len(src)], src)
}

// XORKeyStream XORs src of any length with the keystream starting at block
// s.Counter, for one-shot users such as the AEAD: a final partial block
// consumes a whole counter value and its unused keystream is discarded.
func XORKeyStream(s *State, dst, src []byte) {
	full := len(src) &^ (BlockSize - 1)
	if full > 0 {
		XORBlocks(s, dst[:full], src[:full])
	}
	if tail := src[full:]; len(tail) > 0 {
		var ks [BlockSize]byte
		Block(s, &ks)
		xorTail(dst[full:len(src)], tail, ks[:])
		runtimehooks.Memclr(ks[:])
	}
}

// Block writes the keystream block numbered s.Counter to out and advances the
// counter.
//
// It goes through the architecture's keystream path (on a zeroed block), so
// the one-block case is as fast as the assembly makes it.
func Block(s *State, out *[BlockSize]byte) {
	*out = [BlockSize]byte{}
	xorBlocks(s, out[:], out[:])
}

// xorTail XORs a short tail byte by byte. It is kept separate from
// subtle.XORBytes because tails are shorter than one block.
func xorTail(dst, src, ks []byte) {
	ks = ks[:len(src)]
	dst = dst[:len(src)]
	for i := range src {
		dst[i] = src[i] ^ ks[i]
	}
}
