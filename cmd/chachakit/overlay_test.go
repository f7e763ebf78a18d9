package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// realGoEnv returns the test's toolchain as the command would see it.
func realGoEnv(t *testing.T) goEnv {
	t.Helper()
	env, err := goEnvFromGo()
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	return env
}

// testCmd returns an overlayCmd that writes to buffers, sees the given
// toolchain and puts its cache under a temporary directory.
func testCmd(t *testing.T, env goEnv) (overlayCmd, *bytes.Buffer, *bytes.Buffer) {
	var stdout, stderr bytes.Buffer
	cache := t.TempDir()
	return overlayCmd{
		stdout:   &stdout,
		stderr:   &stderr,
		goEnv:    func() (goEnv, error) { return env, nil },
		cacheDir: func() (string, error) { return cache, nil },
	}, &stdout, &stderr
}

// TestOverlayTLS writes the overlay, builds cmd/chachakit/internal/tlsprobe with it and
// the chachakit_tally tag, and runs it with GODEBUG=cpu.aes=off: crypto/tls
// must negotiate TLS_CHACHA20_POLY1305_SHA256, take the KeyUpdate, and make
// at least one Seal and one Open in package aead per record of the data it
// moved. The same probe built without the overlay is the control: there
// crypto/tls makes no calls into package aead.
func TestOverlayTLS(t *testing.T) {
	if testing.Short() {
		t.Skip("builds crypto/tls with the overlay")
	}
	env := realGoEnv(t)
	if _, _, err := checkToolchain(env); err != nil {
		t.Skipf("the test's toolchain is not one the overlay applies to: %v", err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "overlay.json")
	cmd, stdout, _ := testCmd(t, env)
	if err := cmd.run([]string{"-o", file}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "go build -overlay="+file) {
		t.Errorf("the notes do not say how to use the overlay:\n%s", stdout)
	}

	const size = 1 << 20
	overlaid := buildProbe(t, filepath.Join(dir, "probe-overlay"), "-overlay="+file)
	out := runProbe(t, overlaid, size)
	c := parseCounts(t, out)
	// Each direction carries 2*size bytes, in records of at most 16 KiB.
	minRecords := uint64(4 * size / (16 << 10))
	if c["tls-seals"] < minRecords || c["tls-opens"] < minRecords {
		t.Errorf("crypto/tls made %d Seals and %d Opens in package aead; want at least %d each (one per record)\n%s",
			c["tls-seals"], c["tls-opens"], minRecords, out)
	}

	plain := buildProbe(t, filepath.Join(dir, "probe-plain"))
	out = runProbe(t, plain, size)
	if c := parseCounts(t, out); c["tls-seals"] != 0 || c["tls-opens"] != 0 {
		t.Errorf("without the overlay crypto/tls made %d Seals and %d Opens in package aead; want none\n%s",
			c["tls-seals"], c["tls-opens"], out)
	}
}

// buildProbe builds cmd/chachakit/internal/tlsprobe with the chachakit_tally tag and the
// given extra flags into exe.
func buildProbe(t *testing.T, exe string, flags ...string) string {
	t.Helper()
	args := append([]string{"build", "-tags", "chachakit_tally", "-o", exe}, flags...)
	args = append(args, "./internal/tlsprobe")
	if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return exe
}

// runProbe runs the probe with GODEBUG=cpu.aes=off and checks the lines
// that do not depend on the build: the suite, the byte count and the
// KeyUpdate.
func runProbe(t *testing.T, exe string, size int) string {
	t.Helper()
	cmd := exec.Command(exe, "-size", strconv.Itoa(size))
	godebug := "cpu.aes=off"
	if old := os.Getenv("GODEBUG"); old != "" {
		godebug = old + "," + godebug
	}
	cmd.Env = append(os.Environ(), "GODEBUG="+godebug)
	outb, err := cmd.CombinedOutput()
	out := string(outb)
	if strings.Contains(out, `unknown cpu feature "aes"`) {
		t.Skipf("GODEBUG cannot turn AES off here, so crypto/tls keeps AES-GCM: %s", out)
	}
	if err != nil {
		t.Fatalf("%s: %v\n%s", exe, err, out)
	}
	t.Logf("%s:\n%s", filepath.Base(exe), out)
	for _, want := range []string{
		"suite TLS_CHACHA20_POLY1305_SHA256\n",
		"bytes each-way=" + strconv.Itoa(2*size) + "\n",
		"keyupdate seq=",
		"counts tally=true ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	return out
}

var countRE = regexp.MustCompile(`([a-z-]+)=([0-9]+)`)

// parseCounts returns the numbers of the probe's counts line by name.
func parseCounts(t *testing.T, out string) map[string]uint64 {
	t.Helper()
	for line := range strings.Lines(out) {
		if !strings.HasPrefix(line, "counts ") {
			continue
		}
		m := make(map[string]uint64)
		for _, kv := range countRE.FindAllStringSubmatch(line, -1) {
			n, _ := strconv.ParseUint(kv[2], 10, 64)
			m[kv[1]] = n
		}
		return m
	}
	t.Fatalf("no counts line in:\n%s", out)
	return nil
}

// fakeGoroot copies the test toolchain's vendored chacha20poly1305 into a
// temporary GOROOT and returns its root and package directory.
func fakeGoroot(t *testing.T) (root, pkg string) {
	t.Helper()
	env := realGoEnv(t)
	if _, _, err := checkToolchain(env); err != nil {
		t.Skipf("the test's toolchain is not one the overlay knows: %v", err)
	}
	root = t.TempDir()
	pkg = filepath.Join(root, filepath.FromSlash(vendoredDir))
	if err := os.CopyFS(pkg, os.DirFS(filepath.Join(env.GOROOT, filepath.FromSlash(vendoredDir)))); err != nil {
		t.Fatal(err)
	}
	return root, pkg
}

// TestOverlayRefusesUnknownFiles checks that a copy of the vendored
// package is accepted as is and refused, naming the Go version and the
// file, once a file is changed, added or removed.
func TestOverlayRefusesUnknownFiles(t *testing.T) {
	root, pkg := fakeGoroot(t)
	const goversion = "go1.26.8"
	cmd, stdout, _ := testCmd(t, goEnv{GOROOT: root, GOVERSION: goversion})
	if err := cmd.run([]string{"-check"}); err != nil {
		t.Fatalf("untouched copy: %v", err)
	}
	if !strings.Contains(stdout.String(), "the overlay applies") {
		t.Errorf("-check output: %q", stdout)
	}

	for _, tc := range []struct {
		name   string
		change func() error
		want   string
	}{
		{"changed", func() error {
			f, err := os.OpenFile(filepath.Join(pkg, "chacha20poly1305.go"), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			f.WriteString("\n// an edit\n")
			return f.Close()
		}, "changed: chacha20poly1305.go"},
		{"added", func() error {
			return os.WriteFile(filepath.Join(pkg, "extra.go"), []byte("package chacha20poly1305\n"), 0o644)
		}, "added:   extra.go"},
		{"missing", func() error {
			return os.Remove(filepath.Join(pkg, "xchacha20poly1305.go"))
		}, "missing: xchacha20poly1305.go"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, pkg = fakeGoroot(t)
			if err := tc.change(); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"-check"}, {"-o", filepath.Join(t.TempDir(), "o.json")}} {
				cmd, stdout, _ := testCmd(t, goEnv{GOROOT: root, GOVERSION: goversion})
				err := cmd.run(args)
				if err == nil {
					t.Fatalf("%v: accepted a tampered package:\n%s", args, stdout)
				}
				for _, want := range []string{goversion, tc.want, "refuses"} {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("%v: error does not say %q:\n%v", args, want, err)
					}
				}
				if stdout.Len() > 0 {
					t.Errorf("%v: wrote output when refusing: %q", args, stdout)
				}
			}
		})
	}
}

