// chachakit swap and chachakit unswap.
//
// swap makes a Go module that uses golang.org/x/crypto/chacha20 and
// golang.org/x/crypto/chacha20poly1305, directly or through its
// dependencies (quic-go, x/crypto/ssh, age, wireguard-go), run on chachakit
// without touching its source: the module's golang.org/x/crypto is replaced
// by a copy in which those two packages forward to chachakit.
//
// Decisions, and why:
//
//   - The copy goes to .chachakit/x-crypto beside go.mod. A directory whose
//     name starts with '.' is skipped by ./..., and the copy has its own
//     go.mod, so it is never one of the module's own packages. It is a copy
//     of the x/crypto version the module already selects (go list -m),
//     taken from the module cache (go mod download -json), made writable.
//     Everything is kept (LICENSE, PATENTS, README, every other package and
//     its testdata) except, in chacha20 and chacha20poly1305, the non-test
//     .go and .s files, which give way to one generated file each
//     (chachakit.go). The replace line covers every version of
//     golang.org/x/crypto, so whichever version the module graph selects
//     builds from the copy.
//   - The wrapper's NewUnauthenticatedCipher allocates the Cipher itself
//     and hands it to chachakit's InitUnauthenticatedCipher, so it inlines
//     as x/crypto's does and a per-packet Cipher (QUIC header protection,
//     x/crypto/ssh's chacha20-poly1305) stays on the caller's stack.
//   - x/crypto's own _test.go files in the two packages are kept. They are
//     internal tests, so the wrapper also defines the unexported names they
//     use (blockSize and bufSize in chacha20). A test file that names an
//     unexported identifier the wrapper does not define is deleted from the
//     copy, and swap says which file and which names.
//   - The copy's go.mod requires chachakit (and, with -chachakit DIR,
//     replaces it by DIR so that go test works inside the copy; a replace
//     in a dependency's go.mod is ignored by the modules that use it). Its
//     go line is raised to chachakit's if that is higher.
//   - The module's go.mod gets, through go mod edit, the replace of
//     golang.org/x/crypto, a require of chachakit (the version this binary
//     was built from, or with -chachakit DIR the placeholder version
//     v0.0.0-00010101000000-000000000000 and a replace by DIR made
//     absolute). Then go list -mod=mod -deps -test ./... adds the go.sum
//     lines that go build and go test need; go mod tidy is never run. If the
//     go command has to change more than that to accept the module (a go
//     line below chachakit's, a requirement below one of chachakit's), it
//     does so, and swap prints each such change.
//   - With -modfile, go.mod and go.sum are left alone: the same edits go to
//     go.chachakit.mod and go.chachakit.sum, to be used with
//     go build -modfile=go.chachakit.mod.
//   - .chachakit/ also holds what unswap needs: swap.json (what swap did)
//     and copies of go.mod and go.sum from before and after the swap.
//     unswap puts back the go.mod and go.sum from before the swap if they
//     are still as swap left them. If they changed since, it removes only
//     the lines swap added to go.mod, and gives go.sum its old lines plus
//     the lines added since the swap.
//   - swap refuses a module that is already swapped, that replaces
//     golang.org/x/crypto itself, or that vendors its dependencies; unswap
//     refuses a module that was not swapped, or that was swapped in the other
//     mode (with or without -modfile). Both change nothing when they refuse.
//   - The go command runs with GOWORK=off: swap edits one module's go.mod,
//     and says so if a go.work file is in use.

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/version"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
)

const (
	kitPath     = "github.com/chachakit/chachakit"
	xcryptoPath = "golang.org/x/crypto"

	// kitDirName is the directory beside go.mod that swap writes into.
	kitDirName = ".chachakit"
	// copyRel is the copy of x/crypto, as the replace line names it.
	copyRel = "./" + kitDirName + "/x-crypto"

	// localKitVersion is the version required of a chachakit that a replace
	// line sends to a local directory: the go command's own placeholder for
	// a module known only through a replacement.
	localKitVersion = "v0.0.0-00010101000000-000000000000"

	stateName     = "swap.json"
	modBeforeName = "go.mod.before"
	sumBeforeName = "go.sum.before"
	modAfterName  = "go.mod.after"
	sumAfterName  = "go.sum.after"

	altMod = "go.chachakit.mod"
	altSum = "go.chachakit.sum"
)

