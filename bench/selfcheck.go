package main

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/chachakit/chachakit/aead"
	"github.com/chachakit/chachakit/chacha20"
	"github.com/chachakit/chachakit/internal/impl"
)

// The two known answers the program checks before it measures anything.
// They are transcribed from RFC 8439 (https://www.rfc-editor.org/rfc/rfc8439)
// and kept here, rather than taken from package vectors, so that the
// program's binary stays small (package vectors embeds the Wycheproof files).
// bench_test.go compares them with package vectors and with x/crypto.

// sunscreen is the plaintext of RFC 8439, Sections 2.4.2 and 2.8.2:
// "Ladies and Gentlemen of the class of '99: If I could offer you only one
// tip for the future, sunscreen would be it."
const sunscreen = "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it."

// streamVector is the ChaCha20 encryption example of RFC 8439, Section 2.4.2.
var streamVector = struct {
	source                string
	key, nonce            []byte
	counter               uint32
	plaintext, ciphertext []byte
}{
	source: "RFC 8439 §2.4.2",
	key: unhex(`
00:01:02:03:04:05:06:07:08:09:0a:0b:0c:0d:0e:0f
10:11:12:13:14:15:16:17:18:19:1a:1b:1c:1d:1e:1f`),
	nonce:     unhex(`00:00:00:00:00:00:00:4a:00:00:00:00`),
	counter:   1,
	plaintext: []byte(sunscreen),
	ciphertext: unhex(`
6e 2e 35 9a 25 68 f9 80 41 ba 07 28 dd 0d 69 81
e9 7e 7a ec 1d 43 60 c2 0a 27 af cc fd 9f ae 0b
f9 1b 65 c5 52 47 33 ab 8f 59 3d ab cd 62 b3 57
16 39 d6 24 e6 51 52 ab 8f 53 0c 35 9f 08 61 d8
07 ca 0d bf 50 0d 6a 61 56 a3 8e 08 8a 22 b6 5e
52 bc 51 4d 16 cc f8 06 81 8c e9 1a b7 79 37 36
5a f9 0b bf 74 a3 5b e6 b4 0b 8e ed f2 78 5e 42
87 4d`),
}

// aeadVector is the AEAD_CHACHA20_POLY1305 encryption example of RFC 8439,
// Section 2.8.2. The nonce is the constant 07 00 00 00 followed by the IV
// 40 41 42 43 44 45 46 47.
var aeadVector = struct {
	source                     string
	key, nonce, ad             []byte
	plaintext, ciphertext, tag []byte
}{
	source: "RFC 8439 §2.8.2",
	key: unhex(`
80 81 82 83 84 85 86 87 88 89 8a 8b 8c 8d 8e 8f
90 91 92 93 94 95 96 97 98 99 9a 9b 9c 9d 9e 9f`),
	nonce:     unhex(`07 00 00 00 40 41 42 43 44 45 46 47`),
	ad:        unhex(`50 51 52 53 c0 c1 c2 c3 c4 c5 c6 c7`),
	plaintext: []byte(sunscreen),
	ciphertext: unhex(`
d3 1a 8d 34 64 8e 60 db 7b 86 af bc 53 ef 7e c2
a4 ad ed 51 29 6e 08 fe a9 e2 b5 a7 36 ee 62 d6
3d be a4 5e 8c a9 67 12 82 fa fb 69 da 92 72 8b
1a 71 de 0a 9e 06 0b 29 05 d6 a5 b6 7e cd 3b 36
92 dd bd 7f 2d 77 8b 8c 98 03 ae e3 28 09 1b 58
fa b3 24 e4 fa d6 75 94 55 85 80 8b 48 31 d7 bc
3f f4 de f0 8e 4b 7a 9d e5 76 d2 65 86 ce c6 4b
61 16`),
	tag: unhex(`1a:e1:0b:59:4f:09:e2:6a:7e:90:2e:cb:d0:60:06:91`),
}

