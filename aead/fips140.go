//go:build go1.26

package aead

import "crypto/fips140"

// fips140Enforced reports whether the program runs with GODEBUG=fips140=only,
// in which New and NewX refuse, as x/crypto's do: ChaCha20-Poly1305 is not a
// FIPS 140-3 approved algorithm.
func fips140Enforced() bool { return fips140.Enforced() }
