//go:build gc && !purego

package chacha20core

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
	"github.com/chachakit/chachakit/internal/poly1305"
)

// Twin tests of the mid-size kernel (MidAVX512, _asm/mid_avx512.go) against
// the portable code: the key block and the keystream against
// xorBlocksGeneric, the accumulator against poly1305.MAC (tags compared,
// since h is only partly reduced).

func needMidAVX512(t *testing.T) {
	t.Helper()
	if !StitchedAVX512Available() {
		if cryptotest.Strict() && !slices.Contains(strings.Split(os.Getenv("CHACHAKIT_ABSENT"), ","), "aead/AVX512Stitched") {
			t.Fatal("AVX512Stitched is not available on this CPU, and CHACHAKIT_STRICT=1 expects it to run")
		}
		t.Skip("AVX512Stitched is not available on this CPU")
	}
}

// mid512Case runs MidAVX512 on n bytes with the given counter, offsets, AD
// length and mode (0: Seal, separate buffers; 1: Seal in place; 2: Open)
// and checks everything it writes.
func mid512Case(t *testing.T, r *rand.Rand, n int, counter uint32, off, adLen, mode int) {
	t.Helper()
	var key [32]byte
	var nonce [12]byte
	for i := range key {
		key[i] = byte(r.Uint32())
	}
	for i := range nonce {
		nonce[i] = byte(r.Uint32())
	}
	var s State
	s.Init(&key, &nonce, counter)
	ref := s

	rnd := func(k int) []byte {
		b := make([]byte, k)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	const guard = 0x5a
	in := rnd(n)
	ad := rnd(adLen)
	buf := bytes.Repeat([]byte{guard}, n+off+64)
	dst := buf[off : off+n]
	src := rnd(n + off)[off:]
	copy(src, in)
	if mode == 1 {
		copy(dst, in)
		src = dst
	}

	// The reference: key block and keystream from the portable code.
	blocks := 1 + (n+BlockSize-1)/BlockSize
	ks := make([]byte, blocks*BlockSize)
	xorBlocksGeneric(&ref, ks, ks)
	want := make([]byte, n)
	for i := range want {
		want[i] = in[i] ^ ks[BlockSize+i]
	}
	ct := want
	if mode == 2 {
		ct = in
	}
	var pm poly1305.MAC
	pm.Init((*[32]byte)(ks[:32]))
	pm.WritePadded(ad)
	pm.Write(ct[:MidAVX512MACLen(n)])
	var wantTag [16]byte
	pm.Sum(&wantTag)

	var gotKey [BlockSize]byte
	var h [3]uint64
	MidAVX512(&s, &gotKey, dst, src, ad, mode == 2, &h)

	if !bytes.Equal(gotKey[:], ks[:BlockSize]) {
		t.Fatalf("n=%d counter=%#x off=%d ad=%d mode=%d: key block differs", n, counter, off, adLen, mode)
	}
	if !bytes.Equal(dst, want) {
		i := 0
		for i < n && dst[i] == want[i] {
			i++
		}
		t.Fatalf("n=%d counter=%#x off=%d ad=%d mode=%d: output differs from byte %d (block %d)", n, counter, off, adLen, mode, i, i/64)
	}
	for i, b := range buf[off+n:] {
		if b != guard {
			t.Fatalf("n=%d off=%d: byte %d after dst written", n, off, i)
		}
	}
	for i, b := range buf[:off] {
		if b != guard {
			t.Fatalf("n=%d off=%d: byte %d before dst written", n, off, i)
		}
	}
	if s.Counter != ref.Counter {
		t.Fatalf("n=%d counter=%#x: s.Counter = %#x, want %#x", n, counter, s.Counter, ref.Counter)
	}
	if h[2] >= 8 {
		t.Fatalf("n=%d: h[2] = %d", n, h[2])
	}
	var pk poly1305.MAC
	pk.Init((*[32]byte)(ks[:32]))
	hp, _ := pk.Accumulator()
	*hp = h
	var gotTag [16]byte
	pk.Sum(&gotTag)
	if gotTag != wantTag {
		t.Fatalf("n=%d counter=%#x off=%d ad=%d mode=%d: accumulator differs", n, counter, off, adLen, mode)
	}
}

func TestMidAVX512(t *testing.T) {
	needMidAVX512(t)
	r := rand.New(rand.NewPCG(8, 1350))
	for n := MidAVX512Min; n <= MidAVX512Max; n++ {
		for mode := 0; mode < 3; mode++ {
			mid512Case(t, r, n, r.Uint32()>>8, n%8, n%41, mode)
		}
	}
}

func TestMidAVX512Edges(t *testing.T) {
	needMidAVX512(t)
	r := rand.New(rand.NewPCG(8, 2))
	sizes := []int{MidAVX512Min, 1088, 1089, 1350, 1472, 1535, MidAVX512Max}
	for _, n := range sizes {
		// Counters whose batches wrap past 2^32-1 at every position.
		for back := uint32(0); back <= 26; back++ {
			mid512Case(t, r, n, -back, int(back)%8, int(back), int(back)%3)
		}
		for off := 0; off < 8; off++ {
			for adLen := 0; adLen <= 40; adLen++ {
				mid512Case(t, r, n, 0, off, adLen, (off+adLen)%3)
			}
		}
		mid512Case(t, r, n, 1, 0, 300, 0)
	}
}

func TestMidAVX512Allocs(t *testing.T) {
	needMidAVX512(t)
	var s State
	var key [BlockSize]byte
	var h [3]uint64
	src := make([]byte, 1350)
	dst := make([]byte, 1350)
	ad := make([]byte, 13)
	if n := testing.AllocsPerRun(10, func() { MidAVX512(&s, &key, dst, src, ad, false, &h) }); n != 0 {
		t.Errorf("MidAVX512: %v allocations", n)
	}
}

func BenchmarkMidAVX512(b *testing.B) {
	if !StitchedAVX512Available() {
		b.Skip("no AVX512Stitched")
	}
	for _, open := range []bool{false, true} {
		for _, n := range []int{1088, 1152, 1216, 1280, 1350, 1408, 1472, 1536, 1600, 1800, 2047} {
			var s State
			var key [BlockSize]byte
			var h [3]uint64
			src := make([]byte, n)
			dst := make([]byte, n)
			ad := make([]byte, 13)
			name := "op=Seal"
			if open {
				name = "op=Open"
			}
			b.Run(fmt.Sprintf("%s/size=%d", name, n), func(b *testing.B) {
				b.SetBytes(int64(n))
				for b.Loop() {
					MidAVX512(&s, &key, dst, src, ad, open, &h)
				}
			})
		}
	}
}
