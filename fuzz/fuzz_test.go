// Package fuzz holds the module's differential fuzz targets: each one drives
// an exported function of chachakit and an independent implementation of the
// same contract (golang.org/x/crypto/chacha20poly1305,
// golang.org/x/crypto/chacha20, crypto/subtle, or a plain model) with the
// same input, under every implementation the internal/impl registry has on
// this machine, and fails on any difference: output bytes, error texts, panic
// texts, and the bytes around the output that must not change.
//
// A plain `go test ./fuzz` replays the seed corpus in testdata/fuzz and the
// f.Add seeds; `go test -run '^$' -fuzz '^FuzzSealOpen$' ./fuzz` fuzzes one
// target. See README.md.
package fuzz

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
	"github.com/chachakit/chachakit/internal/impl"
)

// An implementation is one configuration of the dispatchers: label names it
// in failure messages.
type implementation struct {
	label string
	pkg   string // the package whose implementation name is forced
	name  string // impl.Portable with pkg "": every package portable
	dflt  bool   // every package left to its dispatcher's own choice
}

// implementations lists the configurations a target runs under, for the
// registry packages pkgs that the code under test dispatches on:
//
//   - the portable Go code of every package;
//   - each registered implementation this CPU (and this build) can run, one
//     package at a time, with every other package portable, so that paths
//     that call each other (a portable ChaCha20 XORing its keystream through
//     subtle.XORBytes, say) are each checked on their own;
//   - when there are several packages and at least one registered
//     implementation, the dispatchers' own choice, which is what a program
//     gets.
func implementations(pkgs ...string) []implementation {
	l := []implementation{{label: impl.Portable, name: impl.Portable}}
	for _, pkg := range pkgs {
		for _, i := range impl.List(pkg) {
			if i.Available {
				l = append(l, implementation{label: pkg + "/" + i.Name, pkg: pkg, name: i.Name})
			}
		}
	}
	if len(pkgs) > 1 && len(l) > 1 {
		l = append(l, implementation{label: "default", dflt: true})
	}
	return l
}

// forEachImpl runs check once per configuration of implementations(pkgs...),
// restoring the dispatchers' own choice afterwards. check reports failures
// through t, naming the label it is given. Fuzz targets run their inputs one
// at a time in each worker process, so switching the process-wide
// dispatchers is safe here.
func forEachImpl(t *testing.T, pkgs []string, check func(label string)) {
	t.Helper()
	defer func() {
		for _, pkg := range pkgs {
			impl.Reset(pkg)
		}
	}()
	for _, c := range implementations(pkgs...) {
		for _, pkg := range pkgs {
			if c.dflt {
				impl.Reset(pkg)
			} else if !impl.Select(pkg, impl.Portable) {
				t.Fatalf("cannot select the portable implementation of %s", pkg)
			}
		}
		if c.pkg != "" && !impl.Select(c.pkg, c.name) {
			t.Fatalf("cannot select %s, which the registry lists as available", c.label)
		}
		check(c.label)
	}
}

// catch runs f and returns the text of its panic, or "" if it returned.
func catch(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
			if msg == "" {
				msg = "(panic with an empty message)"
			}
		}
	}()
	f()
	return ""
}

// fit returns b cut or zero-extended to n bytes, in a new slice.
func fit(b []byte, n int) []byte {
	out := make([]byte, n)
	copy(out, b)
	return out
}

// clone returns a copy of b that is never nil, so that results compare
// independently of the slices they came from.
func clone(b []byte) []byte { return append([]byte{}, b...) }

// pattern fills b with bytes that are never zero and differ from their
// neighbours, so that a stray write or a missing one shows.
func pattern(b []byte, seed byte) {
	for i := range b {
		b[i] = byte(i*7+int(seed)) | 0x81
	}
}

// firstDiff describes where a and b differ, for failure messages.
func firstDiff(a, b []byte) string {
	if len(a) != len(b) {
		return fmt.Sprintf("lengths %d and %d", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			return fmt.Sprintf("first difference at byte %d of %d: %#02x, want %#02x", i, len(a), a[i], b[i])
		}
	}
	return "equal"
}

// sameBytes is bytes.Equal that also tells nil from empty: a result that
// x/crypto returns as nil must be nil here too.
func sameBytes(a, b []byte) bool {
	return (a == nil) == (b == nil) && bytes.Equal(a, b)
}

// TestImplementations lists the configurations each target runs under on
// this machine (go test -v shows them), and in strict mode
// (CHACHAKIT_STRICT=1, see internal/cryptotest) fails if a registered
// implementation cannot run here, as that would leave it unfuzzed.
func TestImplementations(t *testing.T) {
	for _, target := range []struct {
		name string
		pkgs []string
	}{
		{"FuzzSealOpen, FuzzOpen", aeadPkgs},
		{"FuzzXORKeyStream", streamPkgs},
		{"FuzzXORBytes", []string{"subtle"}},
		{"FuzzMemclr", []string{"memclr"}},
	} {
		var labels []string
		for _, c := range implementations(target.pkgs...) {
			labels = append(labels, c.label)
		}
		t.Logf("%s: %s", target.name, strings.Join(labels, ", "))
		for _, pkg := range target.pkgs {
			for _, i := range impl.List(pkg) {
				if !i.Available && cryptotest.Strict() && !slices.Contains(strings.Split(os.Getenv("CHACHAKIT_ABSENT"), ","), pkg+"/"+i.Name) {
					t.Errorf("%s/%s is registered but cannot run on this CPU, and CHACHAKIT_STRICT=1", pkg, i.Name)
				}
			}
		}
	}
}
