// Command vgreport reads the XML that valgrind's memcheck wrote for one
// row of scripts/ct-valgrind.sh and says which reports fall inside
// chachakit: a report counts when a frame of its stack is a function of the
// module, and it is placed at the innermost such frame (file, line, and the
// text of that source line). Each placed report is allowed when the file
// and the line's text match a site of the allowed-sites file, unexpected
// otherwise. Reports with no chachakit frame (the Go runtime's own, which
// memcheck does not fully understand) are counted apart and never fail.
//
// It prints one line per site and a summary line, and exits 1 on an
// unexpected report, or, with -expect, when a named function (a planted
// leak) has no report, which is then the only way to fail.
package main

import (
	"bufio"
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

const module = "github.com/chachakit/chachakit/"

type frame struct {
	Fn   string `xml:"fn"`
	Dir  string `xml:"dir"`
	File string `xml:"file"`
	Line int    `xml:"line"`
}

type vgError struct {
	Kind  string  `xml:"kind"`
	What  string  `xml:"what"`
	XWhat string  `xml:"xwhat>text"`
	Stack []frame `xml:"stack>frame"`
}

// site is one allowed line: a file relative to the module root, the trimmed
// text of the line, and why a report there is no leak.
type site struct {
	file, text, reason string
	seen               int
}

func main() {
	row := flag.String("row", "", "the row's name, for the output")
	allowedPath := flag.String("allowed", "", "the allowed-sites file")
	root := flag.String("root", ".", "the module root, to read source lines and make paths relative")
	expect := flag.String("expect", "", "comma-separated functions that must have a report (planted leaks)")
	flag.Parse()
	if flag.NArg() != 1 || *allowedPath == "" {
		fmt.Fprintln(os.Stderr, "usage: vgreport -allowed FILE [-row NAME] [-root DIR] [-expect FUNCS] memcheck.xml")
		os.Exit(2)
	}
	allowed, err := readAllowed(*allowedPath)
	if err != nil {
		fatal(err)
	}
	errs, err := readErrors(flag.Arg(0))
	if err != nil {
		fatal(err)
	}
	absRoot, err := filepath.Abs(*root)
	if err != nil {
		fatal(err)
	}

	type placed struct {
		fn, where, text, kind string
		allowed               *site
		count                 int
	}
	places := map[string]*placed{}
	outside, inside, unexpected := 0, 0, 0
	reported := map[string]bool{}
	for _, e := range errs {
		if !strings.HasPrefix(e.Kind, "Uninit") && !strings.HasPrefix(e.Kind, "Invalid") && e.Kind != "SyscallParam" {
			continue // leak summaries and the like say nothing about secrets
		}
		i := innermost(e.Stack)
		if i < 0 {
			outside++
			continue
		}
		inside++
		f := e.Stack[i]
		rel := relPath(absRoot, f.Dir, f.File)
		text := sourceLine(filepath.Join(f.Dir, f.File), f.Line)
		fn := strings.TrimPrefix(f.Fn, module)
		reported[fn] = true
		key := fn + "\x00" + rel + ":" + strconv.Itoa(f.Line) + "\x00" + e.Kind
		p := places[key]
		if p == nil {
			p = &placed{fn: fn, where: rel + ":" + strconv.Itoa(f.Line), text: text, kind: e.Kind}
			for _, s := range allowed {
				if s.file == rel && s.text == text {
					p.allowed = s
				}
			}
			places[key] = p
		}
		p.count++
		if p.allowed != nil {
			p.allowed.seen++
		} else {
			unexpected++
		}
	}

	keys := make([]string, 0, len(places))
	for k := range places {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := places[k]
		verdict := "UNEXPECTED"
		if p.allowed != nil {
			verdict = "allowed (" + p.allowed.reason + ")"
		}
		fmt.Printf("  %4d  %s  %s  %s\n        %s\n        %s\n", p.count, p.kind, p.fn, p.where, p.text, verdict)
	}
	fmt.Printf("%s: %d reports in chachakit frames, %d allowed, %d unexpected; %d outside chachakit (runtime)\n",
		*row, inside, inside-unexpected, unexpected, outside)

	if *expect != "" {
		missing := 0
		for _, fn := range strings.Split(*expect, ",") {
			if reported[fn] {
				fmt.Printf("%s: planted leak %s reported, as it must be\n", *row, fn)
			} else {
				fmt.Printf("%s: planted leak %s NOT reported\n", *row, fn)
				missing++
			}
		}
		if missing > 0 {
			os.Exit(1)
		}
		return
	}
	if unexpected > 0 {
		os.Exit(1)
	}
}

// innermost returns the index of the innermost frame that is a function of
// the module, or -1.
func innermost(stack []frame) int {
	for i, f := range stack {
		if strings.HasPrefix(f.Fn, module) {
			return i
		}
	}
	return -1
}

// relPath returns the file's path relative to the module root, or its base
// name when it lies elsewhere (the Go runtime's files).
func relPath(root, dir, file string) string {
	if rel, err := filepath.Rel(root, filepath.Join(dir, file)); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return file
}

// sourceLine returns the trimmed text of line n of the file, or "" where it
// cannot be read.
func sourceLine(path string, n int) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	s.Buffer(nil, 1<<20)
	for i := 1; s.Scan(); i++ {
		if i == n {
			return strings.Join(strings.Fields(s.Text()), " ")
		}
	}
	return ""
}

// readAllowed parses the allowed-sites file: lines "file | text | reason",
// with # comments and blank lines.
func readAllowed(path string) ([]*site, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var sites []*site
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, " | ")
		if len(f) != 3 {
			return nil, fmt.Errorf("%s:%d: want \"file | source line | reason\"", path, i+1)
		}
		sites = append(sites, &site{
			file:   strings.TrimSpace(f[0]),
			text:   strings.Join(strings.Fields(f[1]), " "),
			reason: strings.TrimSpace(f[2]),
		})
	}
	return sites, nil
}

// readErrors returns the error records of a memcheck XML file.
func readErrors(path string) ([]vgError, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d := xml.NewDecoder(f)
	var errs []vgError
	for {
		tok, err := d.Token()
		if err != nil {
			if err == io.EOF {
				return errs, nil
			}
			return errs, fmt.Errorf("%s: %v (did valgrind finish?)", path, err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "error" {
			var e vgError
			if err := d.DecodeElement(&e, &se); err != nil {
				return nil, err
			}
			errs = append(errs, e)
		}
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "vgreport:", err)
	os.Exit(2)
}
