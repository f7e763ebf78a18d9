package aead_test

import (
	"github.com/chachakit/chachakit/aead"
	"golang.org/x/crypto/chacha20poly1305"
)

// See xref_test.go.
func init() {
	aead.XCryptoNew = chacha20poly1305.New
	aead.XCryptoNewX = chacha20poly1305.NewX
}
