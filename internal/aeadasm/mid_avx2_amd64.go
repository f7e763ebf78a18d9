//go:build gc && !purego

package aeadasm

import (
	"crypto/subtle"
	"encoding/binary"

	"github.com/chachakit/chachakit/internal/chacha20core"
	"github.com/chachakit/chachakit/internal/wipe"
)

// The mid-size AVX2 kernels (mid_avx2_amd64.s; _asm
// documents the design). One call computes the Poly1305 key block, the
// keystream of the whole message in 8-block batches, the MAC of each
// batch's ciphertext on the integer units during the next batch, the MAC
// of the rest and of the lengths after the last batch, and the tag. Only
// the partial last 64-byte block goes through the buffer fin: the kernel
// reads and writes nothing past the message.
//
// With p = len(src) - len(src)%64 and fin holding on entry src[p:] zero
// padded in fin[0:64] and the two lengths of the AEAD (additional data,
// ciphertext; 64-bit little endian) in fin[64:80], the kernel XORs the
// keystream after the key block into dst for src[:p] and into fin[0:64]
// for src[p:], and writes to tag the Poly1305 tag of ad (whole 16-byte
// blocks), adTail (0 or 16 bytes: the padded last partial block of the
// additional data), the ciphertext padded to 16 bytes and the lengths. It
// advances s.Counter past the blocks generated, modulo 2^32. The Open
// kernel writes each part of the plaintext only after it was MACed, so dst
// may be src; z holds the last 16 blocks of its MAC input (the last 240
// bytes of src padded to a multiple of 16, then the lengths), MACed during
// its second batch. The key block and every keystream block stay in the
// kernel's frame, which it wipes.
//
//go:noescape
func xorMACKeySealAVX2(s *chacha20core.State, dst, src, ad, adTail []byte, fin *[80]byte, z *[256]byte, tag *[16]byte)

//go:noescape
func xorMACKeyOpenAVX2(s *chacha20core.State, dst, src, ad, adTail []byte, fin *[80]byte, z *[256]byte, tag *[16]byte)

// A tagWords is a tag read ahead of a kernel that may write over it (an
// Open's dst may start where the tag does).
type tagWords [2]uint64

func readTag(tag *[16]byte) tagWords {
	return tagWords{binary.LittleEndian.Uint64(tag[:]), binary.LittleEndian.Uint64(tag[8:])}
}

// matches reports whether want is the tag, in constant time: the two
// halves' differences ORed, one branch on the result.
func (t tagWords) matches(want *[16]byte) bool {
	d := (binary.LittleEndian.Uint64(want[:]) ^ t[0]) | (binary.LittleEndian.Uint64(want[8:]) ^ t[1])
	return subtle.ConstantTimeEq(int32(uint32(d)|uint32(d>>32)), 0) == 1
}

// midAD splits ad into its whole 16-byte blocks and the padded last
// partial block (in buf).
func midAD(ad []byte, buf *[16]byte) (full, tail []byte) {
	n := len(ad) &^ 15
	if n == len(ad) {
		return ad, nil
	}
	copy(buf[:], ad[n:])
	return ad[:n], buf[:]
}

func sealMidAVX2(s *chacha20core.State, ciphertext, plaintext, ad []byte, tag *[16]byte) {
	if len(plaintext) < MidAVX2Min {
		panic("chacha20poly1305: internal error: message too short for the mid-size AVX2 kernel")
	}
	var fin [80]byte
	var adt [16]byte
	adFull, adTail := midAD(ad, &adt)
	p := len(plaintext) - len(plaintext)%64
	copy(fin[:], plaintext[p:])
	binary.LittleEndian.PutUint64(fin[64:], uint64(len(ad)))
	binary.LittleEndian.PutUint64(fin[72:], uint64(len(plaintext)))
	xorMACKeySealAVX2(s, ciphertext, plaintext, adFull, adTail, &fin, nil, tag)
	copy(ciphertext[p:], fin[:])
	// Past the message, fin[:64] holds keystream.
	wipe.Memclr(fin[:64])
}

// openMidAVX2 decrypts each batch in the pass after the one that MACs it;
// Open zeroes the plaintext written if the tag does not verify.
func openMidAVX2(s *chacha20core.State, out, ciphertext, ad []byte, tag *[16]byte) bool {
	n := len(ciphertext)
	if n < MidAVX2Min {
		panic("chacha20poly1305: internal error: message too short for the mid-size AVX2 kernel")
	}
	// out may start where the tag does (it overlaps ciphertext exactly or
	// not at all), and the plaintext is written before the comparison: the
	// tag is read first.
	tg := readTag(tag)
	var fin [80]byte
	var z [256]byte
	var adt [16]byte
	adFull, adTail := midAD(ad, &adt)
	p := n - n%64
	copy(fin[:], ciphertext[p:])
	// The lengths are written to fin and z separately: a 16-byte copy of
	// two 8-byte stores would not be forwarded (a store-to-load stall).
	binary.LittleEndian.PutUint64(fin[64:], uint64(len(ad)))
	binary.LittleEndian.PutUint64(fin[72:], uint64(n))
	copy(z[:], ciphertext[(n+15)&^15-240:])
	binary.LittleEndian.PutUint64(z[240:], uint64(len(ad)))
	binary.LittleEndian.PutUint64(z[248:], uint64(n))
	var want [16]byte
	xorMACKeyOpenAVX2(s, out, ciphertext, adFull, adTail, &fin, &z, &want)
	copy(out[p:], fin[:n-p])
	wipe.Memclr(fin[:64])
	return tg.matches(&want)
}
