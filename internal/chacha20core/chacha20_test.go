package chacha20core

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chachakit/chachakit/internal/cryptotest"
	"github.com/chachakit/chachakit/internal/impl"
)

// These tests compare every registered keystream implementation with the
// portable reference, xorBlocksGeneric (and blockGeneric for partial
// blocks), called directly. cryptotest.Run forces each implementation in
// turn; the portable run checks the dispatcher's fallback.

const guardByte = 0xa5

// randState returns a State with random key, nonce and counter.
// visible returns s without the portable code's cache (firstCache), which
// a call may fill: the part of a State that callers see and compare.
func (s State) visible() State {
	s.first = firstCache{}
	return s
}

func randState(r *rand.Rand) State {
	var s State
	for i := range s.Key {
		s.Key[i] = r.Uint32()
	}
	for i := range s.Nonce {
		s.Nonce[i] = r.Uint32()
	}
	s.Counter = r.Uint32()
	return s
}

func randBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// refXORKeyStream is XORKeyStream built from the reference functions only.
func refXORKeyStream(s *State, dst, src []byte) {
	full := len(src) &^ (BlockSize - 1)
	xorBlocksGeneric(s, dst[:full], src[:full])
	if len(src) > full {
		var ks [BlockSize]byte
		blockGeneric(s, &ks)
		s.Counter++
		for i := full; i < len(src); i++ {
			dst[i] = src[i] ^ ks[i-full]
		}
	}
}

// checkXORBlocks runs XORBlocks (XORKeyStream if oneShot) on a copy of src
// at offset srcOff into a guarded dst at offset dstOff (or in place), and
// compares the output, the guard bytes and the final state with the
// reference.
func checkXORBlocks(t *testing.T, s0 State, src []byte, srcOff, dstOff int, inPlace bool, oneShot bool) {
	t.Helper()
	n := len(src)
	want := make([]byte, n)
	ref := s0
	if oneShot {
		refXORKeyStream(&ref, want, src)
	} else {
		xorBlocksGeneric(&ref, want, src)
	}

	const guard = 64
	var in, out []byte
	buf := bytes.Repeat([]byte{guardByte}, dstOff+n+guard)
	out = buf[dstOff : dstOff+n]
	if inPlace {
		copy(out, src)
		in = out
	} else {
		sbuf := make([]byte, srcOff+n+guard)
		in = sbuf[srcOff : srcOff+n]
		copy(in, src)
	}
	s := s0
	if oneShot {
		XORKeyStream(&s, out, in)
	} else {
		XORBlocks(&s, out, in)
	}
	if !bytes.Equal(out, want) {
		i := 0
		for out[i] == want[i] {
			i++
		}
		t.Fatalf("len %d (srcOff %d dstOff %d inPlace %v counter %#x): first wrong byte at %d (block %d)",
			n, srcOff, dstOff, inPlace, s0.Counter, i, i/64)
	}
	for i, b := range buf[:dstOff] {
		if b != guardByte {
			t.Fatalf("len %d: byte %d before dst overwritten", n, i)
		}
	}
	for i, b := range buf[dstOff+n:] {
		if b != guardByte {
			t.Fatalf("len %d (counter %#x): guard byte %d after dst overwritten", n, s0.Counter, i)
		}
	}
	if !inPlace && !bytes.Equal(in, src) {
		t.Fatalf("len %d: src modified", n)
	}
	if s.visible() != ref.visible() {
		t.Fatalf("len %d: state after the call %+v, want %+v", n, s, ref)
	}
}

// TestXORBlocks covers every block count up to several batches of the
// widest path (16 blocks) plus every tail, with source and destination
// offsets 0..7 and in place.
func TestXORBlocks(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		r := rand.New(rand.NewPCG(1, 2))
		for blocks := 0; blocks <= 50; blocks++ {
			src := randBytes(r, blocks*BlockSize)
			s := randState(r)
			s.Counter = r.Uint32N(1 << 20)
			for srcOff := 0; srcOff < 8; srcOff++ {
				for dstOff := 0; dstOff < 8; dstOff++ {
					checkXORBlocks(t, s, src, srcOff, dstOff, false, false)
				}
				checkXORBlocks(t, s, src, 0, srcOff, true, false)
			}
		}
	})
}

// TestXORKeyStreamLengths goes through the one-shot XORKeyStream at every
// length 0..1100, which ends in the assembly for the whole blocks.
func TestXORKeyStreamLengths(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		r := rand.New(rand.NewPCG(3, 4))
		s := randState(r)
		src := randBytes(r, 1100)
		for n := 0; n <= 1100; n++ {
			off := n % 8
			checkXORBlocks(t, s, src[:n], off, (n/8)%8, false, true)
			if n%7 == 0 {
				checkXORBlocks(t, s, src[:n], 0, off, true, true)
			}
		}
	})
}

