package layout_test

import (
	"bufio"
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The amd64 assembly budget: the generated lines and the TEXT symbols of
// every *_amd64.s file of the module, and the length of every generator
// function in _asm. The bound is 30,000 lines and 24 symbols; the
// ceilings are where the code stands, below it, so that a kernel added
// shows here and must earn its place (bench/README.md, "Kernels removed").
const (
	maxAMD64Lines   = 28911
	maxAMD64Symbols = 22
	maxGenFuncLines = 199
)

// moduleRoot is the module's directory: this test runs in internal/layout.
const moduleRoot = "../.."

// amd64Files returns the module's *_amd64.s files, relative to the root,
// outside the directories that are not part of the module's packages.
func amd64Files(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(moduleRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != moduleRoot && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "_asm") {
			return filepath.SkipDir
		}
		if d.IsDir() && path != moduleRoot {
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // another module (bench/consumers)
			}
		}
		if !d.IsDir() && strings.HasSuffix(path, "_amd64.s") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestAssemblyBudget counts the lines of the generated amd64 files (those
// that say "Code generated") and the TEXT symbols of every amd64 file.
func TestAssemblyBudget(t *testing.T) {
	lines, symbols := 0, 0
	for _, f := range amd64Files(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.HasPrefix(b, []byte("// Code generated")) {
			lines += bytes.Count(b, []byte("\n"))
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "TEXT ") {
				symbols++
			}
		}
	}
	t.Logf("generated amd64 lines %d (ceiling %d), TEXT symbols %d (ceiling %d)", lines, maxAMD64Lines, symbols, maxAMD64Symbols)
	if lines > maxAMD64Lines {
		t.Errorf("generated amd64 assembly: %d lines, over the budget of %d", lines, maxAMD64Lines)
	}
	if symbols > maxAMD64Symbols {
		t.Errorf("amd64 TEXT symbols: %d, over the budget of %d", symbols, maxAMD64Symbols)
	}
}

// TestGeneratorFunctions checks that no function of the generator in _asm
// is longer than maxGenFuncLines lines, so that each can be read at once.
func TestGeneratorFunctions(t *testing.T) {
	dir := filepath.Join(moduleRoot, "_asm")
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no generator files in %s: %v", dir, err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
			if n > maxGenFuncLines {
				t.Errorf("%s: %s is %d lines long (at most %d)", filepath.Base(f), fn.Name.Name, n, maxGenFuncLines)
			}
		}
	}
}
