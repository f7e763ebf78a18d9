//go:build gc && !purego

package poly1305

import (
	"encoding/binary"
	"flag"
	"math/big"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/chachakit/chachakit/internal/impl"
	//lint:ignore SA1019 the deprecated package is the reference this one is tested against
	xpoly "golang.org/x/crypto/poly1305"
)

// polyIcount makes BenchmarkPolyCount yield after every operation, for
// instruction counting under qemu (bench/scripts/qemu-icount.sh): without it
// the scheduler's preemption request can land in a counted prologue.
var polyIcount = flag.Bool("polyicount", false, "yield between operations (for qemu-icount.sh)")

// BenchmarkPolyCount is the benchmark that bench/scripts/arm64-poly1305.sh
// counts: one Sum per iteration, by x/crypto/poly1305 (lib=xcrypto) or by
// this package under one implementation (impl=NAME).
func BenchmarkPolyCount(b *testing.B) {
	for _, size := range []int{64, 1350, 16384} {
		msg := make([]byte, size)
		for i := range msg {
			msg[i] = byte(i * 7)
		}
		var key [KeySize]byte
		for i := range key {
			key[i] = byte(i + 1)
		}
		var tag [TagSize]byte
		names := []string{"xcrypto", impl.Portable}
		for _, i := range impl.List("poly1305") {
			if i.Available {
				names = append(names, i.Name)
			}
		}
		for _, name := range names {
			b.Run("size="+itoa(size)+"/impl="+name, func(b *testing.B) {
				b.SetBytes(int64(size))
				b.ReportAllocs()
				if name != "xcrypto" {
					if !impl.Select("poly1305", name) {
						b.Fatalf("cannot select %s", name)
					}
					defer impl.Reset("poly1305")
				}
				runtime.Gosched()
				for i := 0; i < b.N; i++ {
					if name == "xcrypto" {
						xpoly.Sum(&tag, msg, &key)
					} else {
						Sum(&tag, msg, &key)
					}
					if *polyIcount {
						runtime.Gosched()
					}
				}
			})
		}
	}
}

// BenchmarkPolyBlocks calls one block function directly on size bytes of
// whole blocks (fn=NEON: blocksNEON, fn=Scalar64: blocksScalar64), for
// placing the dispatcher's threshold neonMinBytes: bench/scripts/
// arm64-poly1305.sh -threshold counts and estimates each call under qemu
// (with -polyicount, which yields between calls).
func BenchmarkPolyBlocks(b *testing.B) {
	msg := make([]byte, 2048)
	for i := range msg {
		msg[i] = byte(i * 7)
	}
	for size := 256; size <= len(msg); size += 64 {
		for _, fn := range []string{"NEON", "Scalar64"} {
			b.Run("size="+itoa(size)+"/fn="+fn, func(b *testing.B) {
				st := state{r: [2]uint64{0x0FFFFFFC0FFFFFFF, 0x0FFFFFFC0FFFFFFC}}
				b.SetBytes(int64(size))
				runtime.Gosched()
				for i := 0; i < b.N; i++ {
					if fn == "NEON" {
						blocksNEON(&st, msg[:size], 1)
					} else {
						blocksScalar64(&st, msg[:size], 1)
					}
					if *polyIcount {
						runtime.Gosched()
					}
				}
			})
		}
	}
}

// The clamping masks of r (RFC 8439, Section 2.5).
const clamp0, clamp1 = 0x0FFFFFFC0FFFFFFF, 0x0FFFFFFC0FFFFFFC

// twinHs are the extreme accumulators of the twin tests: zero, every limb
// at its largest (h2 up to 7, the portable code's bound) and values just
// below p.
var twinHs = [][3]uint64{{0, 0, 0}, {^uint64(0), ^uint64(0), 7}, {^uint64(0), ^uint64(0), 4}, {0xFFFFFFFFFFFFFFFB, ^uint64(0), 3}}

