//go:build amd64 && gc && !purego

package aead

import (
	"bytes"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/chachakit/chachakit/internal/aeadasm"
	"github.com/chachakit/chachakit/internal/cryptotest"
	"github.com/chachakit/chachakit/internal/impl"
)

// The mid-size AVX2 kernel (aeadasm.MidAVX2) against x/crypto, with the
// aead kernels forced to AVX2Stitched (on an AVX-512 machine the ChaCha20
// and Poly1305 defaults stay, and the route table takes the AVX2 kernel).

// forceMidAVX2 selects AVX2Stitched for the test and checks that the mid
// path is the one Seal and Open take.
func forceMidAVX2(t testing.TB) {
	if !registered("aead", "AVX2Stitched") {
		if cryptotest.Strict() && !slices.Contains(strings.Split(os.Getenv("CHACHAKIT_ABSENT"), ","), "aead/AVX2Stitched") {
			t.Fatalf("AVX2Stitched is not available on this CPU, and CHACHAKIT_STRICT=1 expects it to run")
		}
		t.Skip("AVX2Stitched is not available on this CPU")
	}
	if defaultsForced() {
		t.Skip("a ChaCha20 or Poly1305 path is forced: the stitched paths are off")
	}
	if !impl.Select("aead", "AVX2Stitched") {
		t.Fatal("impl.Select(aead, AVX2Stitched) failed")
	}
	t.Cleanup(func() { impl.Reset("aead") })
	if k := aeadasm.Available(); k.Has(aeadasm.StitchedAVX512) || !k.Has(aeadasm.MidAVX2) {
		t.Fatal("AVX2Stitched is not the only aead path on")
	}
}

