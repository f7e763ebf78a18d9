//go:build gc && !purego

package aead

import (
	"bytes"
	"crypto/cipher"
	"fmt"
	"testing"

	"github.com/chachakit/chachakit/internal/aeadasm"
)

// anyIFMA lets the route take the IFMA kernels at every length for the rest
// of t, as on the CPUs where internal/cpuid's X86IFMAMin is 0, so that they
// run on every CPU that has them.
func anyIFMA(t testing.TB) {
	old := ifmaMin
	ifmaMin = 0
	t.Cleanup(func() { ifmaMin = old })
}

// TestSmallRoutes: up to each small kernel's reach with at most 64 bytes of
// additional data, the route takes the AVX-512 small kernel where it runs
// and the AVX2 one only where it does not; and every length 0..600 with
// additional data of 0..69 bytes seals and opens as x/crypto's does.
func TestSmallRoutes(t *testing.T) {
	k := aeadasm.Available()
	ours, ref, nonce := routeAEADs(3)
	for n := 0; n <= 600; n++ {
		for _, adLen := range []int{0, 13, 64, 65} {
			for _, open := range []bool{false, true} {
				got := pick(n, adLen, open)
				var want aeadasm.Kernel
				switch {
				case adLen > aeadasm.SmallADMax:
				case k.Has(aeadasm.SmallAVX512) && n <= aeadasm.SmallAVX512Max:
					want = aeadasm.SmallAVX512
				case !k.Has(aeadasm.SmallAVX512) && k.Has(aeadasm.SmallAVX2) && n <= aeadasm.SmallAVX2Max:
					want = aeadasm.SmallAVX2
				}
				if want != aeadasm.None && got != want || want == aeadasm.None && (got == aeadasm.SmallAVX512 || got == aeadasm.SmallAVX2) {
					t.Fatalf("n=%d, ad=%d, open %v: route %d, want %d", n, adLen, open, got, want)
				}
			}
		}
		pt := make([]byte, n)
		for i := range pt {
			pt[i] = byte(n ^ i)
		}
		nonce[1] = byte(n)
		checkRoute(t, ours, ref, nonce, pt, make([]byte, n%70), "small routes")
	}
}

// TestStitchedIFMARoutes runs Seal and Open of long messages against
// x/crypto with either stitched loop (the MAC on the integer units or in
// IFMA lanes), so that the route of every core is tested on every CPU with
// IFMA: results, in-place use, and a forged message's zeroed dst.
func TestStitchedIFMARoutes(t *testing.T) {
	if !aeadasm.Available().Has(aeadasm.StitchedIFMA) {
		t.Skip("no IFMA stitched loop on this CPU")
	}
	defer func(v bool, m int) { stitchedIFMA, ifmaLoopMin = v, m }(stitchedIFMA, ifmaLoopMin)
	ifmaLoopMin = 0
	anyIFMA(t)
	ours, ref, nonce := routeAEADs(5)
	for _, ifma := range []bool{false, true} {
		stitchedIFMA = ifma
		for _, n := range []int{1024, 1040, 2047, 2048, 2049, 3000, 3072, 4096 + 17, 8192 + 1023, 16384, 16384 + 5} {
			for _, adLen := range []int{0, 13, 100} {
				if k := pick(n, adLen, false); n >= 2048 && (k == aeadasm.StitchedIFMA) != ifma {
					t.Fatalf("n=%d: stitchedIFMA %v routes to kernel %d", n, ifma, k)
				}
				ad := make([]byte, adLen)
				pt := make([]byte, n)
				for i := range pt {
					pt[i] = byte(n + i*3)
				}
				nonce[0], nonce[1] = byte(n), byte(adLen)
				checkRoute(t, ours, ref, nonce, pt, ad, fmt.Sprintf("ifma %v", ifma))
			}
		}
	}
}

