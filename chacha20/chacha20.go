// Package chacha20 implements the ChaCha20 and XChaCha20 stream ciphers as
// specified in RFC 8439 (https://www.rfc-editor.org/rfc/rfc8439) and
// draft-irtf-cfrg-xchacha-03
// (https://datatracker.ietf.org/doc/html/draft-irtf-cfrg-xchacha-03).
//
// It is a drop-in replacement for golang.org/x/crypto/chacha20:
//
//	import "github.com/chachakit/chachakit/chacha20"
//
// keeps the same constants, functions, methods, error texts and panics, and
// gives byte-identical output, whatever the lengths of the calls that
// produce it. It adds [Cipher.Wipe], which erases a Cipher's key, and
// [InitUnauthenticatedCipher], for wrappers that must stay inlinable.
//
// # Where it differs from x/crypto
//
//   - A Cipher refuses to produce keystream past block 2^32-1 on every
//     architecture, and panics as x/crypto's portable code does. x/crypto's
//     arm64 assembly (and, in recent releases, its loong64 assembly) can let
//     the counter wrap after a buffered group of blocks that ends exactly at
//     that block, and then repeats block 0's keystream.
//   - A Cipher may compute a block ahead of the one it needs and keep it for
//     the next call, as x/crypto's arm64 code buffers four; SetCounter and
//     the counter-overflow panic behave exactly as in x/crypto's portable
//     code, so the buffering cannot be observed.
//   - XORKeyStream clears the keystream blocks it used before it returns,
//     keeping only the unused keystream a later call needs, which Wipe
//     clears.
//
// # Choosing the code path
//
// At start-up the package picks the fastest keystream code the CPU has, from
// the features that golang.org/x/sys/cpu reports and, on amd64 and arm64,
// from the CPU family (internal/cpuid; bench/README.md has the measurements).
// Every path gives the same bytes. These settings change the choice:
//
//   - The build tag purego compiles no assembly: the keystream is portable Go.
//   - GODEBUG, read by golang.org/x/sys/cpu when the program starts, switches
//     CPU features off: cpu.avx512f=off, cpu.avx2=off and cpu.ssse3=off on
//     amd64 each leave the next narrower vector code (and, after the last,
//     portable Go); cpu.asimd=off on arm64, cpu.lasx=off and cpu.lsx=off on
//     loong64, cpu.v=off on riscv64 and cpu.vx=off on s390x do the same
//     there; cpu.all=off switches off every feature x/sys/cpu lets it.
//   - The build tag chachakit_impl_env makes the library read
//     CHACHAKIT_IMPL=chacha20=Name from the environment and force that path
//     for the whole process, for tests and benchmarks; without the tag the
//     library reads no environment variable.
//
// `go run ./bench` in the module prints the path chosen on the machine it
// runs on, and `go run ./bench -v` the names that CHACHAKIT_IMPL takes.
package chacha20

import (
	"crypto/cipher"
	"errors"

	"github.com/chachakit/chachakit/internal/alias"
	"github.com/chachakit/chachakit/internal/chacha20core"
	"github.com/chachakit/chachakit/internal/wipe"
	"github.com/chachakit/chachakit/internal/xorbytes"
)

const (
	// KeySize is the size of the key used by this cipher, in bytes.
	KeySize = 32

	// NonceSize is the size of the nonce used with the standard variant of
	// this cipher, in bytes.
	//
	// Note that this is too short to be safely generated at random if the
	// same key is reused more than 2³² times.
	NonceSize = 12

	// NonceSizeX is the size of the nonce used with the XChaCha20 variant of
	// this cipher, in bytes.
	NonceSizeX = 24
)

const blockSize = chacha20core.BlockSize

