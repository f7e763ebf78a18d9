package aead

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/chachakit/chachakit/internal/aeadasm"
	"github.com/chachakit/chachakit/internal/cryptotest"
	"github.com/chachakit/chachakit/internal/impl"
)

// The long-message paths (the stitched loops: amd64 with AVX-512, 1 KiB
// batches; arm64, 384-byte batches) against x/crypto: lengths in whole batches plus tails up to
// 20 KiB, dst offsets, in place, append, and tampering. They run under every
// implementation of "aead" (on other platforms: the portable code only) and,
// through RunEach, of ChaCha20 and Poly1305, which switch the stitched loop
// off when they force a path other than the default.

func longLengths() []int {
	var l []int
	for b := 0; b <= 20; b++ {
		for _, tail := range []int{0, 1, 15, 16, 17, 63, 64, 65, 500, 1023} {
			l = append(l, b*1024+tail)
		}
	}
	return l
}

func TestLongMessages(t *testing.T) {
	cryptotest.RunEach(t, []string{"aead", "chacha20", "poly1305"}, func(t *testing.T) {
		r := rand.New(rand.NewPCG(7, 1))
		buf := func(n int) []byte {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(r.Uint32())
			}
			return b
		}
		key := buf(32)
		for _, x := range []bool{false, true} {
			var ours, ref interface {
				Seal(dst, nonce, plaintext, ad []byte) []byte
				Open(dst, nonce, ciphertext, ad []byte) ([]byte, error)
				NonceSize() int
			}
			if x {
				ours, _ = NewX(key)
				ref, _ = xcpNewX(key)
			} else {
				ours, _ = New(key)
				ref, _ = xcpNew(key)
			}
			nonce := buf(ours.NonceSize())
			msg := buf(20*1024 + 1023 + 8)
			for i, n := range longLengths() {
				ad := buf(i % 40)
				po := i % 8
				pt := msg[po : po+n]
				want := ref.Seal(nil, nonce, pt, ad)
				do := (i / 8) % 8
				dst := make([]byte, do, do+n+16)
				got := ours.Seal(dst, nonce, pt, ad)
				if !bytes.Equal(got[do:], want) {
					t.Fatalf("X=%v len %d: Seal differs from x/crypto", x, n)
				}
				// In place.
				inPlace := make([]byte, n+16)
				copy(inPlace, pt)
				if got := ours.Seal(inPlace[:0], nonce, inPlace[:n], ad); !bytes.Equal(got, want) {
					t.Fatalf("X=%v len %d: Seal in place differs", x, n)
				}
				if got, err := ours.Open(nil, nonce, want, ad); err != nil || !bytes.Equal(got, pt) {
					t.Fatalf("X=%v len %d: Open = %v", x, n, err)
				}
				if got, err := ours.Open(inPlace[:0], nonce, inPlace, ad); err != nil || !bytes.Equal(got, pt) {
					t.Fatalf("X=%v len %d: Open in place = %v", x, n, err)
				}
				// Tampering with the tag, a batch, the tail or the
				// additional data fails and leaves dst zeroed.
				for _, pos := range []int{n, n + 15, 0, n / 2, n - 1} {
					if pos < 0 || pos >= n+16 {
						continue
					}
					bad := bytes.Clone(want)
					bad[pos] ^= 1 << (i % 8)
					out := bytes.Repeat([]byte{0xaa}, n)
					if _, err := ours.Open(out[:0], nonce, bad, ad); err == nil {
						t.Fatalf("X=%v len %d: forged byte %d opened", x, n, pos)
					}
					if !bytes.Equal(out, make([]byte, n)) {
						t.Fatalf("X=%v len %d: dst not zeroed after a failed Open", x, n)
					}
					// In place too.
					if _, err := ours.Open(bad[:0], nonce, bad, ad); err == nil {
						t.Fatalf("X=%v len %d: forged byte %d opened in place", x, n, pos)
					}
					if !bytes.Equal(bad[:n], make([]byte, n)) {
						t.Fatalf("X=%v len %d: dst not zeroed after a failed Open in place", x, n)
					}
				}
				// dst starting at the tag (allowed: it does not overlap the
				// ciphertext itself).
				shifted := make([]byte, 2*n+16)
				copy(shifted, want)
				if got, err := ours.Open(shifted[n:n], nonce, shifted[:n+16], ad); err != nil || !bytes.Equal(got, pt) {
					t.Fatalf("X=%v len %d: Open into the tag's place = %v", x, n, err)
				}
				if n > 0 {
					if _, err := ours.Open(nil, nonce, want, append(bytes.Clone(ad), 0)); err == nil {
						t.Fatalf("X=%v len %d: wrong additional data opened", x, n)
					}
				}
			}
		}
	})
}

