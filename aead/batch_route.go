package aead

import (
	"github.com/chachakit/chachakit/internal/aeadasm"
	"github.com/chachakit/chachakit/internal/chacha20core"
)

// batchLanes reports whether SealBatch and OpenBatch put short messages
// side by side in LaneBlocks' lanes: where LaneBlocks has a vector path
// (amd64 with AVX2 or AVX-512, arm64 with NEON) and the core does not
// prefer the loop (batchLoop). Otherwise a batch is a loop of seal or open
// calls, no slower than the caller's own loop (or, in tests, forceLanes
// runs the lane groups anyway, on the portable code where that is all).
func batchLanes() bool { return forceLanes || chacha20core.LaneBlocksFast() && !batchLoop }

// laneMessage reports whether a batch's message of n bytes takes lanes in a
// group rather than its own seal or open call: up to laneMax bytes, which
// each architecture sets where the lanes stop paying (batch_*.go).
func laneMessage(n int) bool { return n <= laneMax }

// kernelMessage reports whether a batch's message of n text bytes and adLen
// bytes of additional data fits the batch kernel (batchKernel).
func kernelMessage(n, adLen int) bool {
	return n <= aeadasm.LanesTextMax && adLen <= aeadasm.LanesADMax
}