// swapState is what swap records in .chachakit/swap.json for unswap.
type swapState struct {
	Modfile         bool   `json:"modfile"`         // edits went to go.chachakit.mod
	XCrypto         string `json:"xcrypto"`         // the x/crypto version copied
	Kit             string `json:"chachakit"`       // chachakit's required version
	KitDir          string `json:"chachakitDir"`    // the -chachakit directory, if any
	AddedRequire    bool   `json:"addedRequire"`    // swap added the require of chachakit
	AddedKitReplace bool   `json:"addedKitReplace"` // swap added the replace of chachakit
	HadSum          bool   `json:"hadSum"`          // go.sum existed before swap
	// Forced lists the changes the go command made to the go file beyond
	// swap's own lines, to accept chachakit's requirements.
	Forced []string `json:"forced,omitempty"`
}

// swapFlags are the flags of swap and unswap.
type swapFlags struct {
	dir     string
	modfile bool
	kitDir  string // swap only
}

func parseSwapFlags(cmd string, args []string) *swapFlags {
	f := &swapFlags{}
	set := flag.NewFlagSet("chachakit "+cmd, flag.ExitOnError)
	set.StringVar(&f.dir, "C", ".", "run in `dir`: the module whose go.mod is there or above")
	set.BoolVar(&f.modfile, "modfile", false, "leave go.mod and go.sum alone; use "+altMod+" and "+altSum)
	if cmd == "swap" {
		set.StringVar(&f.kitDir, "chachakit", "", "use the chachakit checkout in `dir` (default: the version this binary was built from)")
	}
	set.Usage = func() {
		w := set.Output()
		if cmd == "swap" {
			fmt.Fprintf(w, "usage: chachakit swap [-C dir] [-modfile] [-chachakit dir]\n\n"+
				"Replace golang.org/x/crypto in the module by a copy in %s whose\n"+
				"chacha20 and chacha20poly1305 packages forward to chachakit.\n\n", copyRel)
		} else {
			fmt.Fprintf(w, "usage: chachakit unswap [-C dir] [-modfile]\n\nUndo chachakit swap.\n\n")
		}
		set.PrintDefaults()
	}
	set.Parse(args)
	if set.NArg() > 0 {
		fmt.Fprintf(set.Output(), "chachakit %s: unexpected argument %q\n", cmd, set.Arg(0))
		set.Usage()
		os.Exit(2)
	}
	return f
}

// module is the user's module that swap and unswap work on.
type swapModule struct {
	dir    string // the directory of go.mod, absolute
	kitDir string // dir/.chachakit
}

func (m *swapModule) path(name string) string   { return filepath.Join(m.dir, name) }
func (m *swapModule) kit(name string) string    { return filepath.Join(m.kitDir, name) }
func (m *swapModule) copyDir() string           { return m.kit("x-crypto") }
func (m *swapModule) rel(p string) string       { r, _ := filepath.Rel(m.dir, p); return r }
func (m *swapModule) swapped() (bool, error)    { return pathExists(m.kit(stateName)) }
func (m *swapModule) goMod(modfile bool) string { return m.path(pickName(modfile, altMod, "go.mod")) }
func (m *swapModule) goSum(modfile bool) string { return m.path(pickName(modfile, altSum, "go.sum")) }

func pickName(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// findModule returns the module whose go.mod is in dir or above.
func findModule(dir string) (*swapModule, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	out, err := swapGo(abs, "env", "GOMOD")
	if err != nil {
		return nil, err
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return nil, fmt.Errorf("no go.mod in %s or any directory above it", abs)
	}
	m := &swapModule{dir: filepath.Dir(gomod)}
	m.kitDir = filepath.Join(m.dir, kitDirName)
	return m, nil
}

// goCmd runs the go command in dir and returns its standard output. The
// error carries the command line and its standard error.
func swapGo(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return out, fmt.Errorf("go %s (in %s): %s", strings.Join(args, " "), dir, msg)
	}
	return out, nil
}

