//go:build gc && !purego

package aeadasm

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
	"github.com/chachakit/chachakit/internal/poly1305"
)

// Twin tests of the arm64 stitched loops (xorMACNEON, xorMACSVE2) against
// the portable code: the keystream against xorBlocksGeneric, the MAC
// against poly1305.MAC's Write (tags compared, since h is only partly
// reduced). The kernels run on every CPU with ASIMD (SVE2 for
// xorMACSVE2), whatever the core's default.

func needNEON(t *testing.T) {
	if !hasNEON {
		t.Fatal("arm64 without ASIMD: the stitched loop cannot run")
	}
}

// loopAsm is the signature of xorMACNEON and xorMACSVE2.
type loopAsm func(s *State, dst, src, mac []byte, h *[3]uint64, r *[2]uint64)

// eachLoop runs f as a subtest per kernel of the stitched loop: NEONStitched,
// and SVE2Stitched where the CPU has SVE2 (without, the subtest is skipped,
// or fails in strict mode unless CHACHAKIT_ABSENT names aead/SVE2Stitched).
func eachLoop(t *testing.T, f func(t *testing.T, k Kernel, asm loopAsm)) {
	needNEON(t)
	t.Run("NEONStitched", func(t *testing.T) { f(t, NEONStitched, xorMACNEON) })
	t.Run("SVE2Stitched", func(t *testing.T) {
		if !hasSVE2 {
			if cryptotest.Strict() && !cryptotest.AbsentAllowed("aead", "SVE2Stitched") {
				t.Fatal("no SVE2: aead/SVE2Stitched cannot run, and CHACHAKIT_STRICT=1 expects it to")
			}
			t.Skip("no SVE2")
		}
		f(t, SVE2Stitched, xorMACSVE2)
	})
}

// neonCase runs the loop asm on batches·NEONBatch bytes at offset off and
// checks it against the portable code. mode 0: separate dst, src and mac;
// 1: dst == src == mac (an Open in place); 2: mac = dst shifted back by one
// batch (a Seal, whose first batch the test encrypts beforehand); 3: mode
// 2 in place.
func neonCase(t *testing.T, asm loopAsm, r *rand.Rand, s0 State, key *[32]byte, prefix []byte, batches, off, mode int, fill byte) {
	t.Helper()
	n := batches * NEONBatch
	rnd := func(k int) []byte { return randFill(r, k, fill) }
	const guard = 0x5a
	buf := bytes.Repeat([]byte{guard}, NEONBatch+n+off+64)
	// whole is the reference over the first batch too (modes 2 and 3).
	var dst, src, mac, wantMAC, want []byte
	switch mode {
	case 0, 1:
		want = make([]byte, n)
		ref := s0
		if mode == 0 {
			src = rnd(n + off)[off:]
			mac = rnd(n + 3 + off)[3+off:]
			dst = buf[off : off+n]
			wantMAC = bytes.Clone(mac)
		} else {
			copy(buf[off:], rnd(n))
			dst, src, mac = buf[off:off+n], buf[off:off+n], buf[off:off+n]
			wantMAC = bytes.Clone(src)
		}
		xorBlocksGeneric(&ref, want, bytes.Clone(src))
	case 2, 3:
		// A batch of ciphertext already written before dst (by the
		// reference, at counter s0.Counter - 6).
		pre := s0
		pre.Counter -= NEONBatch / BlockSize
		all := rnd(NEONBatch + n)
		wantAll := make([]byte, NEONBatch+n)
		xorBlocksGeneric(&pre, wantAll, all)
		copy(buf[off:], wantAll[:NEONBatch])
		if mode == 3 {
			copy(buf[off+NEONBatch:], all[NEONBatch:])
			src = buf[off+NEONBatch : off+NEONBatch+n]
		} else {
			src = all[NEONBatch:]
		}
		dst = buf[off+NEONBatch : off+NEONBatch+n]
		mac = buf[off : off+n]
		want = wantAll[NEONBatch:]
		wantMAC = wantAll[:n]
	}
	ref := s0
	ref.Counter += uint32(n / BlockSize)

	var pw, pg poly1305.MAC
	pw.Init(key)
	pg.Init(key)
	pw.Write(prefix)
	pg.Write(prefix)
	pw.Write(wantMAC)
	h, rr := pg.Accumulator()
	s := s0
	asm(&s, dst, src, mac, h, rr)
	if h[2] >= 8 {
		t.Fatalf("h[2] = %d after the kernel", h[2])
	}
	var tw, tg [16]byte
	pw.Sum(&tw)
	pg.Sum(&tg)
	if s.Counter != ref.Counter || s.Key != s0.Key || s.Nonce != s0.Nonce {
		t.Fatalf("batches %d: state %+v, want counter %d", batches, s, ref.Counter)
	}
	if !bytes.Equal(dst, want) {
		t.Fatalf("batches %d off %d mode %d: keystream differs", batches, off, mode)
	}
	if tw != tg {
		t.Fatalf("batches %d off %d mode %d: tag %x, want %x", batches, off, mode, tg, tw)
	}
	end := off + n
	if mode >= 2 {
		end += NEONBatch
	}
	for i, b := range buf[end:] {
		if b != guard {
			t.Fatalf("batches %d off %d mode %d: wrote past dst at %d", batches, off, mode, i)
		}
	}
}