// twinCase returns the state of twin-test trial number trial and fills msg:
// every third r from rs (the rest random clamped values), every other h from
// twinHs (the rest random), and every fifth message all ones.
func twinCase(rng *rand.Rand, trial int, rs [][2]uint64, msg []byte) state {
	var st state
	if trial%3 == 0 {
		st.r = rs[trial/3%len(rs)]
	} else {
		st.r = [2]uint64{rng.Uint64() & clamp0, rng.Uint64() & clamp1}
	}
	if trial%2 == 0 {
		st.h = twinHs[trial/2%len(twinHs)]
	} else {
		st.h = [3]uint64{rng.Uint64(), rng.Uint64(), rng.Uint64N(8)}
	}
	for i := range msg {
		msg[i] = byte(rng.Uint32())
	}
	if trial%5 == 0 {
		for i := range msg {
			msg[i] = 0xFF
		}
	}
	return st
}

// TestScalar64Twin compares blocksScalar64 with its Go twin blocksGeneric
// block by block, from states the MAC never reaches as well as ordinary ones:
// every limb of h at its largest (h2 up to 7, the portable code's bound),
// clamped r at its largest and smallest, and both values of hibit. The two
// leave h in different partly reduced forms, so they are compared modulo
// 2^130 - 5; the assembly's own bound, h2 <= 4, is checked too.
func TestScalar64Twin(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	msg := make([]byte, 16*40)
	rs := [][2]uint64{{clamp0, clamp1}, {0, 0}, {1, 0}, {0, 4}, {clamp0, 0}, {0, clamp1}}
	for trial := 0; trial < 3000; trial++ {
		st := twinCase(rng, trial, rs, msg)
		n := 16 * (1 + rng.IntN(40))
		full := trial%7 != 0
		var hibit uint64
		if full {
			hibit = 1
		}
		want, got := st, st
		blocksGeneric(&want, msg[:n], full)
		blocksScalar64(&got, msg[:n], hibit)
		if got.h[2] > 4 {
			t.Fatalf("trial %d: h2 = %d after blocksScalar64, want <= 4", trial, got.h[2])
		}
		g, w := stateValue(&got), stateValue(&want)
		if g.Mod(g, bigP).Cmp(w.Mod(w, bigP)) != 0 {
			t.Fatalf("trial %d (r %x, h %x, %d bytes, full %v): h = %#x mod p, want %#x", trial, st.r, st.h, n, full, g, w)
		}
		if got.r != st.r || got.s != st.s {
			t.Fatalf("trial %d: r or s changed", trial)
		}
	}
}

// TestNEONTwin compares blocksNEON with blocksGeneric as TestScalar64Twin
// does blocksScalar64, at every block count from 0 to 99 (0 to 3 leading
// scalar blocks, then 0 to 24 vector steps, the last of them with its own
// powers of r), from the same extreme states and keys: h0 = h1 = 2^64-1
// with h2 up to 7 (the largest limbs the conversion to 26 bits sees),
// clamped r at its largest and smallest (so the powers of r reach their
// largest limbs too), all-ones messages (the largest message limbs), and
// both values of hibit. The vector code leaves h in yet another partly
// reduced form, so the results are compared modulo 2^130 - 5; its bound,
// h2 <= 4, is checked too.
func TestNEONTwin(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	msg := make([]byte, 16*100)
	rs := [][2]uint64{{clamp0, clamp1}, {0, 0}, {1, 0}, {0, 4}, {clamp0, 0}, {0, clamp1}, {2, 0}}
	for trial := 0; trial < 4000; trial++ {
		st := twinCase(rng, trial, rs, msg)
		blocks := trial % 100
		n := 16*blocks + rng.IntN(16) // a partial block at the end is ignored
		full := trial%7 != 0
		var hibit uint64
		if full {
			hibit = 1
		}
		want, got := st, st
		blocksGeneric(&want, msg[:n], full)
		blocksNEON(&got, msg[:n], hibit)
		if blocks == 0 {
			if got != st {
				t.Fatalf("trial %d: blocksNEON changed the state without a block", trial)
			}
			continue
		}
		if got.h[2] > 4 {
			t.Fatalf("trial %d (%d blocks): h2 = %d after blocksNEON, want <= 4", trial, blocks, got.h[2])
		}
		g, w := stateValue(&got), stateValue(&want)
		if g.Mod(g, bigP).Cmp(w.Mod(w, bigP)) != 0 {
			t.Fatalf("trial %d (r %x, h %x, %d blocks, full %v): h = %#x mod p, want %#x", trial, st.r, st.h, blocks, full, g, w)
		}
		if got.r != st.r || got.s != st.s {
			t.Fatalf("trial %d: r or s changed", trial)
		}
	}
}