// BenchmarkStitchedIFMA measures the IFMA loop against the integer one for
// long messages: Seal and Open through the stitched loop with the MAC on
// the integer units ("loop=integer") or in IFMA lanes ("loop=ifma"), with
// 13 bytes of additional data.
func BenchmarkStitchedIFMA(b *testing.B) {
	if !aeadasm.Available().Has(aeadasm.StitchedIFMA) {
		b.Skip("no IFMA stitched loop on this CPU")
	}
	a, _ := New(make([]byte, KeySize))
	nonce := make([]byte, NonceSize)
	defer func(v bool) { stitchedIFMA = v }(stitchedIFMA)
	defer func(m int) { ifmaLoopMin = m }(ifmaLoopMin)
	ifmaLoopMin = 0
	anyIFMA(b)
	benchChoice(b, a, nonce, []int{2048, 4096, 8192, 16384}, "loop", [2]string{"integer", "ifma"},
		func(ifma bool) { stitchedIFMA = ifma })
}

// benchChoice runs Seal and Open of each size, with 13 bytes of additional
// data, under both values of a route knob (set), named
// op=Seal|Open/<knob>=<names[v]>/size=<size>.
func benchChoice(b *testing.B, a cipher.AEAD, nonce []byte, sizes []int, knob string, names [2]string, set func(bool)) {
	ad := make([]byte, 13)
	for _, size := range sizes {
		pt := make([]byte, size)
		ct := a.Seal(nil, nonce, pt, ad)
		dst := make([]byte, size+Overhead)
		for i, v := range []bool{false, true} {
			name := knob + "=" + names[i] + "/size=" + itoa(size)
			b.Run("op=Seal/"+name, func(b *testing.B) {
				set(v)
				b.SetBytes(int64(size))
				for b.Loop() {
					a.Seal(dst[:0], nonce, pt, ad)
				}
			})
			b.Run("op=Open/"+name, func(b *testing.B) {
				set(v)
				b.SetBytes(int64(size))
				for b.Loop() {
					if _, err := a.Open(dst[:0], nonce, ct, ad); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// routeAEADs returns ChaCha20-Poly1305 of chachakit and of x/crypto with
// the key i*mult, i = 0..31, and a zero nonce.
func routeAEADs(mult int) (ours, ref cipher.AEAD, nonce []byte) {
	key := make([]byte, KeySize)
	for i := range key {
		key[i] = byte(i * mult)
	}
	ours, _ = New(key)
	ref, _ = xcpNew(key)
	return ours, ref, make([]byte, NonceSize)
}

// checkRoute seals pt in place with ours and compares it with ref's Seal,
// opens the result in place and into a fresh slice, and opens a forged
// copy into a dst that must come back zeroed; what names the case.
func checkRoute(t *testing.T, ours, ref cipher.AEAD, nonce, pt, ad []byte, what string) {
	t.Helper()
	n := len(pt)
	want := ref.Seal(nil, nonce, pt, ad)
	buf := append(bytes.Clone(pt), make([]byte, Overhead)...)
	got := ours.Seal(buf[:0], nonce, buf[:n], ad)
	if !bytes.Equal(got, want) {
		t.Fatalf("%s, n=%d, ad=%d: Seal in place differs from x/crypto", what, n, len(ad))
	}
	if p, err := ours.Open(nil, nonce, want, ad); err != nil || !bytes.Equal(p, pt) {
		t.Fatalf("%s, n=%d: Open: %v", what, n, err)
	}
	if p, err := ours.Open(got[:0], nonce, got, ad); err != nil || !bytes.Equal(p, pt) {
		t.Fatalf("%s, n=%d: Open in place: %v", what, n, err)
	}
	bad := bytes.Clone(want)
	bad[n/2] ^= 4
	dst := bytes.Repeat([]byte{0xaa}, n)
	if _, err := ours.Open(dst[:0], nonce, bad, ad); err == nil || !bytes.Equal(dst, make([]byte, n)) {
		t.Fatalf("%s, n=%d: forged Open: %v, dst not zeroed", what, n, err)
	}
}
