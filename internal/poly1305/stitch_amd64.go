//go:build gc && !purego

package poly1305

// What this CPU runs by default, before the registry forces anything
// (package variables are initialized before the init functions register
// the toggles).
var (
	defaultIFMA = useIFMA
	defaultAVX2 = useAVX2
)

// DefaultPath reports whether the dispatcher runs the path it picks by
// default on this CPU, that is, no other path was forced through the
// registry. The stitched AEAD loop, which has its own
// Poly1305, runs only then, so that a forced path is the one tested.
func DefaultPath() bool {
	switch {
	case defaultIFMA:
		return useIFMA
	case defaultAVX2:
		return useAVX2
	}
	return useScalar
}

// Accumulator returns the MAC's accumulator h (64-bit limbs, h[2] < 8) and
// its clamped r, for a kernel that absorbs whole 16-byte blocks itself (the
// stitched AEAD loop in internal/chacha20core), as blocks with full set
// would. It panics if a partial block is buffered.
func (m *MAC) Accumulator() (h *[3]uint64, r *[2]uint64) {
	if m.buffed != 0 {
		panic("poly1305: internal error: Accumulator with a partial block buffered")
	}
	return &m.st.h, &m.st.r
}
