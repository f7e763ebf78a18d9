// Package chacha20core is the ChaCha20 engine shared by the chacha20 and
// aead packages: the state, the block function and the multi-block keystream
// XOR that each architecture may replace, specified in RFC 8439, Section 2.3
// (https://www.rfc-editor.org/rfc/rfc8439#section-2.3), and HChaCha20
// (draft-irtf-cfrg-xchacha-03, Section 2.2). The amd64 AEAD kernels, which
// carry their own ChaCha20, are in internal/aeadasm.
//
// The engine holds no buffered keystream: callers pass whole 64-byte blocks to
// XORBlocks and use Block for a final partial block. Buffering across calls,
// the counter-overflow rules and all argument checks live in the callers.
package chacha20core

import (
	"encoding/binary"
	"github.com/chachakit/chachakit/internal/align"
	"unsafe"

	"github.com/chachakit/chachakit/internal/wipe"
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
// Its layout is fixed: the assembly paths read it by offset. It starts with
// a cache of the portable code's, which is empty (and so takes no room and
// moves no offset) in builds with keystream assembly, first_cache*.go; Init
// resets it, so code that changes Key or Nonce by hand after the State has
// been used must call Init instead.
type State struct {
	first firstCache

	Key     [8]uint32
	Counter uint32
	Nonce   [3]uint32
}

// Init loads a 32-byte key and a 12-byte nonce, and sets the counter.
//
// The words are loaded one by one rather than in a loop: a construction
// per message (chacha20.NewUnauthenticatedCipher for QUIC header
// protection, the AEAD's per-message State) pays for Init every time, and
// the compiler does not unroll loops.
func (s *State) Init(key *[32]byte, nonce *[12]byte, counter uint32) {
	le := binary.LittleEndian
	s.Key[0] = le.Uint32(key[0:])
	s.Key[1] = le.Uint32(key[4:])
	s.Key[2] = le.Uint32(key[8:])
	s.Key[3] = le.Uint32(key[12:])
	s.Key[4] = le.Uint32(key[16:])
	s.Key[5] = le.Uint32(key[20:])
	s.Key[6] = le.Uint32(key[24:])
	s.Key[7] = le.Uint32(key[28:])
	s.Counter = counter
	s.Nonce[0] = le.Uint32(nonce[0:])
	s.Nonce[1] = le.Uint32(nonce[4:])
	s.Nonce[2] = le.Uint32(nonce[8:])
	s.first.reset()
}

// InitFrom loads a 32-byte key and a 12-byte ChaCha20 nonce, or a 24-byte
// XChaCha20 nonce (see initX), with the counter at 0. The caller has
// checked the lengths. A 12-byte nonce is read where it is, with no copy.
func (s *State) InitFrom(key, nonce []byte) {
	if len(nonce) == 24 {
		s.initX((*[32]byte)(key), (*[24]byte)(nonce))
		return
	}
	s.Init((*[32]byte)(key), (*[12]byte)(nonce), 0)
}

// initX is InitFrom for a 24-byte XChaCha20 nonce
// (draft-irtf-cfrg-xchacha-03, Section 2.3): HChaCha20 turns the key and the
// first 16 nonce bytes into a subkey, and the last 8 nonce bytes follow 4
// zero bytes as the ChaCha20 nonce. The subkey is wiped.
func (s *State) initX(key *[32]byte, nonce *[24]byte) {
	var an align.Buffer[[12]byte]
	n := &an.V
	var sk align.Buffer[[32]byte]
	subkey := &sk.V
	HChaCha20(subkey, key, (*[16]byte)(nonce[:16]))
	copy(n[4:], nonce[16:24])
	s.Init(subkey, n, 0)
	wipe.Memclr(subkey[:])
}

// Wipe zeroes the whole state, key included, in a way the compiler cannot
// remove.
func (s *State) Wipe() {
	wipe.Memclr(unsafe.Slice((*byte)(unsafe.Pointer(s)), unsafe.Sizeof(*s)))
}

// XORBlocks XORs src with the keystream starting at block s.Counter and
// writes the result to dst, advancing the counter by one for every 64 bytes.
// len(src) must be a multiple of BlockSize and len(dst) at least len(src);
// dst and src overlap exactly or not at all. The caller makes sure that the
// counter does not pass 2^32: after the block numbered 2^32-1 it wraps to 0.
//
// It stays within the inlining budget, so that its callers reach the
// dispatcher with no call in between: a short dst is caught by the bounds
// check of dst[:len(src)] rather than by a test of its own.
func XORBlocks(s *State, dst, src []byte) {
	if len(src)%BlockSize != 0 {
		panic("chacha20: internal error: wrong src length")
	}
	xorBlocks(s, dst[:len(src)], src)
}

// XORBlocksThen is XORBlocks(s, dst, src) followed by XORBlocks(s, buf,
// buf) (len(buf) a multiple of BlockSize): whole blocks into dst, then the
// next blocks of keystream XORed into buf in place, for a stream cipher's
// call that ends in a partial block and keeps the rest of its last blocks
// for the next call (chacha20.Cipher).
func XORBlocksThen(s *State, dst, src, buf []byte) {
	if len(src)%BlockSize != 0 || len(dst) < len(src) || len(buf)%BlockSize != 0 {
		panic("chacha20: internal error: wrong dst, src and/or buf length")
	}
	if len(src) > 0 {
		xorBlocks(s, dst[:len(src)], src)
	}
	if len(buf) > 0 {
		xorBlocks(s, buf, buf)
	}
}

// XORKeyStream XORs src of any length with the keystream starting at block
// s.Counter, for one-shot users such as the AEAD: a final partial block
// consumes a whole counter value and its unused keystream is discarded.
//
// A partial last block is generated in the same engine call as whole blocks
// before it, through a buffer: the SIMD paths make a few blocks in about the
// time of one (bench/README.md, "Engine per path and block count"), so a
// separate call for the tail would cost a whole batch's latency. Up to
// HeadBlocks+1 blocks in all go through the buffer in one call; a longer
// src has all but its last tailBlocks blocks XORed in place first.
func XORKeyStream(s *State, dst, src []byte) {
	full := len(src) &^ (BlockSize - 1)
	if full == len(src) {
		if full > 0 {
			XORBlocks(s, dst[:full], src[:full])
		}
		return
	}
	head := 0
	if full > HeadBlocks*BlockSize {
		head = full - (tailBlocks-1)*BlockSize
		XORBlocks(s, dst[:head], src[:head])
	}
	var b align.Buffer[[(1 + HeadBlocks) * BlockSize]byte]
	buf := &b.V
	rest := src[head:]
	n := roundUp(len(rest))
	copy(buf[:], rest)
	xorBlocks(s, buf[:n], buf[:n])
	copy(dst[head:len(src)], buf[:len(rest)])
	wipe.Memclr(buf[:n])
}

// tailBlocks is how many blocks, the partial one included, XORKeyStream
// puts through its buffer after a long head: eight, the narrowest batch of
// the amd64 AVX-512 and AVX2 paths.
const tailBlocks = 8

// HeadBlocks is the most message blocks KeyAndXOR and KeyStreamHead
// generate in the same engine call as the block before them: with it, 17
// blocks, one batch of the amd64 AVX512 path. The current path may prefer
// fewer (pathHeadBlocks).
const HeadBlocks = 16

// KeyAndXOR writes the keystream block numbered s.Counter to key and XORs src
// (of any length) with the keystream after it into dst, as Block followed by
// XORKeyStream would, in fewer engine calls: the key block and the first
// pathHeadBlocks() blocks of src (up to HeadBlocks; all of a short src, its
// partial last block included) go through one buffer in one call. This is
// the AEAD's Poly1305 key block and encryption (RFC 8439, Section 2.8). dst
// and src overlap exactly or not at all.
func KeyAndXOR(s *State, key *[BlockSize]byte, dst, src []byte) {
	var b align.Buffer[[(1 + HeadBlocks) * BlockSize]byte]
	buf := &b.V
	h := min(len(src), pathHeadBlocks()*BlockSize)
	n := BlockSize + roundUp(h)
	copy(buf[BlockSize:], src[:h])
	xorBlocks(s, buf[:n], buf[:n])
	copy(key[:], buf[:BlockSize])
	copy(dst[:h], buf[BlockSize:BlockSize+h])
	wipe.Memclr(buf[:n])
	if h < len(src) {
		XORKeyStream(s, dst[h:len(src)], src[h:])
	}
}

// KeyStreamHead writes to buf the keystream block numbered s.Counter and
// the keystream for the first min(n, pathHeadBlocks()*BlockSize) bytes after it,
// rounded up to whole blocks, in one engine call, and returns that part of
// buf; the counter advances past the blocks written. It is the first step of
// an AEAD Open that verifies the tag before it decrypts: the caller MACs
// with the key block, XORs the head of the message only if the tag is
// right, continues with XORKeyStream, and wipes buf.
func KeyStreamHead(s *State, buf *[(1 + HeadBlocks) * BlockSize]byte, n int) []byte {
	ks := buf[:BlockSize+roundUp(min(n, pathHeadBlocks()*BlockSize))]
	clear(ks)
	xorBlocks(s, ks, ks)
	return ks
}

// roundUp rounds n up to a whole number of blocks.
func roundUp(n int) int {
	return (n + BlockSize - 1) &^ (BlockSize - 1)
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
