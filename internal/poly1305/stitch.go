//go:build (amd64 || arm64) && gc && !purego

package poly1305

// Accumulator returns the MAC's accumulator h (64-bit limbs, h[2] < 8) and
// its clamped r, for a kernel that absorbs whole 16-byte blocks itself (the
// stitched AEAD loops of internal/aeadasm), as blocks with full set
// would. It panics if a partial block is buffered.
func (m *MAC) Accumulator() (h *[3]uint64, r *[2]uint64) {
	if m.buffed != 0 {
		panic("poly1305: internal error: Accumulator with a partial block buffered")
	}
	return &m.st.h, &m.st.r
}
