//go:build gc && !purego

package aeadasm

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
// the portable code: the keystream against xorBlocksGeneric, the tag
// against poly1305.SumAEAD of the ciphertext under the reference key block.

func needMidAVX512(t *testing.T) { t.Helper(); needMidCPU(t, "MidAVX512") }

// needMidCPU skips a test of kernel (MidAVX512, or one with the same needs)
// where the CPU lacks what MidAVX512 needs, and fails it there in strict
// mode unless CHACHAKIT_ABSENT names aead/AVX512Stitched.
func needMidCPU(t *testing.T, kernel string) {
	t.Helper()
	if !MidAVX512Available() {
		if cryptotest.Strict() && !slices.Contains(strings.Split(os.Getenv("CHACHAKIT_ABSENT"), ","), "aead/AVX512Stitched") {
			t.Fatal(kernel + " is not available on this CPU, and CHACHAKIT_STRICT=1 expects it to run")
		}
		t.Skip(kernel + " is not available on this CPU")
	}
}

// mid512Case runs MidAVX512 on n bytes with the given counter, offsets, AD
// length and mode (0: Seal, separate buffers; 1: Seal in place; 2: Open;
// 3: Open with a wrong tag; 4 and 5: the same Opens in place) and checks
// everything it writes.
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
	open := mode >= 2
	wrong := mode == 3 || mode == 5
	inPlace := mode == 1 || mode >= 4
	in := rnd(n)
	ad := rnd(adLen)
	buf := bytes.Repeat([]byte{guard}, n+off+64)
	dst := buf[off : off+n]
	src := rnd(n + off)[off:]
	copy(src, in)
	if inPlace {
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
	if open {
		ct = in
	}
	var wantTag [16]byte
	poly1305.SumAEAD(&wantTag, (*[32]byte)(ks[:32]), ad, ct)

	var tag [16]byte
	if open {
		tag = wantTag
		if wrong {
			tag[r.IntN(16)] ^= 1 << r.IntN(8)
		}
	} else {
		tag = [16]byte(rnd(16))
	}
	ok := runMidAVX512(&s, dst, src, ad, &tag, open)

	if ok == wrong {
		t.Fatalf("n=%d counter=%#x off=%d ad=%d mode=%d: ok = %v", n, counter, off, adLen, mode, ok)
	}
	if !open && tag != wantTag {
		t.Fatalf("n=%d counter=%#x off=%d ad=%d mode=%d: tag differs", n, counter, off, adLen, mode)
	}
	if open && tag != wantTag && !wrong {
		t.Fatalf("n=%d mode=%d: tag changed", n, mode)
	}
	check := want
	if wrong {
		// Only the whole blocks are written before the tags are compared:
		// the partial block keeps what was there (the ciphertext in place).
		full := n &^ (BlockSize - 1)
		rest := bytes.Repeat([]byte{guard}, n-full)
		if inPlace {
			rest = in[full:]
		}
		check = append(want[:full:full], rest...)
	}
	if !bytes.Equal(dst, check) {
		i := 0
		for i < n && dst[i] == check[i] {
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
}

func TestMidAVX512(t *testing.T) {
	needMidAVX512(t)
	r := rand.New(rand.NewPCG(8, 1350))
	for n := MidAVX512Min; n <= MidAVX512Max; n++ {
		for mode := 0; mode < 6; mode++ {
			mid512Case(t, r, n, r.Uint32()>>8, n%8, n%41, mode)
		}
	}
}

func TestMidAVX512Edges(t *testing.T) {
	needMidAVX512(t)
	r := rand.New(rand.NewPCG(8, 2))
	sizes := []int{MidAVX512Min, 450, 511, 512, 513, 575, 576, 640, 703, 704, 705, 767, 768, 769,
		832, 960, 961, 1023, MidAVX512SmallMax, MidAVX512SmallMax + 1, 1088, 1089, 1350, 1472, 1535, MidAVX512Max}
	for _, n := range sizes {
		// Counters whose batches wrap past 2^32-1 at every position.
		for back := uint32(0); back <= 26; back++ {
			mid512Case(t, r, n, -back, int(back)%8, int(back), int(back)%6)
		}
		for off := 0; off < 8; off++ {
			for adLen := 0; adLen <= 40; adLen++ {
				mid512Case(t, r, n, 0, off, adLen, (off+adLen)%6)
			}
		}
		for mode := 0; mode < 6; mode++ {
			mid512Case(t, r, n, 1, 0, 300+mode, mode)
			mid512Case(t, r, n, 1, 0, 1000+mode, mode)
		}
	}
}

func TestMidAVX512Allocs(t *testing.T) {
	needMidAVX512(t)
	var s State
	var tag [16]byte
	ad := make([]byte, 13)
	for _, size := range []int{500, 1350} {
		src := make([]byte, size)
		dst := make([]byte, size)
		for _, open := range []bool{false, true} {
			if n := testing.AllocsPerRun(10, func() { runMidAVX512(&s, dst, src, ad, &tag, open) }); n != 0 {
				t.Errorf("MidAVX512 (%d bytes, open %v): %v allocations", size, open, n)
			}
		}
		// An Open in place (the kernel copies the ciphertext to its frame).
		if n := testing.AllocsPerRun(10, func() { runMidAVX512(&s, src, src, ad, &tag, true) }); n != 0 {
			t.Errorf("MidAVX512 (%d bytes, Open in place): %v allocations", size, n)
		}
	}
}

func BenchmarkMidAVX512(b *testing.B) {
	if !MidAVX512Available() {
		b.Skip("no MidAVX512")
	}
	for _, open := range []bool{false, true} {
		for _, n := range []int{449, 500, 576, 640, 700, 800, 960, 1024, 1088, 1152, 1216, 1280, 1350, 1408, 1472, 1536, 1600, 1800, 2047} {
			var s State
			var tag [16]byte
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
					runMidAVX512(&s, dst, src, ad, &tag, open)
				}
			})
		}
	}
}
