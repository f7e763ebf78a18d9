package chacha20core_test

import (
	"github.com/chachakit/chachakit/internal/chacha20core"
	"golang.org/x/crypto/chacha20"
)

// See xref_test.go.
func init() {
	chacha20core.XCryptoStream = func(key, nonce []byte) (func(dst, src []byte), error) {
		c, err := chacha20.NewUnauthenticatedCipher(key, nonce)
		if err != nil {
			return nil, err
		}
		return c.XORKeyStream, nil
	}
}