// TestCounterWrap starts 1..17 blocks before 2^32 and asks for up to 40
// blocks: the lanes past block 2^32-1 continue from 0, as the reference does,
// and the counter ends at the exact wrapped value (0 when exactly the
// remaining blocks are asked for). Batches that compute lanes beyond the
// request must not write them.
func TestCounterWrap(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		r := rand.New(rand.NewPCG(5, 6))
		for k := 1; k <= 17; k++ {
			for blocks := 1; blocks <= 40; blocks++ {
				s := randState(r)
				s.Counter = math.MaxUint32 - uint32(k) + 1 // 2^32-k
				src := randBytes(r, blocks*BlockSize)
				checkXORBlocks(t, s, src, blocks%8, k%8, false, false)
				if blocks == k {
					got := s
					XORBlocks(&got, make([]byte, len(src)), src)
					if got.Counter != 0 {
						t.Fatalf("counter 2^32-%d + %d blocks = %#x, want 0", k, blocks, got.Counter)
					}
				}
			}
		}
	})
}

// TestRandomDifferential compares random states, lengths and offsets.
func TestRandomDifferential(t *testing.T) {
	iters := 3000
	if testing.Short() {
		iters = 300
	}
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		r := rand.New(rand.NewPCG(7, 8))
		for range iters {
			s := randState(r)
			var n int
			if r.IntN(4) == 0 {
				n = r.IntN(300) * BlockSize
			} else {
				n = r.IntN(40) * BlockSize
			}
			src := randBytes(r, n)
			checkXORBlocks(t, s, src, r.IntN(64), r.IntN(64), r.IntN(4) == 0, false)
		}
	})
}

// TestSequentialCalls checks that consecutive calls continue the keystream:
// the counter each path leaves behind is where the next call starts.
func TestSequentialCalls(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		r := rand.New(rand.NewPCG(9, 10))
		s0 := randState(r)
		src := randBytes(r, 200*BlockSize)
		want := make([]byte, len(src))
		ref := s0
		xorBlocksGeneric(&ref, want, src)
		got := make([]byte, len(src))
		s := s0
		for off := 0; off < len(src); {
			n := min(r.IntN(37)*BlockSize, len(src)-off)
			XORBlocks(&s, got[off:off+n], src[off:off+n])
			off += n
		}
		if !bytes.Equal(got, want) || s.visible() != ref.visible() {
			t.Fatal("chunked XORBlocks differs from one call")
		}
	})
}

func TestExpectedImplementation(t *testing.T) {
	cryptotest.CheckExpected(t, "chacha20")
}

// TestGODEBUGSteers re-runs the test binary with GODEBUG switching CPU
// features off (x/sys/cpu reads it) and checks the dispatcher's pick. It
// needs a CPU with every path, and runs only on amd64 with assembly.
func TestGODEBUGSteers(t *testing.T) {
	if os.Getenv("CHACHAKIT_GODEBUG_CHILD") == "1" {
		fmt.Printf("preferred=%s\n", impl.Preferred("chacha20"))
		return
	}
	var all []string
	for _, i := range impl.List("chacha20") {
		if !i.Available {
			t.Skipf("%s is not available on this CPU", i.Name)
		}
		all = append(all, i.Name)
	}
	if strings.Join(all, ",") != "AVX512,AVX2,SSSE3" {
		t.Skipf("implementations %v: not the amd64 assembly", all)
	}
	for _, c := range []struct{ godebug, want string }{
		{"", "AVX512"},
		{"cpu.avx512f=off", "AVX2"},
		{"cpu.avx512vl=off", "AVX2"},
		{"cpu.avx2=off", "SSSE3"},
		{"cpu.avx512f=off,cpu.avx2=off", "SSSE3"},
		{"cpu.avx512f=off,cpu.avx2=off,cpu.ssse3=off", impl.Portable},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestGODEBUGSteers$", "-test.v")
		cmd.Env = append(os.Environ(), "CHACHAKIT_GODEBUG_CHILD=1", "CHACHAKIT_IMPL=", "GODEBUG="+c.godebug)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("GODEBUG=%s: %v\n%s", c.godebug, err, out)
		}
		if !strings.Contains(string(out), "preferred="+c.want+"\n") {
			t.Errorf("GODEBUG=%s: want the dispatcher to pick %s, child said:\n%s", c.godebug, c.want, out)
		}
	}
}

