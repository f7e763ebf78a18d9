//go:build (amd64 || arm64 || loong64 || ppc64le || s390x) && gc && !purego

package chacha20core

// firstCache is empty where the keystream has assembly: the portable code
// runs there only for short or leftover inputs, and State stays the size the
// AEAD's per-message copies and the assembly expect.
type firstCache struct{}

func (s *State) firstColumns() [12]uint32 { return firstColumns(s) }
