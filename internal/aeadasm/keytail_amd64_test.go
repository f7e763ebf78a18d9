//go:build gc && !purego

package aeadasm

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestKeyTail: keyTailAVX512, keyTail8AVX512 and
// keyTail16AVX512 against the portable keystream, block by block, with
// counters anywhere (block 2^32-1 included) and in any order.
func TestKeyTail(t *testing.T) {
	rows := func(f func(*State, *[256]byte, *[16]uint32)) func(*State, *[16]uint32) []byte {
		return func(s *State, ctr *[16]uint32) []byte {
			var rows [16]uint32
			for b := 0; b < 4; b++ {
				rows[4*b] = ctr[b]
				copy(rows[4*b+1:4*b+4], s.Nonce[:])
			}
			var out [256]byte
			f(s, &out, &rows)
			return out[:]
		}
	}
	// Each runs where its stitched kernel (stitchedKernels[st]) does.
	const avx512 = 0
	kernels := []struct {
		name string
		st   int
		run  func(s *State, ctr *[16]uint32) []byte
	}{
		{"AVX512", avx512, rows(keyTailAVX512)},
		{"8AVX512", avx512, func(s *State, ctr *[16]uint32) []byte {
			var out [512]byte
			keyTail8AVX512(s, &out, ctr)
			return out[:]
		}},
		{"16AVX512", avx512, func(s *State, ctr *[16]uint32) []byte {
			var out [1024]byte
			keyTail16AVX512(s, &out, ctr)
			return out[:]
		}},
	}
	r := rand.New(rand.NewPCG(8, 9))
	for _, k := range kernels {
		t.Run(k.name, func(t *testing.T) {
			needStitched(t, stitchedKernels[k.st].name, stitchedKernels[k.st].available)
			for i := 0; i < 200; i++ {
				s := randState(r)
				var ctr [16]uint32
				for b := range ctr {
					switch i % 4 {
					case 0:
						ctr[b] = r.Uint32()
					case 1:
						ctr[b] = ^uint32(0) - uint32(b) // counters around 2^32-1
					default:
						ctr[b] = uint32(r.IntN(8)) - 3
					}
				}
				s0 := s
				got := k.run(&s, &ctr)
				if s != s0 {
					t.Fatalf("the state changed")
				}
				for b := 0; b < len(got)/BlockSize; b++ {
					ref := s
					ref.Counter = ctr[b]
					want := make([]byte, BlockSize)
					xorBlocksGeneric(&ref, want, want)
					if !bytes.Equal(got[64*b:64*b+64], want) {
						t.Fatalf("block %d (counter %#x): keystream differs", b, ctr[b])
					}
				}
			}
		})
	}
}

// TestStitchedTails: Seal and Open through the stitched kernels of messages
// that end 0 to 1023 bytes after whole batches (keyTail takes up to
// keyTailMax of them: its row sets, eight lanes or 16), against x/crypto,
// in place and not, and a forged tag that must leave dst zeroed.
func TestStitchedTails(t *testing.T) {
	eachStitched(t, func(t *testing.T, k Kernel) {
		r := rand.New(rand.NewPCG(8, 10))
		key := randKey(r)
		ref, _ := XCryptoNew(key[:])
		nonce := randBytes(r, 12)
		for batches := 1; batches <= 2; batches++ {
			for tail := 0; tail < Batch; tail++ {
				n := batches*Batch + tail
				pt := randBytes(r, n)
				ad := randBytes(r, r.IntN(40))
				want := ref.Seal(nil, nonce, pt, ad)
				if batches >= 2 {
					for _, inPlace := range []bool{false, true} {
						ct := make([]byte, n)
						src := pt
						if inPlace {
							copy(ct, pt)
							src = ct
						}
						var tag [16]byte
						Seal(k, key, nonce, ct, src, ad, &tag)
						if !bytes.Equal(append(ct, tag[:]...), want) {
							t.Fatalf("%d bytes (in place %v): Seal differs from x/crypto", n, inPlace)
						}
					}
				}
				for _, inPlace := range []bool{false, true} {
					buf := bytes.Clone(want)
					dst := make([]byte, n)
					if inPlace {
						dst = buf[:n]
					}
					if !Open(k, key, nonce, dst, buf[:n], ad, (*[16]byte)(buf[n:])) || !bytes.Equal(dst, pt) {
						t.Fatalf("%d bytes (in place %v): Open failed or differs", n, inPlace)
					}
					buf = bytes.Clone(want)
					buf[n] ^= 1
					dst = make([]byte, n)
					if inPlace {
						dst = buf[:n]
					}
					if Open(k, key, nonce, dst, buf[:n], ad, (*[16]byte)(buf[n:])) {
						t.Fatalf("%d bytes (in place %v): a forged tag opened", n, inPlace)
					}
					if !bytes.Equal(dst, make([]byte, n)) {
						t.Fatalf("%d bytes (in place %v): dst not zeroed after a failed Open", n, inPlace)
					}
				}
			}
		}
		// No allocation on the keyTail path (the keystream stays on the stack).
		n := 2*Batch + 100
		buf := make([]byte, n)
		var tag [16]byte
		if a := testing.AllocsPerRun(10, func() { Seal(k, key, nonce, buf, buf, nil, &tag) }); a != 0 {
			t.Errorf("Seal of %d bytes: %v allocations", n, a)
		}
		if a := testing.AllocsPerRun(10, func() { Open(k, key, nonce, buf, buf, nil, &tag) }); a != 0 {
			t.Errorf("Open of %d bytes: %v allocations", n, a)
		}
	})
}
