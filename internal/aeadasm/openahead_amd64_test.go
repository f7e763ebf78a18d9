//go:build gc && !purego

package aeadasm

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/chachakit/chachakit/internal/impl"
	"github.com/chachakit/chachakit/internal/poly1305"
)

// Twin tests of the AVX2 Open with the key block first (OpenAheadAVX2,
// _asm/openahead.go) against the portable code: the plaintext against
// xorBlocksGeneric's keystream, the tag against poly1305.SumAEAD with the
// portable Poly1305 selected.

// aheadCase opens an n-byte ciphertext at offset off (in place or not)
// with a random state and adLen bytes of additional data, with the right
// tag and with a changed one, and checks the result, the plaintext and the
// bytes around dst.
func aheadCase(t *testing.T, r *rand.Rand, s0 State, n, off, adLen int, inPlace bool, fill byte) {
	t.Helper()
	rnd := func(k int) []byte { return randFill(r, k, fill) }
	ct, ad := rnd(n), rnd(adLen)
	ks := make([]byte, 64+(n+63)&^63)
	ref := s0
	xorBlocksGeneric(&ref, ks, ks)
	want := bytes.Clone(ct)
	for i := range want {
		want[i] ^= ks[64+i]
	}
	var tag [16]byte
	impl.Select("poly1305", impl.Portable)
	poly1305.SumAEAD(&tag, (*[32]byte)(ks[:32]), ad, ct)
	impl.Reset("poly1305")

	const guard = 0x5a
	for _, forged := range []bool{false, true} {
		buf := bytes.Repeat([]byte{guard}, off+n+64)
		dst, src := place(buf, off, ct, inPlace, rnd)
		tg := tag
		if forged {
			tg[n%16] ^= 1
		}
		s := s0
		ok := openAhead(&s, dst, src, ad, &tg)
		what := "n=" + itoa(n) + " off=" + itoa(off) + " ad=" + itoa(adLen)
		if inPlace {
			what += " in place"
		}
		if ok == forged {
			t.Fatalf("%s forged=%v: openAhead reports %v", what, forged, ok)
		}
		if !bytes.Equal(dst, want) {
			i := 0
			for dst[i] == want[i] {
				i++
			}
			t.Fatalf("%s: plaintext differs at byte %d", what, i)
		}
		for i, b := range buf[off+n:] {
			if b != guard {
				t.Fatalf("%s: byte %d past dst written", what, i)
			}
		}
		for i, b := range buf[:off] {
			if !inPlace && b != guard {
				t.Fatalf("%s: byte %d before dst written", what, i)
			}
		}
	}
}

// TestOpenAheadLengths: every length from the kernel's shortest to 41
// blocks (every last-batch shape: none, rows, 8-lane; every partial
// block), then longer ones at every offset.
func TestOpenAheadLengths(t *testing.T) {
	needMidAVX2(t)
	r := rand.New(rand.NewPCG(12, 1))
	for n := OpenAheadAVX2Min; n <= 41*64; n++ {
		aheadCase(t, r, randState(r), n, n%8, r.IntN(41), n%3 == 0, 0)
	}
	for _, n := range []int{3000, 4096, 4097, 8191, 8192, 16384 + 5} {
		for off := 0; off < 8; off++ {
			aheadCase(t, r, randState(r), n, off, r.IntN(80), off%2 == 0, 0)
		}
	}
}

// TestOpenAheadAD: additional data of 0..200 bytes (the kernel's loop and
// its padded tail).
func TestOpenAheadAD(t *testing.T) {
	needMidAVX2(t)
	r := rand.New(rand.NewPCG(12, 2))
	for adLen := 0; adLen <= 200; adLen++ {
		for _, n := range []int{OpenAheadAVX2Min, 576, 577, 1088, 1089, 1350} {
			aheadCase(t, r, randState(r), n, adLen%8, adLen, adLen%2 == 1, 0)
		}
	}
}

// TestOpenAheadCounter: a key set, batches and a last batch that end at or
// cross block 2^32-1 wrap the counters modulo 2^32.
func TestOpenAheadCounter(t *testing.T) {
	needMidAVX2(t)
	r := rand.New(rand.NewPCG(12, 3))
	for _, k := range []int{1, 2, 3, 7, 8, 9, 10, 11, 15, 16, 17, 18, 19, 25, 26, 27, 33, 48, 64} {
		for _, n := range []int{OpenAheadAVX2Min, 128, 600, 1088, 1350, 2100, 3000} {
			s := randState(r)
			s.Counter = uint32(1<<32 - k)
			aheadCase(t, r, s, n, k%8, k, k%2 == 0, 0)
		}
	}
}

// TestOpenAheadEdges: all-ones and 0x80 ciphertexts (the largest MAC
// blocks) with random states.
func TestOpenAheadEdges(t *testing.T) {
	needMidAVX2(t)
	r := rand.New(rand.NewPCG(12, 4))
	for _, fill := range []byte{0xff, 0x80} {
		for _, n := range []int{OpenAheadAVX2Min, 1350, 2048, 5000} {
			for i := 0; i < 20; i++ {
				aheadCase(t, r, randState(r), n, i%8, 16*(i%4), i%2 == 0, fill)
			}
		}
	}
}

func TestOpenAheadAllocs(t *testing.T) {
	needMidAVX2(t)
	var s State
	var tag [16]byte
	buf := make([]byte, 1350)
	ad := make([]byte, 13)
	if n := testing.AllocsPerRun(10, func() { openAhead(&s, buf, buf, ad, &tag) }); n != 0 {
		t.Errorf("openAhead allocates %v times", n)
	}
}
