package chacha20_test

import (
	"encoding/hex"
	"fmt"

	"github.com/chachakit/chachakit/chacha20"
)

func ExampleNewUnauthenticatedCipher() {
	// The key and nonce of RFC 8439, Section 2.4.2. Never reuse a nonce with
	// the same key, and prefer the authenticated aead package.
	key, _ := hex.DecodeString("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
	nonce, _ := hex.DecodeString("000000000000004a00000000")

	c, err := chacha20.NewUnauthenticatedCipher(key, nonce)
	if err != nil {
		panic(err)
	}
	c.SetCounter(1)
	msg := []byte("Ladies and Gentlemen of the class of '99")
	c.XORKeyStream(msg, msg)
	fmt.Printf("%x\n", msg)
	// Output: 6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0bf91b65c5524733ab
}
