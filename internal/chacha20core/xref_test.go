package chacha20core

// XCryptoStream returns the XORKeyStream of a golang.org/x/crypto/chacha20
// Cipher, the reference of the internal tests. It reaches this package through
// xref_ext_test.go, an external test file that sets it before any test runs.
// No internal test file imports x/crypto: in a module that swaps x/crypto for
// chachakit (cmd/chachakit swap), x/crypto's chacha20 imports this package, so
// an internal test that imported it would be an import cycle.
var XCryptoStream func(key, nonce []byte) (func(dst, src []byte), error)
