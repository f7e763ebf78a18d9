package fuzz

import (
	"bytes"
	stdsubtle "crypto/subtle"
	"testing"

	"github.com/chachakit/chachakit/subtle"
	"github.com/google/go-cmp/cmp"
)

// xorBufSize is the size of the buffer FuzzXORBytes carves dst, x and y
// from: long enough for every unrolled loop of a SIMD XOR to run several
// times and finish in a tail.
const xorBufSize = 3000

// carve returns buf[off:off+n] with off and n reduced to fit in buf.
func carve(buf []byte, off, n uint16) []byte {
	o := int(off) % (len(buf) + 1)
	return buf[o : o+int(n)%(len(buf)-o+1)]
}

// xorResult is what one XORBytes call did.
type xorResult struct {
	n        int
	panicked string
	buf      []byte
}

func xorWith(xor func(dst, x, y []byte) int, data []byte, dOff, dLen, xOff, xLen, yOff, yLen uint16) xorResult {
	buf := make([]byte, xorBufSize)
	for i := range buf {
		buf[i] = byte(i*131 + 7)
	}
	copy(buf, data)
	dst, x, y := carve(buf, dOff, dLen), carve(buf, xOff, xLen), carve(buf, yOff, yLen)
	var r xorResult
	r.panicked = catch(func() { r.n = xor(dst, x, y) })
	r.buf = buf
	return r
}

// FuzzXORBytes calls chachakit's subtle.XORBytes and crypto/subtle.XORBytes
// on dst, x and y carved from one buffer at the offsets and lengths given
// (reduced to fit), so that they may be disjoint, equal or partly
// overlapping, and compares the count returned, the panic text (dst too
// short, invalid overlap) and the whole buffer afterwards: on a panic
// neither may have written anything.
func FuzzXORBytes(f *testing.F) {
	addXORBytesSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, dOff, dLen, xOff, xLen, yOff, yLen uint16) {
		want := xorWith(stdsubtle.XORBytes, data, dOff, dLen, xOff, xLen, yOff, yLen)
		forEachImpl(t, []string{"subtle"}, func(label string) {
			got := xorWith(subtle.XORBytes, data, dOff, dLen, xOff, xLen, yOff, yLen)
			// A cheap comparison first; cmp.Diff only to print a failure.
			if got.n != want.n || got.panicked != want.panicked || !bytes.Equal(got.buf, want.buf) {
				t.Fatalf("%s: XORBytes differs from crypto/subtle's (-crypto/subtle +chachakit):\n%s",
					label, cmp.Diff(want, got, cmp.AllowUnexported(xorResult{})))
			}
		})
	})
}
