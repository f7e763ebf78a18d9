// Command consumer is the module that chachakit swap's test swaps: it uses
// golang.org/x/crypto/chacha20poly1305 and golang.org/x/crypto/chacha20 as
// any program would, and prints the package its AEAD comes from.
package main

import (
	"bytes"
	"fmt"
	"os"
	"reflect"

	"golang.org/x/crypto/chacha20"
	"golang.org/x/crypto/chacha20poly1305"
)

func main() {
	key := bytes.Repeat([]byte{7}, chacha20poly1305.KeySize)
	a, err := chacha20poly1305.New(key)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	nonce := make([]byte, a.NonceSize())
	ct := a.Seal(nil, nonce, []byte("hello"), nil)
	pt, err := a.Open(nil, nonce, ct, nil)
	if err != nil || string(pt) != "hello" {
		fmt.Fprintln(os.Stderr, "round trip failed:", err)
		os.Exit(1)
	}
	c, err := chacha20.NewUnauthenticatedCipher(key, nonce)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(reflect.TypeOf(a).Elem().PkgPath(), reflect.TypeOf(c).Elem().PkgPath())
}
