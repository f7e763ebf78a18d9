//go:build gc && !purego

package aead

import "github.com/chachakit/chachakit/internal/aeadasm"

// pick is the route table of arm64: a stitched loop of internal/aeadasm
// (6 NEON keystream blocks and 24 Poly1305 blocks per 384-byte batch,
// SVE2Stitched with SVE2's XAR for the rotations, NEONStitched without),
// or aeadasm.None for the portable passes of seal and open (the NEON
// keystream, then the Poly1305 pass). A loop runs where its toggle,
// aead/SVE2Stitched or aead/NEONStitched, is on: by default on the cores
// internal/cpuid sends to it (cpuid.AEADLoopFor), SVE2Stitched only with
// SVE2. A Seal MACs each batch during the next one, so it needs two
// batches to gain anything; an Open MACs the batch it decrypts, from one
// batch past the short path's reach. The thresholds follow the loop's
// structure and llvm-mca's estimates of its main loop, not hardware
// timings (bench/README.md, "arm64: ChaCha20-Poly1305"), and are the same
// for both kernels.
func pick(n, adLen int, open bool) aeadasm.Kernel {
	set := aeadasm.Available()
	k := aeadasm.SVE2Stitched
	switch {
	case set.Has(aeadasm.SVE2Stitched):
	case set.Has(aeadasm.NEONStitched):
		k = aeadasm.NEONStitched
	default:
		return aeadasm.None
	}
	if open && n > shortMax && n >= aeadasm.NEONBatch || n >= 2*aeadasm.NEONBatch {
		return k
	}
	return aeadasm.None
}

// subkeyFirstMax is -1: XChaCha20's subkey is derived where the nonce is
// used (State.InitFrom, or the kernel).
const subkeyFirstMax = -1
