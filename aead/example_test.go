package aead_test

import (
	"crypto/rand"
	"fmt"

	chacha20poly1305 "github.com/chachakit/chachakit/aead"
)

// The package replaces golang.org/x/crypto/chacha20poly1305: only the import
// path changes.
func ExampleNewX() {
	key := make([]byte, chacha20poly1305.KeySize)
	if _, err := rand.Read(key); err != nil {
		panic(err)
	}

	aead, err := chacha20poly1305.NewX(key)
	if err != nil {
		panic(err)
	}

	// Encryption: a random 24-byte nonce, prepended to the ciphertext.
	msg := []byte("Gophers, gophers, gophers everywhere!")
	nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(msg)+aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		panic(err)
	}
	encryptedMsg := aead.Seal(nonce, nonce, msg, nil)

	// Decryption.
	if len(encryptedMsg) < aead.NonceSize() {
		panic("ciphertext too short")
	}
	nonce, ciphertext := encryptedMsg[:aead.NonceSize()], encryptedMsg[aead.NonceSize():]
	plaintext, err := aead.Open(nil, nonce, ciphertext, nil)
	if err != nil {
		panic(err)
	}

	fmt.Printf("%s\n", plaintext)
	// Output: Gophers, gophers, gophers everywhere!
}

// NewXWithRandomNonce draws and prepends the nonce itself.
func ExampleNewXWithRandomNonce() {
	key := make([]byte, chacha20poly1305.KeySize)
	if _, err := rand.Read(key); err != nil {
		panic(err)
	}

	aead, err := chacha20poly1305.NewXWithRandomNonce(key)
	if err != nil {
		panic(err)
	}

	msg := []byte("Gophers, gophers, gophers everywhere!")
	encryptedMsg := aead.Seal(nil, nil, msg, nil) // nonce, ciphertext, tag

	plaintext, err := aead.Open(nil, nil, encryptedMsg, nil)
	if err != nil {
		panic(err)
	}

	fmt.Printf("%s (%d bytes sealed)\n", plaintext, len(encryptedMsg))
	// Output: Gophers, gophers, gophers everywhere! (77 bytes sealed)
}

// The AEADs that New and NewX return also implement Batch: many messages in
// one call, each with its own nonce, as a server seals the packets of one
// container. Each message gets what its own Seal or Open call would give.
func ExampleBatch() {
	key := make([]byte, chacha20poly1305.KeySize)
	if _, err := rand.Read(key); err != nil {
		panic(err)
	}
	aead, err := chacha20poly1305.New(key)
	if err != nil {
		panic(err)
	}
	batch := aead.(chacha20poly1305.Batch)

	packets := []string{"keepalive", "an ACK", "a full packet of data"}
	msgs := make([]chacha20poly1305.Message, len(packets))
	for i, p := range packets {
		nonce := make([]byte, chacha20poly1305.NonceSize)
		nonce[11] = byte(i) // a counter, as WireGuard and TLS use
		msgs[i] = chacha20poly1305.Message{Nonce: nonce, Text: []byte(p)}
	}
	batch.SealBatch(msgs)

	// Open them again, in place.
	for i := range msgs {
		msgs[i].Text, msgs[i].Dst = msgs[i].Out, msgs[i].Out[:0]
	}
	if err := batch.OpenBatch(msgs); err != nil {
		panic(err)
	}
	for _, m := range msgs {
		fmt.Printf("%s\n", m.Out)
	}
	// Output:
	// keepalive
	// an ACK
	// a full packet of data
}
