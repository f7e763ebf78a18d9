//go:build gc && !purego

package chacha20core

import (
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
	"github.com/chachakit/chachakit/internal/impl"
)

// vecKernels lists the riscv64 kernel for TestVecKernels. It computes
// exactly the blocks asked for; 40 blocks cover several iterations at
// every VLEN up to 1024 and a rest of every size at VLEN=128 and 256.
func vecKernels() []vecKernel {
	return []vecKernel{
		{"RVV", available("RVV"), 40, func(s *State, out []byte, blocks int) int {
			keystreamRVV(s, &out[0], blocks)
			return blocks * BlockSize
		}},
	}
}

// TestRISCV64Registered: RVV is registered, CHACHAKIT_EXPECT names the
// default pick, and the test log shows VLEN (check that the QEMU CPU
// model's vlen= took effect).
func TestRISCV64Registered(t *testing.T) {
	l := impl.List("chacha20")
	if len(l) != 1 || l[0].Name != "RVV" {
		t.Fatalf("registered: %v", l)
	}
	if rvvRequired() && !l[0].Available {
		t.Fatal("built for rva23u64 but RVV is not available")
	}
	if l[0].Available {
		t.Logf("RVV: VLEN=%d bits, %d blocks per iteration (rva23u64 build: %v)", 32*rvvLanes(), rvvLanes(), rvvRequired())
	}
	cryptotest.CheckExpected(t, "chacha20")
}