// modFile is the part of go mod edit -json's output that swap reads.
type goModJSON struct {
	Module    struct{ Path string }
	Go        string
	Toolchain string
	Require   []struct {
		Path     string
		Version  string
		Indirect bool
	}
	Replace []struct {
		Old, New struct{ Path, Version string }
	}
}

func readGoMod(dir, file string) (*goModJSON, error) {
	out, err := swapGo(dir, "mod", "edit", "-json", file)
	if err != nil {
		return nil, err
	}
	mf := new(goModJSON)
	if err := json.Unmarshal(out, mf); err != nil {
		return nil, fmt.Errorf("reading %s: %v", file, err)
	}
	return mf, nil
}

func (mf *goModJSON) require(path string) (string, bool) {
	for _, r := range mf.Require {
		if r.Path == path {
			return r.Version, true
		}
	}
	return "", false
}

func (mf *goModJSON) replacement(path string) (string, bool) {
	for _, r := range mf.Replace {
		if r.Old.Path == path {
			if r.New.Version != "" {
				return r.New.Path + " " + r.New.Version, true
			}
			return r.New.Path, true
		}
	}
	return "", false
}

// kitFromBuild returns the chachakit version this binary was built from.
func kitFromBuild() (string, error) {
	bi, _ := debug.ReadBuildInfo()
	return kitVersion(bi)
}

// kitVersion returns the chachakit version of a binary built as bi
// describes: the main module's when it was run as
// go run github.com/chachakit/chachakit/cmd/chachakit@version, or the
// dependency's when it was built as a dependency of another module. A
// checkout's build has none.
func kitVersion(bi *debug.BuildInfo) (string, error) {
	errNone := errors.New("cannot tell which chachakit version this binary was built from " +
		"(it was built inside a chachakit checkout); pass -chachakit DIR naming a chachakit checkout, " +
		"or run it as go run " + kitPath + "/cmd/chachakit@VERSION swap")
	if bi == nil {
		return "", errNone
	}
	usable := func(v string) bool { return v != "" && v != "(devel)" && !strings.Contains(v, "+") }
	if bi.Main.Path == kitPath && usable(bi.Main.Version) {
		return bi.Main.Version, nil
	}
	for _, d := range bi.Deps {
		if d.Path != kitPath {
			continue
		}
		if d.Replace != nil {
			if d.Replace.Path == kitPath && usable(d.Replace.Version) {
				return d.Replace.Version, nil
			}
			return "", fmt.Errorf("this binary was built from a chachakit replaced by %s; pass -chachakit DIR", d.Replace.Path)
		}
		if usable(d.Version) {
			return d.Version, nil
		}
	}
	return "", errNone
}

// kitSource is where the chachakit that swap requires comes from.
type kitSource struct {
	version string // the version to require
	dir     string // a local checkout, or ""
	goLine  string // the go line of its go.mod
}

func findKit(m *swapModule, kitDir string) (*kitSource, error) {
	if kitDir != "" {
		abs, err := filepath.Abs(kitDir)
		if err != nil {
			return nil, err
		}
		mf, err := readGoMod(m.dir, filepath.Join(abs, "go.mod"))
		if err != nil {
			return nil, fmt.Errorf("-chachakit %s: %v", kitDir, err)
		}
		if mf.Module.Path != kitPath {
			return nil, fmt.Errorf("-chachakit %s: its go.mod is module %s, not %s", kitDir, mf.Module.Path, kitPath)
		}
		return &kitSource{version: localKitVersion, dir: abs, goLine: mf.Go}, nil
	}
	v, err := kitFromBuild()
	if err != nil {
		return nil, err
	}
	dl, err := modDownload(m.dir, kitPath+"@"+v)
	if err != nil {
		return nil, fmt.Errorf("%v\n(pass -chachakit DIR to use a local chachakit checkout)", err)
	}
	mf, err := readGoMod(m.dir, dl.GoMod)
	if err != nil {
		return nil, err
	}
	return &kitSource{version: v, goLine: mf.Go}, nil
}

// downloaded is the part of go mod download -json's output that swap reads.
type modDownloaded struct {
	Path, Version, Dir, GoMod, Error string
}

