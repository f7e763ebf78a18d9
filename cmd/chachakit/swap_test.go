package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"strings"
	"testing"
)

// TestDropUncompilableTests checks that a test file naming an unexported
// identifier the wrapper does not declare is removed, with the files that
// needed its declarations, and that the others stay.
func TestDropUncompilableTests(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a_test.go": "package chacha20\n\nimport (\n\t\"testing\"\n\tmrand \"math/rand\"\n)\n\n" +
			"func TestA(t *testing.T) { _ = make([]byte, blockSize*bufSize); _ = mrand.Int(); _ = helper }\n",
		"b_test.go":   "package chacha20\n\nvar helper = counterOf(nil)\n",
		"c_test.go":   "package chacha20\n\nfunc _() { _ = helper }\n",
		"ext_test.go": "package chacha20_test\n\nvar _ = anything\n",
		"d_test.go":   "package chacha20\n\nimport \"fmt\"\n\nfunc _() { fmt.Println(KeySize, NewUnauthenticatedCipher, len(\"\")) }\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	dropped, err := dropUncompilableTests(dir, wrappers[0])
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range dropped {
		got = append(got, d.file)
	}
	// b uses counterOf; a and c then lose helper, which b declared.
	want := []string{"b_test.go", "a_test.go", "c_test.go"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("dropped %v, want %v", got, want)
	}
	if !strings.Contains(dropped[0].why, "counterOf") {
		t.Errorf("reason %q does not name counterOf", dropped[0].why)
	}
	for _, name := range []string{"d_test.go", "ext_test.go"} {
		if ok, _ := pathExists(filepath.Join(dir, name)); !ok {
			t.Errorf("%s was removed", name)
		}
	}
}

func TestModChanges(t *testing.T) {
	var a, b goModJSON
	a.Go, b.Go = "1.22", "1.25.0"
	a.Require = append(a.Require, struct {
		Path     string
		Version  string
		Indirect bool
	}{Path: "golang.org/x/sys", Version: "v0.1.0"})
	b.Require = append(b.Require, a.Require...)
	b.Require[0].Version = "v0.2.0"
	got := modChanges(&a, &b)
	want := []string{"go 1.22 => go 1.25.0", "require golang.org/x/sys v0.1.0 => v0.2.0"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("modChanges = %q, want %q", got, want)
	}
	if !goLineLess("1.23.0", "1.25") || goLineLess("1.26.0", "1.25.0") {
		t.Error("goLineLess is wrong")
	}
}

func TestKitVersion(t *testing.T) {
	dep := func(v string, r *debug.Module) *debug.Module {
		return &debug.Module{Path: kitPath, Version: v, Replace: r}
	}
	for _, c := range []struct {
		bi   *debug.BuildInfo
		want string // "" for an error
	}{
		{&debug.BuildInfo{Main: debug.Module{Path: kitPath, Version: "v1.2.3"}}, "v1.2.3"},
		{&debug.BuildInfo{Main: debug.Module{Path: kitPath, Version: "(devel)"}}, ""},
		{&debug.BuildInfo{Main: debug.Module{Path: kitPath, Version: "v1.2.4-0.20260101000000-abcdefabcdef+dirty"}}, ""},
		{&debug.BuildInfo{Main: debug.Module{Path: "example.com/m"}, Deps: []*debug.Module{dep("v1.4.0", nil)}}, "v1.4.0"},
		{&debug.BuildInfo{Main: debug.Module{Path: "example.com/m"}, Deps: []*debug.Module{dep("v1.4.0", &debug.Module{Path: "../chachakit"})}}, ""},
		{&debug.BuildInfo{Main: debug.Module{Path: "example.com/m"}}, ""},
		{nil, ""},
	} {
		got, err := kitVersion(c.bi)
		if got != c.want || (err == nil) != (c.want != "") {
			t.Errorf("kitVersion(%+v) = %q, %v; want %q", c.bi, got, err, c.want)
		}
		if err != nil && !strings.Contains(err.Error(), "-chachakit") {
			t.Errorf("kitVersion's error %q does not mention -chachakit", err)
		}
	}
}

// consumerEnv is the environment of the go commands the test runs: no
// workspace, no toolchain switch, and no GOFLAGS from outside, so that
// each command says its -mod mode itself.
func consumerEnv(extra ...string) []string {
	env := append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS=")
	return append(env, extra...)
}

// run runs name with args in dir and returns its combined output; it fails
// the test if the command fails and wantErr is false, or succeeds and
// wantErr is true.
func run(t *testing.T, dir string, env []string, wantErr bool, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if (err != nil) != wantErr {
		t.Fatalf("%s %s in %s: err = %v, want error %v\n%s", name, strings.Join(args, " "), dir, err, wantErr, out)
	}
	return string(out)
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sameFiles fails the test unless go.mod and go.sum in dir hold mod and sum.
func sameFiles(t *testing.T, dir string, mod, sum []byte, when string) {
	t.Helper()
	if got := readFile(t, filepath.Join(dir, "go.mod")); !bytes.Equal(got, mod) {
		t.Errorf("%s: go.mod is\n%s\nwant\n%s", when, got, mod)
	}
	if got := readFile(t, filepath.Join(dir, "go.sum")); !bytes.Equal(got, sum) {
		t.Errorf("%s: go.sum is\n%s\nwant\n%s", when, got, sum)
	}
}

// TestSwap builds the command, swaps a consumer module that requires
// golang.org/x/crypto v0.59.0 onto this checkout of chachakit and back,
// and checks the consumer's results, allocations and packages on both
// sides, x/crypto's own tests on the copy, the inlining of the wrapper,
// -modfile, and the refusals of a second swap and of an unswap without a
// swap.
func TestSwap(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a consumer module and may download modules")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	env := consumerEnv()
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "chachakit")
	run(t, ".", env, false, "go", "build", "-o", bin, ".")

	dir := filepath.Join(tmp, "consumer")
	if err := os.Mkdir(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"main.go", "consumer_test.go"} {
		src := readFile(t, filepath.Join("testdata", "swap", "consumer", name))
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	gomod := "module example.com/consumer\n\ngo 1.26.0\n\nrequire golang.org/x/crypto v0.59.0\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o666); err != nil {
		t.Fatal(err)
	}
	run(t, dir, env, false, "go", "list", "-mod=mod", "-deps", "-test", "./...")
	mod0 := readFile(t, filepath.Join(dir, "go.mod"))
	sum0 := readFile(t, filepath.Join(dir, "go.sum"))

	// consumerTest runs the consumer's tests and returns the digest of its
	// outputs.
	consumerTest := func(want string, flags ...string) string {
		t.Helper()
		digest := filepath.Join(tmp, "digest")
		os.Remove(digest)
		args := append([]string{"test", "-count=1", "-mod=readonly"}, flags...)
		run(t, dir, consumerEnv("CONSUMER_WANT="+want, "CONSUMER_DIGEST="+digest), false, "go", append(args, "./...")...)
		return string(readFile(t, digest))
	}
	before := consumerTest("golang.org/x/crypto/")

	// Unswap before any swap refuses and changes nothing.
	out := run(t, dir, env, true, bin, "unswap")
	if !strings.Contains(out, "not swapped") {
		t.Errorf("unswap without swap says %q, want it to say the module is not swapped", out)
	}
	sameFiles(t, dir, mod0, sum0, "after unswap without swap")

	// swap.
	out = run(t, dir, env, false, bin, "swap", "-chachakit", root)
	t.Logf("swap:\n%s", out)
	if strings.Contains(out, "warning") {
		t.Errorf("swap warned:\n%s", out)
	}
	modSwapped := readFile(t, filepath.Join(dir, "go.mod"))
	sumSwapped := readFile(t, filepath.Join(dir, "go.sum"))
	for _, line := range []string{
		"replace golang.org/x/crypto => ./.chachakit/x-crypto",
		"github.com/chachakit/chachakit " + localKitVersion,
		"require golang.org/x/crypto v0.59.0",
		"go 1.26.0",
	} {
		if !bytes.Contains(modSwapped, []byte(line)) {
			t.Errorf("swapped go.mod lacks %q:\n%s", line, modSwapped)
		}
	}
	if bytes.Contains(modSwapped, []byte(root)) == false {
		t.Errorf("swapped go.mod does not replace chachakit by %s:\n%s", root, modSwapped)
	}
	after := consumerTest(kitPath + "/")
	if before != after {
		t.Errorf("the consumer's outputs differ: digest %s before the swap, %s after", before, after)
	}
	run(t, dir, env, false, "go", "build", "-mod=readonly", "./...")
	if got := run(t, dir, env, false, "go", "run", "-mod=readonly", "."); !strings.Contains(got, kitPath+"/aead "+kitPath+"/chacha20") {
		t.Errorf("the swapped consumer prints %q", got)
	}

	// The copy: x/crypto's own tests of the two packages, on the wrapper,
	// and a wrapper that inlines.
	copyDir := filepath.Join(dir, ".chachakit", "x-crypto")
	for _, name := range []string{"LICENSE", "PATENTS", "chacha20/chacha_test.go", "chacha20poly1305/chacha20poly1305_test.go"} {
		if ok, _ := pathExists(filepath.Join(copyDir, name)); !ok {
			t.Errorf("the copy lacks %s", name)
		}
	}
	for _, name := range []string{"chacha20/chacha_generic.go", "chacha20poly1305/chacha20poly1305_amd64.s"} {
		if ok, _ := pathExists(filepath.Join(copyDir, name)); ok {
			t.Errorf("the copy still has %s", name)
		}
	}
	out = run(t, copyDir, env, false, "go", "test", "-count=1", "-mod=readonly", "./chacha20", "./chacha20poly1305")
	t.Logf("x/crypto's tests on the wrapper:\n%s", out)
	out = run(t, copyDir, env, false, "go", "build", "-mod=readonly", "-gcflags=-m", "./chacha20")
	if !wrapperInlines([]byte(out)) {
		t.Errorf("go build -gcflags=-m does not say the wrapper's NewUnauthenticatedCipher inlines:\n%s", out)
	}

	// A second swap refuses and changes nothing.
	out = run(t, dir, env, true, bin, "swap", "-chachakit", root)
	if !strings.Contains(out, "already swapped") {
		t.Errorf("second swap says %q, want it to say the module is already swapped", out)
	}
	sameFiles(t, dir, modSwapped, sumSwapped, "after a second swap")

	// -modfile unswap of a swap without -modfile refuses.
	out = run(t, dir, env, true, bin, "unswap", "-modfile")
	if !strings.Contains(out, "without -modfile") {
		t.Errorf("unswap -modfile says %q", out)
	}

	// unswap puts everything back.
	out = run(t, dir, env, false, bin, "unswap")
	t.Logf("unswap:\n%s", out)
	sameFiles(t, dir, mod0, sum0, "after unswap")
	if ok, _ := pathExists(filepath.Join(dir, ".chachakit")); ok {
		t.Error(".chachakit is still there after unswap")
	}
	run(t, dir, env, true, bin, "unswap")

	// go.mod and go.sum edited after the swap: unswap removes only what
	// swap added and keeps the rest.
	run(t, dir, env, false, bin, "swap", "-chachakit", root)
	run(t, dir, env, false, "go", "mod", "edit", "-exclude=example.com/gone@v1.0.0")
	extra := "example.com/gone v1.0.0/go.mod h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n"
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), append(readFile(t, filepath.Join(dir, "go.sum")), extra...), 0o666); err != nil {
		t.Fatal(err)
	}
	out = run(t, dir, env, false, bin, "unswap")
	if !strings.Contains(out, "changed since the swap") {
		t.Errorf("unswap after edits says %q, want it to say go.mod and go.sum changed", out)
	}
	wantMod := strings.TrimSuffix(string(mod0), "\n") + "\n\nexclude example.com/gone v1.0.0\n"
	sameFiles(t, dir, []byte(wantMod), append(append([]byte(nil), sum0...), extra...), "after unswap of an edited swap")
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), mod0, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum0, 0o666); err != nil {
		t.Fatal(err)
	}

	// swap -modfile leaves go.mod and go.sum alone.
	out = run(t, dir, env, false, bin, "swap", "-modfile", "-chachakit", root)
	t.Logf("swap -modfile:\n%s", out)
	if !strings.Contains(out, "-modfile=go.chachakit.mod") {
		t.Errorf("swap -modfile does not say how to use go.chachakit.mod:\n%s", out)
	}
	sameFiles(t, dir, mod0, sum0, "after swap -modfile")
	if got := consumerTest(kitPath+"/", "-modfile=go.chachakit.mod"); got != before {
		t.Errorf("the consumer's outputs differ with -modfile: digest %s, want %s", got, before)
	}
	consumerTest("golang.org/x/crypto/")
	out = run(t, dir, env, true, bin, "swap", "-chachakit", root)
	if !strings.Contains(out, "already swapped (with -modfile)") {
		t.Errorf("swap after swap -modfile says %q", out)
	}
	out = run(t, dir, env, true, bin, "unswap")
	if !strings.Contains(out, "unswap -modfile") {
		t.Errorf("unswap after swap -modfile says %q", out)
	}
	run(t, dir, env, false, bin, "unswap", "-modfile")
	sameFiles(t, dir, mod0, sum0, "after unswap -modfile")
	for _, name := range []string{".chachakit", altMod, altSum} {
		if ok, _ := pathExists(filepath.Join(dir, name)); ok {
			t.Errorf("%s is still there after unswap -modfile", name)
		}
	}
}
