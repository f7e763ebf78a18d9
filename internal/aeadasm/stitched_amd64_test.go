//go:build gc && !purego

package aeadasm

import (
	"bytes"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/chachakit/chachakit/internal/chacha20core"
	"github.com/chachakit/chachakit/internal/cryptotest"
	"github.com/chachakit/chachakit/internal/impl"
	"github.com/chachakit/chachakit/internal/poly1305"
)

// Twin tests of the stitched AEAD kernel (XORAndMAC, _asm/fused.go) against
// the portable code: the keystream against xorBlocksGeneric, the MAC against
// poly1305.MAC's Write (tags compared, since h is only partly reduced).

// stitchedKernels lists the kernels: name (the registered name of its
// instruction set's toggle in package aead, plus the kernel's own for the
// IFMA loop), whether this CPU runs it, and the kernel.
var stitchedKernels = []struct {
	name      string
	available bool
	kernel    Kernel
}{
	{"AVX512Stitched", StitchedAVX512Available(), StitchedAVX512},
}

// eachStitched runs f for each kernel, skipping those this CPU lacks (a
// failure in strict mode, unless CHACHAKIT_ABSENT names aead/Name).
func eachStitched(t *testing.T, f func(t *testing.T, k Kernel)) {
	for _, k := range stitchedKernels {
		t.Run(k.name, func(t *testing.T) {
			needStitched(t, k.name, k.available)
			f(t, k.kernel)
		})
	}
}

// needStitched skips a test of stitched kernel name (or of a function that
// only it uses) where available is false, and fails it there in strict
// mode unless CHACHAKIT_ABSENT names aead/name (without "-IFMA").
func needStitched(t *testing.T, name string, available bool) {
	t.Helper()
	if !available {
		if cryptotest.Strict() && !slices.Contains(strings.Split(os.Getenv("CHACHAKIT_ABSENT"), ","), "aead/"+strings.TrimSuffix(name, "-IFMA")) {
			t.Fatalf("%s is not available on this CPU, and CHACHAKIT_STRICT=1 expects it to run", name)
		}
		t.Skipf("%s is not available on this CPU", name)
	}
}

// stitchCase runs XORAndMAC on batches*1024 bytes at the given offsets and
// checks it against the portable code. mode: 0 = separate dst, src and mac;
// 1 = in place (dst == src == mac, an Open in place); 2 = a Seal (lag: mac
// is the start of dst, one batch shorter); 3 = a Seal in place.
func stitchCase(t *testing.T, k Kernel, r *rand.Rand, s0 State, key *[32]byte, prefix []byte, batches, off, mode int, fill byte) {
	t.Helper()
	n := batches * MACBatch
	rnd := func(k int) []byte { return randFill(r, k, fill) }
	const guard = 0x5a
	buf := bytes.Repeat([]byte{guard}, n+off+64)
	var dst, src, mac []byte
	lag := mode >= 2
	switch mode {
	case 0:
		src = rnd(n + off)[off:]
		mac = rnd(n + 3 + off)[3+off:]
		dst = buf[off : off+n]
	case 1:
		copy(buf[off:], rnd(n))
		dst, src, mac = buf[off:off+n], buf[off:off+n], buf[off:off+n]
	case 2:
		dst = buf[off : off+n]
		mac = buf[off : off+n-MACBatch]
		src = rnd(n)
	case 3:
		copy(buf[off:], rnd(n))
		dst, src, mac = buf[off:off+n], buf[off:off+n], buf[off:off+n-MACBatch]
	}
	wantMACIn := bytes.Clone(mac)
	want := make([]byte, n)
	ref := s0
	xorBlocksGeneric(&ref, want, bytes.Clone(src))
	if lag {
		// Each batch MACs the ciphertext of the one before.
		wantMACIn = want[:n-MACBatch]
	}

	var pw, pg poly1305.MAC
	pw.Init(key)
	pg.Init(key)
	pw.Write(prefix)
	pg.Write(prefix)
	pw.Write(wantMACIn)
	h, rr := pg.Accumulator()
	s := s0
	XORAndMAC(k, &s, dst, src, mac, lag, h, rr)
	if h[2] >= 8 {
		t.Fatalf("h[2] = %d after the kernel", h[2])
	}
	var tw, tg [16]byte
	pw.Sum(&tw)
	pg.Sum(&tg)

	if s.Counter != ref.Counter || s.Key != ref.Key || s.Nonce != ref.Nonce {
		t.Fatalf("batches %d: state %+v, want %+v", batches, s, ref)
	}
	if !bytes.Equal(dst, want) {
		i := 0
		for dst[i] == want[i] {
			i++
		}
		t.Fatalf("batches %d off %d mode %d counter %#x: keystream differs at byte %d", batches, off, mode, s0.Counter, i)
	}
	if tw != tg {
		t.Fatalf("batches %d off %d mode %d: tag %x, want %x", batches, off, mode, tg, tw)
	}
	// Nothing past dst is written.
	end := off + n
	for i, b := range buf[end:] {
		if b != guard {
			t.Fatalf("batches %d off %d mode %d: byte %d past dst written", batches, off, mode, i)
		}
	}
	if mode == 0 {
		for i, b := range buf[:off] {
			if b != guard {
				t.Fatalf("byte %d before dst written", i)
			}
		}
	}
}

