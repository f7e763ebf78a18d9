package poly1305

import (
	"bytes"
	"encoding/binary"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
	"github.com/chachakit/chachakit/internal/impl"
	//lint:ignore SA1019 the deprecated package is the reference this one is tested against
	xpoly "golang.org/x/crypto/poly1305"
)

// These tests aim at the vector paths (eight or four blocks per step, powers
// of r, conversions between limb sizes at the start and end of each call):
// long all-ones messages under the largest clamped r, lengths on both sides
// of the thresholds and of every group boundary, writes split at every
// offset, and sums that land next to 2^130 − 5. x/crypto/poly1305 is the
// reference throughout.

// clampMaxR0 and clampMaxR1 are the largest r clamping allows. They are
// constants because Go 1.26's s390x back end rejects a byte-reversed store
// of a value loaded from a global ("illegal combination MOVDBR ADDR ...
// REG"), which makeKey inlined with a global array's element produced.
const clampMaxR0, clampMaxR1 = 0x0FFFFFFC0FFFFFFF, 0x0FFFFFFC0FFFFFFC

func makeKey(r0, r1, s0, s1 uint64) [KeySize]byte {
	var k [KeySize]byte
	binary.LittleEndian.PutUint64(k[0:], r0)
	binary.LittleEndian.PutUint64(k[8:], r1)
	binary.LittleEndian.PutUint64(k[16:], s0)
	binary.LittleEndian.PutUint64(k[24:], s1)
	return k
}

func checkSum(t *testing.T, what string, msg []byte, key *[KeySize]byte) {
	t.Helper()
	var got, want [TagSize]byte
	Sum(&got, msg, key)
	xpoly.Sum(&want, msg, key)
	if got != want {
		t.Fatalf("%s: len %d, key %x: tag %x, want %x", what, len(msg), key[:], got, want)
	}
}

// TestLongEdges runs all-ones (the largest blocks), all-zero and random
// messages up to 20 KiB under the largest clamped r (the largest limbs in
// every power of r) and s values that carry, at every length around each
// multiple of 128 bytes (a group of eight blocks) and of 64 bytes.
func TestLongEdges(t *testing.T) {
	cryptotest.Run(t, "poly1305", func(t *testing.T) {
		r := rand.New(rand.NewPCG(3, 4))
		const maxLen = 20 << 10
		rnd := make([]byte, maxLen)
		for i := range rnd {
			rnd[i] = byte(r.Uint32())
		}
		msgs := map[string][]byte{
			"ones":   bytes.Repeat([]byte{0xFF}, maxLen),
			"zeros":  make([]byte, maxLen),
			"random": rnd,
		}
		keys := []([KeySize]byte){
			makeKey(clampMaxR0, clampMaxR1, ^uint64(0), ^uint64(0)),
			makeKey(^uint64(0), ^uint64(0), ^uint64(0), 0),
			makeKey(1, 0, 0, 0),
			makeKey(0, 4, 1, 0),
		}
		var lens []int
		for base := 0; base <= maxLen; base += 64 {
			for d := -17; d <= 17; d++ {
				if n := base + d; n >= 0 && n <= maxLen && (base < 4096 || d%16 == 0 || d == -1 || d == 1) {
					lens = append(lens, n)
				}
			}
		}
		for name, m := range msgs {
			for _, k := range keys {
				for _, n := range lens {
					checkSum(t, name, m[:n], &k)
				}
			}
		}
	})
}

// TestSplitWrites splits messages in two at every offset, and in three at
// many, so that the vector paths start and stop at every alignment and
// carry their state across calls.
func TestSplitWrites(t *testing.T) {
	cryptotest.Run(t, "poly1305", func(t *testing.T) {
		r := rand.New(rand.NewPCG(5, 6))
		for _, n := range []int{255, 256, 257, 1023, 1350, 2048 + 7} {
			msg := make([]byte, n)
			for i := range msg {
				msg[i] = byte(r.Uint32())
			}
			if n == 1023 {
				for i := range msg {
					msg[i] = 0xFF
				}
			}
			key := makeKey(clampMaxR0, clampMaxR1, r.Uint64(), r.Uint64())
			var want [TagSize]byte
			xpoly.Sum(&want, msg, &key)
			for i := 0; i <= n; i++ {
				var m MAC
				m.Init(&key)
				m.Write(msg[:i])
				j := i + (n-i)/3
				m.Write(msg[i:j])
				m.Write(msg[j:])
				var got [TagSize]byte
				m.Sum(&got)
				if got != want {
					t.Fatalf("len %d split at %d, %d: tag %x, want %x", n, i, j, got, want)
				}
			}
		}
	})
}

