// Package cryptotest holds the conformance suites that every implementation
// of the library's primitives must pass, and the helpers that run a test
// under each registered implementation in turn.
package cryptotest

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/chachakit/chachakit/internal/impl"
)

// Strict reports whether CHACHAKIT_STRICT=1: every registered implementation
// must be available (and therefore run), except those named in
// CHACHAKIT_ABSENT (a comma-separated list of pkg/Name) for CPU models that
// lack a feature on purpose. CI sets it so that a path that silently stopped
// running fails the build instead of being skipped.
func Strict() bool { return os.Getenv("CHACHAKIT_STRICT") == "1" }

// AbsentAllowed reports whether CHACHAKIT_ABSENT names pkg/name: a path
// that may be unavailable in strict mode.
func AbsentAllowed(pkg, name string) bool {
	return slices.Contains(strings.Split(os.Getenv("CHACHAKIT_ABSENT"), ","), pkg+"/"+name)
}

// Run runs f as a subtest once per implementation of pkg: the portable Go
// code first, then every registered one, each forced on its own. An
// implementation this CPU cannot run is skipped, or fails the test in strict
// mode. The registry is restored when Run returns. Tests using Run must not
// be parallel.
func Run(t *testing.T, pkg string, f func(t *testing.T)) {
	t.Helper()
	defer impl.Reset(pkg)
	t.Run(impl.Portable, func(t *testing.T) {
		if !impl.Select(pkg, impl.Portable) {
			t.Fatal("cannot select the portable implementation")
		}
		f(t)
	})
	for _, i := range impl.List(pkg) {
		t.Run(i.Name, func(t *testing.T) {
			if !impl.Select(pkg, i.Name) {
				if Strict() && !AbsentAllowed(pkg, i.Name) {
					t.Fatalf("%s/%s is not available on this CPU, and CHACHAKIT_STRICT=1 expects it to run", pkg, i.Name)
				}
				t.Skipf("%s/%s is not available on this CPU", pkg, i.Name)
			}
			f(t)
		})
	}
}

// CheckExpected compares the implementation that the dispatcher of pkg picks
// by default with CHACHAKIT_EXPECT, a comma-separated list of pkg=Name set by
// the cross-architecture script for each emulated CPU model. It does nothing
// when CHACHAKIT_EXPECT says nothing about pkg.
func CheckExpected(t *testing.T, pkg string) {
	t.Helper()
	impl.Reset(pkg)
	for _, kv := range strings.Split(os.Getenv("CHACHAKIT_EXPECT"), ",") {
		p, want, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok || p != pkg {
			continue
		}
		if got := impl.Preferred(pkg); got != want {
			t.Errorf("%s: dispatcher picks %s, CHACHAKIT_EXPECT wants %s", pkg, got, want)
		} else {
			t.Logf("%s: dispatcher picks %s, as expected", pkg, got)
		}
	}
}

// RunEach runs f under every implementation of each package in pkgs, one
// package at a time: while one package's implementations take turns, the
// others keep their default choice. It is how a construction built on
// several primitives (the AEAD: ChaCha20 and Poly1305) reaches every path of
// each without running the whole product of them.
func RunEach(t *testing.T, pkgs []string, f func(t *testing.T)) {
	t.Helper()
	for _, pkg := range pkgs {
		t.Run(pkg, func(t *testing.T) { Run(t, pkg, f) })
	}
}
