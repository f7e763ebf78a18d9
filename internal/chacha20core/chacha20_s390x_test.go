//go:build gc && !purego

package chacha20core

import (
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
	"github.com/chachakit/chachakit/internal/impl"
	"golang.org/x/sys/cpu"
)

// vecKernels lists the s390x kernel for TestVecKernels. It XORs exactly the
// blocks asked for, here over zeros, which leaves the keystream; 24 blocks
// cover several 4-block groups followed by every number of single blocks.
func vecKernels() []vecKernel {
	return []vecKernel{
		{"VX", cpu.S390X.HasVX, 24, func(s *State, out []byte, blocks int) int {
			n := blocks * BlockSize
			clear(out[:n])
			xorBlocksVX(s, out[:n], out[:n])
			return n
		}},
	}
}

// TestS390XRegistered: VX is the one registered path, and CHACHAKIT_EXPECT
// names the default pick.
func TestS390XRegistered(t *testing.T) {
	l := impl.List("chacha20")
	if len(l) != 1 || l[0].Name != "VX" {
		t.Fatalf("registered: %v", l)
	}
	cryptotest.CheckExpected(t, "chacha20")
}

// TestS390XZeroLength: an empty src writes nothing and leaves the counter.
func TestS390XZeroLength(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		s := State{Counter: 7}
		dst := []byte{1, 2, 3}
		XORBlocks(&s, dst[:0], nil)
		if s.Counter != 7 || dst[0] != 1 || dst[2] != 3 {
			t.Fatalf("counter %d, dst %v", s.Counter, dst)
		}
	})
}
