// Package dropin checks the drop-in claim: a program written against
// golang.org/x/crypto compiles against chachakit after only its import paths
// change, and prints the same transcript.
package dropin

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	ours "github.com/chachakit/chachakit/internal/dropin/chachakit"
	theirs "github.com/chachakit/chachakit/internal/dropin/xcrypto"
)

func TestDropIn(t *testing.T) {
	a, err := os.ReadFile("chachakit/prog.go")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("xcrypto/prog.go")
	if err != nil {
		t.Fatal(err)
	}
	swapped := strings.NewReplacer(
		`"github.com/chachakit/chachakit/aead"`, `aead "golang.org/x/crypto/chacha20poly1305"`,
		`"github.com/chachakit/chachakit/chacha20"`, `"golang.org/x/crypto/chacha20"`,
	).Replace(string(a))
	if diff := cmp.Diff(strings.Split(string(b), "\n"), strings.Split(swapped, "\n")); diff != "" {
		t.Fatalf("the two programs differ in more than their import paths (-xcrypto/prog.go +chachakit/prog.go with imports swapped):\n%s", diff)
	}
	got, want := ours.Run(), theirs.Run()
	if diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(got), "\n")); diff != "" {
		t.Errorf("transcripts differ (-x/crypto +chachakit):\n%s", diff)
	}
	t.Logf("transcript of %d lines identical", bytes.Count(got, []byte("\n")))
}