// Cipher is a stateful instance of ChaCha20 or XChaCha20 using a particular
// key and nonce. A *Cipher implements the cipher.Stream interface.
//
// As in x/crypto, a Cipher holds its key, nonce, counter and buffered
// keystream in itself, and NewUnauthenticatedCipher inlines its allocation:
// a Cipher that does not escape the caller lives on the caller's stack and
// costs no allocation. [Cipher.Wipe] zeroes it; nothing else does (see there).
type Cipher struct {
	s chacha20core.State // for XChaCha20, holding the HChaCha20 subkey
	// The last len bytes of buf have not been used yet: the rest of a block
	// that a call ended inside, and whole blocks generated ahead (see
	// bufBlocks).
	buf [bufSize]byte
	len int
	// overflow is set once the block numbered 2^32-1 has been generated:
	// s.Counter has wrapped to 0, and no keystream exists under this nonce
	// beyond what is left in buf.
	overflow bool
	wiped    bool
	// used is set by XORKeyStream and cleared by SetCounter: a call made
	// while it is clear is likely the cipher's only one (see XORKeyStream).
	used bool
}

// bufBlocks is the size of the keystream buffer, in blocks. A call whose
// keystream ends in its last block or less than a block further asks the
// engine for chacha20core.CheapBlocks blocks at once (two on amd64, where
// two cost what one does, else one) and keeps the unused ones for the
// next call: a stream of 64-byte calls then pays for a block every other
// call. golang.org/x/crypto/chacha20 buffers four blocks the same way on
// arm64, loong64, ppc64 and s390x (its bufSize). The first call after
// construction or SetCounter asks for chacha20core.LoneBlocks instead when
// it needs one block.
const (
	bufBlocks = 2
	bufSize   = bufBlocks * blockSize
)

var _ cipher.Stream = (*Cipher)(nil)

// NewUnauthenticatedCipher creates a new ChaCha20 stream cipher with the
// given 32 bytes key and a 12 or 24 bytes nonce. If a nonce of 24 bytes is
// provided, the XChaCha20 construction will be used. It returns an error if
// key or nonce have any other length.
//
// Note that ChaCha20, like all stream ciphers, is not authenticated and
// allows attackers to silently tamper with the plaintext. For this reason, it
// is more appropriate as a building block than as a standalone encryption
// mechanism. Instead, consider using package
// github.com/chachakit/chachakit/aead.
func NewUnauthenticatedCipher(key, nonce []byte) (*Cipher, error) {
	// A wrapper that inlines, as x/crypto's does, so that the Cipher is
	// allocated by the caller and stays on its stack if it does not escape.
	c := &Cipher{}
	return InitUnauthenticatedCipher(c, key, nonce)
}

// InitUnauthenticatedCipher sets up c, which the caller allocated, as
// NewUnauthenticatedCipher(key, nonce) would set up a new Cipher, and returns
// it; with a wrong key or nonce size it returns nil and the same error. c
// may be a Cipher used before, or wiped: it starts over under the new key
// and nonce.
//
// It is the second half of NewUnauthenticatedCipher, for functions that wrap
// it: a wrapper written as
//
//	c := &chacha20.Cipher{}
//	return chacha20.InitUnauthenticatedCipher(c, key, nonce)
//
// stays within the compiler's inlining budget, as NewUnauthenticatedCipher
// does, so a Cipher that does not escape its caller stays on that caller's
// stack. A wrapper that calls NewUnauthenticatedCipher does not inline, and
// its Cipher moves to the heap. The golang.org/x/crypto replacement that
// cmd/chachakit writes is such a wrapper.
//
//go:noinline
func InitUnauthenticatedCipher(c *Cipher, key, nonce []byte) (*Cipher, error) {
	if len(key) != KeySize {
		return nil, errors.New("chacha20: wrong key size")
	}
	if len(nonce) != NonceSize && len(nonce) != NonceSizeX {
		return nil, errors.New("chacha20: wrong nonce size")
	}
	// A 12-byte nonce goes straight to State.Init, without InitFrom's
	// layer: a cipher made per message (QUIC header protection) pays for
	// every call on the way.
	wipe.Do(func() {
		if len(nonce) == NonceSize {
			c.s.Init((*[KeySize]byte)(key), (*[NonceSize]byte)(nonce), 0)
		} else {
			c.s.InitFrom(key, nonce)
		}
	})
	// A Cipher used before (or wiped) starts over: no buffered keystream,
	// counter 0. The buffer's old bytes stay until overwritten; Wipe it
	// first to clear them.
	c.len, c.overflow, c.wiped, c.used = 0, false, false, false
	return c, nil
}

