//go:build gc && !purego

package poly1305

import "github.com/chachakit/chachakit/internal/impl"

// DefaultPath reports whether the dispatcher runs the paths it picks by
// default on this CPU (NEON for long inputs, Scalar64 for short ones): no
// other path was forced through the registry. The stitched AEAD loop of
// internal/aeadasm, which has its own Poly1305, runs only then, so that a
// forced path is the one tested.
func DefaultPath() bool { return impl.AtDefault("poly1305") }
