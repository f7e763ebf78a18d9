//go:build amd64 && gc && !purego

package aead

import (
	"bytes"
	"crypto/cipher"
	"math/rand/v2"
	"testing"

	"github.com/chachakit/chachakit/internal/aeadasm"
	"github.com/chachakit/chachakit/internal/cryptotest"
	"github.com/chachakit/chachakit/internal/impl"
)

// The mid-size AVX-512 path (internal/aeadasm, aeadasm.MidAVX512)
// against x/crypto. It runs under the aead implementation AVX512Stitched,
// while ChaCha20 and Poly1305 are on their default paths; the tests run
// under every aead implementation, so the lengths are also checked on the
// other paths.

// anyIFMA lets the route take the IFMA kernels at every length for the rest
// of t, as on the cores where internal/cpuid's X86IFMAMin is 0, so that the
// mid-size kernel runs on every CPU that has it.
func anyIFMA(t testing.TB) {
	old := ifmaMin
	ifmaMin = 0
	t.Cleanup(func() { ifmaMin = old })
}

func mid512Rand(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// mid512Check seals pt (at source offset so, into a dst at offset do) and
// opens the result, in place and not, against ref.
func mid512Check(t *testing.T, ours, ref cipher.AEAD, nonce, msg, ad []byte, n, so, do int) {
	t.Helper()
	pt := msg[so : so+n]
	want := ref.Seal(nil, nonce, pt, ad)
	dst := make([]byte, do, do+n+16)
	if got := ours.Seal(dst, nonce, pt, ad); !bytes.Equal(got[do:], want) {
		t.Fatalf("len %d ad %d offsets %d/%d: Seal differs from x/crypto", n, len(ad), so, do)
	}
	inPlace := make([]byte, do+n+16)
	copy(inPlace[do:], pt)
	if got := ours.Seal(inPlace[do:do], nonce, inPlace[do:do+n], ad); !bytes.Equal(got, want) {
		t.Fatalf("len %d ad %d: Seal in place differs from x/crypto", n, len(ad))
	}
	ct := make([]byte, so+n+16)
	copy(ct[so:], want)
	out := make([]byte, do, do+n)
	if got, err := ours.Open(out, nonce, ct[so:], ad); err != nil || !bytes.Equal(got[do:], pt) {
		t.Fatalf("len %d ad %d offsets %d/%d: Open = %v", n, len(ad), so, do, err)
	}
	if got, err := ours.Open(ct[so:so], nonce, ct[so:], ad); err != nil || !bytes.Equal(got, pt) {
		t.Fatalf("len %d ad %d: Open in place = %v", n, len(ad), err)
	}
}

// TestMidAVX512Lengths: every plaintext length 449..3100 (the mid path
// takes 449..2047), with additional data of 0..40 bytes and source and
// destination offsets 0..7 varying with the length, for ChaCha20-Poly1305
// and XChaCha20-Poly1305.
func TestMidAVX512Lengths(t *testing.T) {
	anyIFMA(t)
	cryptotest.Run(t, "aead", func(t *testing.T) {
		r := rand.New(rand.NewPCG(8, 512))
		key := mid512Rand(r, 32)
		msg := mid512Rand(r, 3100+8)
		adBuf := mid512Rand(r, 40)
		for _, x := range []bool{false, true} {
			var ours, ref cipher.AEAD
			if x {
				ours, _ = NewX(key)
				ref, _ = xcpNewX(key)
			} else {
				ours, _ = New(key)
				ref, _ = xcpNew(key)
			}
			nonce := mid512Rand(r, ours.NonceSize())
			for n := 449; n <= 3100; n++ {
				mid512Check(t, ours, ref, nonce, msg, adBuf[:n%41], n, n%8, (n/8)%8)
			}
		}
	})
}

// TestMidAVX512Combinations: in the mid path's range, every additional
// data length 0..40 and every source and destination offset 0..7.
func TestMidAVX512Combinations(t *testing.T) {
	anyIFMA(t)
	cryptotest.Run(t, "aead", func(t *testing.T) {
		r := rand.New(rand.NewPCG(8, 513))
		key := mid512Rand(r, 32)
		ours, _ := New(key)
		ref, _ := xcpNew(key)
		nonce := mid512Rand(r, NonceSize)
		msg := mid512Rand(r, aeadasm.MidAVX512Max+8)
		adBuf := mid512Rand(r, 513)
		lengths := []int{aeadasm.MidAVX512Min, 450, 463, 464, 465, 511, 512, 513, 575, 576, 577, 640, 700,
			703, 704, 705, 767, 768, 769, 832, 960, 961, 1000, 1023, 1024, 1025, 1039, 1040, 1087, 1088, 1089, 1151, 1152, 1279, 1280, 1281,
			1343, 1344, 1350, 1407, 1408, 1471, 1472, 1473, 1535, aeadasm.MidAVX512Max}
		for _, n := range lengths {
			for adLen := 0; adLen <= 40; adLen++ {
				for off := 0; off < 8; off++ {
					mid512Check(t, ours, ref, nonce, msg, adBuf[:adLen], n, off, (off+adLen)%8)
				}
			}
			// Additional data at and past the longest the path takes.
			for _, adLen := range []int{255, 256, 257, 511, 512, 513} {
				mid512Check(t, ours, ref, nonce, msg, adBuf[:adLen], n, 0, 0)
			}
		}
	})
}

// TestMidAVX512Tamper: a changed tag, ciphertext byte (in each batch and
// the partial block) or additional data byte fails with errOpen and leaves
// dst's region all zero, in place and not.
func TestMidAVX512Tamper(t *testing.T) {
	anyIFMA(t)
	cryptotest.Run(t, "aead", func(t *testing.T) {
		r := rand.New(rand.NewPCG(8, 514))
		key := mid512Rand(r, 32)
		ours, _ := New(key)
		nonce := mid512Rand(r, NonceSize)
		for _, n := range []int{aeadasm.MidAVX512Min, 500, 640, 704, 705, 960, 1024, 1088, 1350, 1472, 1535, aeadasm.MidAVX512Max} {
			pt := mid512Rand(r, n)
			ad := mid512Rand(r, n%41)
			sealed := ours.Seal(nil, nonce, pt, ad)
			for _, pos := range []int{0, 63, 64, 447, 448, 449, 1000, 1023, 1024, 1100, n - 1, n, n + 15} {
				if pos >= n+16 {
					continue
				}
				bad := bytes.Clone(sealed)
				bad[pos] ^= 0x20
				out := bytes.Repeat([]byte{0xaa}, n)
				if _, err := ours.Open(out[:0], nonce, bad, ad); err != errOpen {
					t.Fatalf("len %d: byte %d changed: Open error %v", n, pos, err)
				}
				if !bytes.Equal(out, make([]byte, n)) {
					t.Fatalf("len %d: byte %d changed: dst not zeroed", n, pos)
				}
				if _, err := ours.Open(bad[:0], nonce, bad, ad); err != errOpen {
					t.Fatalf("len %d: byte %d changed: Open in place error %v", n, pos, err)
				}
				if !bytes.Equal(bad[:n], make([]byte, n)) {
					t.Fatalf("len %d: byte %d changed: dst not zeroed (in place)", n, pos)
				}
			}
			badAD := append(bytes.Clone(ad), 0)
			out := bytes.Repeat([]byte{0xaa}, n)
			if _, err := ours.Open(out[:0], nonce, sealed, badAD); err != errOpen {
				t.Fatalf("len %d: wrong additional data: Open error %v", n, err)
			}
			if !bytes.Equal(out, make([]byte, n)) {
				t.Fatalf("len %d: wrong additional data: dst not zeroed", n)
			}
			// dst starting where the tag does.
			shifted := make([]byte, 2*n+16)
			copy(shifted, sealed)
			if got, err := ours.Open(shifted[n:n], nonce, shifted[:n+16], ad); err != nil || !bytes.Equal(got, pt) {
				t.Fatalf("len %d: Open into the tag's place = %v", n, err)
			}
		}
	})
}

// TestMidAVX512Runs: with AVX512Stitched and the default ChaCha20 and
// Poly1305 paths, the mid path takes exactly its lengths (Open: not in
// place) on a CPU with AVX-512 IFMA and BW, and none without them
// (GODEBUG=cpu.avx512ifma=off); forcing another ChaCha20 or Poly1305 path
// switches it off.
func TestMidAVX512Runs(t *testing.T) {
	anyIFMA(t)
	if !registered("aead", "AVX512Stitched") {
		// Strict mode's CHACHAKIT_EXPECT/ABSENT say whether it should be.
		t.Skip("AVX512Stitched is not available on this CPU")
	}
	if defaultsForced() {
		t.Skip("ChaCha20 or Poly1305 is forced: the mid path is off")
	}
	if !impl.Select("aead", "AVX512Stitched") {
		t.Fatal("cannot select aead/AVX512Stitched")
	}
	defer impl.Reset("aead")
	mid := aeadasm.Available().Has(aeadasm.MidAVX512) // AVX-512 IFMA and BW too
	for _, n := range []int{448, 449, 500, 960, 961, 1024, 1025, aeadasm.MidAVX512Min, 1350, aeadasm.MidAVX512Max, aeadasm.MidAVX512Max + 1} {
		// 961..1024: the kernel takes them, the route declines (slower there).
		want := mid && (n >= 449 && n <= 960 || n >= 1025 && n <= 2047)
		if got := pick(n, 0, false) == aeadasm.MidAVX512; got != want {
			t.Errorf("len %d: Seal takes the mid path: %v, want %v", n, got, want)
		}
		if got := pick(n, 0, true) == aeadasm.MidAVX512; got != want {
			t.Errorf("len %d: Open takes the mid path: %v, want %v", n, got, want)
		}
	}
	// The additional data the path takes: 256 bytes up to 1024-byte
	// messages, 512 above.
	for _, c := range []struct{ n, ad int }{{500, 256}, {500, 257}, {960, 256}, {960, 257}, {1025, 512}, {1025, 513}} {
		want := mid && c.ad <= 256 || mid && c.n > 1024 && c.ad <= 512
		if got := pick(c.n, c.ad, false) == aeadasm.MidAVX512; got != want {
			t.Errorf("len %d, ad %d: Seal takes the mid path: %v, want %v", c.n, c.ad, got, want)
		}
	}
	for _, pkg := range []string{"chacha20", "poly1305"} {
		impl.Select(pkg, impl.Portable)
		if pick(1350, 0, false) != aeadasm.None {
			t.Errorf("%s forced to Go: a kernel still runs", pkg)
		}
		impl.Reset(pkg)
	}
}

func TestMidAVX512Allocs(t *testing.T) {
	anyIFMA(t)
	cryptotest.Run(t, "aead", func(t *testing.T) {
		key := make([]byte, 32)
		a, _ := New(key)
		nonce := make([]byte, NonceSize)
		ad := make([]byte, 13)
		for _, n := range []int{aeadasm.MidAVX512Min, 500, 1024, 1350, aeadasm.MidAVX512Max} {
			pt := make([]byte, n)
			dst := make([]byte, 0, n+Overhead)
			ct := a.Seal(nil, nonce, pt, ad)
			out := make([]byte, 0, n)
			if allocs := testing.AllocsPerRun(20, func() { a.Seal(dst, nonce, pt, ad) }); allocs != 0 {
				t.Errorf("Seal %d: %v allocations", n, allocs)
			}
			if allocs := testing.AllocsPerRun(20, func() { a.Open(out, nonce, ct, ad) }); allocs != 0 {
				t.Errorf("Open %d: %v allocations", n, allocs)
			}
		}
	})
}

// BenchmarkMidAVX512Sizes: Seal and Open around the mid path's range under
// each aead implementation (-bench MidAVX512Sizes, benchstat -col /path).
func BenchmarkMidAVX512Sizes(b *testing.B) {
	key := make([]byte, 32)
	nonce := make([]byte, NonceSize)
	ad := make([]byte, 13)
	for _, n := range []int{449, 500, 576, 640, 700, 800, 960, 1024, 1025, 1088, 1200, 1350, 1536, 1600, 1800, 2047, 2048, 3000} {
		for _, p := range []string{"AVX512Stitched", impl.Portable} {
			if !impl.Select("aead", p) {
				continue
			}
			a, _ := New(key)
			pt := make([]byte, n)
			ct := a.Seal(nil, nonce, pt, ad)
			dst := make([]byte, 0, n+Overhead)
			b.Run("op=Seal/size="+itoa(n)+"/path="+p, func(b *testing.B) {
				b.SetBytes(int64(n))
				for b.Loop() {
					a.Seal(dst, nonce, pt, ad)
				}
			})
			b.Run("op=Open/size="+itoa(n)+"/path="+p, func(b *testing.B) {
				b.SetBytes(int64(n))
				for b.Loop() {
					a.Open(dst[:0], nonce, ct, ad)
				}
			})
			impl.Reset("aead")
		}
	}
}
