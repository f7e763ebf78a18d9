package cryptotest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// maxLen is the longest message of the length sweeps: several 512-byte
// batches (the largest SIMD batch) plus partial blocks on either side.
const maxLen = 1100

// maxOffset is the largest misalignment of the offset sweeps.
const maxOffset = 7

// panicText runs f and returns the text of its panic, or "" if it returned.
func panicText(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
			if msg == "" {
				msg = "(empty panic)"
			}
		}
	}()
	f()
	return ""
}

// samePanic checks that ours panics with exactly the text ref panics with,
// and that ref does panic.
func samePanic(t *testing.T, what string, ours, ref func()) {
	t.Helper()
	want := panicText(ref)
	got := panicText(ours)
	if want == "" {
		t.Fatalf("%s: the reference did not panic; the test is wrong", what)
	}
	if got != want {
		t.Errorf("%s: panic %q, want %q", what, got, want)
	}
}

// newRand returns a deterministic source, so a failure reproduces.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x636861636861)) }

func fill(r *rand.Rand, b []byte) []byte {
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// guarded returns a buffer of n bytes at offset off inside a larger slice
// whose other bytes hold a known pattern, and a function that reports
// whether the pattern outside [off, off+n) is intact.
func guarded(n, off int) (buf []byte, intact func() bool) {
	all := make([]byte, off+n+32)
	for i := range all {
		all[i] = 0xA5 ^ byte(i)
	}
	before := bytes.Clone(all[:off])
	after := bytes.Clone(all[off+n:])
	return all[off : off+n : off+n+32], func() bool {
		return bytes.Equal(all[:off], before) && bytes.Equal(all[off+n:], after)
	}
}