// TestNEONNearP drives the lanes of blocksNEON to sums near 2^130 - 5: with
// r = 1 every power of r is 1 and the function only adds, so a last block
// chosen modulo p makes the sum of the message land on p - 2 ... p + 4
// modulo p, which the final conversion leaves as p - 2, p - 1, or 0 ... 4
// or p ... p + 4 (below 2^130 + 5): the values that finalize's conditional
// subtraction of p must sort out. The tag is compared with x/crypto's under
// five s values, and the state with the exact sum modulo p.
func TestNEONNearP(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	sValues := [][2]uint64{{0, 0}, {^uint64(0), ^uint64(0)}, {^uint64(0), 0}, {0xFFFFFFFFFFFFFFF0, ^uint64(0)}, {5, 0}}
	for blocks := 4; blocks <= 24; blocks++ {
		for off := int64(-2); off <= 4; off++ {
			target := new(big.Int).Add(bigP, big.NewInt(off))
			target.Mod(target, bigP)
			msg := make([]byte, 16*blocks)
			for {
				for i := range msg {
					msg[i] = byte(rng.Uint32())
				}
				if rng.IntN(2) == 0 {
					for i := range msg[:len(msg)-16] {
						msg[i] = 0xFF
					}
				}
				// sum of the first blocks, each plus 2^128
				sum := new(big.Int)
				for i := 0; i < blocks-1; i++ {
					m := new(big.Int).SetBytes(reverse(msg[16*i : 16*i+16]))
					sum.Add(sum, m.Add(m, big2_128))
				}
				last := new(big.Int).Sub(target, sum)
				last.Sub(last, big2_128).Mod(last, bigP)
				if last.Cmp(big2_128) < 0 {
					copy(msg[len(msg)-16:], le16(last))
					break
				}
			}
			st := state{r: [2]uint64{1, 0}}
			blocksNEON(&st, msg, 1)
			if st.h[2] > 4 {
				t.Fatalf("%d blocks, p%+d: h2 = %d", blocks, off, st.h[2])
			}
			if v := stateValue(&st); v.Mod(v, bigP).Cmp(target) != 0 {
				t.Fatalf("%d blocks, p%+d: h = %#x mod p, want %#x", blocks, off, v, target)
			}
			for _, s := range sValues {
				st := st
				st.s = s
				var got [TagSize]byte
				finalize(&got, &st)
				var key [KeySize]byte
				key[0] = 1
				binary.LittleEndian.PutUint64(key[16:], s[0])
				binary.LittleEndian.PutUint64(key[24:], s[1])
				var want [TagSize]byte
				xpoly.Sum(&want, msg, &key)
				if got != want {
					t.Fatalf("%d blocks, p%+d, s %x: tag %x, want %x (h %x)", blocks, off, s, got, want, st.h)
				}
			}
		}
	}
}

// reverse returns b's bytes in the opposite order (little-endian to
// big.Int's big-endian).
func reverse(b []byte) []byte {
	r := make([]byte, len(b))
	for i := range b {
		r[len(b)-1-i] = b[i]
	}
	return r
}
