// Package layout_test checks the module's package layout: what may import
// what, and where environment variables are read.
package layout_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

const module = "github.com/chachakit/chachakit"

// goList runs go list over the module for goarch and returns, per
// package, the fields the template prints after its import path.
func goList(t *testing.T, goarch, tmpl string) map[string][]string {
	t.Helper()
	if runtime.GOARCH != "amd64" || runtime.GOOS != "linux" {
		t.Skip("runs natively on linux/amd64 only (it needs the go command)")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	cmd := exec.Command(goCmd, "list", "-f", "{{.ImportPath}} "+tmpl, module+"/...")
	cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH="+goarch, "CGO_ENABLED=0")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list (GOARCH=%s): %v", goarch, err)
	}
	m := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(strings.NewReplacer("[", " ", "]", " ").Replace(line))
		m[f[0]] = f[1:]
	}
	return m
}

func internalPkg(p string) bool { return strings.HasPrefix(p, module+"/internal/") }

// TestInternalImportsNothingPublic: the packages under internal/ import no
// public package of the module, and aead/tls13 imports only aead and
// internal packages, so that the public packages are faces over the
// internal ones and never the other way round.
func TestInternalImportsNothingPublic(t *testing.T) {
	for _, goarch := range []string{"amd64", "arm64", "loong64", "riscv64", "386"} {
		for pkg, imports := range goList(t, goarch, "{{.Imports}}") {
			if !internalPkg(pkg) && pkg != module+"/aead/tls13" {
				continue
			}
			for _, imp := range imports {
				if !strings.HasPrefix(imp, module+"/") || internalPkg(imp) {
					continue
				}
				if pkg == module+"/aead/tls13" && imp == module+"/aead" {
					continue
				}
				t.Errorf("GOARCH=%s: %s imports the public %s", goarch, pkg, imp)
			}
		}
	}
}

// TestTestSupportStaysInTests: no package that is not a test depends on
// internal/cryptotest, which reads the CHACHAKIT_STRICT family of
// variables for the test runs, or on internal/ct, whose valgrind client
// requests mark memory secret for the constant-time check.
func TestTestSupportStaysInTests(t *testing.T) {
	for _, goarch := range []string{"amd64", "arm64"} {
		for pkg, deps := range goList(t, goarch, "{{.Deps}}") {
			for _, d := range deps {
				if d == module+"/internal/cryptotest" || d == module+"/internal/ct" {
					t.Errorf("GOARCH=%s: %s depends on %s", goarch, pkg, d)
				}
			}
		}
	}
}

// TestNoEnvironment: outside bench/ and cmd/ (programs) no file that
// is not a test reads an environment variable, except the test support
// package and internal/impl's env.go, which only builds with the tag
// chachakit_impl_env (the instruction-counting programs and one CI run).
func TestNoEnvironment(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("walks the source tree")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	reads := regexp.MustCompile(`\bos\.(Getenv|LookupEnv|Environ)\(|\bsyscall\.Getenv\(`)
	allowed := map[string]bool{
		"internal/impl/env.go":        true,
		"internal/cryptotest/impl.go": true,
	}
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel == "bench" || rel == "cmd" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_") || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if reads.Match(src) && !allowed[filepath.ToSlash(rel)] {
			t.Errorf("%s reads an environment variable", rel)
		}
		if rel == "internal/impl/env.go" && !strings.HasPrefix(string(src), "//go:build chachakit_impl_env\n") {
			t.Errorf("%s must build only with the tag chachakit_impl_env", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
