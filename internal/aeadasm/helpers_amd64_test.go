//go:build gc && !purego

package aeadasm

import "golang.org/x/sys/cpu"

// The tests drive each kernel directly, in the shapes below; Seal and Open
// are tested through them and through the aead package's suites.

var (
	avx512CPU = cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL && cpu.X86.HasAVX2
	hasBMI2   = cpu.X86.HasBMI2
)

// smallKernels are the small kernels, each tested on every CPU that can
// run it whichever one the route prefers.
var smallKernels = []Kernel{SmallAVX512, SmallAVX2}

func SmallAEADAvailable(k Kernel) bool {
	if k != SmallAVX2 {
		return avx512CPU && hasBW && hasBMI2
	}
	return cpu.X86.HasAVX2 && hasBMI2
}

func SealSmall(k Kernel, key *[32]byte, nonce []byte, tag *[16]byte, ciphertext, plaintext, ad []byte) {
	checkSmall(k, len(plaintext), ad)
	small(k, key, nonce, ciphertext[:len(plaintext)], plaintext, ad, tag, 0)
}

func OpenSmall(k Kernel, key *[32]byte, nonce []byte, plaintext, ciphertext []byte, tag *[16]byte, ad []byte) bool {
	checkSmall(k, len(ciphertext), ad)
	return small(k, key, nonce, plaintext[:len(ciphertext)], ciphertext, ad, tag, 1) == 1
}

func StitchedAVX512Available() bool { return avx512CPU && hasBMI2 }
func MidAVX2Available() bool        { return cpu.X86.HasAVX2 && hasBMI2 }
func LanesAVX512Available() bool    { return StitchedAVX512Available() && hasIFMA && hasBW }

const (
	MidMin   = MidAVX2Min
	MACBatch = Batch
)

func MidTail(n int) int { return n % BlockSize }

func midCheck(dst, src, ad, adTail []byte) {
	if len(src) < MidMin || len(dst) < len(src) || len(ad)%16 != 0 || (len(adTail) != 0 && len(adTail) != 16) {
		panic("chacha20: internal error: wrong dst, src and/or ad length")
	}
}

// SealMidAVX2 and OpenMidAVX2 run the mid-size AVX2 kernels on buffers the
// caller prepared (see xorMACKeySealAVX2).
func SealMidAVX2(s *State, dst, src, ad, adTail []byte, fin *[80]byte, tag *[16]byte) {
	midCheck(dst, src, ad, adTail)
	xorMACKeySealAVX2(s, dst[:len(src)], src, ad, adTail, fin, nil, tag)
}

func OpenMidAVX2(s *State, dst, src, ad, adTail []byte, fin *[80]byte, z *[256]byte, tag *[16]byte) {
	midCheck(dst, src, ad, adTail)
	xorMACKeyOpenAVX2(s, dst[:len(src)], src, ad, adTail, fin, z, tag)
}

// XORAndMAC runs a stitched loop: with lag, as a Seal (skip the MAC in
// the first batch).
func XORAndMAC(k Kernel, s *State, dst, src, mac []byte, lag bool, h *[3]uint64, r *[2]uint64) {
	skip := 0
	if lag {
		skip = 1
	}
	if len(src)%Batch != 0 || len(dst) < len(src) || len(mac) != len(src)-skip*Batch {
		panic("chacha20: internal error: wrong dst, src and/or mac length")
	}
	xorMACAVX512(s, dst[:len(src)], src, mac, skip, h, r)
}

// place lays a kernel test's buffers out in buf, which has guard bytes
// around offset off: in place, msg copied to buf[off:] is both dst and
// src; otherwise dst is buf[off:off+len(msg)] and src is msg after off
// bytes of prefix(off), so that it starts at the same misalignment.
func place(buf []byte, off int, msg []byte, inPlace bool, prefix func(int) []byte) (dst, src []byte) {
	n := len(msg)
	if inPlace {
		copy(buf[off:], msg)
		return buf[off : off+n], buf[off : off+n]
	}
	return buf[off : off+n], append(prefix(off), msg...)[off:]
}
