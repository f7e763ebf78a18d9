//go:build gc && !purego

package aead

import (
	"bytes"
	"crypto/cipher"
	"fmt"
	"math"
	"testing"

	"github.com/chachakit/chachakit/internal/aeadasm"
)

// BenchmarkSmallMax measures the choices X86AEADFor makes per core: Seal
// and Open of 64..448-byte messages (the AVX2 kernel's reach; the AVX-512
// kernels stop at 192), with 13 bytes of additional data,
// through the small kernels with either rounds ("shifts": qrLowLatency's
// rotations; "prold": VPROLD; "keyscalar": the shifts with the key block in
// general-purpose registers too, up to 64 bytes; "keyfirst": VPROLD, and
// up to 64 bytes the key block first in general-purpose registers, for an
// Open the MAC during the rounds, for a Seal the message block's last
// rounds there too) against the short path (no small kernel).
func BenchmarkSmallMax(b *testing.B) {
	if !aeadasm.Available().Has(aeadasm.SmallAVX512) && !aeadasm.Available().Has(aeadasm.SmallAVX2) {
		b.Skip("no small kernel on this CPU")
	}
	a, _ := New(make([]byte, KeySize))
	nonce := make([]byte, NonceSize)
	ad := make([]byte, 13)
	defer func(m, m2, pm int, p, k, kf, ho bool) {
		smallMax, smallMaxAVX2, smallProldMin, smallProld, smallKeyScalar, smallKeyFirst, smallHandoff = m, m2, pm, p, k, kf, ho
	}(smallMax, smallMaxAVX2, smallProldMin, smallProld, smallKeyScalar, smallKeyFirst, smallHandoff)
	smallProldMin = 0 // "prold": the VPROLD kernels at every length
	routes := []struct {
		name          string
		max           int
		prold, ks, kf bool
	}{
		{"shifts", aeadasm.SmallAVX2Max, false, false, false}, {"prold", aeadasm.SmallAVX512Max, true, false, false},
		{"keyscalar", aeadasm.SmallAVX512Max, false, true, false}, {"keyfirst", aeadasm.SmallAVX512Max, true, true, true},
		{"short", -1, false, false, false},
	}
	for _, size := range []int{64, 96, 128, 160, 192, 256, 320, 384, 448} {
		pt := make([]byte, size)
		ct := a.Seal(nil, nonce, pt, ad)
		dst := make([]byte, size+Overhead)
		for _, r := range routes {
			b.Run("op=Seal/route="+r.name+"/size="+itoa(size), func(b *testing.B) {
				smallMax, smallMaxAVX2, smallProld, smallKeyScalar = min(r.max, aeadasm.SmallAVX512Max), r.max, r.prold, r.ks
				smallKeyFirst, smallHandoff = r.kf, r.kf
				b.SetBytes(int64(size))
				for b.Loop() {
					a.Seal(dst[:0], nonce, pt, ad)
				}
			})
			b.Run("op=Open/route="+r.name+"/size="+itoa(size), func(b *testing.B) {
				smallMax, smallMaxAVX2, smallProld, smallKeyScalar = min(r.max, aeadasm.SmallAVX512Max), r.max, r.prold, r.ks
				smallKeyFirst, smallHandoff = r.kf, r.kf
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

// TestSmallMaxRoutes runs Seal and Open of 0..460 bytes against x/crypto
// with the small kernels' reach at the values X86AEADFor gives and each
// of their round codes (VPROLD from every length or from 65 bytes; the key
// block in general-purpose registers too, or not; the key block first, and
// the MAC during the rounds (Open) or the message block's last rounds on
// the integer units too (Seal), or not), so that the route of every core is tested on every CPU:
// results, in-place use, and a forged message's zeroed dst.
func TestSmallMaxRoutes(t *testing.T) {
	defer func(m, m2, pm int, p, k, kf, ho bool) {
		smallMax, smallMaxAVX2, smallProldMin, smallProld, smallKeyScalar, smallKeyFirst, smallHandoff = m, m2, pm, p, k, kf, ho
	}(smallMax, smallMaxAVX2, smallProldMin, smallProld, smallKeyScalar, smallKeyFirst, smallHandoff)
	ours, ref, nonce := routeAEADs(7)
	for _, c := range []struct {
		m, prolds     int // smallMax, smallProldMin
		prold, ks, kf bool
	}{
		{64, 0, false, false, false}, {192, 0, false, false, false}, {320, 0, false, false, false}, {448, 0, false, false, false},
		{64, 0, true, false, false}, {192, 0, true, false, false}, {192, 65, true, false, false}, {384, 65, true, false, false},
		{448, 65, true, false, false}, {64, 0, false, true, false}, {192, 0, false, true, false},
		{64, 0, true, true, true}, {192, 0, true, true, true}, {448, 0, false, true, true},
	} {
		m := c.m
		smallMax, smallMaxAVX2, smallProld, smallKeyScalar = min(m, aeadasm.SmallAVX512Max), min(m, aeadasm.SmallAVX2Max), c.prold, c.ks
		smallKeyFirst, smallHandoff = c.kf, c.kf
		smallProldMin = c.prolds
		for n := 0; n <= 460; n++ {
			ad := make([]byte, n%70)
			pt := make([]byte, n)
			for i := range pt {
				pt[i] = byte(n + i)
			}
			nonce[0] = byte(n)
			checkRoute(t, ours, ref, nonce, pt, ad, fmt.Sprintf("smallMax %d, prold %v from %d, key scalar %v, key first %v", m, c.prold, c.prolds, c.ks, c.kf))
		}
	}
}

// TestKeyFirstRoute: with the key-first choices on (X86AEAD.OpenKeyFirst
// and SealHandoff), messages of up to 64 bytes take the key-first kernel
// for Open and the handoff kernel for Seal, in the AVX-512 form where the
// AVX-512 small kernels run and else in the AVX2 form; from 65 bytes on,
// and with the choices off, neither.
func TestKeyFirstRoute(t *testing.T) {
	set := aeadasm.Available()
	if !set.Has(aeadasm.SmallAVX2) {
		t.Skip("no small kernel on this CPU")
	}
	defer func(m, m2 int, p, ks, kf, ho bool) {
		smallMax, smallMaxAVX2, smallProld, smallKeyScalar, smallKeyFirst, smallHandoff = m, m2, p, ks, kf, ho
	}(smallMax, smallMaxAVX2, smallProld, smallKeyScalar, smallKeyFirst, smallHandoff)
	smallMax, smallMaxAVX2, smallProld, smallKeyScalar = aeadasm.SmallMax, aeadasm.SmallAVX2Max, true, true
	first, handoff := aeadasm.SmallKeyFirstAVX2, aeadasm.SmallHandoffAVX2
	if set.Has(aeadasm.SmallAVX512) {
		first, handoff = aeadasm.SmallKeyFirstAVX512, aeadasm.SmallHandoffAVX512
	}
	for _, on := range []bool{false, true} {
		smallKeyFirst, smallHandoff = on, on
		for n := 0; n <= 96; n++ {
			open, seal := pick(n, 13, true), pick(n, 13, false)
			if want := on && n <= 64; (open == first) != want || (seal == handoff) != want {
				t.Errorf("on %v, n=%d: Open %v, Seal %v (key first %v, handoff %v)", on, n, open, seal, first, handoff)
			}
		}
	}
}

// TestSmallAVX2Route: the AVX2 small kernels reach further than the
// AVX-512 ones on most cores (X86AEAD.SmallMaxAVX2), but where the AVX-512
// ones can run the route never takes them (AMD Zen 4: Seal of 448 bytes
// 313 ns in the AVX2 kernel against 253 in the short path).
func TestSmallAVX2Route(t *testing.T) {
	if !aeadasm.Available().Has(aeadasm.SmallAVX512) {
		t.Skip("no AVX-512 small kernels on this CPU")
	}
	defer func(m, m2 int, ks, kf, ho bool) {
		smallMax, smallMaxAVX2, smallKeyScalar, smallKeyFirst, smallHandoff = m, m2, ks, kf, ho
	}(smallMax, smallMaxAVX2, smallKeyScalar, smallKeyFirst, smallHandoff)
	smallMax, smallMaxAVX2 = aeadasm.SmallMax, aeadasm.SmallAVX2Max
	for _, ks := range []bool{false, true} {
		smallKeyScalar, smallKeyFirst, smallHandoff = ks, ks, ks
		for n := 0; n <= aeadasm.SmallAVX2Max; n++ {
			for _, open := range []bool{false, true} {
				if k := pick(n, 13, open); k == aeadasm.SmallAVX2 || k == aeadasm.SmallKeyScalarAVX2 || k == aeadasm.SmallKeyFirstAVX2 || k == aeadasm.SmallHandoffAVX2 {
					t.Fatalf("n=%d, open %v: an AVX2 small kernel where the AVX-512 ones run", n, open)
				}
			}
		}
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

// BenchmarkStitchedIFMA measures the choice X86AEADFor makes per core for
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

// TestSubkeyFirst runs XChaCha20-Poly1305 Seal and Open of 0..1100 bytes
// against x/crypto with the subkey derived both ways (before the route
// table, or where the nonce is used) and split at 192 bytes, the values
// subkeyFirstMax takes, so that the choice of every core is tested on every
// CPU: results, in-place use, and a forged message's zeroed dst.
func TestSubkeyFirst(t *testing.T) {
	defer func(v int) { subkeyFirstMax = v }(subkeyFirstMax)
	key := make([]byte, KeySize)
	for i := range key {
		key[i] = byte(i*3 + 1)
	}
	ours, _ := NewX(key)
	ref, _ := xcpNewX(key)
	nonce := make([]byte, NonceSizeX)
	for i := range nonce {
		nonce[i] = byte(100 + i)
	}
	for _, first := range []int{-1, 192, math.MaxInt} {
		subkeyFirstMax = first
		for n := 0; n <= 1100; n++ {
			ad := make([]byte, n%70)
			pt := make([]byte, n)
			for i := range pt {
				pt[i] = byte(n * i)
			}
			nonce[n%NonceSizeX] ^= byte(n)
			want := ref.Seal(nil, nonce, pt, ad)
			buf := append(bytes.Clone(pt), make([]byte, Overhead)...)
			got := ours.Seal(buf[:0], nonce, buf[:n], ad)
			if !bytes.Equal(got, want) {
				t.Fatalf("subkeyFirstMax %d, n=%d: Seal in place differs from x/crypto", first, n)
			}
			if p, err := ours.Open(got[:0], nonce, got, ad); err != nil || !bytes.Equal(p, pt) {
				t.Fatalf("subkeyFirstMax %d, n=%d: Open in place: %v", first, n, err)
			}
			bad := bytes.Clone(want)
			bad[n%len(bad)] ^= 1
			dst := bytes.Repeat([]byte{0xaa}, n)
			if _, err := ours.Open(dst[:0], nonce, bad, ad); err == nil || !bytes.Equal(dst, make([]byte, n)) {
				t.Fatalf("subkeyFirstMax %d, n=%d: forged Open: %v, dst not zeroed", first, n, err)
			}
		}
	}
	dst := make([]byte, 0, len(key)+Overhead)
	if a := testing.AllocsPerRun(100, func() { ours.Seal(dst, nonce, key, nil) }); a != 0 {
		t.Errorf("Seal with subkeyFirstMax %d: %v allocations, want 0", subkeyFirstMax, a)
	}
}

// BenchmarkSubkeyFirst measures the choice of subkeyFirstMax (from
// X86ChaCha20's HChaCha20Scalar and XMMBlocks) for XChaCha20-Poly1305: Seal
// and Open with 13 bytes of additional data, the subkey derived before the
// route table ("first") or in the kernels and State.InitFrom ("inside").
func BenchmarkSubkeyFirst(b *testing.B) {
	defer func(v int) { subkeyFirstMax = v }(subkeyFirstMax)
	a, _ := NewX(make([]byte, KeySize))
	benchChoice(b, a, make([]byte, NonceSizeX), []int{64, 128, 256, 448, 1350}, "subkey", [2]string{"inside", "first"},
		func(first bool) { subkeyFirstMax = map[bool]int{false: -1, true: math.MaxInt}[first] })
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

// TestOpenFirstRoutes runs Open of 0..600 bytes against x/crypto with the
// AVX2 kernels forced and OpenFirstAVX2 taking no message, every one from
// 193 bytes, or from 321 (X86AEADFor's values and one below them), with
// the AVX2 small kernels' reach at 192 and 448: results, in-place use, and
// a forged message's zeroed dst; and that the route takes the kernel
// wherever it should.
func TestOpenFirstRoutes(t *testing.T) {
	forceMidAVX2(t)
	defer func(m, f int) { smallMaxAVX2, openFirstMin = m, f }(smallMaxAVX2, openFirstMin)
	ours, ref, nonce := routeAEADs(11)
	for _, first := range []int{0, 193, 321} {
		for _, small := range []int{192, 448} {
			openFirstMin, smallMaxAVX2 = first, small
			for n := 0; n <= 600; n++ {
				ad := make([]byte, (n*3)%70)
				if k := pick(n, len(ad), true); (k == aeadasm.OpenFirstAVX2) != (first > 0 && n >= first && n <= aeadasm.OpenFirstAVX2Max && len(ad) <= aeadasm.SmallADMax) {
					t.Fatalf("openFirstMin %d, n=%d, ad=%d: route %v", first, n, len(ad), k)
				}
				pt := make([]byte, n)
				for i := range pt {
					pt[i] = byte(n ^ i)
				}
				nonce[1] = byte(n)
				checkRoute(t, ours, ref, nonce, pt, ad, fmt.Sprintf("openFirstMin %d, smallMaxAVX2 %d", first, small))
			}
		}
	}
}

// TestOpenAheadRoutes: with the AVX2 kernels forced and a core that takes
// the key-first Opens, an Open of 577 bytes to 8 KiB takes OpenAheadAVX2
// exactly where aheadWins says, and every length around the batch
// boundaries opens as x/crypto's does, in place too, and zeroes dst when
// forged.
func TestOpenAheadRoutes(t *testing.T) {
	forceMidAVX2(t)
	defer func(f int) { openFirstMin = f }(openFirstMin)
	ours, ref, nonce := routeAEADs(12)
	for _, first := range []int{0, 321} {
		openFirstMin = first
		for n := aeadasm.OpenFirstAVX2Max + 1; n < 8300; n++ {
			k := pick(n, 13, true)
			if want := first > 0 && n < 8192 && aheadWins(n); (k == aeadasm.OpenAheadAVX2) != want {
				t.Fatalf("openFirstMin %d, n=%d: route %v", first, n, k)
			}
			if d := (n + 64) % 512; n > 2300 && d > 2 && d < 510 && (n-64)%512 > 2 && (n-64)%512 < 510 && n%64 != 0 && n%64 != 1 && n%64 != 63 {
				continue
			}
			pt := make([]byte, n)
			for i := range pt {
				pt[i] = byte(n ^ i)
			}
			nonce[1] = byte(n)
			checkRoute(t, ours, ref, nonce, pt, make([]byte, 13), fmt.Sprintf("openFirstMin %d", first))
		}
	}
}
