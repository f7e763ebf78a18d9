//go:build !amd64 || !gc || purego

package xorbytes

import (
	"unsafe"

	"github.com/chachakit/chachakit/internal/alias"
)

// Std reports whether XORBytes is crypto/subtle.XORBytes (xor_amd64.go);
// here it is this package's dispatch.
const Std = false

// XORBytes is subtle.XORBytes, with its contract and panic texts (those of
// crypto/subtle.XORBytes): it sets dst[i] = x[i] ^ y[i] for all
// i < n = min(len(x), len(y)) and returns n, and panics without writing
// anything if dst is shorter than n or overlaps x or y inexactly.
func XORBytes(dst, x, y []byte) int {
	n := min(len(x), len(y))
	if n == 0 {
		return 0
	}
	if n > len(dst) {
		panic("subtle.XORBytes: dst too short")
	}
	if alias.InexactOverlap(dst[:n], x[:n]) || alias.InexactOverlap(dst[:n], y[:n]) {
		panic("subtle.XORBytes: invalid overlap")
	}
	// The dispatch: a chain over the tiers' toggles (constant false for a
	// tier an architecture lacks, so the compiler drops that rung). It
	// lives here rather than in a helper so that it costs no extra call.
	d, a, b := unsafe.SliceData(dst), unsafe.SliceData(x), unsafe.SliceData(y)
	if useWide {
		xorBytesWide(d, a, b, n)
	} else if useNarrow {
		xorBytesNarrow(d, a, b, n)
	} else if useScalar {
		xorBytesScalar(d, a, b, n)
	} else {
		xorBytesGeneric(dst[:n], x[:n], y[:n])
	}
	return n
}
