package aead

import "crypto/cipher"

// The reference AEADs of the internal tests, golang.org/x/crypto's New and
// NewX, reach this package through xref_ext_test.go, an external test file
// that sets them before any test runs. No internal test file imports x/crypto:
// in a module that swaps x/crypto for chachakit (cmd/chachakit swap), x/crypto's
// chacha20poly1305 imports this package, so an internal test that imported it
// would be an import cycle and `go test all` there would not build.
var XCryptoNew, XCryptoNewX func(key []byte) (cipher.AEAD, error)

// xcpNew is x/crypto's New.
func xcpNew(key []byte) (cipher.AEAD, error) { return XCryptoNew(key) }

// xcpNewX is x/crypto's NewX.
func xcpNewX(key []byte) (cipher.AEAD, error) { return XCryptoNewX(key) }
