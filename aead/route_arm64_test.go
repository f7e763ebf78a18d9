//go:build gc && !purego

package aead

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/chachakit/chachakit/internal/aeadasm"
	"github.com/chachakit/chachakit/internal/cryptotest"
	"github.com/chachakit/chachakit/internal/impl"
)

// TestExpectedAEAD checks the AEAD path the route picks by default against
// CHACHAKIT_EXPECT (aead=SVE2Stitched, NEONStitched or Go per qemu CPU
// model, from the core's MIDR_EL1 and SVE2).
func TestExpectedAEAD(t *testing.T) {
	cryptotest.CheckExpected(t, "aead")
}

// force forces the stitched loop name (NEONStitched: on every CPU with
// ASIMD, whatever its core's default) for the test; it skips the test
// where the CPU cannot run it (SVE2Stitched without SVE2), or fails it in
// strict mode unless CHACHAKIT_ABSENT lists it.
func force(t *testing.T, name string) {
	t.Helper()
	if !impl.Select("aead", name) {
		if name == "NEONStitched" || cryptotest.Strict() && !cryptotest.AbsentAllowed("aead", name) {
			t.Fatalf("aead/%s cannot run here", name)
		}
		t.Skipf("aead/%s cannot run here", name)
	}
	t.Cleanup(func() { impl.Reset("aead") })
}

func TestPickARM64(t *testing.T) {
	for _, l := range []struct {
		name string
		k    aeadasm.Kernel
	}{{"NEONStitched", aeadasm.NEONStitched}, {"SVE2Stitched", aeadasm.SVE2Stitched}} {
		name, k := l.name, l.k
		t.Run(name, func(t *testing.T) {
			force(t, name)
			if defaultsForced() {
				t.Skip("ChaCha20 or Poly1305 is forced for the process: the stitched loop is off")
			}
			for _, c := range []struct {
				n    int
				open bool
				want aeadasm.Kernel
			}{
				{0, false, aeadasm.None},
				{2*aeadasm.NEONBatch - 1, false, aeadasm.None},
				{2 * aeadasm.NEONBatch, false, k},
				{16384, false, k},
				{shortMax, true, aeadasm.None},
				{shortMax + 1, true, k},
				{16384, true, k},
			} {
				if got := pick(c.n, 13, c.open); got != c.want {
					t.Errorf("pick(%d, open %v) = %v, want %v", c.n, c.open, got, c.want)
				}
			}
			impl.Select("aead", impl.Portable)
			if pick(16384, 0, false) != aeadasm.None {
				t.Error("aead=Go: the stitched loop still runs")
			}
		})
	}
}

// TestNEONStitchedLengths: the stitched loop forced, every length 0..1100
// (those below its thresholds take the separate passes) with src and dst
// offsets 0..7, against x/crypto: Seal, Open, in place, and a forged tag
// that leaves dst zeroed.
func TestNEONStitchedLengths(t *testing.T) { stitchedLengths(t, "NEONStitched") }

// TestSVE2StitchedLengths is TestNEONStitchedLengths for the SVE2 loop.
func TestSVE2StitchedLengths(t *testing.T) { stitchedLengths(t, "SVE2Stitched") }

func stitchedLengths(t *testing.T, name string) {
	force(t, name)
	r := rand.New(rand.NewPCG(20, 1))
	key := make([]byte, KeySize)
	for i := range key {
		key[i] = byte(r.Uint32())
	}
	ours, _ := New(key)
	ref, _ := xcpNew(key)
	nonce := make([]byte, NonceSize)
	msg := make([]byte, 1100+8)
	for i := range msg {
		msg[i] = byte(r.Uint32())
	}
	ad := msg[:13]
	for n := 0; n <= 1100; n++ {
		want := ref.Seal(nil, nonce, msg[:n], ad)
		offs := 8
		if testing.Short() && n%16 != 0 {
			offs = 1
		}
		for po := 0; po < offs; po++ {
			pt := msg[po : po+n]
			want := ref.Seal(nil, nonce, pt, ad)
			for do := 0; do < offs; do++ {
				buf := make([]byte, do+n+Overhead)
				got := ours.Seal(buf[do:do], nonce, pt, ad)
				if !bytes.Equal(got, want) {
					t.Fatalf("len %d offsets %d/%d: Seal differs from x/crypto", n, po, do)
				}
				ctBuf := make([]byte, po+n+Overhead)
				ct := ctBuf[po:]
				copy(ct, want)
				out := make([]byte, do+n)
				if p, err := ours.Open(out[do:do], nonce, ct, ad); err != nil || !bytes.Equal(p, pt) {
					t.Fatalf("len %d offsets %d/%d: Open = %v", n, po, do, err)
				}
			}
		}
		inPlace := bytes.Clone(want)
		if p, err := ours.Open(inPlace[:0], nonce, inPlace, ad); err != nil || !bytes.Equal(p, msg[:n]) {
			t.Fatalf("len %d: Open in place = %v", n, err)
		}
		if got := ours.Seal(inPlace[:0], nonce, inPlace[:n], ad); !bytes.Equal(got, want) {
			t.Fatalf("len %d: Seal in place differs", n)
		}
		bad := bytes.Clone(want)
		bad[n] ^= 1
		out := bytes.Repeat([]byte{0xaa}, n)
		if _, err := ours.Open(out[:0], nonce, bad, ad); err == nil || !bytes.Equal(out, make([]byte, n)) {
			t.Fatalf("len %d: forged Open accepted or dst not zeroed", n)
		}
	}
}
