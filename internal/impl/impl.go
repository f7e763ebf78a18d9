// Package impl is the registry of the library's alternative implementations.
//
// Every primitive that has more than one implementation (ChaCha20 keystream,
// XORBytes, Memclr, ...) registers each of them here under a package name and
// an implementation name, together with the *bool that its dispatcher reads.
// Dispatch stays a plain chain of if statements in the primitive's package
// (no function variables on hot paths); the registry only flips those bools,
// so that tests and benchmarks can force every path in turn.
//
// The portable Go code is always present under the name [Portable]: it runs
// when every registered toggle of a package is false.
//
// The idea follows Go's crypto/internal/impl, with two differences: Reset
// restores every toggle of a package (not only the first one), and [Force]
// changes the choice for a whole process, which is how `go run ./bench
// -impl` compares paths. The library reads no environment variable: only a
// binary built with the tag chachakit_impl_env (the instruction-counting
// scripts, or `go test -tags chachakit_impl_env` to run a suite under one
// path) takes a forced choice from CHACHAKIT_IMPL, see env.go.
package impl

import (
	"errors"
	"slices"
	"strings"
)

// Portable is the name under which every package's pure Go code is known.
const Portable = "Go"

// An Impl is one registered implementation.
type Impl struct {
	Package   string // the primitive's package, such as "chacha20"
	Name      string // the technique, such as "AVX2" or "NEON4x1"
	Available bool   // whether this CPU (and this build) can run it

	toggle  *bool // read by the package's dispatcher
	initial bool  // the dispatcher's choice, restored by Reset
	own     bool  // its choice before CHACHAKIT_IMPL or Force
}

var (
	registry  []*Impl
	preferred = map[string]func() string{}
)

// Register records the implementation name of package pkg. enabled is the
// variable the package's dispatcher reads; its value at registration time
// says whether the implementation is available on this CPU. Register must be
// called from package initialization only.
//
// In a binary built with the tag chachakit_impl_env, an implementation
// forced for pkg by CHACHAKIT_IMPL switches every other one off from the
// start.
func Register(pkg, name string, enabled *bool) {
	RegisterAvailable(pkg, name, enabled, *enabled)
}

// RegisterAvailable is Register for an implementation whose availability
// is not its default: available says whether this CPU can run it (so that
// Select and the tests can force it), *enabled whether the dispatcher picks
// it by default (the AEAD kernel of arm64, which a core's MIDR_EL1 may
// leave off where it can run). *enabled implies available.
func RegisterAvailable(pkg, name string, enabled *bool, available bool) {
	*enabled = *enabled && available
	if name == Portable || strings.ContainsAny(name, ",=/") {
		panic("impl: bad implementation name " + name)
	}
	for _, i := range registry {
		if i.Package == pkg && i.Name == name {
			panic("impl: " + pkg + "/" + name + " registered twice")
		}
	}
	i := &Impl{Package: pkg, Name: name, Available: available, toggle: enabled, own: *enabled}
	if forced, ok := envForced[pkg]; ok {
		*enabled = available && forced == name
	}
	i.initial = *enabled
	registry = append(registry, i)
}

// SetPreferred registers a function that names the path the dispatcher of pkg
// uses by default for large inputs, when it is not simply the first enabled
// implementation (for example a choice made from the CPU's MIDR_EL1).
func SetPreferred(pkg string, f func() string) { preferred[pkg] = f }

// Preferred returns the name of the implementation the dispatcher of pkg
// currently uses for large inputs.
func Preferred(pkg string) string {
	if f, ok := preferred[pkg]; ok {
		return f()
	}
	for _, i := range registry {
		if i.Package == pkg && *i.toggle {
			return i.Name
		}
	}
	return Portable
}

// List returns the registered implementations of pkg, in registration order,
// without the portable one.
func List(pkg string) []*Impl {
	var l []*Impl
	for _, i := range registry {
		if i.Package == pkg {
			l = append(l, i)
		}
	}
	return l
}

// Packages returns the names of the packages that registered implementations.
func Packages() []string {
	var l []string
	for _, i := range registry {
		if !slices.Contains(l, i.Package) {
			l = append(l, i.Package)
		}
	}
	return l
}

// Select makes the dispatcher of pkg use only implementation name (or the
// portable code for [Portable]). It reports false, changing nothing, if name
// is not registered for pkg or not available on this CPU.
func Select(pkg, name string) bool {
	if name != Portable {
		found := false
		for _, i := range List(pkg) {
			if i.Name == name {
				if !i.Available {
					return false
				}
				found = true
			}
		}
		if !found {
			return false
		}
	}
	for _, i := range List(pkg) {
		*i.toggle = i.Name == name
	}
	return true
}

// Reset restores every toggle of pkg to the dispatcher's own choice.
func Reset(pkg string) {
	for _, i := range List(pkg) {
		*i.toggle = i.initial
	}
}

// AtDefault reports whether every toggle of pkg holds the dispatcher's own
// choice for this CPU: nothing was forced by Select, Force or
// CHACHAKIT_IMPL. Kernels with their own copy of a primitive (the AEAD
// kernels of internal/aeadasm) run only then, so that a forced path is the
// one tested.
func AtDefault(pkg string) bool {
	for _, i := range registry { // not List, which allocates
		if i.Package == pkg && *i.toggle != i.own {
			return false
		}
	}
	return true
}

// envForced is the choice CHACHAKIT_IMPL forces, package to name, in a
// binary built with the tag chachakit_impl_env; nil otherwise.
var envForced map[string]string

// ParseForced parses a list of forced choices, "pkg=Name,pkg=Name".
func ParseForced(spec string) (map[string]string, error) {
	m := map[string]string{}
	for _, kv := range strings.Split(spec, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		pkg, name, ok := strings.Cut(kv, "=")
		if !ok || pkg == "" || name == "" {
			return nil, errors.New("impl: " + kv + " is not pkg=Name")
		}
		m[pkg] = name
	}
	return m, nil
}

// Force makes each package of spec ("pkg=Name,...") use only the named
// implementation for the rest of the process: Reset then restores the
// forced choice. It changes nothing and returns an error if a name is not
// registered or not available on this CPU.
func Force(spec string) error {
	m, err := ParseForced(spec)
	if err != nil {
		return err
	}
	for pkg, name := range m {
		if !slices.Contains(Packages(), pkg) {
			return errors.New("impl: no implementations registered for " + pkg)
		}
		if name == Portable {
			continue
		}
		ok := false
		for _, i := range List(pkg) {
			ok = ok || (i.Name == name && i.Available)
		}
		if !ok {
			return errors.New("impl: " + pkg + "/" + name + " is not available here")
		}
	}
	for pkg, name := range m {
		Select(pkg, name)
		for _, i := range List(pkg) {
			i.initial = *i.toggle
		}
	}
	return nil
}
