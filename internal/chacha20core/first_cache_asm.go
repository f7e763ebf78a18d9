//go:build (amd64 || arm64 || loong64 || ppc64le || s390x) && gc && !purego

package chacha20core

// firstCache is empty where the keystream has assembly: the portable code
// runs there only for short or leftover inputs, and State stays the size the
// AEAD's per-message copies and the assembly expect.
type firstCache struct{}

func (*firstCache) reset() {}

// firstColumnsIn computes the State's firstColumns into tmp, which the
// caller wipes (firstCopied).
func (s *State) firstColumnsIn(tmp *[12]uint32) *[12]uint32 {
	firstColumns(s, tmp)
	return tmp
}

const firstCopied = true
