//go:build gc && !purego

package chacha20core

import (
	"slices"
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
	"github.com/chachakit/chachakit/internal/impl"
)

// vecKernels lists the loong64 kernels for TestVecKernels. They compute
// whole iterations, so gen returns the size of every iteration it ran. The
// fused kernels run in place over zeros, which leaves the keystream.
func vecKernels() []vecKernel {
	return []vecKernel{
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
