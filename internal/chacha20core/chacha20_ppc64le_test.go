//go:build gc && !purego

package chacha20core

import (
	"bytes"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
	"github.com/chachakit/chachakit/internal/impl"
)

// vecKernels lists the ppc64le kernels for TestVecKernels. They compute
// exactly the blocks asked for, in place over zeros here; 24 blocks cover
// several four-block iterations followed by every tail length.
func vecKernels() []vecKernel {
	var ks []vecKernel
	for _, k := range vsxKernels {
		ks = append(ks, vecKernel{k.name, available(k.name), 24, func(s *State, out []byte, blocks int) int {
			clear(out[:blocks*BlockSize])
			xorBlocksVSX(s, &out[0], &out[0], blocks, k.paired)
			s.Counter -= uint32(blocks) // the kernel test wants s unchanged
			return blocks * BlockSize
		}})
	}
	return ks
}

// vsxKernels are the two loops of xorBlocksVSX.
var vsxKernels = []struct {
	name   string
	paired bool
}{{"VSXPaired", true}, {"VSX", false}}

// runVSX runs f for each kernel of xorBlocksVSX this CPU can run, and in
// strict mode fails for one that it cannot unless CHACHAKIT_ABSENT names it.
func runVSX(t *testing.T, f func(t *testing.T, paired bool)) {
	for _, k := range vsxKernels {
		t.Run(k.name, func(t *testing.T) {
			if !available(k.name) {
				if cryptotest.Strict() && !slices.Contains(strings.Split(os.Getenv("CHACHAKIT_ABSENT"), ","), "chacha20/"+k.name) {
					t.Fatalf("kernel %s is not available on this CPU, and CHACHAKIT_STRICT=1 expects it to run", k.name)
				}
				t.Skipf("kernel %s is not available on this CPU", k.name)
			}
			f(t, k.paired)
		})
	}
}

// TestPPC64LERegistered: both paths are registered in the dispatcher's
// order, VSX is available, VSXPaired exactly on POWER10, and
// CHACHAKIT_EXPECT names the default pick.
func TestPPC64LERegistered(t *testing.T) {
	l := impl.List("chacha20")
	if len(l) != 2 || l[0].Name != "VSXPaired" || l[1].Name != "VSX" {
		t.Fatalf("registered: %v", l)
	}
	if l[0].Available != isPOWER10() || !l[1].Available {
		t.Fatalf("available: %v (POWER10: %v)", l, isPOWER10())
	}
	cryptotest.CheckExpected(t, "chacha20")
}

// TestVSXOffsets compares the assembly with xorBlocksGeneric at every
// whole-block length up to 1100 bytes, for every pair of source and
// destination offsets 0..7 and in place, called directly (no dispatcher in
// between) and through XORBlocks, with guard bytes around dst.
func TestVSXOffsets(t *testing.T) {
	runVSX(t, testVSXOffsets)
}

func testVSXOffsets(t *testing.T, paired bool) {
	r := rand.New(rand.NewPCG(11, 1))
	name := map[bool]string{false: "VSX", true: "VSXPaired"}[paired]
	const guard = 0xa5
	for blocks := 0; blocks*BlockSize <= 1100; blocks++ {
		n := blocks * BlockSize
		src0 := vecRandBytes(r, n)
		for srcOff := range 8 {
			for dstOff := -1; dstOff < 8; dstOff++ { // -1: in place at srcOff
				s0 := vecRandState(r)
				want := make([]byte, n)
				ref := s0
				xorBlocksGeneric(&ref, want, src0)

				for _, direct := range []bool{true, false} {
					sbuf := bytes.Repeat([]byte{guard}, n+16)
					src := sbuf[srcOff : srcOff+n]
					copy(src, src0)
					dbuf, dst := sbuf, src
					if dstOff >= 0 {
						dbuf = bytes.Repeat([]byte{guard}, n+16)
						dst = dbuf[dstOff : dstOff+n]
					}
					s := s0
					if direct {
						if blocks > 0 {
							xorBlocksVSX(&s, &dst[0], &src[0], blocks, paired)
						}
					} else {
						impl.Select("chacha20", name)
						XORBlocks(&s, dst, src)
						impl.Reset("chacha20")
					}
					if !bytes.Equal(dst, want) || s != ref {
						t.Fatalf("%d blocks, srcOff %d, dstOff %d, direct %v: wrong output or state", blocks, srcOff, dstOff, direct)
					}
					lo := srcOff
					if dstOff >= 0 {
						lo = dstOff
						if !bytes.Equal(src, src0) {
							t.Fatalf("%d blocks, srcOff %d, dstOff %d: src modified", blocks, srcOff, dstOff)
						}
					}
					for i, b := range dbuf {
						if (i < lo || i >= lo+n) && b != guard {
							t.Fatalf("%d blocks, srcOff %d, dstOff %d: byte %d outside dst written", blocks, srcOff, dstOff, i-lo)
						}
					}
				}
			}
		}
	}
}

// TestVSXCounterEdge starts every lane arrangement just below 2^32 and checks
// that each block's counter wraps to 0 on its own, in the four-block loop
// and in the one-block tail.
func TestVSXCounterEdge(t *testing.T) {
	runVSX(t, testVSXCounterEdge)
}

func testVSXCounterEdge(t *testing.T, paired bool) {
	r := rand.New(rand.NewPCG(11, 2))
	src := vecRandBytes(r, 20*BlockSize)
	for k := uint32(1); k <= 9; k++ {
		for blocks := 1; blocks <= 20; blocks++ {
			s0 := vecRandState(r)
			s0.Counter = -k
			want, wantCtr := vecRef(s0, src[:blocks*BlockSize])
			got := make([]byte, blocks*BlockSize)
			s := s0
			xorBlocksVSX(&s, &got[0], &src[0], blocks, paired)
			if !bytes.Equal(got, want) || s.Key != s0.Key || s.Nonce != s0.Nonce {
				t.Fatalf("counter 2^32-%d, %d blocks: wrong keystream or key or nonce changed", k, blocks)
			}
			if s.Counter != wantCtr {
				t.Fatalf("counter 2^32-%d, %d blocks: counter %#x, want %#x", k, blocks, s.Counter, wantCtr)
			}
		}
	}
}
