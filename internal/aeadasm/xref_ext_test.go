package aeadasm_test

import (
	"github.com/chachakit/chachakit/internal/aeadasm"
	"golang.org/x/crypto/chacha20poly1305"
)

// See xref_test.go.
func init() {
	aeadasm.XCryptoNew = chacha20poly1305.New
	aeadasm.XCryptoNewX = chacha20poly1305.NewX
}
