//go:build !amd64 || !gc || purego

package aead

import "github.com/chachakit/chachakit/internal/aeadasm"

// pick chooses the portable passes: only amd64 has AEAD kernels.
func pick(n, adLen int, open, inPlace bool) aeadasm.Kernel { return aeadasm.None }

// batchLanes: without a vector LaneBlocks, a batch is a loop of seal or open
// calls, no slower than the caller's own loop; in tests, forceLanes runs
// the lane groups on the portable block function.
func batchLanes() bool { return forceLanes }

// laneMessage: the lane groups' limit, as on amd64 (tests only).
func laneMessage(n int) bool { return n <= 7*64 }