// unhex decodes hex as printed in the RFC: spaces, newlines and colons are
// ignored.
func unhex(s string) []byte {
	s = strings.NewReplacer(" ", "", "\n", "", ":", "").Replace(s)
	b, err := hex.DecodeString(s)
	if err != nil {
		panic("bench: bad hex in a vector: " + err.Error())
	}
	return b
}

// checkStream runs the RFC 8439 §2.4.2 example through chacha20, both in one
// call and split at an odd point (so that the partial-block path runs too).
func checkStream() error {
	v := streamVector
	for _, split := range []int{len(v.plaintext), 1, 63, 65} {
		c, err := chacha20.NewUnauthenticatedCipher(v.key, v.nonce)
		if err != nil {
			return err
		}
		c.SetCounter(v.counter)
		got := make([]byte, len(v.plaintext))
		c.XORKeyStream(got[:split], v.plaintext[:split])
		c.XORKeyStream(got[split:], v.plaintext[split:])
		if !bytes.Equal(got, v.ciphertext) {
			return fmt.Errorf("%s: XORKeyStream (split at %d) gives %x, want %x", v.source, split, got, v.ciphertext)
		}
	}
	return nil
}

// checkAEAD runs the RFC 8439 §2.8.2 example through aead: Seal, Open, and
// Open of a ciphertext with a flipped tag bit, which must fail.
func checkAEAD() error {
	v := aeadVector
	a, err := aead.New(v.key)
	if err != nil {
		return err
	}
	want := append(append([]byte{}, v.ciphertext...), v.tag...)
	sealed := a.Seal(nil, v.nonce, v.plaintext, v.ad)
	if !bytes.Equal(sealed, want) {
		return fmt.Errorf("%s: Seal gives %x, want %x", v.source, sealed, want)
	}
	opened, err := a.Open(nil, v.nonce, want, v.ad)
	if err != nil {
		return fmt.Errorf("%s: Open: %v", v.source, err)
	}
	if !bytes.Equal(opened, v.plaintext) {
		return fmt.Errorf("%s: Open gives %x, want %x", v.source, opened, v.plaintext)
	}
	bad := append([]byte{}, want...)
	bad[len(bad)-1] ^= 0x80
	if _, err := a.Open(nil, v.nonce, bad, v.ad); err == nil {
		return fmt.Errorf("%s: Open accepts a tampered tag", v.source)
	}
	return nil
}

// checkResult is the outcome of one known-answer check.
type checkResult struct {
	Source string   `json:"source"`
	OK     bool     `json:"ok"`
	Under  []string `json:"under"` // the implementation choices it ran under
	Error  string   `json:"error,omitempty"`
}

// selfCheck runs each known-answer check under the dispatcher's default
// choice, then once per available implementation of every registered
// package (forced with impl.Select, restored with impl.Reset).
func selfCheck() []checkResult {
	checks := []struct {
		source string
		f      func() error
	}{
		{streamVector.source, checkStream},
		{aeadVector.source, checkAEAD},
	}
	var results []checkResult
	for _, c := range checks {
		r := checkResult{Source: c.source, OK: true}
		try := func(under string) {
			r.Under = append(r.Under, under)
			if err := c.f(); err != nil && r.OK {
				r.OK = false
				r.Error = fmt.Sprintf("under %s: %v", under, err)
			}
		}
		try("default")
		for _, pkg := range impl.Packages() {
			for _, name := range availableImpls(pkg) {
				if !impl.Select(pkg, name) {
					continue
				}
				try(pkg + "=" + name)
				impl.Reset(pkg)
			}
		}
		results = append(results, r)
	}
	return results
}

// availableImpls lists the implementations of pkg this CPU can run, the
// portable one first.
func availableImpls(pkg string) []string {
	names := []string{impl.Portable}
	for _, i := range impl.List(pkg) {
		if i.Available {
			names = append(names, i.Name)
		}
	}
	return names
}
