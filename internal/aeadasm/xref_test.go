package aeadasm

import "crypto/cipher"

// The reference AEADs of the internal tests, golang.org/x/crypto's New and
// NewX, reach this package through xref_ext_test.go, an external test file
// that sets them before any test runs. No internal test file imports x/crypto:
// in a module that swaps x/crypto for chachakit (cmd/chachakit swap), x/crypto's
// chacha20poly1305 imports chachakit's aead and so this package, and an
// internal test that imported it would be an import cycle.
var XCryptoNew, XCryptoNewX func(key []byte) (cipher.AEAD, error)