// TestAEADShape feeds the MAC as the AEAD does (padded additional data,
// padded ciphertext, lengths) at every ciphertext length around the vector
// thresholds, with additional data of several lengths.
func TestAEADShape(t *testing.T) {
	cryptotest.Run(t, "poly1305", func(t *testing.T) {
		r := rand.New(rand.NewPCG(7, 8))
		ct := make([]byte, 3000)
		for i := range ct {
			ct[i] = byte(r.Uint32())
		}
		for _, adLen := range []int{0, 13, 16, 300} {
			ad := ct[len(ct)-adLen:]
			for n := 0; n <= 1100; n++ {
				key := makeKey(r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64())
				var m MAC
				m.Init(&key)
				m.WritePadded(ad)
				m.WritePadded(ct[:n])
				var lens [16]byte
				binary.LittleEndian.PutUint64(lens[0:], uint64(adLen))
				binary.LittleEndian.PutUint64(lens[8:], uint64(n))
				m.Write(lens[:])
				var got [TagSize]byte
				m.Sum(&got)

				pad := func(b []byte) []byte { return append(bytes.Clone(b), make([]byte, (16-len(b)%16)%16)...) }
				full := append(append(pad(ad), pad(ct[:n])...), lens[:]...)
				var want [TagSize]byte
				xpoly.Sum(&want, full, &key)
				if got != want {
					t.Fatalf("ad %d, ciphertext %d: tag %x, want %x", adLen, n, got, want)
				}
			}
		}
	})
}

var p1305 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 130), big.NewInt(5))

// messageSumming returns nBlocks full blocks whose sum (with their 2^128
// bits) is congruent to target modulo 2^130 − 5; under r = 1 the
// accumulator is that sum, so the final reduction sees values next to p.
func messageSumming(target *big.Int, nBlocks int) []byte {
	// Σ x_i = target − n·2^128 (mod p), spread greedily over the blocks.
	v := new(big.Int).Lsh(big.NewInt(int64(nBlocks)), 128)
	v.Sub(target, v)
	v.Mod(v, p1305)
	maxBlock := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 128), big.NewInt(1))
	for new(big.Int).Mul(maxBlock, big.NewInt(int64(nBlocks))).Cmp(v) < 0 {
		panic("too few blocks")
	}
	msg := make([]byte, 16*nBlocks)
	for i := 0; i < nBlocks; i++ {
		x := v
		if v.Cmp(maxBlock) > 0 {
			x = maxBlock
		}
		b := x.Bytes() // big endian
		for j, c := range b {
			msg[16*i+len(b)-1-j] = c
		}
		v = new(big.Int).Sub(v, x)
	}
	return msg
}

// TestNearP drives the accumulator to p − 3 … p + 3 and 2^130 − 1 … 2^130 + 2
// (modulo p: the representative each path holds depends on its reduction)
// with r = 1 and r = 2^k, messages long enough for every vector path, and s
// values that make the final addition carry.
func TestNearP(t *testing.T) {
	cryptotest.Run(t, "poly1305", func(t *testing.T) {
		two130 := new(big.Int).Lsh(big.NewInt(1), 130)
		var targets []*big.Int
		for d := int64(-3); d <= 3; d++ {
			targets = append(targets, new(big.Int).Add(p1305, big.NewInt(d)))
			targets = append(targets, new(big.Int).Add(two130, big.NewInt(d)))
		}
		targets = append(targets, big.NewInt(0), big.NewInt(1))
		for _, nBlocks := range []int{4, 15, 16, 17, 31, 32, 33, 64, 100} {
			for _, tg := range targets {
				msg := messageSumming(tg, nBlocks)
				for _, s := range [][2]uint64{{0, 0}, {^uint64(0), ^uint64(0)}, {5, 0}} {
					key := makeKey(1, 0, s[0], s[1])
					checkSum(t, "r=1", msg, &key)
					key = makeKey(1<<27, 0, s[0], s[1])
					checkSum(t, "r=2^27", msg, &key)
					key = makeKey(0, 1<<59, s[0], s[1])
					checkSum(t, "r=2^123", msg, &key)
				}
			}
		}
	})
}

// TestAllocsEveryPath checks that no path allocates.
func TestAllocsEveryPath(t *testing.T) {
	cryptotest.Run(t, "poly1305", func(t *testing.T) {
		var k [KeySize]byte
		msg := make([]byte, 16384)
		var tag [TagSize]byte
		for _, n := range []int{64, 1350, 16384} {
			if a := testing.AllocsPerRun(10, func() { Sum(&tag, msg[:n], &k) }); a != 0 {
				t.Errorf("Sum of %d bytes: %v allocations", n, a)
			}
		}
	})
}

// BenchmarkSumPaths compares every implementation, each forced on its own,
// with x/crypto/poly1305 (lib=xcrypto; benchstat -col /lib puts it first).
func BenchmarkSumPaths(b *testing.B) {
	libs := []string{"xcrypto", impl.Portable}
	for _, i := range impl.List("poly1305") {
		if i.Available {
			libs = append(libs, i.Name)
		}
	}
	for _, lib := range libs {
		for _, size := range []int{64, 1350, 16384} {
			name := "lib=chachakit-" + lib
			if lib == "xcrypto" {
				name = "lib=xcrypto"
			}
			b.Run(name+"/size="+itoa(size), func(b *testing.B) {
				if lib != "xcrypto" {
					if !impl.Select("poly1305", lib) {
						b.Fatalf("cannot select %s", lib)
					}
					defer impl.Reset("poly1305")
				}
				msg := make([]byte, size)
				var k [KeySize]byte
				var tag [TagSize]byte
				b.SetBytes(int64(size))
				b.ReportAllocs()
				for b.Loop() {
					if lib == "xcrypto" {
						xpoly.Sum(&tag, msg, &k)
					} else {
						Sum(&tag, msg, &k)
					}
				}
			})
		}
	}
}
