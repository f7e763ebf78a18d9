//go:build gc && !purego

package poly1305

// What this CPU runs by default, before the registry forces anything
// (package variables are initialized before the init functions register
// the toggles).
var defaultAVX2 = useAVX2

// DefaultPath reports whether the dispatcher runs the path it picks by
// default on this CPU, that is, no other path was forced through the
// registry. The stitched AEAD loop, which has its own
// Poly1305, runs only then, so that a forced path is the one tested.
func DefaultPath() bool {
	if defaultAVX2 {
		return useAVX2
	}
	return useScalar
}
