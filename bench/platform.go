package main

import (
	"bufio"
	"maps"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/chachakit/chachakit/internal/impl"
)

// A feature is one CPU feature flag, as golang.org/x/sys/cpu reports it.
type feature struct {
	Name string `json:"name"`
	Has  bool   `json:"has"`
}

// platform describes the machine and the build the numbers come from.
type platform struct {
	GOOS       string            `json:"goos"`
	GOARCH     string            `json:"goarch"`
	GoVersion  string            `json:"go_version"`
	CPU        string            `json:"cpu,omitempty"` // model name, where /proc/cpuinfo has one
	NumCPU     int               `json:"num_cpu"`
	GOMAXPROCS int               `json:"gomaxprocs"`
	Build      map[string]string `json:"build,omitempty"` // -tags and GOAMD64-style levels
	Features   []feature         `json:"features"`
	Details    map[string]string `json:"details,omitempty"` // per-architecture extras, such as arm64's MIDR_EL1
}

func readPlatform() platform {
	return platform{
		GOOS:       runtime.GOOS,
		GOARCH:     runtime.GOARCH,
		GoVersion:  runtime.Version(),
		CPU:        cpuModel(),
		NumCPU:     runtime.NumCPU(),
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		Build:      buildSettings(),
		Features:   cpuFeatures(),
		Details:    cpuDetails(),
	}
}

// buildSettings returns the build settings that change which code runs: the
// build tags (purego) and the architecture level (GOAMD64, GOARM64,
// GORISCV64, ...).
func buildSettings() map[string]string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return nil
	}
	m := map[string]string{}
	for _, s := range bi.Settings {
		level := strings.TrimPrefix(s.Key, "GO") // AMD64 in GOAMD64
		if s.Key == "-tags" || level != s.Key && level == strings.ToUpper(level) &&
			s.Key != "GOOS" && s.Key != "GOARCH" {
			m[s.Key] = s.Value
		}
	}
	if len(m) == 0 {
		return nil
	}
	return m
}

// cpuModel returns the first value in /proc/cpuinfo under one of the keys
// cpuinfoModelKeys names for this architecture, or "" if there is none.
// The keys are case-sensitive and architecture-specific on purpose: under
// qemu user-mode emulation /proc/cpuinfo is usually the host's, and an
// x86 "model name" must not be reported as the model of an emulated CPU.
func cpuModel() string {
	if len(cpuinfoModelKeys) == 0 {
		return ""
	}
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && slices.Contains(cpuinfoModelKeys, strings.TrimSpace(k)) {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// selection is the registry's view of one primitive's package.
type selection struct {
	Package         string     `json:"package"`
	Selected        string     `json:"selected"` // impl.Preferred: the path used for large inputs
	Implementations []implInfo `json:"implementations"`
}

type implInfo struct {
	Name      string `json:"name"`
	Available bool   `json:"available"`
}

// knownPackages are listed even when nothing has registered for them yet,
// so that the output says "Go (portable only)" instead of nothing.
var knownPackages = []string{"chacha20"}

func readSelections() []selection {
	pkgs := slices.Clone(knownPackages)
	for _, p := range impl.Packages() {
		if !slices.Contains(pkgs, p) {
			pkgs = append(pkgs, p)
		}
	}
	var sel []selection
	for _, p := range pkgs {
		s := selection{Package: p, Selected: impl.Preferred(p)}
		for _, i := range impl.List(p) {
			s.Implementations = append(s.Implementations, implInfo{i.Name, i.Available})
		}
		s.Implementations = append(s.Implementations, implInfo{impl.Portable, true})
		sel = append(sel, s)
	}
	return sel
}

func sortedKeys(m map[string]string) []string {
	return slices.Sorted(maps.Keys(m))
}