func modDownload(dir, query string) (*modDownloaded, error) {
	out, err := swapGo(dir, "mod", "download", "-json", query)
	var d modDownloaded
	if jerr := json.Unmarshal(out, &d); jerr == nil && d.Error != "" {
		return nil, fmt.Errorf("go mod download %s: %s", query, d.Error)
	}
	if err != nil {
		return nil, err
	}
	if d.Dir == "" || d.GoMod == "" {
		return nil, fmt.Errorf("go mod download %s: no directory in the module cache", query)
	}
	return &d, nil
}

// xcryptoVersion returns the golang.org/x/crypto version the module selects,
// or if the go command cannot load the module graph as it is, the version
// its go file requires.
func xcryptoVersion(m *swapModule, modfile bool) (string, error) {
	out, err := swapGo(m.dir, "list", "-mod=readonly", "-modfile="+m.goMod(modfile), "-m", "-json", xcryptoPath)
	if err == nil {
		var mod struct{ Version string }
		if json.Unmarshal(out, &mod) == nil && mod.Version != "" {
			return mod.Version, nil
		}
	}
	mf, merr := readGoMod(m.dir, m.goMod(modfile))
	if merr != nil {
		return "", merr
	}
	if v, ok := mf.require(xcryptoPath); ok {
		return v, nil
	}
	if err != nil {
		return "", fmt.Errorf("finding the %s version: %v", xcryptoPath, err)
	}
	return "", fmt.Errorf("the module does not require %s: nothing to swap", xcryptoPath)
}

// fileSnapshot is a file's content, or its absence.
type fileSnapshot struct {
	data []byte
	ok   bool
}

func takeSnapshot(name string) (fileSnapshot, error) {
	b, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return fileSnapshot{}, nil
	}
	return fileSnapshot{b, err == nil}, err
}

