//go:build gc && !purego

package aeadasm

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
	"github.com/chachakit/chachakit/internal/impl"
	"github.com/chachakit/chachakit/internal/poly1305"
)

// Twin tests of the whole-message AVX2 kernels (SealMidAVX2, OpenMidAVX2,
// _asm/mid_avx2.go) against the portable code: the keystream against
// xorBlocksGeneric, the tag against poly1305.SumAEAD with the portable
// Poly1305 selected.

func needMidAVX2(t testing.TB) {
	if !MidAVX2Available() {
		if cryptotest.Strict() && !slices.Contains(strings.Split(os.Getenv("CHACHAKIT_ABSENT"), ","), "aead/AVX2Stitched") {
			t.Fatalf("AVX2Stitched is not available on this CPU, and CHACHAKIT_STRICT=1 expects it to run")
		}
		t.Skip("AVX2 and BMI2 are not available on this CPU")
	}
}

// midCase runs one kernel on an n-byte message at offset off and checks
// every output. inPlace: dst == src.
func midCase(t *testing.T, open bool, r *rand.Rand, s0 State, n, off, adLen int, inPlace bool, fill byte) {
	t.Helper()
	rnd := func(k int) []byte { return randFill(r, k, fill) }
	const guard = 0x5a
	buf := bytes.Repeat([]byte{guard}, n+off+64)
	msg := rnd(n)
	dst, src := place(buf, off, msg, inPlace, rnd)
	ad := rnd(adLen)
	full0 := adLen &^ 15
	var adt [16]byte
	adTail := adt[:0]
	if full0 < adLen {
		copy(adt[:], ad[full0:])
		adTail = adt[:]
	}

	batches := (n + 64 + 511) / 512
	ksAll := make([]byte, 512*batches)
	ref := s0
	xorBlocksGeneric(&ref, ksAll, ksAll)
	full := bytes.Clone(msg) // the whole message XORed with the keystream
	for i := range full {
		full[i] ^= ksAll[64+i]
	}
	// dst gets all but the partial last 64-byte block, which goes to fin.
	p := n - MidTail(n)
	want := bytes.Clone(full)
	if inPlace {
		copy(want[p:], msg[p:])
	} else {
		for i := p; i < n; i++ {
			want[i] = guard
		}
	}
	ct := full // Seal: the MAC covers the ciphertext
	if open {
		ct = msg
	}

	var fin [80]byte
	var tag [16]byte
	binary.LittleEndian.PutUint64(fin[64:], uint64(adLen))
	binary.LittleEndian.PutUint64(fin[72:], uint64(n))
	copy(fin[:], msg[p:])
	s := s0
	if open {
		var z [256]byte
		pc := (n + 15) &^ 15 // the ciphertext padded
		copy(z[:], msg[pc-240:])
		copy(z[240:], fin[64:80])
		OpenMidAVX2(&s, dst, src, ad[:full0], adTail, &fin, &z, &tag)
	} else {
		SealMidAVX2(&s, dst, src, ad[:full0], adTail, &fin, &tag)
	}
	what := func() string {
		return "open=" + map[bool]string{false: "0", true: "1"}[open] + " n=" + itoa(n) + " off=" + itoa(off) + " ad=" + itoa(adLen) + " inPlace=" + map[bool]string{false: "0", true: "1"}[inPlace]
	}
	if s.Counter != ref.Counter || s.Key != ref.Key || s.Nonce != ref.Nonce {
		t.Fatalf("%s: state %+v, want %+v", what(), s, ref)
	}
	if !bytes.Equal(fin[:n-p], full[p:]) {
		t.Fatalf("%s: the partial block in fin differs", what())
	}
	if !bytes.Equal(dst, want) {
		i := 0
		for dst[i] == want[i] {
			i++
		}
		t.Fatalf("%s: dst differs at byte %d (partial block at %d)", what(), i, p)
	}
	// The reference tag from the portable Poly1305.
	var tw [16]byte
	impl.Select("poly1305", impl.Portable)
	poly1305.SumAEAD(&tw, (*[32]byte)(ksAll[:32]), ad, ct)
	impl.Reset("poly1305")
	if tw != tag {
		t.Fatalf("%s: tag %x, want %x", what(), tag, tw)
	}
	for i, b := range buf[off+n:] {
		if b != guard {
			t.Fatalf("%s: byte %d past dst written", what(), i)
		}
	}
	if !inPlace {
		for i, b := range buf[:off] {
			if b != guard {
				t.Fatalf("%s: byte %d before dst written", what(), i)
			}
		}
	}
}

