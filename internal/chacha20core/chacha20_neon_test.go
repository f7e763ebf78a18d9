//go:build arm64 && gc && !purego

package chacha20core

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
	"github.com/chachakit/chachakit/internal/impl"
)

// Differential tests of the arm64 NEON4x1 and NEON6x2 paths against the
// portable block function. They run on every arm64 test run (natively or
// under QEMU, whatever the core) under every registered implementation, and
// with the dispatcher's core preference both ways, so that the 6+2/4+1 mix of
// the default rule and the 4+1-only rule both run on every core model.

const neonGuard = 0x5a

// neonRandState returns a state with random key, counter and nonce.
func neonRandState(r *rand.Rand) State {
	var s State
	for i := range s.Key {
		s.Key[i] = r.Uint32()
	}
	s.Counter = r.Uint32()
	for i := range s.Nonce {
		s.Nonce[i] = r.Uint32()
	}
	return s
}

// neonRef XORs src with the keystream from block s.Counter, one
// blockGeneric call per block, into a new slice; a final partial block
// consumes a whole counter value. It returns the counter after the call.
func neonRef(s State, src []byte) ([]byte, uint32) {
	out := make([]byte, len(src))
	var ks [BlockSize]byte
	for i := 0; i < len(src); i += BlockSize {
		blockGeneric(&s, &ks)
		s.Counter++
		for j := i; j < min(i+BlockSize, len(src)); j++ {
			out[j] = src[j] ^ ks[j-i]
		}
	}
	return out, s.Counter
}

// neonBoth runs f with the dispatcher's MIDR preference set both ways.
func neonBoth(t *testing.T, f func(t *testing.T)) {
	saved := prefer4x1
	defer func() { prefer4x1 = saved }()
	for _, p := range []bool{false, true} {
		prefer4x1 = p
		t.Run(fmt.Sprintf("prefer4x1=%v", p), f)
	}
}

// neonCheck runs XORKeyStream (oneShot) or XORBlocks on a copy of s0 over
// src placed at srcOff in a guarded buffer, writing to dstOff of another (or,
// inPlace, the same) guarded buffer, and compares with neonRef.
func neonCheck(t *testing.T, s0 State, src []byte, srcOff, dstOff int, inPlace, oneShot bool) {
	t.Helper()
	n := len(src)
	want, wantCtr := neonRef(s0, src)

	const pad = 80
	sbuf := bytes.Repeat([]byte{neonGuard}, srcOff+n+pad)
	copy(sbuf[srcOff:], src)
	in := sbuf[srcOff : srcOff+n : srcOff+n]
	dbuf, out := sbuf, in
	if !inPlace {
		dbuf = bytes.Repeat([]byte{neonGuard}, dstOff+n+pad)
		out = dbuf[dstOff : dstOff+n : dstOff+n]
	}
	s := s0
	if oneShot {
		XORKeyStream(&s, out, in)
	} else {
		XORBlocks(&s, out, in)
	}
	if !bytes.Equal(out, want) {
		i := 0
		for i < n && out[i] == want[i] {
			i++
		}
		t.Fatalf("len %d srcOff %d dstOff %d inPlace %v counter %#x: first wrong byte %d (block %d)",
			n, srcOff, dstOff, inPlace, s0.Counter, i, i/BlockSize)
	}
	if s.Counter != wantCtr {
		t.Fatalf("len %d counter %#x: counter after = %#x, want %#x", n, s0.Counter, s.Counter, wantCtr)
	}
	if s.Key != s0.Key || s.Nonce != s0.Nonce {
		t.Fatalf("len %d: key or nonce modified", n)
	}
	off := dstOff
	if inPlace {
		off = srcOff
	}
	for i, b := range dbuf {
		if (i < off || i >= off+n) && b != neonGuard {
			t.Fatalf("len %d srcOff %d dstOff %d inPlace %v: byte %d outside dst written", n, srcOff, dstOff, inPlace, i-off)
		}
	}
	if !inPlace {
		for i, b := range sbuf {
			if i < srcOff || i >= srcOff+n {
				if b != neonGuard {
					t.Fatalf("len %d: byte %d outside src written", n, i-srcOff)
				}
			} else if b != src[i-srcOff] {
				t.Fatalf("len %d: src modified at %d", n, i-srcOff)
			}
		}
	}
}

// TestNEONBlockCounts: every block count 1..20 (and a few larger ones that
// mix 6+2 batches, a 4+1 batch and a partial one) through XORBlocks, at
// every src and dst offset 0..7, separate and in place.
func TestNEONBlockCounts(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	counts := []int{}
	for b := 1; b <= 20; b++ {
		counts = append(counts, b)
	}
	counts = append(counts, 21, 23, 24, 25, 29, 31, 32, 33, 40, 45, 64, 67)
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		neonBoth(t, func(t *testing.T) {
			for _, b := range counts {
				src := make([]byte, b*BlockSize)
				for i := range src {
					src[i] = byte(r.Uint32())
				}
				s0 := neonRandState(r)
				for off := range 8 {
					neonCheck(t, s0, src, off, (off*5+3)%8, false, false)
					neonCheck(t, s0, src, off, 0, true, false)
				}
			}
		})
	})
}