// Wipe zeroes the key, the nonce, the counter and any buffered keystream,
// in a way the compiler cannot remove. Any later call to XORKeyStream or
// SetCounter panics.
//
// Wipe is the only wipe a Cipher gets: nothing wipes it at garbage
// collection, because a cleanup would force every Cipher onto the heap and
// add a runtime record per Cipher, several times the cost of x/crypto's
// whole per-packet use of a Cipher (QUIC header protection makes one per
// packet; bench/README.md has the numbers). Call Wipe, for example with
// defer, when the key must not outlive its use. It does not reach copies
// outside the Cipher (a Cipher copied by value, registers, moved stacks):
// see package runtimehooks.
func (s *Cipher) Wipe() {
	s.s.Wipe()
	wipe.Memclr(s.buf[:])
	s.len = 0
	s.overflow = false
	s.wiped = true
}

// check panics after Wipe. A zero Cipher works, under the all-zero key and
// nonce, as in x/crypto.
func (s *Cipher) check() {
	if s.wiped {
		panic("chacha20: use of a Cipher after Wipe")
	}
}

// SetCounter sets the Cipher counter. The next invocation of XORKeyStream
// will behave as if (64 * counter) bytes had been encrypted so far.
//
// To prevent accidental counter reuse, SetCounter panics if counter is less
// than the current value.
//
// Note that the execution time of XORKeyStream is not independent of the
// counter value.
func (s *Cipher) SetCounter(counter uint32) {
	// The current value is that of x/crypto's portable Cipher: the rest of
	// a started block counts as output already, whole blocks generated
	// ahead do not. Moving to it or beyond drops the buffer.
	s.check()
	if uint64(counter) < s.next() {
		panic("chacha20: SetCounter attempted to rollback counter")
	}
	s.s.Counter = counter
	s.len = 0
	s.overflow = false
	s.used = false
}

// next returns the number of the next block a Cipher that buffered only
// the rest of a started block (x/crypto's portable code) would generate:
// the engine's counter less the whole blocks buffered ahead, 2^32 when the
// last one has been handed out.
func (s *Cipher) next() uint64 {
	gen := uint64(s.s.Counter)
	if s.overflow {
		gen = 1 << 32
	}
	return gen - uint64(s.len/blockSize)
}

