package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// svgSeries parses an SVG document and returns the data-series names of its
// polylines, failing the test if it is not well-formed XML.
func svgSeries(t *testing.T, doc []byte) []string {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(doc))
	var names []string
	root := ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG does not parse: %v\n%s", err, doc)
		}
		if e, ok := tok.(xml.StartElement); ok {
			if root == "" {
				root = e.Name.Local
			}
			if e.Name.Local == "polyline" {
				for _, a := range e.Attr {
					if a.Name.Local == "data-series" {
						names = append(names, a.Value)
					}
				}
			}
		}
	}
	if root != "svg" {
		t.Fatalf("root element %q, want svg", root)
	}
	return names
}

// TestChart renders a chart from fixed numbers and checks the series, the
// title and the axis labels.
func TestChart(t *testing.T) {
	rows := []row{
		{Op: "Seal", Size: 64, Ratio: 1.25},
		{Op: "Seal", Size: 65536, Ratio: 1.6},
		{Op: "XORKeyStream", Size: 64, Ratio: 2.1},
		{Op: "XORKeyStream", Size: 65536, Ratio: 8.75},
	}
	ossl := []opensslRow{{Op: "Seal", Size: 64, Ratio: 0.8}, {Op: "Seal", Size: 65536, Ratio: 1.1}}
	var b bytes.Buffer
	if err := writeSVG(&b, "Speed & more", "linux/amd64, Test CPU, 2026-12-01", chartSeries(rows, ossl)); err != nil {
		t.Fatal(err)
	}
	want := []string{"Seal vs x/crypto", "XORKeyStream vs x/crypto", "Seal vs OpenSSL"}
	if diff := cmp.Diff(want, svgSeries(t, b.Bytes())); diff != "" {
		t.Errorf("series (-want +got):\n%s", diff)
	}
	for _, s := range []string{"Speed &amp; more", "Test CPU, 2026-12-01", "message size (bytes, log scale)", "above 1x: chachakit faster", ">64K<", ">64<", ">1x<", ">12x<", ">0.75x<", "Seal vs OpenSSL"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("chart lacks %q", s)
		}
	}
	if err := writeSVG(io.Discard, "", "", nil); err == nil {
		t.Error("an empty chart gave no error")
	}
}

// TestRunSVG runs the program with -svg at two sizes and checks the file.
func TestRunSVG(t *testing.T) {
	file := filepath.Join(t.TempDir(), "chart.svg")
	var out, errOut bytes.Buffer
	if code := run([]string{"-quick", "-time", "1ms", "-rounds", "1", "-sizes", "64,128", "-svg", file}, &out, &errOut); code != 0 {
		t.Fatalf("exit status %d; stderr:\n%s", code, errOut.String())
	}
	doc, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	got := svgSeries(t, doc)
	for _, op := range operations {
		if !slices.Contains(got, op.name+" vs x/crypto") {
			t.Errorf("chart lacks the series %q; has %q", op.name+" vs x/crypto", got)
		}
	}
}

// TestParseOpenSSL reads the machine-readable output of `openssl speed -mr`
// (OpenSSL 3.0, as printed for -aead -evp chacha20-poly1305 -bytes 64).
func TestParseOpenSSL(t *testing.T) {
	out := []byte("+DT:ChaCha20-Poly1305:1:64\n+R:7676594:ChaCha20-Poly1305:1.000000\n+H:64\n+F:25:ChaCha20-Poly1305:491302016.00\n")
	got, err := parseOpenSSL(out)
	if err != nil || got != 491.302016 {
		t.Errorf("parseOpenSSL = %v, %v; want 491.302016", got, err)
	}
	if _, err := parseOpenSSL([]byte("+H:64\n")); err == nil {
		t.Error("no +F line: no error")
	}
}

// TestRunOpenSSL runs the program with -openssl against a stand-in openssl
// on PATH that prints one result line, so that the comparison's code runs
// in CI without an OpenSSL of known speed, and checks the environment
// mapping of GODEBUG's AVX-512 switch.
func TestRunOpenSSL(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("the stand-in openssl is a shell script")
	}
	dir := t.TempDir()
	script := "#!/bin/sh\necho '+H:64'\necho '+F:25:ChaCha20-Poly1305:500000000.00'\n"
	if err := os.WriteFile(filepath.Join(dir, "openssl"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	var out, errOut bytes.Buffer
	if code := run([]string{"-quick", "-time", "1ms", "-rounds", "2", "-sizes", "64", "-openssl"}, &out, &errOut); code != 0 {
		t.Fatalf("exit status %d; stderr:\n%s", code, errOut.String())
	}
	for _, want := range []string{"OpenSSL: `openssl speed`", "Seal              64", "Open              64", "XORKeyStream      64", "  500.0"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}

	t.Setenv("GODEBUG", "cpu.avx512f=off")
	if v, ok := os.LookupEnv("OPENSSL_ia32cap"); ok {
		defer os.Setenv("OPENSSL_ia32cap", v)
	}
	os.Unsetenv("OPENSSL_ia32cap")
	if env, added := opensslEnv(); added != "OPENSSL_ia32cap=:~0x80210000" || !slices.Contains(env, added) {
		t.Errorf("GODEBUG=cpu.avx512f=off: opensslEnv adds %q", added)
	}
	t.Setenv("OPENSSL_ia32cap", ":~0x200000")
	if _, added := opensslEnv(); added != "" {
		t.Errorf("OPENSSL_ia32cap already set: opensslEnv adds %q", added)
	}
}

// TestRunImplFlag checks that -impl refuses a name this CPU lacks.
func TestRunImplFlag(t *testing.T) {
	var errOut bytes.Buffer
	if code := run([]string{"-quick", "-impl", "chacha20=NoSuchPath"}, io.Discard, &errOut); code != 2 || !strings.Contains(errOut.String(), "-impl") {
		t.Errorf("-impl chacha20=NoSuchPath: exit status %d, stderr %q", code, errOut.String())
	}
}