// TestNEONLengths: every length 0..1100 through XORKeyStream, with src
// offset len%8 and dst offset (len/8)%8, and in place.
func TestNEONLengths(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	src := make([]byte, 1100)
	for i := range src {
		src[i] = byte(r.Uint32())
	}
	step := 1
	if testing.Short() {
		step = 3
	}
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		neonBoth(t, func(t *testing.T) {
			for n := 0; n <= len(src); n += step {
				s0 := neonRandState(r)
				neonCheck(t, s0, src[:n], n%8, (n/8)%8, false, true)
				neonCheck(t, s0, src[:n], (n/64)%8, 0, true, true)
			}
		})
	})
}

// TestNEONCounterWrap starts just below 2^32 so that the lanes of one batch
// straddle the wrap: the engine wraps after block 2^32-1 like the reference
// (the public packages stop before that), and a partial batch's lanes past
// the blocks asked for are computed but never written.
func TestNEONCounterWrap(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		neonBoth(t, func(t *testing.T) {
			for back := uint32(1); back <= 20; back++ {
				for _, b := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 16, 20, 21, 24} {
					s0 := neonRandState(r)
					s0.Counter = -back
					src := make([]byte, b*BlockSize)
					for i := range src {
						src[i] = byte(r.Uint32())
					}
					neonCheck(t, s0, src, 0, 0, false, false)
					neonCheck(t, s0, src, 1, 0, true, true)
				}
			}
		})
	})
}

// TestNEONDirect calls each assembly function directly (not through the
// dispatcher), on every length it accepts, with guard bytes: NEON4x1 on 1..20
// blocks (whole and partial batches), NEON6x2 on 8, 16 and 24 blocks.
func TestNEONDirect(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	paths := []struct {
		name  string
		f     func(*State, []byte, []byte)
		batch int
	}{
		{"NEON4x1", xorBlocksNEON4x1, 1},
		{"NEON6x2", xorBlocksNEON6x2, 8},
	}
	for _, p := range paths {
		t.Run(p.name, func(t *testing.T) {
			for b := 0; b <= 24; b += p.batch {
				for _, ctr := range []uint32{0, 1, 0xfffffffb, 0xfffffff8, r.Uint32()} {
					s0 := neonRandState(r)
					s0.Counter = ctr
					src := make([]byte, b*BlockSize)
					for i := range src {
						src[i] = byte(r.Uint32())
					}
					want, wantCtr := neonRef(s0, src)
					buf := bytes.Repeat([]byte{neonGuard}, len(src)+2*BlockSize)
					dst := buf[BlockSize : BlockSize+len(src)]
					s := s0
					p.f(&s, dst, src)
					if !bytes.Equal(dst, want) {
						t.Fatalf("%d blocks from %#x: wrong output", b, ctr)
					}
					if s.Counter != wantCtr {
						t.Fatalf("%d blocks from %#x: counter %#x, want %#x", b, ctr, s.Counter, wantCtr)
					}
					for i, c := range buf {
						if (i < BlockSize || i >= BlockSize+len(src)) && c != neonGuard {
							t.Fatalf("%d blocks: byte %d outside dst written", b, i-BlockSize)
						}
					}
					// In place.
					s = s0
					p.f(&s, src, src)
					if !bytes.Equal(src, want) {
						t.Fatalf("%d blocks from %#x in place: wrong output", b, ctr)
					}
				}
			}
		})
	}
}

// TestNEONRFC8439 checks each path against the keystream of RFC 8439,
// Section 2.4.2 (the "sunscreen" example: key 00..1f, nonce
// 000000000000004a00000000, counter 1), extended to 20 blocks with the
// portable code, whose first two blocks are the RFC's.
func TestNEONRFC8439(t *testing.T) {
	var key [32]byte
	for i := range key {
		key[i] = byte(i)
	}
	nonce := [12]byte{7: 0x4a}
	var s0 State
	s0.Init(&key, &nonce, 1)
	// First 16 bytes of the RFC's ciphertext for the plaintext "Ladies and
	// Gentlemen of the class of '99: ...".
	plain := []byte("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.")
	wantHead := []byte{0x6e, 0x2e, 0x35, 0x9a, 0x25, 0x68, 0xf9, 0x80, 0x41, 0xba, 0x07, 0x28, 0xdd, 0x0d, 0x69, 0x81}
	src := make([]byte, 20*BlockSize)
	copy(src, plain)
	want, _ := neonRef(s0, src)
	if !bytes.Equal(want[:16], wantHead) {
		t.Fatalf("reference disagrees with RFC 8439: %x", want[:16])
	}
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		neonBoth(t, func(t *testing.T) {
			for b := 1; b <= 20; b++ {
				s := s0
				got := make([]byte, b*BlockSize)
				XORBlocks(&s, got, src[:len(got)])
				if !bytes.Equal(got, want[:len(got)]) {
					t.Fatalf("%d blocks: wrong keystream", b)
				}
			}
		})
	})
}

