//go:build gc && !purego

package chacha20core

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
	"github.com/chachakit/chachakit/internal/impl"
)

// vecKernels lists the loong64 kernels for TestVecKernels. The vector
// kernels compute whole iterations, so gen returns the size of every
// iteration it ran. The fused kernels and the row kernel run in place over
// zeros, which leaves the keystream; the row kernel computes exactly the
// blocks asked for, and 8 blocks cover twice the 1 to 3 it is used for.
func vecKernels() []vecKernel {
	return []vecKernel{
		{"Rows", available("LSX"), 8, func(s *State, out []byte, blocks int) int {
			n := blocks * BlockSize
			clear(out[:n])
			xorBlocksRows(s, &out[0], &out[0], blocks)
			return n
		}},
		{"LASX", available("LASX"), 24, func(s *State, out []byte, blocks int) int {
			iters := (blocks + 7) / 8
			keystreamLASX(s, &out[0], iters)
			return iters * 8 * BlockSize
		}},
		{"LSX", available("LSX"), 24, func(s *State, out []byte, blocks int) int {
			iters := (blocks + 3) / 4
			keystreamLSX(s, &out[0], iters)
			return iters * 4 * BlockSize
		}},
		{"LASXFused", available("LASXFused"), 24, func(s *State, out []byte, blocks int) int {
			iters := (blocks + 7) / 8
			clear(out[:iters*8*BlockSize])
			xorKeyStreamLASX(s, &out[0], &out[0], iters)
			return iters * 8 * BlockSize
		}},
		{"LSXFused", available("LSXFused"), 24, func(s *State, out []byte, blocks int) int {
			iters := (blocks + 3) / 4
			clear(out[:iters*4*BlockSize])
			xorKeyStreamLSX(s, &out[0], &out[0], iters)
			return iters * 4 * BlockSize
		}},
	}
}

// TestLoong64Registered: the four paths are registered in the dispatcher's
// order, and CHACHAKIT_EXPECT names the default pick.
func TestLoong64Registered(t *testing.T) {
	var names []string
	for _, i := range impl.List("chacha20") {
		names = append(names, i.Name)
	}
	if want := []string{"LASXFused", "LASX", "LSXFused", "LSX"}; !slices.Equal(names, want) {
		t.Fatalf("registered %v, want %v", names, want)
	}
	cryptotest.CheckExpected(t, "chacha20")
}

// TestLoong64Rows calls xorBlocksRows directly for 1 to 8 blocks, in place
// and into a separate buffer at odd offsets, from counters that wrap inside
// the call (2^32-1, 2^32-2) and from random ones, against vecRef.
func TestLoong64Rows(t *testing.T) {
	if !available("LSX") {
		if cryptotest.Strict() {
			t.Fatal("LSX is not available on this CPU, and CHACHAKIT_STRICT=1 expects it to run")
		}
		t.Skip("LSX is not available on this CPU")
	}
	r := rand.New(rand.NewPCG(9, 40))
	for blocks := 1; blocks <= 8; blocks++ {
		for _, ctr := range []uint32{1<<32 - 1, 1<<32 - 2, 0, r.Uint32()} {
			s := vecRandState(r)
			s.Counter = ctr
			s0 := s
			n := blocks * BlockSize
			src := vecRandBytes(r, n+3)[3:]
			want, _ := vecRef(s0, src)

			dst := bytes.Repeat([]byte{vecGuard}, n+8)
			xorBlocksRows(&s, &dst[1], &src[0], blocks)
			if !bytes.Equal(dst[1:n+1], want) || dst[0] != vecGuard || dst[n+1] != vecGuard {
				t.Fatalf("%d blocks, counter %#x, separate dst: wrong output", blocks, ctr)
			}
			inPlace := slices.Clone(src)
			xorBlocksRows(&s, &inPlace[0], &inPlace[0], blocks)
			if !bytes.Equal(inPlace, want) {
				t.Fatalf("%d blocks, counter %#x, in place: wrong output", blocks, ctr)
			}
			if s != s0 {
				t.Fatalf("%d blocks, counter %#x: state changed", blocks, ctr)
			}
		}
	}
}
