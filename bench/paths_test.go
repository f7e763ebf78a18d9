package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestPathLines checks the platform block: one short line per operation
// family by default, the registry's lines only with -v.
func TestPathLines(t *testing.T) {
	p, sel := readPlatform(), readSelections()
	lines := pathLines(p, sel)
	if len(lines) != len(families) {
		t.Fatalf("%d path lines for %d families:\n%s", len(lines), len(families), strings.Join(lines, "\n"))
	}
	for i, l := range lines {
		if !strings.HasPrefix(l, families[i].label+":") || len(l) > 120 {
			t.Errorf("line %d is not one short line for %s: %q", i, families[i].label, l)
		}
	}

	var short, long bytes.Buffer
	printPlatform(&short, p, sel, false)
	printPlatform(&long, p, sel, true)
	if strings.Contains(short.String(), "selected:") || !strings.Contains(long.String(), "selected:") {
		t.Errorf("the registry's lines belong to -v only:\n%s\n-v:\n%s", short.String(), long.String())
	}
	for _, l := range strings.Split(short.String(), "\n") {
		if len(l) > 120 {
			t.Errorf("line longer than 120 characters without -v: %q", l)
		}
	}
}
