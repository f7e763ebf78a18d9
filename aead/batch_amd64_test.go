//go:build gc && !purego

package aead

import (
	"testing"

	"github.com/chachakit/chachakit/internal/aeadasm"
	"github.com/chachakit/chachakit/internal/cryptotest"
	"golang.org/x/sys/cpu"
)

// TestBatchLoop runs the batch tests with X86AEAD.BatchLoop's choice both
// ways (lane groups, or the loop of single calls that AMD Zen 1 takes), so
// that every core's route is tested on every CPU: every length 0..1100 in
// mixed batches, forged messages at every position, and the allocations.
func TestBatchLoop(t *testing.T) {
	defer func(v bool) { batchLoop = v }(batchLoop)
	for _, loop := range []bool{false, true} {
		batchLoop = loop
		t.Run(map[bool]string{false: "lanes", true: "loop"}[loop], func(t *testing.T) {
			TestBatchLengths(t)
			TestBatchForged(t)
			TestBatchAllocs(t)
		})
	}
}

// TestBatchKernelRoute checks that the groups use the batch kernel wherever
// it can run (so that the batch tests' default mode reaches it there), and
// that in strict mode it runs on every CPU with AVX-512 IFMA.
func TestBatchKernelRoute(t *testing.T) {
	avail := aeadasm.Available().Has(aeadasm.LanesAVX512)
	if batchKernel() != avail {
		t.Fatalf("batchKernel() = %v with LanesAVX512 available = %v", batchKernel(), avail)
	}
	x := cpu.X86
	capable := x.HasAVX512F && x.HasAVX512VL && x.HasAVX512BW && x.HasAVX512IFMA && x.HasAVX2 && x.HasBMI2
	if !avail && capable && cryptotest.Strict() && !cryptotest.AbsentAllowed("aead", "AVX512Stitched") {
		t.Fatal("the batch kernel does not run on this AVX-512 IFMA CPU, and CHACHAKIT_STRICT=1 expects it to")
	}
}