// XORKeyStream XORs each byte in the given slice with a byte from the
// cipher's key stream. Dst and src must overlap entirely or not at all.
//
// If len(dst) < len(src), XORKeyStream will panic. It is acceptable
// to pass a dst bigger than src, and in that case, XORKeyStream will
// only update dst[:len(src)] and will not touch the rest of dst.
//
// Multiple calls to XORKeyStream behave as if the concatenation of
// the src buffers was passed in a single run. That is, Cipher
// maintains state and does not reset at each XORKeyStream call.
func (s *Cipher) XORKeyStream(dst, src []byte) {
	s.check()
	if len(src) == 0 {
		return
	}
	if len(dst) < len(src) {
		panic("chacha20: output smaller than input")
	}
	dst = dst[:len(src)]
	if alias.InexactOverlap(dst, src) {
		panic("chacha20: invalid buffer overlap")
	}
	// Use up the rest of the block the previous call ended inside.
	if r := s.len % blockSize; r > 0 {
		n := s.useBuffer(dst, src, r)
		dst, src = dst[n:], src[n:]
		if len(src) == 0 {
			return
		}
	}
	// The counter is 32 bits (RFC 8439, Section 2.4): refuse before
	// producing more if the message needs blocks past 2^32-1. Buffered
	// whole blocks count as not generated yet, so this panics at the same
	// byte as x/crypto's portable code.
	if s.next()+(uint64(len(src))+blockSize-1)/blockSize > 1<<32 {
		panic("chacha20: counter overflow")
	}
	// Then the whole blocks generated ahead.
	if s.len > 0 {
		n := s.useBuffer(dst, src, s.len)
		dst, src = dst[n:], src[n:]
		if len(src) == 0 {
			return
		}
	}
	// The buffer is empty. Whole blocks go straight to dst, unless a
	// single cheap call covers the rest of the message. The first call
	// after construction or SetCounter, when it needs one block, is often
	// the only one (QUIC header protection, SSH's packet ciphers): it
	// takes LoneBlocks.
	cheap := chacha20core.CheapBlocks()
	if !s.used {
		s.used = true
		if len(src) <= blockSize {
			cheap = chacha20core.LoneBlocks()
		}
	}
	if len(src) >= cheap*blockSize {
		full := len(src) &^ (blockSize - 1)
		// A lone block after the last whole batch costs as much as two
		// (a 16 KiB call on AVX512 is 15 batches of 17 and one block):
		// leave it, with any partial block, to the cheap blocks below,
		// which keep the second block for the next call.
		if b := chacha20core.BatchBlocks(); cheap > 1 && b > 1 && full/blockSize%b == 1 {
			full -= blockSize
		}
		if full < len(src) {
			s.xorThen(dst, src, full, cheap)
			return
		}
		s.generated(full / blockSize)
		chacha20core.XORBlocks(&s.s, dst, src)
		return
	}
	// The rest of the message in as many blocks as are cheap, but none
	// past 2^32-1 (the check above guarantees the ones needed exist):
	// XORed in the buffer, followed by zeros, and copied out, so that the
	// engine's XOR is the only one and what follows it in the buffer is
	// keystream for the next call (golang.org/x/crypto/chacha20 does the
	// same).
	nb := min(uint64(cheap), 1<<32-s.next())
	ks := s.buf[bufSize-nb*blockSize:]
	n := copy(ks, src)
	clear(ks[n:])
	s.generated(int(nb))
	chacha20core.XORBlocks(&s.s, ks, ks)
	copy(dst, ks[:n])
	s.len = len(ks) - n
}

// xorThen is XORKeyStream's end when the message has full bytes of whole
// blocks and then more: the whole blocks into dst and the cheap blocks
// after them into the buffer, as above, in one engine call
// (chacha20core.XORBlocksThen; two where the path has no such call).
func (s *Cipher) xorThen(dst, src []byte, full, cheap int) {
	nb := min(uint64(cheap), 1<<32-s.next()-uint64(full/blockSize))
	ks := s.buf[bufSize-nb*blockSize:]
	n := copy(ks, src[full:])
	clear(ks[n:])
	s.generated(full/blockSize + int(nb))
	chacha20core.XORBlocksThen(&s.s, dst[:full], src[:full], ks)
	copy(dst[full:], ks[:n])
	s.len = len(ks) - n
}

// generated records that the engine is about to generate n blocks from
// s.s.Counter, which the caller has checked exist.
func (s *Cipher) generated(n int) {
	if uint64(s.s.Counter)+uint64(n) == 1<<32 {
		s.overflow = true
	}
}

// useBuffer XORs up to max buffered bytes into dst and returns how many.
func (s *Cipher) useBuffer(dst, src []byte, max int) int {
	n := min(max, len(src))
	xorbytes.XORBytes(dst[:n], src[:n], s.buf[bufSize-s.len:])
	s.len -= n
	return n
}

// HChaCha20 uses the ChaCha20 core to generate a derived key from a 32 bytes
// key and a 16 bytes nonce. It returns an error if key or nonce have any
// other length. It is used as part of the XChaCha20 construction.
func HChaCha20(key, nonce []byte) ([]byte, error) {
	// A small wrapper, so that it inlines and the result can stay on the
	// caller's stack.
	out := make([]byte, 32)
	return hChaCha20(out, key, nonce)
}

func hChaCha20(out, key, nonce []byte) ([]byte, error) {
	if len(key) != KeySize {
		return nil, errors.New("chacha20: wrong HChaCha20 key size")
	}
	if len(nonce) != 16 {
		return nil, errors.New("chacha20: wrong HChaCha20 nonce size")
	}
	chacha20core.HChaCha20((*[32]byte)(out), (*[KeySize]byte)(key), (*[16]byte)(nonce))
	return out, nil
}
