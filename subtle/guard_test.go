package subtle_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
	"github.com/chachakit/chachakit/subtle"
)

// TestGuardXORBytes is the guard-page suite (internal/cryptotest/guard.go)
// of XORBytes: dst, x and y each flush against an inaccessible page, after
// their end and before their start (every combination of the three), at
// every length of cryptotest.GuardLengths, apart and in place (dst == x),
// under every implementation of "subtle" the registry has here, so that an
// XOR kernel that reads or writes one byte outside its slices faults.
func TestGuardXORBytes(t *testing.T) {
	gDst := cryptotest.NewGuard(t, "dst", cryptotest.GuardMaxLen)
	gX := cryptotest.NewGuard(t, "x", cryptotest.GuardMaxLen)
	gY := cryptotest.NewGuard(t, "y", cryptotest.GuardMaxLen)
	r := rand.New(rand.NewPCG(51, 52))
	xs, ys := make([]byte, cryptotest.GuardMaxLen), make([]byte, cryptotest.GuardMaxLen)
	want := make([]byte, cryptotest.GuardMaxLen)
	for i := range xs {
		xs[i], ys[i] = byte(r.Uint32()), byte(r.Uint32())
		want[i] = xs[i] ^ ys[i]
	}
	cryptotest.Run(t, "subtle", func(t *testing.T) {
		label := cryptotest.Chosen("subtle")
		for combo := range 8 {
			atDst := cryptotest.Placements[combo&1]
			atX := cryptotest.Placements[combo>>1&1]
			atY := cryptotest.Placements[combo>>2&1]
			var (
				op string
				n  int
			)
			what := func() string {
				return fmt.Sprintf("[%s] %s of %d bytes, dst %s, x %s, y %s", label, op, n, atDst, atX, atY)
			}
			for _, length := range cryptotest.GuardLengths() {
				n = length

				op = "XORBytes"
				dst, x, y := gDst.Slice(atDst, n), gX.Slice(atX, n), gY.Slice(atY, n)
				copy(x, xs)
				copy(y, ys)
				var m int
				cryptotest.CatchFault(t, what, func() { m = subtle.XORBytes(dst, x, y) })
				if m != n || !bytes.Equal(dst, want[:n]) {
					t.Fatalf("%s: returned %d, or dst differs", what(), m)
				}
				if !bytes.Equal(x, xs[:n]) || !bytes.Equal(y, ys[:n]) {
					t.Fatalf("%s: x or y changed", what())
				}
				cryptotest.CheckIntact(t, what, gDst, gX, gY)

				op = "XORBytes in place"
				x, y = gX.Slice(atX, n), gY.Slice(atY, n)
				copy(x, xs)
				copy(y, ys)
				cryptotest.CatchFault(t, what, func() { m = subtle.XORBytes(x, x, y) })
				if m != n || !bytes.Equal(x, want[:n]) {
					t.Fatalf("%s: returned %d, or dst differs", what(), m)
				}
				cryptotest.CheckIntact(t, what, gX, gY)
			}
		}
	})
}
