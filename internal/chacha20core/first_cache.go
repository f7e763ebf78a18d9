//go:build !(amd64 || arm64 || loong64 || ppc64le || s390x) || !gc || purego

package chacha20core

// firstCache keeps a State's firstColumns between calls in builds where the
// portable code is the keystream, and on riscv64, whose CPUs without V run
// it too (the RVV assembly reads the State's words by go_asm.h offsets, so
// the cache in front of them moves nothing it needs): a long-lived
// chacha20.Cipher then pays for them once, as x/crypto's portable Cipher
// does, and a one-block call saves 3 of its 80 quarter rounds. They are derived from the key, and State.Wipe
// clears them with the rest.
type firstCache struct {
	f  [12]uint32
	ok bool
}

// reset marks the cache empty for a new key or nonce; the words it held
// are overwritten at the next use, and State.Wipe clears them.
func (c *firstCache) reset() { c.ok = false }

// firstColumnsIn returns the State's firstColumns, computed on its first
// use and then read from the cache in place (tmp is not needed here): the
// words stay in the State, which Wipe clears, and the call leaves no copy
// of them to wipe.
func (s *State) firstColumnsIn(tmp *[12]uint32) *[12]uint32 {
	if !s.first.ok {
		firstColumns(s, &s.first.f)
		s.first.ok = true
	}
	return &s.first.f
}

// firstCopied reports whether firstColumnsIn computes into tmp, which the
// caller must then wipe.
const firstCopied = false