// BenchmarkXORBlocks measures the engine alone under every available
// implementation (impl=...), at block counts that hit each tail path. Like
// BenchmarkXORKeyStream in chacha20_ext_test.go it also reports
// best-ns/op, the fastest per-call time over chunks of about 20 KB.
func BenchmarkXORBlocks(b *testing.B) {
	impls := []string{impl.Portable}
	for _, i := range impl.List("chacha20") {
		if i.Available {
			impls = append(impls, i.Name)
		}
	}
	defer impl.Reset("chacha20")
	for _, blocks := range []int{1, 2, 3, 4, 5, 8, 9, 12, 16, 17, 21, 32, 256} {
		buf := make([]byte, blocks*BlockSize)
		chunk := max(1, 20000/len(buf))
		var s State
		for _, name := range impls {
			b.Run(fmt.Sprintf("blocks=%d/impl=%s", blocks, name), func(b *testing.B) {
				if !impl.Select("chacha20", name) {
					b.Fatalf("cannot select %s", name)
				}
				b.SetBytes(int64(len(buf)))
				b.ReportAllocs()
				best := math.Inf(1)
				var last time.Time
				for i := 0; b.Loop(); i++ {
					if i%chunk == 0 {
						now := time.Now()
						if i > 0 {
							best = min(best, float64(now.Sub(last).Nanoseconds())/float64(chunk))
						}
						last = now
					}
					XORBlocks(&s, buf, buf)
				}
				if !math.IsInf(best, 1) {
					b.ReportMetric(best, "best-ns/op")
				}
			})
		}
	}
}

// TestInitResetsCache: a State used under one key and then Init'ed with
// another gives the second key's keystream (the portable code's cache of
// the first column round is marked stale by Init, not zeroed).
func TestInitResetsCache(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		var k1, k2 [32]byte
		var n [12]byte
		k2[4] = 1 // key word 1, which the cached columns mix
		var s, fresh State
		s.Init(&k1, &n, 0)
		buf := make([]byte, 128)
		XORKeyStream(&s, buf, buf)
		s.Init(&k2, &n, 0)
		fresh.Init(&k2, &n, 0)
		got, want := make([]byte, 128), make([]byte, 128)
		XORKeyStream(&s, got, got)
		XORKeyStream(&fresh, want, want)
		if !bytes.Equal(got, want) {
			t.Fatal("keystream after Init with a new key differs from a fresh State's")
		}
	})
}

// TestXORBlocksThen checks XORBlocksThen against two calls of the reference
// under every implementation: 0..70 blocks of src at offsets 0..7 and 0..3
// blocks of buf (a cipher's buffered call asks for one or two), from random
// counters and from counters that wrap in src or in buf; dst's neighbours
// and the final counter included.
func TestXORBlocksThen(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		r := rand.New(rand.NewPCG(13, 14))
		for blocks := 0; blocks <= 70; blocks++ {
			for tb := 0; tb <= 3; tb++ {
				s := randState(r)
				switch blocks % 3 {
				case 0:
					s.Counter = r.Uint32N(1 << 20)
				case 1:
					s.Counter = math.MaxUint32 - uint32(r.IntN(blocks+tb+1))
				}
				checkXORBlocksThen(t, s, randBytes(r, blocks*BlockSize), randBytes(r, tb*BlockSize), blocks%8)
			}
		}
	})
}

// checkXORBlocksThen runs XORBlocksThen(s0, dst, src, buf) with src and dst
// at offset off in guarded buffers against xorBlocksGeneric twice.
func checkXORBlocksThen(t *testing.T, s0 State, src, buf []byte, off int) {
	t.Helper()
	ref := s0
	want := make([]byte, len(src))
	xorBlocksGeneric(&ref, want, src)
	wantBuf := append([]byte(nil), buf...)
	xorBlocksGeneric(&ref, wantBuf, wantBuf)

	const guard = 64
	d := bytes.Repeat([]byte{guardByte}, off+len(src)+guard)
	in := append(make([]byte, off), src...)[off:]
	gotBuf := append([]byte(nil), buf...)
	s := s0
	XORBlocksThen(&s, d[off:off+len(src)], in, gotBuf)
	if !bytes.Equal(d[off:off+len(src)], want) || !bytes.Equal(gotBuf, wantBuf) || s.Counter != ref.Counter {
		t.Fatalf("%d blocks then %d (counter %#x): keystream or counter (%#x, want %#x) differs",
			len(src)/BlockSize, len(buf)/BlockSize, s0.Counter, s.Counter, ref.Counter)
	}
	for i, b := range d {
		if (i < off || i >= off+len(src)) && b != guardByte {
			t.Fatalf("%d blocks then %d: byte %d outside dst written", len(src)/BlockSize, len(buf)/BlockSize, i)
		}
	}
}
