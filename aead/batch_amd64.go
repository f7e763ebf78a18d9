//go:build gc && !purego

package aead

import (
	"github.com/chachakit/chachakit/internal/aeadasm"
)

// laneMax on amd64: a key block and four blocks of text. Up to 256 bytes
// three or more messages share a 16-lane AVX-512 pass (two 8-lane AVX2
// passes) and the batch beats the loop of calls; from 320 bytes only two
// do, and a message's own call, whose keystream takes about half a pass,
// is as fast or faster (bench/README.md, "Batches", the 320-byte rows with
// AVX-512 and with AVX2).
const laneMax = 4 * 64

// batchLoop: no core here prefers the loop where the lanes are fast.
const batchLoop = false

// batchKernel reports whether the groups give their ChaCha20-Poly1305
// messages of up to 64 bytes (kernelMessage) to aeadasm's batch kernel:
// eight messages' blocks in one 16-lane pass, their tags in IFMA lanes
// and nothing of either in Go (AVX-512BW and IFMA).
func batchKernel() bool { return aeadasm.Available().Has(aeadasm.LanesAVX512) }

// kernelMin is the fewest messages a kernel call takes: its cost is about
// that of two or three 64-byte Seals whatever the count, so it beats the
// messages' own calls from three messages on and a group with fewer gives
// them their own calls (bench/README.md, "Batches", the kernel rows of two
// and three messages).
const kernelMin = 3

// batchWide: the long group is for tests only (forceLong); no amd64 route
// takes it.
const batchWide = false