// TestMidAVX2Lengths: every length from MidMin to 40 blocks and more.
func TestMidAVX2Lengths(t *testing.T) {
	needMidAVX2(t)
	r := rand.New(rand.NewPCG(9, 1))
	for _, open := range []bool{false, true} {
		for n := MidMin; n <= 41*64; n++ {
			midCase(t, open, r, randState(r), n, n%8, r.IntN(41), n%3 == 0, 0)
		}
		for _, n := range []int{3000, 4096, 4097, 8191, 8192, 16384 + 5} {
			for off := 0; off < 8; off++ {
				midCase(t, open, r, randState(r), n, off, r.IntN(80), off%2 == 0, 0)
			}
		}
	}
}

// TestMidAVX2AD: additional data of 0..200 bytes (the kernel's loop).
func TestMidAVX2AD(t *testing.T) {
	needMidAVX2(t)
	r := rand.New(rand.NewPCG(9, 2))
	for _, open := range []bool{false, true} {
		for adLen := 0; adLen <= 200; adLen++ {
			for _, n := range []int{MidMin, 960, 961, 1350} {
				midCase(t, open, r, randState(r), n, adLen%8, adLen, adLen%2 == 1, 0)
			}
		}
	}
}

// TestMidAVX2Counter: batches that end at or cross block 2^32-1 wrap the
// per-lane counters modulo 2^32.
func TestMidAVX2Counter(t *testing.T) {
	needMidAVX2(t)
	r := rand.New(rand.NewPCG(9, 3))
	for _, open := range []bool{false, true} {
		for _, k := range []int{1, 2, 7, 8, 9, 15, 16, 17, 23, 24, 25, 31, 32, 33, 48, 64} {
			for _, n := range []int{MidMin, 1000, 1350, 2100, 3000} {
				s := randState(r)
				s.Counter = uint32(1<<32 - k)
				midCase(t, open, r, s, n, k%8, k, k%2 == 0, 0)
			}
		}
	}
}

// TestMidAVX2Edges: the largest values (all-ones message and keystream-
// derived key cannot be chosen, so fills of 0xff and 0x00 messages with
// random states).
func TestMidAVX2Edges(t *testing.T) {
	needMidAVX2(t)
	r := rand.New(rand.NewPCG(9, 4))
	for _, open := range []bool{false, true} {
		for _, fill := range []byte{0xff, 0x80} {
			for _, n := range []int{MidMin, 1350, 2048, 5000} {
				for i := 0; i < 20; i++ {
					midCase(t, open, r, randState(r), n, i%8, 16*(i%4), i%2 == 0, fill)
				}
			}
		}
	}
}

func TestMidAVX2Allocs(t *testing.T) {
	needMidAVX2(t)
	var s State
	var fin [80]byte
	var z [256]byte
	var tag [16]byte
	buf := make([]byte, 1350)
	ad := make([]byte, 16)
	if n := testing.AllocsPerRun(10, func() { SealMidAVX2(&s, buf, buf, ad, nil, &fin, &tag) }); n != 0 {
		t.Errorf("SealMidAVX2 allocates %v times", n)
	}
	if n := testing.AllocsPerRun(10, func() { OpenMidAVX2(&s, buf, buf, ad, ad, &fin, &z, &tag) }); n != 0 {
		t.Errorf("OpenMidAVX2 allocates %v times", n)
	}
}

func TestMidAVX2Panics(t *testing.T) {
	needMidAVX2(t)
	var s State
	var fin [80]byte
	var tag [16]byte
	buf := make([]byte, 2000)
	for _, c := range []struct{ dst, src, ad, adTail []byte }{
		{buf[:448], buf[:448], nil, nil},
		{buf[:999], buf[:1000], nil, nil},
		{buf[:1000], buf[:1000], buf[1000:1001], nil},
		{buf[:1000], buf[:1000], nil, buf[1000:1008]},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("no panic for dst %d src %d ad %d adTail %d", len(c.dst), len(c.src), len(c.ad), len(c.adTail))
				}
			}()
			SealMidAVX2(&s, c.dst, c.src, c.ad, c.adTail, &fin, &tag)
		}()
	}
}

// BenchmarkMidAVX2: the kernels alone.
func BenchmarkMidAVX2(b *testing.B) {
	needMidAVX2(b)
	for _, size := range []int{500, 961, 1216, 1350, 1472, 2048, 4096, 16384} {
		buf := make([]byte, size)
		var s State
		var fin [80]byte
		var z [256]byte
		var tag [16]byte
		ad := make([]byte, 16)
		b.Run("op=Seal/size="+itoa(size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				SealMidAVX2(&s, buf, buf, ad, nil, &fin, &tag)
			}
		})
		b.Run("op=Open/size="+itoa(size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				OpenMidAVX2(&s, buf, buf, ad, nil, &fin, &z, &tag)
			}
		})
		out := make([]byte, size)
		b.Run("op=OpenNotInPlace/size="+itoa(size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				OpenMidAVX2(&s, out, buf, ad, nil, &fin, &z, &tag)
			}
		})
		b.Run("op=SealNotInPlace/size="+itoa(size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				SealMidAVX2(&s, out, buf, ad, nil, &fin, &tag)
			}
		})
	}
}