// TestOverlayRefusesModCache checks that a GOROOT in the module cache, a
// toolchain the go command downloaded, is refused even with known files:
// go build rejects overlays of files beneath GOMODCACHE.
func TestOverlayRefusesModCache(t *testing.T) {
	root, _ := fakeGoroot(t)
	for _, modcache := range []string{root, filepath.Dir(root)} {
		cmd, stdout, _ := testCmd(t, goEnv{GOROOT: root, GOVERSION: "go1.26.8", GOMODCACHE: modcache})
		err := cmd.run([]string{"-check"})
		if err == nil || !strings.Contains(err.Error(), "GOMODCACHE") {
			t.Errorf("GOMODCACHE=%s: got %v, want a refusal naming GOMODCACHE\n%s", modcache, err, stdout)
		}
	}
	cmd, _, _ := testCmd(t, goEnv{GOROOT: root, GOVERSION: "go1.26.8", GOMODCACHE: root + "x"})
	if err := cmd.run([]string{"-check"}); err != nil {
		t.Errorf("GOROOT beside, not in, GOMODCACHE: %v", err)
	}
}

// TestOverlayStdout checks the overlay printed to standard output: every
// vendored file deleted, the wrapper added from the cache directory, and
// the wrapper on disk.
func TestOverlayStdout(t *testing.T) {
	root, pkg := fakeGoroot(t)
	cmd, stdout, stderr := testCmd(t, goEnv{GOROOT: root, GOVERSION: "go1.26.8"})
	if err := cmd.run(nil); err != nil {
		t.Fatal(err)
	}
	var ov struct{ Replace map[string]string }
	if err := json.Unmarshal(stdout.Bytes(), &ov); err != nil {
		t.Fatalf("standard output is not the overlay JSON: %v\n%s", err, stdout)
	}
	entries, err := os.ReadDir(pkg)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if to, ok := ov.Replace[filepath.Join(pkg, e.Name())]; !ok || to != "" {
			t.Errorf("%s: replaced by %q (present %v), want deleted", e.Name(), to, ok)
		}
	}
	wrapper := ov.Replace[filepath.Join(pkg, wrapperName)]
	if data, err := os.ReadFile(wrapper); err != nil || string(data) != wrapperSource {
		t.Errorf("wrapper %q: %v, or not the wrapper source", wrapper, err)
	}
	if len(ov.Replace) != len(entries)+1 {
		t.Errorf("%d replacements, want %d", len(ov.Replace), len(entries)+1)
	}
	if !strings.Contains(stderr.String(), "Not covered") {
		t.Errorf("no notes on standard error: %q", stderr)
	}
}