func TestNEONStitchedTwin(t *testing.T) {
	eachLoop(t, func(t *testing.T, k Kernel, asm loopAsm) {
		r := rand.New(rand.NewPCG(1, 20))
		for batches := 1; batches <= 5; batches++ {
			for off := 0; off < 8; off++ {
				for mode := 0; mode < 4; mode++ {
					var key [32]byte
					for i := range key {
						key[i] = byte(r.Uint32())
					}
					prefix := make([]byte, 16*(r.IntN(4)))
					for i := range prefix {
						prefix[i] = byte(r.Uint32())
					}
					neonCase(t, asm, r, randState(r), &key, prefix, batches, off, mode, 0)
				}
			}
		}
	})
}

// TestNEONStitchedEdges: all-0xff messages, keys and accumulators (the
// largest carries), and the block counter wrapping inside a batch (2^32 - 1
// is out of reach of an AEAD message, but the loop must wrap as the
// portable code does, lane by lane).
func TestNEONStitchedEdges(t *testing.T) {
	eachLoop(t, func(t *testing.T, k Kernel, asm loopAsm) {
		r := rand.New(rand.NewPCG(2, 20))
		var ff [32]byte
		for i := range ff {
			ff[i] = 0xff
		}
		for _, c := range []uint32{0, 1, 1<<32 - 1, 1<<32 - 3, 1<<32 - 6, 1<<32 - 12} {
			for mode := 0; mode < 4; mode++ {
				s := randState(r)
				s.Counter = c
				neonCase(t, asm, r, s, &ff, bytes.Repeat([]byte{0xff}, 32), 3, mode, mode, 0xff)
				neonCase(t, asm, r, s, &ff, nil, 2, 0, mode, 0)
			}
		}
	})
}

// TestNEONStitchedRFC8439 is the AEAD example of RFC 8439, Section 2.8.2,
// padded out to the kernel's lengths: Seal and Open through the door, at
// 114 bytes repeated to reach two batches and more, against the reference
// construction (portable keystream and poly1305).
func TestNEONStitchedRFC8439(t *testing.T) {
	eachLoop(t, func(t *testing.T, k Kernel, asm loopAsm) {
		key := [32]byte{}
		for i := range key {
			key[i] = byte(0x80 + i)
		}
		nonce := []byte{0x07, 0, 0, 0, 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47}
		ad := []byte{0x50, 0x51, 0x52, 0x53, 0xc0, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7}
		pt := []byte("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.")
		var tag [16]byte
		ct := make([]byte, len(pt))
		// The RFC's own vector, through the portable reference.
		refSeal(&key, nonce, ct, pt, ad, &tag)
		if got := binary.BigEndian.Uint64(tag[:8]); got != 0x1ae10b594f09e26a {
			t.Fatalf("reference tag %x, want RFC 8439's 1ae10b594f09e26a7e902ecbd0600691", tag)
		}
		for _, n := range []int{2 * NEONBatch, 2*NEONBatch + 1, 3*NEONBatch + 114, 40 * 114} {
			long := bytes.Repeat(pt, n/len(pt)+1)[:n]
			var want, got [16]byte
			wantCT := make([]byte, n)
			refSeal(&key, nonce, wantCT, long, ad, &want)
			gotCT := make([]byte, n)
			Seal(k, &key, nonce, gotCT, long, ad, &got)
			if got != want || !bytes.Equal(gotCT, wantCT) {
				t.Fatalf("Seal of %d bytes differs from the reference", n)
			}
			out := make([]byte, n)
			if !Open(k, &key, nonce, out, gotCT, ad, &got) || !bytes.Equal(out, long) {
				t.Fatalf("Open of %d bytes fails", n)
			}
			got[0] ^= 1
			if Open(k, &key, nonce, out, gotCT, ad, &got) || !bytes.Equal(out, make([]byte, n)) {
				t.Fatalf("forged Open of %d bytes: accepted, or dst not zeroed", n)
			}
		}
	})
}

// refSeal is the construction with the portable keystream and poly1305.MAC.
func refSeal(key *[32]byte, nonce []byte, dst, src, ad []byte, tag *[16]byte) {
	var s State
	s.InitFrom(key[:], nonce)
	var block [64]byte
	xorBlocksGeneric(&s, block[:], block[:])
	full := len(src) &^ 63
	xorBlocksGeneric(&s, dst[:full], src[:full])
	if full < len(src) {
		var b [64]byte
		copy(b[:], src[full:])
		xorBlocksGeneric(&s, b[:], b[:])
		copy(dst[full:], b[:])
	}
	var p poly1305.MAC
	p.Init((*[32]byte)(block[:32]))
	p.WritePadded(ad)
	p.WritePadded(dst)
	var lens [16]byte
	binary.LittleEndian.PutUint64(lens[0:], uint64(len(ad)))
	binary.LittleEndian.PutUint64(lens[8:], uint64(len(dst)))
	p.Write(lens[:])
	p.Sum(tag)
}

func TestNEONStitchedAllocs(t *testing.T) {
	eachLoop(t, func(t *testing.T, k Kernel, asm loopAsm) {
		var key [32]byte
		nonce := make([]byte, 12)
		pt := make([]byte, 4*NEONBatch+5)
		ct := make([]byte, len(pt))
		var tag [16]byte
		if a := testing.AllocsPerRun(10, func() { Seal(k, &key, nonce, ct, pt, nil, &tag) }); a != 0 {
			t.Errorf("Seal: %v allocations", a)
		}
		if a := testing.AllocsPerRun(10, func() { Open(k, &key, nonce, pt, ct, nil, &tag) }); a != 0 {
			t.Errorf("Open: %v allocations", a)
		}
	})
}
