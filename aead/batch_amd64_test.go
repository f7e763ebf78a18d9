//go:build gc && !purego

package aead

import "testing"

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