func randKey(r *rand.Rand) *[32]byte {
	var k [32]byte
	for i := range k {
		k[i] = byte(r.Uint32())
	}
	return &k
}

func TestStitchedLengths(t *testing.T) {
	eachStitched(t, func(t *testing.T, k Kernel) {
		r := rand.New(rand.NewPCG(8, 1))
		for batches := 1; batches <= 20; batches++ {
			for off := 0; off <= 7; off++ {
				for mode := 0; mode < 4; mode++ {
					s := randState(r)
					prefix := make([]byte, 16*r.IntN(40))
					stitchCase(t, k, r, s, randKey(r), prefix, batches, off, mode, 0)
				}
			}
		}
	})
}

// TestStitchedCounter: batches that end at or cross block 2^32-1 wrap the
// per-lane counters modulo 2^32, as XORBlocks documents.
func TestStitchedCounter(t *testing.T) {
	eachStitched(t, func(t *testing.T, k Kernel) {
		r := rand.New(rand.NewPCG(8, 2))
		for _, j := range []int{1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 48, 64} {
			for _, batches := range []int{1, 2, 5} {
				s := randState(r)
				s.Counter = uint32(1<<32 - j)
				stitchCase(t, k, r, s, randKey(r), nil, batches, j%8, j%4, 0)
			}
		}
	})
}

// TestStitchedEdges: the largest clamped r and all-ones blocks (the largest
// accumulator and products), and r = 0 or 1.
func TestStitchedEdges(t *testing.T) {
	eachStitched(t, testStitchedEdges)
}

func testStitchedEdges(t *testing.T, k Kernel) {
	r := rand.New(rand.NewPCG(8, 3))
	keys := []*[32]byte{new([32]byte), new([32]byte), new([32]byte), new([32]byte)}
	for i := range keys[0] {
		keys[0][i] = 0xff
	}
	keys[1][0] = 1
	for i := 16; i < 32; i++ {
		keys[1][i] = 0xff
		keys[3][i] = 0xff
	}
	for i := 0; i < 16; i++ {
		keys[3][i] = 0xff
	}
	for _, key := range keys {
		for _, fill := range []byte{0xff, 0x00, 0x80} {
			for _, batches := range []int{1, 3, 8} {
				prefix := bytes.Repeat([]byte{0xff}, 16*r.IntN(20))
				stitchCase(t, k, r, randState(r), key, prefix, batches, 0, 0, fill)
				stitchCase(t, k, r, randState(r), key, prefix, batches, 1, 1, fill)
				stitchCase(t, k, r, randState(r), key, prefix, batches, 2, 2, fill)
			}
		}
	}
}

func TestStitchedAllocs(t *testing.T) {
	eachStitched(t, func(t *testing.T, k Kernel) {
		var s State
		var h [3]uint64
		r := [2]uint64{0x0ffffffc0fffffff, 0x0ffffffc0ffffffc}
		buf := make([]byte, 4096)
		if n := testing.AllocsPerRun(10, func() { XORAndMAC(k, &s, buf, buf, buf, false, &h, &r) }); n != 0 {
			t.Errorf("XORAndMAC allocates %v times", n)
		}
	})
}

// BenchmarkStitched: the kernel alone against the keystream alone.
func BenchmarkStitched(b *testing.B) {
	for _, size := range []int{1024, 16384} {
		buf := make([]byte, size)
		var s State
		var h [3]uint64
		r := [2]uint64{0x0ffffffc0fffffff, 0x0ffffffc0ffffffc}
		for _, k := range stitchedKernels {
			b.Run("kernel="+k.name+"/size="+itoa(size), func(b *testing.B) {
				if !k.available {
					b.Skip("not available")
				}
				b.SetBytes(int64(size))
				for b.Loop() {
					XORAndMAC(k.kernel, &s, buf, buf, buf, false, &h, &r)
				}
			})
		}
		// The keystream alone, on the engine path of the same width.
		for _, name := range []string{"AVX512", "AVX2"} {
			b.Run("kernel=XORBlocks"+name+"/size="+itoa(size), func(b *testing.B) {
				if !impl.Select("chacha20", name) {
					b.Skip("not available")
				}
				defer impl.Reset("chacha20")
				b.SetBytes(int64(size))
				for b.Loop() {
					chacha20core.XORBlocks(&s, buf, buf)
				}
			})
		}
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var d []byte
	for ; n > 0; n /= 10 {
		d = append([]byte{byte('0' + n%10)}, d...)
	}
	return string(d)
}

func BenchmarkStitchedLag(b *testing.B) {
	for _, size := range []int{1024, 2048} {
		buf := make([]byte, size)
		var s State
		var h [3]uint64
		r := [2]uint64{0x0ffffffc0fffffff, 0x0ffffffc0ffffffc}
		for _, k := range stitchedKernels[:1] {
			b.Run("kernel="+k.name+"/size="+itoa(size), func(b *testing.B) {
				b.SetBytes(int64(size))
				for b.Loop() {
					XORAndMAC(k.kernel, &s, buf, buf, buf[:size-MACBatch], true, &h, &r)
				}
			})
		}
	}
}
