package chacha20core

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
)

// TestKeyAndXOR compares KeyAndXOR with the reference key block followed by
// the reference XORKeyStream, at every length 0..1100 and a few beyond the
// head buffer (17 blocks), with source and destination offsets and in
// place, and checks the counter afterwards.
func TestKeyAndXOR(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		r := rand.New(rand.NewPCG(11, 12))
		src := randBytes(r, 3000)
		lengths := []int{1344, 1350, 1408, 1500, 2048, 2049, 2999}
		for n := 0; n <= 1100; n++ {
			lengths = append(lengths, n)
		}
		for _, n := range lengths {
			s0 := randState(r)
			var wantKey [BlockSize]byte
			ref := s0
			blockGeneric(&ref, &wantKey)
			ref.Counter++
			want := make([]byte, n)
			refXORKeyStream(&ref, want, src[:n])

			off := n % 8
			dbuf := bytes.Repeat([]byte{guardByte}, off+n+64)
			dst := dbuf[off : off+n]
			in := src[:n]
			if n%5 == 0 { // in place
				copy(dst, src[:n])
				in = dst
			}
			s := s0
			var key [BlockSize]byte
			KeyAndXOR(&s, &key, dst, in)
			if key != wantKey {
				t.Fatalf("len %d: key block differs", n)
			}
			if !bytes.Equal(dst, want) {
				t.Fatalf("len %d: output differs", n)
			}
			for i, b := range dbuf[off+n:] {
				if b != guardByte {
					t.Fatalf("len %d: guard byte %d overwritten", n, i)
				}
			}
			if s.visible() != ref.visible() {
				t.Fatalf("len %d: state %+v, want %+v", n, s, ref)
			}

			// KeyStreamHead: the same key block and the keystream of
			// the head, rounded up to whole blocks.
			s = s0
			var buf [(1 + HeadBlocks) * BlockSize]byte
			ks := KeyStreamHead(&s, &buf, n)
			h := min(n, pathHeadBlocks()*BlockSize)
			if len(ks) != BlockSize+roundUp(h) {
				t.Fatalf("len %d: KeyStreamHead returned %d bytes", n, len(ks))
			}
			ref = s0
			wantKS := make([]byte, len(ks))
			xorBlocksGeneric(&ref, wantKS, wantKS)
			if !bytes.Equal(ks, wantKS) || s.visible() != ref.visible() {
				t.Fatalf("len %d: KeyStreamHead differs from the reference", n)
			}
		}
	})
}

// TestKeyAndXORAllocs checks that the buffers stay on the stack.
func TestKeyAndXORAllocs(t *testing.T) {
	var s State
	var key [BlockSize]byte
	var buf [(1 + HeadBlocks) * BlockSize]byte
	msg := make([]byte, 1350)
	if n := testing.AllocsPerRun(20, func() {
		KeyAndXOR(&s, &key, msg, msg)
		XORKeyStream(&s, msg, msg)
		KeyStreamHead(&s, &buf, len(msg))
	}); n != 0 {
		t.Fatalf("%v allocations per run, want 0", n)
	}
}
