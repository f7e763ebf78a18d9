package chacha20core_test

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/chachakit/chachakit/aead"
	"github.com/chachakit/chachakit/chacha20"
	"github.com/chachakit/chachakit/internal/cryptotest"
	"github.com/chachakit/chachakit/internal/impl"
	xchacha20 "golang.org/x/crypto/chacha20"
)

// TestAgainstXCrypto runs the public chacha20 package, under every keystream
// implementation, against x/crypto's chacha20 at every length 0..1100 and on
// random split points, as a check of the engine that does not depend on the
// portable reference.
func TestAgainstXCrypto(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		r := rand.New(rand.NewPCG(11, 12))
		key := make([]byte, chacha20.KeySize)
		for _, nonceSize := range []int{chacha20.NonceSize, chacha20.NonceSizeX} {
			nonce := make([]byte, nonceSize)
			src := make([]byte, 1100)
			for n := 0; n <= 1100; n++ {
				fill(r, key)
				fill(r, nonce)
				fill(r, src[:n])
				ours, err := chacha20.NewUnauthenticatedCipher(key, nonce)
				if err != nil {
					t.Fatal(err)
				}
				ref, err := xchacha20.NewUnauthenticatedCipher(key, nonce)
				if err != nil {
					t.Fatal(err)
				}
				ctr := r.Uint32N(1 << 16)
				ours.SetCounter(ctr)
				ref.SetCounter(ctr)
				got, want := make([]byte, n), make([]byte, n)
				split := 0
				if n > 0 {
					split = r.IntN(n + 1)
				}
				ours.XORKeyStream(got[:split], src[:split])
				ours.XORKeyStream(got[split:], src[split:n])
				ref.XORKeyStream(want, src[:n])
				if !bytes.Equal(got, want) {
					t.Fatalf("nonce %d bytes, length %d, split %d: output differs from x/crypto", nonceSize, n, split)
				}
			}
		}
	})
}

func fill(r *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(r.Uint32())
	}
}

// TestAllocs checks that the public entry points that go through the
// assembly do not allocate (the buffers must not escape through the
// assembly functions' declarations).
func TestAllocs(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		key := make([]byte, chacha20.KeySize)
		nonce := make([]byte, chacha20.NonceSize)
		for _, n := range []int{64, 1350, 16384} {
			buf := make([]byte, n)
			c, err := chacha20.NewUnauthenticatedCipher(key, nonce)
			if err != nil {
				t.Fatal(err)
			}
			if a := testing.AllocsPerRun(20, func() { c.XORKeyStream(buf, buf) }); a != 0 {
				t.Errorf("(*chacha20.Cipher).XORKeyStream(%d bytes): %v allocations, want 0", n, a)
			}
			a, err := aead.New(key)
			if err != nil {
				t.Fatal(err)
			}
			out := make([]byte, 0, n+a.Overhead())
			if allocs := testing.AllocsPerRun(20, func() { a.Seal(out, nonce, buf, nil) }); allocs != 0 {
				t.Errorf("aead Seal(%d bytes): %v allocations, want 0", n, allocs)
			}
		}
	})
}

var benchSizes = []int{64, 1350, 16384}

// BenchmarkXORKeyStream compares the public chacha20 package under each
// keystream implementation (lib=AVX512, AVX2, SSSE3, Go: forced through the
// registry) with x/crypto's chacha20 (lib=xcrypto) in the same run: one
// XORKeyStream call per iteration on a message of the given size, in place,
// with a cipher created once (and again every 2^16 calls, far from the end
// of the 32-bit counter).
//
// Besides sec/op it reports best-ns/op, the fastest per-call time over
// chunks of about 20 KB of calls within the sample: on a shared, loaded
// machine (this project's has two cores and many jobs) the median of whole
// samples mostly measures the scheduler, while the best chunk approaches
// the uncontended time.
//
//	go test -run '^$' -bench XORKeyStream -count 10 ./internal/chacha20core | benchstat -col /lib -
func BenchmarkXORKeyStream(b *testing.B) {
	key := make([]byte, chacha20.KeySize)
	nonce := make([]byte, chacha20.NonceSize)
	libs := []string{"xcrypto"}
	for _, i := range impl.List("chacha20") {
		if i.Available {
			libs = append(libs, i.Name)
		}
	}
	libs = append(libs, impl.Portable)
	defer impl.Reset("chacha20")
	for _, size := range benchSizes {
		buf := make([]byte, size)
		chunk := max(1, 20000/size)
		for _, lib := range libs {
			b.Run(fmt.Sprintf("size=%d/lib=%s", size, lib), func(b *testing.B) {
				b.SetBytes(int64(size))
				b.ReportAllocs()
				var xc *xchacha20.Cipher
				var c *chacha20.Cipher
				if lib != "xcrypto" {
					if !impl.Select("chacha20", lib) {
						b.Fatalf("cannot select %s", lib)
					}
					defer impl.Reset("chacha20")
				}
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
					if lib == "xcrypto" {
						if i%(1<<16) == 0 {
							xc, _ = xchacha20.NewUnauthenticatedCipher(key, nonce)
						}
						xc.XORKeyStream(buf, buf)
					} else {
						if i%(1<<16) == 0 {
							c, _ = chacha20.NewUnauthenticatedCipher(key, nonce)
						}
						c.XORKeyStream(buf, buf)
					}
				}
				if !math.IsInf(best, 1) {
					b.ReportMetric(best, "best-ns/op")
				}
			})
		}
	}
}
