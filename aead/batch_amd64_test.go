//go:build gc && !purego

package aead

import (
	"testing"

	"github.com/chachakit/chachakit/internal/aeadasm"
	"github.com/chachakit/chachakit/internal/cryptotest"
	"golang.org/x/sys/cpu"
)

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

// TestKernelRunEmpties checks that a run of kernel messages that ends
// before the batch does leaves the group's Lanes empty, so that the group's
// own kernel messages after it are all it computes.
func TestKernelRunEmpties(t *testing.T) {
	if !batchKernel() {
		t.Skip("the batch kernel does not run here")
	}
	key := make([]byte, KeySize)
	key[0] = 1 // an all-zero key has an AEAD type of its own
	a, _ := New(key)
	c := a.(*chacha20poly1305)
	msgs := make([]Message, 6)
	for i := range msgs {
		n := 64
		if i == 5 {
			n = 1000 // not a kernel message: the run ends before it
		}
		msgs[i] = Message{Nonce: make([]byte, NonceSize), Text: make([]byte, n)}
	}
	var g group
	g.init(c.ref(), NonceSize, false)
	if i := g.kernelRun(msgs, 0); i != 5 {
		t.Fatalf("kernelRun took %d messages, want 5", i)
	}
	if n := g.kl.Len(); n != 0 {
		t.Errorf("kernelRun left %d messages in the group's Lanes", n)
	}
	g.wipe()
}
