// Package dropin checks the drop-in claim: a program written against
// golang.org/x/crypto compiles against chachakit after only its import paths
// change, and prints the same transcript. The two copies of the program are
// test code in ./chachakit and ./xcrypto; each compares its transcript with
// testdata/transcript.txt, x/crypto's.
package dropin

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDropIn(t *testing.T) {
	a, err := os.ReadFile("chachakit/prog_test.go")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("xcrypto/prog_test.go")
	if err != nil {
		t.Fatal(err)
	}
	swapped := strings.NewReplacer(
		`"github.com/chachakit/chachakit/aead"`, `aead "golang.org/x/crypto/chacha20poly1305"`,
		`"github.com/chachakit/chachakit/chacha20"`, `"golang.org/x/crypto/chacha20"`,
	).Replace(string(a))
	if diff := cmp.Diff(strings.Split(string(b), "\n"), strings.Split(swapped, "\n")); diff != "" {
		t.Fatalf("the two programs differ in more than their import paths (-xcrypto/prog_test.go +chachakit/prog_test.go with imports swapped):\n%s", diff)
	}
	golden, err := os.ReadFile("testdata/transcript.txt")
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(golden, []byte("\n")); n < 50 {
		t.Errorf("testdata/transcript.txt has %d lines; regenerate it with go test ./internal/dropin/xcrypto -update", n)
	}
}