// restore puts the file back as it was: written, or removed if it did not
// exist.
func (s fileSnapshot) restore(name string) error {
	if !s.ok {
		err := os.Remove(name)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	return os.WriteFile(name, s.data, 0o666)
}

// save writes the snapshot to name, or removes name if the file did not
// exist.
func (s fileSnapshot) save(name string) error { return s.restore(name) }

func pathExists(name string) (bool, error) {
	_, err := os.Lstat(name)
	if err == nil {
		return true, nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return false, err
}

func runSwap(args []string) error {
	f := parseSwapFlags("swap", args)
	m, err := findModule(f.dir)
	if err != nil {
		return err
	}
	if err := checkSwappable(m, f); err != nil {
		return err
	}
	kit, err := findKit(m, f.kitDir)
	if err != nil {
		return err
	}
	if gowork, _ := swapGoEnv(m.dir, "GOWORK"); gowork != "" && gowork != "off" {
		fmt.Printf("note: %s is in use; swap edits only this module's go.mod\n", gowork)
	}
	v, err := xcryptoVersion(m, false)
	if err != nil {
		return err
	}
	src, err := modDownload(m.dir, xcryptoPath+"@"+v)
	if err != nil {
		return err
	}

	// From here on, every change is undone if a later step fails.
	s := &swapper{m: m, f: f, kit: kit, xcrypto: v, src: src}
	if err := s.run(); err != nil {
		if uerr := s.rollback(); uerr != nil {
			return fmt.Errorf("%v\nundoing the swap also failed: %v", err, uerr)
		}
		return fmt.Errorf("%v\nnothing was changed", err)
	}
	return nil
}

func swapGoEnv(dir, name string) (string, error) {
	out, err := swapGo(dir, "env", name)
	return strings.TrimSpace(string(out)), err
}

// checkSwappable returns an error saying why swap must not run, if it must
// not.
func checkSwappable(m *swapModule, f *swapFlags) error {
	if ok, err := m.swapped(); err != nil {
		return err
	} else if ok {
		st, err := readState(m)
		how := ""
		if err == nil && st.Modfile {
			how = " (with -modfile)"
		}
		return fmt.Errorf("%s is already swapped%s: %s exists; run chachakit unswap first", m.dir, how, m.rel(m.kit(stateName)))
	}
	mf, err := readGoMod(m.dir, m.path("go.mod"))
	if err != nil {
		return err
	}
	if r, ok := mf.replacement(xcryptoPath); ok {
		if r == copyRel {
			return fmt.Errorf("go.mod already replaces %s by %s, but %s is missing: "+
				"remove the replace line (go mod edit -dropreplace=%s) before swapping again",
				xcryptoPath, r, m.rel(m.kit(stateName)), xcryptoPath)
		}
		return fmt.Errorf("go.mod already replaces %s by %s; swap would override that replacement", xcryptoPath, r)
	}
	if f.kitDir != "" {
		if r, ok := mf.replacement(kitPath); ok {
			return fmt.Errorf("go.mod already replaces %s by %s; drop that line or run swap without -chachakit", kitPath, r)
		}
	}
	if ok, err := pathExists(m.path("vendor/modules.txt")); err != nil {
		return err
	} else if ok {
		return errors.New("the module vendors its dependencies (vendor/modules.txt); swap does not support vendoring")
	}
	if f.modfile {
		for _, name := range []string{altMod, altSum} {
			if ok, err := pathExists(m.path(name)); err != nil {
				return err
			} else if ok {
				return fmt.Errorf("%s exists; remove it before swap -modfile", name)
			}
		}
	}
	if ok, err := pathExists(m.copyDir()); err != nil {
		return err
	} else if ok {
		return fmt.Errorf("%s exists but the module is not swapped (no %s); remove it first",
			m.rel(m.copyDir()), m.rel(m.kit(stateName)))
	}
	return nil
}

func readState(m *swapModule) (*swapState, error) {
	b, err := os.ReadFile(m.kit(stateName))
	if err != nil {
		return nil, err
	}
	st := new(swapState)
	if err := json.Unmarshal(b, st); err != nil {
		return nil, fmt.Errorf("%s: %v", m.rel(m.kit(stateName)), err)
	}
	return st, nil
}

// swapper carries out one swap, and undoes it if a step fails.
type swapper struct {
	m       *swapModule
	f       *swapFlags
	kit     *kitSource
	xcrypto string
	src     *modDownloaded

	kitDirExisted bool
	mod, sum      fileSnapshot // go.mod and go.sum before the swap
	dropped       []droppedTest
	forced        []string // changes the go command made beyond swap's own
	sumAdded      int
	st            swapState
	touched       bool // the user's files or .chachakit were written
	inlines       bool // the wrapper's NewUnauthenticatedCipher inlines
	modPath       string
}

func (s *swapper) run() error {
	m := s.m
	var err error
	if s.mod, err = takeSnapshot(m.path("go.mod")); err != nil {
		return err
	}
	if s.sum, err = takeSnapshot(m.path("go.sum")); err != nil {
		return err
	}
	if s.kitDirExisted, err = pathExists(m.kitDir); err != nil {
		return err
	}
	s.touched = true
	if err := os.MkdirAll(m.kitDir, 0o777); err != nil {
		return err
	}
	if !s.f.modfile {
		if err := s.mod.save(m.kit(modBeforeName)); err != nil {
			return err
		}
		if err := s.sum.save(m.kit(sumBeforeName)); err != nil {
			return err
		}
	}

	// The copy of x/crypto, with the two packages forwarding to chachakit.
	if err := copyModTree(s.src.Dir, m.copyDir()); err != nil {
		return fmt.Errorf("copying %s %s: %v", xcryptoPath, s.xcrypto, err)
	}
	if s.dropped, err = writeWrappers(m.copyDir()); err != nil {
		return err
	}
	if err := s.editCopyMod(); err != nil {
		return err
	}

	// The module's go.mod and go.sum, or their -modfile twins.
	gomod, gosum := m.goMod(s.f.modfile), m.goSum(s.f.modfile)
	if s.f.modfile {
		if err := s.mod.save(gomod); err != nil {
			return err
		}
		if err := s.sum.save(gosum); err != nil {
			return err
		}
	}
	before, err := readGoMod(m.dir, gomod)
	if err != nil {
		return err
	}
	s.modPath = before.Module.Path
	_, required := before.require(kitPath)
	_, replaced := before.replacement(kitPath)
	s.st = swapState{
		Modfile:         s.f.modfile,
		XCrypto:         s.xcrypto,
		Kit:             s.kit.version,
		KitDir:          s.kit.dir,
		AddedRequire:    !required,
		AddedKitReplace: s.kit.dir != "" && !replaced,
		HadSum:          s.sum.ok,
	}
	edit := []string{"mod", "edit", "-replace=" + xcryptoPath + "=" + copyRel}
	if !required || s.kit.dir == "" {
		edit = append(edit, "-require="+kitPath+"@"+s.kit.version)
	}
	if s.kit.dir != "" {
		edit = append(edit, "-replace="+kitPath+"="+s.kit.dir)
	}
	if _, err := swapGo(m.dir, append(edit, gomod)...); err != nil {
		return err
	}
	edited, err := readGoMod(m.dir, gomod)
	if err != nil {
		return err
	}
	sumEdited, err := takeSnapshot(gosum)
	if err != nil {
		return err
	}
	// Let the go command add the go.sum lines (and whatever else it
	// insists on) that go build ./... and go test ./... need.
	if _, err := swapGo(m.dir, "list", "-mod=mod", "-modfile="+gomod, "-deps", "-test", "./..."); err != nil {
		return err
	}
	settled, err := readGoMod(m.dir, gomod)
	if err != nil {
		return err
	}
	s.forced = modChanges(edited, settled)
	s.st.Forced = s.forced
	sumNow, err := takeSnapshot(gosum)
	if err != nil {
		return err
	}
	s.sumAdded = len(linesAdded(sumEdited.data, sumNow.data))

	if !s.f.modfile {
		modNow, err := takeSnapshot(gomod)
		if err != nil {
			return err
		}
		if err := modNow.save(m.kit(modAfterName)); err != nil {
			return err
		}
		if err := sumNow.save(m.kit(sumAfterName)); err != nil {
			return err
		}
	}
	b, err := json.MarshalIndent(&s.st, "", "\t")
	if err != nil {
		return err
	}
	if err := os.WriteFile(m.kit(stateName), append(b, '\n'), 0o666); err != nil {
		return err
	}
	s.report()
	return nil
}

// editCopyMod makes the copy's go.mod require chachakit, and gets its
// go.sum ready for go test inside the copy.
func (s *swapper) editCopyMod() error {
	dir := s.m.copyDir()
	mf, err := readGoMod(dir, "go.mod")
	if err != nil {
		return err
	}
	edit := []string{"mod", "edit", "-require=" + kitPath + "@" + s.kit.version}
	if s.kit.dir != "" {
		edit = append(edit, "-replace="+kitPath+"="+s.kit.dir)
	}
	if s.kit.goLine != "" && goLineLess(mf.Go, s.kit.goLine) {
		edit = append(edit, "-go="+s.kit.goLine)
	}
	if _, err := swapGo(dir, append(edit, "go.mod")...); err != nil {
		return err
	}
	if _, err := swapGo(dir, "list", "-mod=mod", "-deps", "-test", "./chacha20", "./chacha20poly1305"); err != nil {
		return err
	}
	// The compiler prints its inlining decisions on standard error.
	cmd := exec.Command("go", "build", "-gcflags=-m", "./chacha20")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("go build ./chacha20 in the copy: %v\n%s", err, out)
	}
	s.inlines = wrapperInlines(out)
	return nil
}

// rollback undoes what run did before it failed.
func (s *swapper) rollback() error {
	if !s.touched {
		return nil
	}
	m := s.m
	var errs []error
	if s.f.modfile {
		for _, name := range []string{altMod, altSum} {
			if err := os.Remove(m.path(name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
		}
	} else {
		errs = append(errs, s.mod.restore(m.path("go.mod")), s.sum.restore(m.path("go.sum")))
	}
	errs = append(errs, removeKitFiles(m, !s.kitDirExisted))
	return errors.Join(errs...)
}

// removeKitFiles removes the copy and the files swap keeps in .chachakit,
// and .chachakit itself if it is then empty (or if all is set, whatever
// else it holds).
func removeKitFiles(m *swapModule, all bool) error {
	if all {
		return os.RemoveAll(m.kitDir)
	}
	errs := []error{os.RemoveAll(m.copyDir())}
	for _, name := range []string{stateName, modBeforeName, sumBeforeName, modAfterName, sumAfterName} {
		if err := os.Remove(m.kit(name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	if ents, err := os.ReadDir(m.kitDir); err == nil && len(ents) == 0 {
		errs = append(errs, os.Remove(m.kitDir))
	}
	return errors.Join(errs...)
}

func (s *swapper) report() {
	m := s.m
	kitDesc := kitPath + " " + s.kit.version
	if s.kit.dir != "" {
		kitDesc = "chachakit in " + s.kit.dir
	}
	gomod, gosum := pickName(s.f.modfile, altMod, "go.mod"), pickName(s.f.modfile, altSum, "go.sum")
	fmt.Printf("swap: %s in %s (%s) now forwards chacha20 and chacha20poly1305 to %s\n", xcryptoPath, s.modPath, m.dir, kitDesc)
	fmt.Printf("  %s: copy of %s %s with the two packages replaced by forwarding wrappers\n",
		m.rel(m.copyDir()), xcryptoPath, s.xcrypto)
	if !s.inlines {
		fmt.Printf("  warning: the compiler does not inline the copy's chacha20.NewUnauthenticatedCipher: " +
			"every Cipher it makes goes to the heap (go build -gcflags=-m ./chacha20 in the copy says why)\n")
	}
	for _, d := range s.dropped {
		fmt.Printf("  removed x/crypto test file %s from the copy: %s\n", d.file, d.why)
	}
	fmt.Printf("  %s: replace %s => %s\n", gomod, xcryptoPath, copyRel)
	if s.st.AddedRequire {
		fmt.Printf("  %s: require %s %s\n", gomod, kitPath, s.kit.version)
	}
	if s.kit.dir != "" {
		fmt.Printf("  %s: replace %s => %s\n", gomod, kitPath, s.kit.dir)
	}
	for _, c := range s.forced {
		fmt.Printf("  %s: the go command also made this change that chachakit's go.mod requires: %s\n", gomod, c)
	}
	if s.f.modfile {
		fmt.Printf("  %s: %d lines added to a copy of go.sum\n", gosum, s.sumAdded)
		fmt.Printf("go.mod and go.sum are unchanged; build and test with chachakit by\n  go build -modfile=%s ./...\n  go test -modfile=%s ./...\n", altMod, altMod)
		fmt.Printf("undo with: chachakit unswap -modfile\n")
	} else {
		fmt.Printf("  %s: %d lines added\n", gosum, s.sumAdded)
		fmt.Printf("undo with: chachakit unswap (go.mod and go.sum from before the swap are kept in %s)\n", kitDirName)
	}
}

// goLineLess reports whether go line a is older than go line b.
func goLineLess(a, b string) bool {
	if a == "" {
		return b != ""
	}
	return version.Compare("go"+a, "go"+b) < 0
}

// modChanges lists the differences from a to b in the go line, the
// toolchain line and the requirements.
func modChanges(a, b *goModJSON) []string {
	var out []string
	if a.Go != b.Go {
		out = append(out, fmt.Sprintf("go %s => go %s", a.Go, b.Go))
	}
	if a.Toolchain != b.Toolchain {
		out = append(out, fmt.Sprintf("toolchain %q => %q", a.Toolchain, b.Toolchain))
	}
	old := map[string]string{}
	for _, r := range a.Require {
		old[r.Path] = r.Version
	}
	for _, r := range b.Require {
		v, ok := old[r.Path]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("added require %s %s", r.Path, r.Version))
		case v != r.Version:
			out = append(out, fmt.Sprintf("require %s %s => %s", r.Path, v, r.Version))
		}
		delete(old, r.Path)
	}
	for p, v := range old {
		out = append(out, fmt.Sprintf("dropped require %s %s", p, v))
	}
	return out
}

// newLines returns the lines of b that are not lines of a.
func linesAdded(a, b []byte) []string {
	have := map[string]bool{}
	for _, l := range strings.Split(string(a), "\n") {
		have[l] = true
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l != "" && !have[l] {
			out = append(out, l)
			have[l] = true
		}
	}
	return out
}

func runUnswap(args []string) error {
	f := parseSwapFlags("unswap", args)
	m, err := findModule(f.dir)
	if err != nil {
		return err
	}
	ok, err := m.swapped()
	if err != nil {
		return err
	}
	if !ok {
		msg := fmt.Sprintf("%s is not swapped (no %s): nothing to undo", m.dir, m.rel(m.kit(stateName)))
		if mf, err := readGoMod(m.dir, m.goMod(f.modfile)); err == nil {
			if r, ok := mf.replacement(xcryptoPath); ok && r == copyRel {
				msg += fmt.Sprintf("; %s still replaces %s by %s, remove that line with go mod edit -dropreplace=%s",
					pickName(f.modfile, altMod, "go.mod"), xcryptoPath, r, xcryptoPath)
			}
		}
		return errors.New(msg)
	}
	st, err := readState(m)
	if err != nil {
		return err
	}
	if st.Modfile != f.modfile {
		if st.Modfile {
			return errors.New("the module was swapped with -modfile: run chachakit unswap -modfile")
		}
		return errors.New("the module was swapped without -modfile: run chachakit unswap without -modfile")
	}
	var notes []string
	if st.Modfile {
		for _, name := range []string{altMod, altSum} {
			if err := os.Remove(m.path(name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
		notes = append(notes, fmt.Sprintf("removed %s and %s; go.mod and go.sum were not touched", altMod, altSum))
	} else {
		n, err := unswapModSum(m, st)
		if err != nil {
			return err
		}
		notes = append(notes, n...)
	}
	if err := removeKitFiles(m, false); err != nil {
		return err
	}
	fmt.Printf("unswapped %s in %s\n", xcryptoPath, m.dir)
	for _, n := range notes {
		fmt.Printf("  %s\n", n)
	}
	fmt.Printf("  removed %s\n", m.rel(m.copyDir()))
	return nil
}

// unswapModSum puts back go.mod and go.sum and says what it did.
func unswapModSum(m *swapModule, st *swapState) ([]string, error) {
	var notes []string
	load := func(name string) (fileSnapshot, error) { return takeSnapshot(m.kit(name)) }
	modBefore, err := load(modBeforeName)
	if err != nil {
		return nil, err
	}
	modAfter, err := load(modAfterName)
	if err != nil {
		return nil, err
	}
	sumBefore, err := load(sumBeforeName)
	if err != nil {
		return nil, err
	}
	sumAfter, err := load(sumAfterName)
	if err != nil {
		return nil, err
	}
	modNow, err := takeSnapshot(m.path("go.mod"))
	if err != nil {
		return nil, err
	}
	sumNow, err := takeSnapshot(m.path("go.sum"))
	if err != nil {
		return nil, err
	}
	if !modBefore.ok || !modAfter.ok {
		return nil, fmt.Errorf("%s is incomplete: %s or %s is missing", kitDirName, modBeforeName, modAfterName)
	}

	if bytes.Equal(modNow.data, modAfter.data) {
		if err := modBefore.restore(m.path("go.mod")); err != nil {
			return nil, err
		}
		notes = append(notes, "go.mod: put back as it was before the swap")
	} else {
		edit := []string{"mod", "edit", "-dropreplace=" + xcryptoPath}
		if st.AddedKitReplace {
			edit = append(edit, "-dropreplace="+kitPath)
		}
		if st.AddedRequire {
			edit = append(edit, "-droprequire="+kitPath)
		}
		if _, err := swapGo(m.dir, append(edit, "go.mod")...); err != nil {
			return nil, err
		}
		n := "go.mod changed since the swap: removed only the lines swap added"
		if len(st.Forced) > 0 {
			n += "; these changes the go command made at swap time stay: " + strings.Join(st.Forced, ", ")
		}
		notes = append(notes, n)
	}

	switch {
	case bytes.Equal(sumNow.data, sumAfter.data) && sumNow.ok == sumAfter.ok:
		if err := sumBefore.restore(m.path("go.sum")); err != nil {
			return nil, err
		}
		notes = append(notes, "go.sum: put back as it was before the swap")
	default:
		// Keep the lines added since the swap: they belong to changes
		// the user made after it.
		added := linesAdded(sumAfter.data, sumNow.data)
		data := append([]byte(nil), sumBefore.data...)
		for _, l := range added {
			data = append(data, l...)
			data = append(data, '\n')
		}
		if err := os.WriteFile(m.path("go.sum"), data, 0o666); err != nil {
			return nil, err
		}
		notes = append(notes, fmt.Sprintf("go.sum changed since the swap: put back as it was before, plus the %d lines added since", len(added)))
	}
	return notes, nil
}