// TestStitchedRuns: under the AVX512Stitched (or NEONStitched, SVE2Stitched) subtest (strict mode fails it
// where it is not available) the long paths do take the stitched loop,
// unless another ChaCha20 or Poly1305 path was forced for the process, and
// forcing another ChaCha20 or Poly1305 path switches it off.
func TestStitchedRuns(t *testing.T) {
	cryptotest.Run(t, "aead", func(t *testing.T) {
		on := impl.Preferred("aead") != impl.Portable
		forced := defaultsForced()
		if got := stitched(pick(16384, 0, true)); got != (on && !forced) {
			t.Fatalf("stitched loop used: %v, want %v", got, on && !forced)
		}
		if on && forced {
			t.Logf("ChaCha20 or Poly1305 is forced: the stitched loop is off")
		}
		if on && !forced {
			t.Logf("aead/%s: Open of 16 KiB runs the stitched loop", impl.Preferred("aead"))
			for _, pkg := range []string{"chacha20", "poly1305"} {
				for _, i := range impl.List(pkg) {
					if i.Available && i.Name != impl.Preferred(pkg) {
						impl.Select(pkg, i.Name)
						if stitched(pick(16384, 0, true)) {
							t.Errorf("%s forced to %s: the stitched loop still runs", pkg, i.Name)
						}
						impl.Reset(pkg)
					}
				}
				impl.Select(pkg, impl.Portable)
				if stitched(pick(16384, 0, true)) {
					t.Errorf("%s forced to Go: the stitched loop still runs", pkg)
				}
				impl.Reset(pkg)
			}
		}
	})
}

// defaultsForced reports whether ChaCha20 or Poly1305 runs another path than
// its dispatcher's own choice (forced for the process).
func defaultsForced() bool {
	return !impl.AtDefault("chacha20") || !impl.AtDefault("poly1305")
}

// TestConformanceAEADPaths runs the AEAD conformance suite under each
// implementation of "aead" (its lengths reach the stitched Open from 1024
// bytes; TestLongMessages covers Seal, which starts at 2048).
func TestConformanceAEADPaths(t *testing.T) {
	cryptotest.Run(t, "aead", func(t *testing.T) {
		t.Run("ChaCha20Poly1305", func(t *testing.T) { cryptotest.TestAEAD(t, New, xcpNew) })
		t.Run("XChaCha20Poly1305", func(t *testing.T) { cryptotest.TestAEAD(t, NewX, xcpNewX) })
	})
}

// BenchmarkStitchedSizes compares the stitched loop with the separate passes
// (aead implementation Go) around its thresholds: -bench StitchedSizes, then
// benchstat -col /path.
func BenchmarkStitchedSizes(b *testing.B) {
	key := make([]byte, 32)
	a, _ := New(key)
	nonce := make([]byte, NonceSize)
	ad := make([]byte, 13)
	for _, path := range []string{"default", impl.Portable} {
		b.Run("path="+path, func(b *testing.B) {
			if path == impl.Portable {
				impl.Select("aead", impl.Portable)
				defer impl.Reset("aead")
			}
			for _, size := range []int{1024, 1350, 2048, 3072, 4096} {
				pt := make([]byte, size)
				ct := a.Seal(nil, nonce, pt, ad)
				dst := make([]byte, size+Overhead)
				b.Run("op=Seal/size="+itoa(size), func(b *testing.B) {
					b.SetBytes(int64(size))
					for b.Loop() {
						a.Seal(dst[:0], nonce, pt, ad)
					}
				})
				b.Run("op=Open/size="+itoa(size), func(b *testing.B) {
					b.SetBytes(int64(size))
					for b.Loop() {
						if _, err := a.Open(dst[:0], nonce, ct, ad); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		})
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

func TestLongAllocs(t *testing.T) {
	cryptotest.Run(t, "aead", func(t *testing.T) {
		a, _ := New(make([]byte, 32))
		nonce := make([]byte, NonceSize)
		for _, n := range []int{1024, 2048, 16384 + 5} {
			pt := make([]byte, n)
			buf := make([]byte, n+Overhead)
			ct := a.Seal(nil, nonce, pt, nil)
			if allocs := testing.AllocsPerRun(10, func() { a.Seal(buf[:0], nonce, pt, nil) }); allocs != 0 {
				t.Errorf("Seal of %d bytes: %v allocations", n, allocs)
			}
			if allocs := testing.AllocsPerRun(10, func() { a.Open(buf[:0], nonce, ct, nil) }); allocs != 0 {
				t.Errorf("Open of %d bytes: %v allocations", n, allocs)
			}
		}
	})
}

// stitched reports whether k is a one-pass kernel for long messages: a
// stitched loop, or with AVX2 only the mid-size kernel, which takes every
// length from 449 bytes.
func stitched(k aeadasm.Kernel) bool {
	return k == aeadasm.StitchedAVX512 || k == aeadasm.MidAVX2 ||
		k == aeadasm.NEONStitched || k == aeadasm.SVE2Stitched
}