func midRand(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// midLengths: every length 449..2100, then every batch boundary (+-1) up
// to 20 KiB.
func midLengths() []int {
	var l []int
	for n := aeadasm.MidAVX2Min; n <= 2100; n++ {
		l = append(l, n)
	}
	for b := 5; b <= 40; b++ {
		for _, d := range []int{-65, -64, -63, -1, 0, 1, 15, 16, 17} {
			l = append(l, b*512+d)
		}
	}
	return l
}

func TestMidAVX2Messages(t *testing.T) {
	forceMidAVX2(t)
	r := rand.New(rand.NewPCG(10, 1))
	key := midRand(r, 32)
	ours, _ := New(key)
	ref, _ := xcpNew(key)
	msg := midRand(r, 21*1024)
	for i, n := range midLengths() {
		nonce := midRand(r, NonceSize)
		ad := midRand(r, i%41)
		so, do := i%8, (i/8)%8
		pt := msg[so : so+n]
		want := ref.Seal(nil, nonce, pt, ad)

		// Direct call: the mid path takes this length.
		var tag [Overhead]byte
		ct := make([]byte, n)
		aeadasm.Seal(aeadasm.MidAVX2, (*[32]byte)(key), nonce, ct, pt, ad, &tag)
		if !bytes.Equal(ct, want[:n]) || !bytes.Equal(tag[:], want[n:]) {
			t.Fatalf("n=%d: the mid-size AVX2 Seal differs from x/crypto", n)
		}

		// Seal at a dst offset, and in place.
		dst := make([]byte, do, do+n+Overhead)
		got := ours.Seal(dst, nonce, pt, ad)
		if !bytes.Equal(got[do:], want) {
			t.Fatalf("n=%d ad=%d off=%d: Seal differs from x/crypto", n, len(ad), do)
		}
		buf := make([]byte, do+n+Overhead)
		copy(buf[do:], pt)
		got = ours.Seal(buf[do:do], nonce, buf[do:do+n], ad)
		if !bytes.Equal(got, want) {
			t.Fatalf("n=%d ad=%d off=%d: Seal in place differs from x/crypto", n, len(ad), do)
		}

		// Open at a dst offset, and in place.
		cbuf := make([]byte, so+len(want))
		copy(cbuf[so:], want)
		ctx := cbuf[so:]
		pdst := make([]byte, do, do+n)
		p, err := ours.Open(pdst, nonce, ctx, ad)
		if err != nil || !bytes.Equal(p[do:], pt) {
			t.Fatalf("n=%d ad=%d off=%d: Open: %v", n, len(ad), do, err)
		}
		p, err = ours.Open(ctx[:0], nonce, ctx, ad)
		if err != nil || !bytes.Equal(p, pt) {
			t.Fatalf("n=%d ad=%d: Open in place: %v", n, len(ad), err)
		}

		// Direct call: the mid path's Open at every length, in place.
		copy(ctx, want)
		if !aeadasm.Open(aeadasm.MidAVX2, (*[32]byte)(key), nonce, ctx[:n], ctx[:n], ad, (*[16]byte)(ctx[n:])) || !bytes.Equal(ctx[:n], pt) {
			t.Fatalf("n=%d ad=%d: the mid-size AVX2 Open in place fails", n, len(ad))
		}
		copy(ctx, want)
		ctx[n/2] ^= 4
		if aeadasm.Open(aeadasm.MidAVX2, (*[32]byte)(key), nonce, ctx[:n], ctx[:n], ad, (*[16]byte)(ctx[n:])) || !allZero(ctx[:n]) {
			t.Fatalf("n=%d ad=%d: the mid-size AVX2 Open of a forged message succeeds or leaves plaintext", n, len(ad))
		}
	}
}

// TestMidAVX2Tamper: a changed tag, ciphertext byte or additional data byte
// fails with errOpen and leaves dst's region all zeros, in place or not.
func TestMidAVX2Tamper(t *testing.T) {
	forceMidAVX2(t)
	r := rand.New(rand.NewPCG(10, 2))
	key := midRand(r, 32)
	a, _ := New(key)
	for i, n := range []int{449, 500, 960, 961, 1024, 1350, 1471, 1472, 1473, 2100, 4096, 9000} {
		nonce := midRand(r, NonceSize)
		ad := midRand(r, 1+i*3)
		pt := midRand(r, n)
		if n >= 1024 && pick(n, 0, true) != aeadasm.MidAVX2 {
			t.Logf("n=%d: Open takes the long loop", n)
		}
		ct := a.Seal(nil, nonce, pt, ad)
		positions := []int{0, 1, n / 2, n - 1, n, n + Overhead - 1}
		// Around the start of the last batch and of the partial block.
		last := ((n+64+511)/512-1)*512 - 64
		positions = append(positions, last-1, last, n-n%64-1, n-n%64)
		for _, pos := range positions {
			for _, inPlace := range []bool{false, true} {
				bad := bytes.Clone(ct)
				bad[pos] ^= 0x10
				var dst []byte
				if inPlace {
					dst = bad[:0]
				} else {
					dst = bytes.Repeat([]byte{0xaa}, n)[:0]
				}
				got, err := a.Open(dst, nonce, bad, ad)
				if err != errOpen || got != nil {
					t.Fatalf("n=%d pos=%d: Open of a forged message: %v", n, pos, err)
				}
				if !allZero(dst[:n]) {
					t.Fatalf("n=%d pos=%d inPlace=%v: dst not zeroed", n, pos, inPlace)
				}
			}
		}
		badAD := bytes.Clone(ad)
		badAD[len(ad)-1] ^= 1
		dst := make([]byte, n)
		if _, err := a.Open(dst[:0], nonce, ct, badAD); err != errOpen || !allZero(dst) {
			t.Fatalf("n=%d: Open with changed additional data: %v", n, err)
		}
	}
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

func TestMidAVX2Allocs(t *testing.T) {
	forceMidAVX2(t)
	a, _ := New(make([]byte, 32))
	nonce := make([]byte, NonceSize)
	ad := make([]byte, 13)
	for _, n := range []int{449, 1350, 2100, 8192} {
		pt := make([]byte, n)
		dst := make([]byte, n+Overhead)
		ct := a.Seal(nil, nonce, pt, ad)
		if k := testing.AllocsPerRun(20, func() { a.Seal(dst[:0], nonce, pt, ad) }); k != 0 {
			t.Errorf("n=%d: Seal allocates %v times", n, k)
		}
		if k := testing.AllocsPerRun(20, func() {
			if _, err := a.Open(dst[:0], nonce, ct, ad); err != nil {
				t.Fatal(err)
			}
		}); k != 0 {
			t.Errorf("n=%d: Open allocates %v times", n, k)
		}
	}
}

// BenchmarkMidAVX2: the AEAD with AVX2Stitched forced against x/crypto
// (run with GODEBUG=cpu.avx512f=off for both to compare AVX2 code).
func BenchmarkMidAVX2(b *testing.B) {
	forceMidAVX2(b)
	a, _ := New(make([]byte, 32))
	nonce := make([]byte, NonceSize)
	ad := make([]byte, 13)
	x, _ := xcpNew(make([]byte, 32))
	for _, path := range []string{"mid", "xcrypto"} {
		b.Run("path="+path, func(b *testing.B) {
			a := a
			if path == "xcrypto" {
				a = x
			}
			for _, size := range []int{449, 500, 700, 960, 1024, 1100, 1200, 1350, 2048, 2100, 2200, 3000, 4096, 4200, 8192, 8300, 16384} {
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

// registered reports whether implementation name of pkg is available on
// this CPU.
func registered(pkg, name string) bool {
	for _, i := range impl.List(pkg) {
		if i.Name == name {
			return i.Available
		}
	}
	return false
}