// TestNEONSequential: many calls of mixed sizes continue one keystream.
func TestNEONSequential(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	src := make([]byte, 40*BlockSize)
	for i := range src {
		src[i] = byte(r.Uint32())
	}
	s0 := neonRandState(r)
	want, wantCtr := neonRef(s0, src)
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		neonBoth(t, func(t *testing.T) {
			for range 20 {
				s := s0
				got := make([]byte, len(src))
				for i := 0; i < len(src); {
					b := min(1+r.IntN(12), (len(src)-i)/BlockSize)
					XORBlocks(&s, got[i:i+b*BlockSize], src[i:i+b*BlockSize])
					i += b * BlockSize
				}
				if !bytes.Equal(got, want) || s.Counter != wantCtr {
					t.Fatal("split calls do not continue the keystream")
				}
			}
		})
	})
}

// TestNEONAllocs: no path allocates.
func TestNEONAllocs(t *testing.T) {
	buf := make([]byte, 4096+320+64)
	var s State
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		neonBoth(t, func(t *testing.T) {
			for _, n := range []int{64, 128, 320, 512, 1024, len(buf)} {
				if a := testing.AllocsPerRun(10, func() { XORBlocks(&s, buf[:n], buf[:n]) }); a != 0 {
					t.Errorf("XORBlocks(%d) allocates %v times", n, a)
				}
			}
		})
	})
}

// TestNEONMatchesWords checks the keystream layout word by word for one
// block in each lane position of both paths (a transposition or row-order
// slip shows up as a specific word index).
func TestNEONMatchesWords(t *testing.T) {
	var s0 State
	for i := range s0.Key {
		s0.Key[i] = uint32(i+1) * 0x01010101
	}
	s0.Nonce = [3]uint32{0xa0a0a0a0, 0xb0b0b0b0, 0xc0c0c0c0}
	s0.Counter = 100
	for _, p := range []struct {
		name string
		f    func(*State, []byte, []byte)
		n    int
	}{{"NEON4x1", xorBlocksNEON4x1, 5}, {"NEON6x2", xorBlocksNEON6x2, 8}} {
		s := s0
		got := make([]byte, p.n*BlockSize)
		p.f(&s, got, make([]byte, len(got)))
		want, _ := neonRef(s0, make([]byte, len(got)))
		for w := 0; w < len(got)/4; w++ {
			g, x := binary.LittleEndian.Uint32(got[4*w:]), binary.LittleEndian.Uint32(want[4*w:])
			if g != x {
				t.Errorf("%s: block %d word %d = %#08x, want %#08x", p.name, w/16, w%16, g, x)
			}
		}
	}
}

// neonICount makes BenchmarkNEONKeystream yield after every operation, for
// instruction counting under QEMU (bench/scripts/qemu-icount.sh, used by
// bench/scripts/arm64-mca.sh): a preemption request left pending would send a
// counted prologue down its stack-growth path.
var neonICount = flag.Bool("neonicount", false, "yield between operations (for qemu-icount.sh)")

// BenchmarkNEONKeystream: XORBlocks in place under each path (impl=default is
// the dispatcher's own choice on this core) and golang.org/x/crypto/chacha20's
// XORKeyStream (impl=xcrypto, its public API on one cipher) in the same run.
func BenchmarkNEONKeystream(b *testing.B) {
	sizes := []int{64, 128, 192, 256, 320, 384, 448, 512, 1024, 16384}
	impls := []string{"xcrypto", "default", impl.Portable}
	for _, i := range impl.List("chacha20") {
		if i.Available {
			impls = append(impls, i.Name)
		}
	}
	key, nonce := make([]byte, 32), make([]byte, 12)
	for _, size := range sizes {
		buf := make([]byte, size)
		for _, name := range impls {
			b.Run(fmt.Sprintf("size=%d/impl=%s", size, name), func(b *testing.B) {
				defer impl.Reset("chacha20")
				if name != "xcrypto" && name != "default" {
					impl.Select("chacha20", name)
				}
				b.SetBytes(int64(size))
				b.ReportAllocs()
				var xor func(dst, src []byte)
				if name == "xcrypto" {
					var err error
					if xor, err = XCryptoStream(key, nonce); err != nil {
						b.Fatal(err)
					}
				} else {
					var s State
					xor = func(dst, src []byte) { XORBlocks(&s, dst, src) }
				}
				// A b.N loop, not b.Loop: qemu-icount.sh's -ops arithmetic
				// relies on the extra first run with b.N = 1.
				if *neonICount {
					runtime.Gosched()
					for i := 0; i < b.N; i++ {
						xor(buf, buf)
						runtime.Gosched()
					}
					return
				}
				for i := 0; i < b.N; i++ {
					xor(buf, buf)
				}
			})
		}
	}
}
