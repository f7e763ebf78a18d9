// Command bench is chachakit's main program: it shows what this machine
// runs, checks that it computes the right answers, and measures it against
// golang.org/x/crypto.
//
// Usage:
//
//	go run ./bench [-v] [-quick] [-context] [-json] [-time d] [-rounds n] [-sizes list] [-openssl] [-svg file] [-impl list]
//
// It prints, on standard output:
//
//  1. the platform: GOOS/GOARCH, Go version, CPU model where /proc/cpuinfo
//     names it, the CPU features that matter to the assembly paths (from
//     golang.org/x/sys/cpu), and the build settings that change which code
//     runs (-tags purego, GOAMD64, ...);
//  2. one line per operation family (AEAD, ChaCha20, Poly1305, XOR, Wipe):
//     the path this process runs and why (the fastest the CPU has, the
//     fastest left after GODEBUG or a missing feature, a choice made for
//     the CPU's family, a forced path, a purego build); with -v also
//     CPUID's identification, the per-length route of the AEAD and the
//     keystream, and each primitive's registered implementations with
//     their availability on this CPU;
//  3. the self-check: RFC 8439 §2.4.2 (ChaCha20) and §2.8.2
//     (ChaCha20-Poly1305), run under the default choice and again under each
//     available implementation (-v lists them). The program exits with
//     status 1 if any of them fails, before measuring anything;
//  4. a throughput table: Seal, Open and Open in place (ChaCha20-Poly1305),
//     SealX (XChaCha20-Poly1305 Seal) and XORKeyStream (chacha20, in place) at 64,
//     1350 and 16384 bytes, chachakit and x/crypto side by side, and their
//     ratio (chachakit/x-crypto; above 1 means chachakit is faster). AEAD
//     calls have 13 bytes of additional data. MB/s is 10^6 bytes per second;
//  5. a construction table: call patterns that make a cipher object per
//     packet or message (QUIC header protection, x/crypto/ssh's per-packet
//     ciphers, New, New+Seal and NewX+Seal of 64 bytes), in nanoseconds
//     per pattern and heap allocations per pattern, both libraries side by
//     side.
//
// The two libraries are measured interleaved in one process: for each row,
// both are calibrated to run about -time per timed round, then -rounds
// rounds alternate between them (switching which goes first), and the table
// shows the median of each side. Machine noise therefore hits both sides,
// and the ratio is more stable than either number. A row is marked "noisy"
// when one side's rounds differ by more than 25% of their median: rerun it
// on a quieter machine or with a longer -time before quoting it. Under qemu
// the numbers measure the emulator, not a CPU. Progress goes to standard
// error.
//
// Flags:
//
//	-v        print the details behind each path line: the registry's names
//	          and availability, CPUID, the route per message length
//	-json     print the platform, the selections, the self-check and the rows
//	          as one JSON object on standard output instead of the text
//	-quick    a short run (a few seconds) that checks the program still works;
//	          CI uses it. Its numbers are rough.
//	-time d   duration of each timed round of each side (default 100ms; 10ms
//	          with -quick)
//	-rounds n timed rounds per side and row (default 7; 3 with -quick)
//	-sizes l  comma-separated message sizes (default 64,1350,16384; with
//	          -svg, every power of two from 64 to 65536)
//	-context  measure in context instead of the tables: Seal, Open and
//	          XORKeyStream at each size, alone and followed by integer work
//	          of about 1, 3, 10 and 50us (and by memmove), interleaved with
//	          x/crypto; it prints each whole loop's time, the ratio to
//	          x/crypto's and the after-cost (whole - operation - work).
//	-openssl  also run `openssl speed` for Seal, Open and XORKeyStream at
//	          the same sizes, one-second OpenSSL rounds alternating with
//	          chachakit's, and print the ratio; skipped with a note when
//	          there is no openssl on PATH. OpenSSL's -aead mode is one TLS
//	          record per iteration (IV set, 13 bytes of additional data,
//	          update, final, tag): the same work as Seal with 13 bytes of
//	          additional data. With GODEBUG=cpu.avx512f=off the command
//	          runs with OPENSSL_ia32cap=:~0x80210000 (OpenSSL's AVX-512F,
//	          VL and IFMA off) unless OPENSSL_ia32cap is set already
//	-svg f    write a chart (SVG) of throughput against message size, one
//	          line per operation and library, to file f
//	-impl l   force implementations for the whole run: a comma-separated
//	          list of pkg=Name (-v's "selected:" lines give the names)
//
// -impl pkg=Name forces one implementation for the whole run, for example
// -impl chacha20=Go to measure the portable code; -tags purego builds
// without any assembly.
//
// # Comparing with benchstat
//
// The same benchmarks exist as Go benchmarks in bench_test.go, named
// BenchmarkOp/lib=L/size=N (Op is Seal, Open, OpenInPlace, SealX or XORKeyStream; N is
// 64, 1350, 8192 or 16384), where L is xcrypto, chachakit (the default
// dispatch) or chachakit-Name: chachakit with the chacha20 implementation
// Name forced, for each one this CPU can run, chachakit-Go included (these
// appear once assembly is registered for chacha20). To compare the
// libraries side by side from one run:
//
//	go install golang.org/x/perf/cmd/benchstat@latest
//	go test -run '^$' -bench . -count 10 ./bench > new.txt
//	benchstat -col /lib new.txt
//
// (xcrypto comes first, so it is benchstat's baseline.) To compare two
// versions of chachakit, save old.txt the same way before a change and run
// `benchstat -filter /lib:chachakit old.txt new.txt`.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/chachakit/chachakit/internal/impl"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// report is the -json output.
type report struct {
	Platform   platform      `json:"platform"`
	Selections []selection   `json:"selections"`
	SelfCheck  []checkResult `json:"self_check"`
	Config     config        `json:"config"`
	Rows       []row         `json:"rows"`
	// Construction is the cost of making cipher objects: call patterns
	// that make one per packet or message.
	Construction []constructionRow `json:"construction"`
	// Batch compares aead.Batch and tls13.HeaderMasks with loops of
	// single calls.
	Batch []batchRow `json:"batch"`
	// OpenSSL is the comparison with `openssl speed`, with -openssl.
	OpenSSL []opensslRow `json:"openssl,omitempty"`
	// Context is the -context table: operations followed by other work.
	Context    []contextRow `json:"context,omitempty"`
	OpenSSLEnv string       `json:"openssl_env,omitempty"`
}

type config struct {
	Quick      bool    `json:"quick"`
	RoundTime  string  `json:"round_time"`
	Rounds     int     `json:"rounds"`
	Sizes      []int   `json:"sizes"`
	ADLen      int     `json:"ad_len"`
	MBUnit     float64 `json:"mb_unit"`
	Interleave string  `json:"interleave"`
}

// run is the program; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	jsonOut := fs.Bool("json", false, "print machine-readable results (JSON) on stdout")
	verbose := fs.Bool("v", false, "print the details behind each path: registered implementations, CPUID, the route per message length")
	quick := fs.Bool("quick", false, "short run (a few seconds) to check that everything works")
	roundTime := fs.Duration("time", 100*time.Millisecond, "duration of each timed round of each side (default 10ms with -quick)")
	rounds := fs.Int("rounds", 7, "timed rounds per side and row (default 3 with -quick)")
	sizeList := fs.String("sizes", "64,1350,16384", "comma-separated message sizes in bytes (with -svg: 64 to 65536, every power of two)")
	withOpenSSL := fs.Bool("openssl", false, "also measure `openssl speed` (Seal, Open, XORKeyStream), alternating rounds with chachakit")
	svgFile := fs.String("svg", "", "write a chart of throughput against message size to this `file`")
	inContext := fs.Bool("context", false, "measure in context instead: each operation followed by other work (integer work of 1, 3, 10 and 50us, and memmove), against x/crypto")
	force := fs.String("impl", "", "force implementations for the whole run, as `pkg=Name,...` (for example chacha20=Go)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "bench: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *quick {
		if !set["time"] {
			*roundTime = 10 * time.Millisecond
		}
		if !set["rounds"] {
			*rounds = 3
		}
	}
	if *roundTime <= 0 || *rounds <= 0 {
		fmt.Fprintln(stderr, "bench: -time and -rounds must be positive")
		return 2
	}
	if *force != "" {
		if err := impl.Force(*force); err != nil {
			fmt.Fprintln(stderr, "bench: -impl:", err)
			return 2
		}
	}
	if *svgFile != "" && !set["sizes"] {
		*sizeList = strings.Trim(strings.Join(strings.Fields(fmt.Sprint(chartSizes)), ","), "[]")
	}
	szs, err := parseSizes(*sizeList)
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 2
	}

	if *inContext {
		if !*jsonOut {
			printPlatform(stdout, readPlatform(), readSelections(), *verbose)
		}
		workUs := []float64{1, 3, 10, 50}
		if *quick {
			workUs = []float64{3}
		}
		var ops []operation
		for _, op := range operations {
			if op.name == "Seal" || op.name == "Open" || op.name == "XORKeyStream" {
				ops = append(ops, op)
			}
		}
		out := stdout
		if *jsonOut {
			out = io.Discard
		}
		rows := runContext(out, ops, szs, workUs, *roundTime/2, *rounds)
		if *jsonOut {
			writeJSON(stdout, stderr, report{Platform: readPlatform(), Selections: readSelections(), Context: rows})
		}
		return 0
	}

	rep := report{
		Platform:   readPlatform(),
		Selections: readSelections(),
		Config: config{
			Quick:      *quick,
			RoundTime:  roundTime.String(),
			Rounds:     *rounds,
			Sizes:      szs,
			ADLen:      adLen,
			MBUnit:     1e6,
			Interleave: "per row: calibrate each side to round_time, then alternate rounds (order swapped every round); median per side",
		},
	}
	if !*jsonOut {
		printPlatform(stdout, rep.Platform, rep.Selections, *verbose)
	}

	fmt.Fprintln(stderr, "bench: self-check")
	rep.SelfCheck = selfCheck()
	ok := true
	for _, c := range rep.SelfCheck {
		if !c.OK {
			ok = false
			fmt.Fprintf(stderr, "bench: self-check FAILED: %s %s\n", c.Source, c.Error)
		}
	}
	if !*jsonOut {
		printSelfCheck(stdout, rep.SelfCheck, *verbose)
	}
	if !ok {
		if *jsonOut {
			writeJSON(stdout, stderr, rep)
		}
		fmt.Fprintln(stderr, "bench: not measuring: the self-check failed")
		return 1
	}

	osslBin := ""
	if *withOpenSSL {
		if osslBin, err = exec.LookPath("openssl"); err != nil {
			fmt.Fprintln(stderr, "bench: -openssl: no openssl command on PATH; skipping the OpenSSL comparison")
			osslBin = ""
		}
	}
	total := len(operations)*len(szs) + len(constructions) + 2*len(batchCases) + 1
	est := time.Duration(total*2**rounds) * *roundTime
	fmt.Fprintf(stderr, "bench: measuring %d rows, %d rounds of %v per side (about %v)\n", total, *rounds, *roundTime, est.Round(time.Second/10))
	for _, op := range operations {
		for _, size := range szs {
			fmt.Fprintf(stderr, "bench: [%d/%d] %s %d bytes\n", len(rep.Rows)+1, total, op.name, size)
			rep.Rows = append(rep.Rows, measure(op, size, *roundTime, *rounds))
		}
	}
	for _, c := range constructions {
		fmt.Fprintf(stderr, "bench: [%d/%d] construction %s\n", len(rep.Rows)+len(rep.Construction)+1, total, c.name)
		rep.Construction = append(rep.Construction, measureConstruction(c, *roundTime, *rounds))
	}
	for _, c := range batchCases {
		for _, open := range []bool{false, true} {
			fmt.Fprintf(stderr, "bench: [%d/%d] batch %s\n", len(rep.Rows)+len(rep.Construction)+len(rep.Batch)+1, total, c.name)
			rep.Batch = append(rep.Batch, measureBatch(c, open, *roundTime, *rounds))
		}
	}
	fmt.Fprintf(stderr, "bench: [%d/%d] header masks\n", total, total)
	rep.Batch = append(rep.Batch, measureHeaderMasks(*roundTime, *rounds))
	if osslBin != "" {
		env, added := opensslEnv()
		rep.OpenSSLEnv = added
		for _, op := range operations {
			if opensslArgs[op.name] == nil {
				continue
			}
			for _, size := range szs {
				fmt.Fprintf(stderr, "bench: OpenSSL %s %d bytes\n", op.name, size)
				r, err := measureOpenSSL(osslBin, env, op, size, *roundTime, *rounds)
				if err != nil {
					fmt.Fprintln(stderr, "bench:", err)
					return 1
				}
				rep.OpenSSL = append(rep.OpenSSL, r)
			}
		}
	}
	if *svgFile != "" {
		if err := saveChart(*svgFile, rep); err != nil {
			fmt.Fprintln(stderr, "bench:", err)
			return 1
		}
		fmt.Fprintf(stderr, "bench: wrote %s\n", *svgFile)
	}

	if *jsonOut {
		if !writeJSON(stdout, stderr, rep) {
			return 1
		}
		return 0
	}
	printTable(stdout, rep.Rows, rep.Config)
	printConstruction(stdout, rep.Construction)
	printBatch(stdout, rep.Batch)
	if osslBin != "" {
		printOpenSSL(stdout, rep.OpenSSL, rep.OpenSSLEnv)
	}
	return 0
}

func parseSizes(s string) ([]int, error) {
	var szs []int
	for f := range strings.SplitSeq(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("bad size %q in -sizes", f)
		}
		szs = append(szs, n)
	}
	return szs, nil
}

func writeJSON(stdout, stderr io.Writer, rep report) bool {
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rep); err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return false
	}
	return true
}

// printPlatform prints the machine, the build and one line per operation
// family; verbose adds the per-architecture details (CPUID, the route per
// message length) and the registry's view of each primitive.
func printPlatform(w io.Writer, p platform, sel []selection, verbose bool) {
	fmt.Fprintf(w, "platform:  %s/%s, %s, %d CPUs, GOMAXPROCS=%d\n", p.GOOS, p.GOARCH, p.GoVersion, p.NumCPU, p.GOMAXPROCS)
	if p.CPU != "" {
		fmt.Fprintf(w, "cpu:       %s\n", p.CPU)
	}
	if len(p.Features) > 0 {
		var has, lacks []string
		for _, f := range p.Features {
			if f.Has {
				has = append(has, f.Name)
			} else {
				lacks = append(lacks, f.Name)
			}
		}
		line := strings.Join(has, " ")
		if line == "" {
			line = "none"
		}
		if len(lacks) > 0 {
			line += " (missing: " + strings.Join(lacks, " ") + ")"
		}
		fmt.Fprintf(w, "features:  %s\n", line)
	}
	for _, k := range sortedKeys(p.Details) {
		if verbose || k == "core" {
			fmt.Fprintf(w, "%-10s %s\n", k+":", p.Details[k])
		}
	}
	if len(p.Build) > 0 {
		var kv []string
		for _, k := range sortedKeys(p.Build) {
			kv = append(kv, k+"="+p.Build[k])
		}
		fmt.Fprintf(w, "build:     %s\n", strings.Join(kv, " "))
	}
	for _, l := range pathLines(p, sel) {
		fmt.Fprintln(w, l)
	}
	if !verbose {
		fmt.Fprintln(w, "           (-v: the registered paths, CPUID and the route per message length)")
		return
	}
	for _, s := range sel {
		var l []string
		for _, i := range s.Implementations {
			state := "available"
			if !i.Available {
				state = "unavailable"
			}
			l = append(l, i.Name+" "+state)
		}
		note := ""
		if len(s.Implementations) == 1 {
			note = ", portable only"
		}
		fmt.Fprintf(w, "selected:  %s: %s (registered: %s%s)\n", s.Package, s.Selected, strings.Join(l, ", "), note)
	}
}

// printSelfCheck prints each vector's result; the paths it ran under are
// counted, and listed with verbose.
func printSelfCheck(w io.Writer, results []checkResult, verbose bool) {
	for _, c := range results {
		if c.OK {
			fmt.Fprintf(w, "self-check: %s ok\n", c.Source)
		} else {
			fmt.Fprintf(w, "self-check: %s FAILED %s\n", c.Source, c.Error)
		}
	}
	if len(results) == 0 {
		return
	}
	if verbose {
		fmt.Fprintf(w, "self-check: ran under %s\n", strings.Join(results[0].Under, ", "))
	} else {
		fmt.Fprintf(w, "self-check: ran under the default and %d forced paths (-v lists them)\n", len(results[0].Under)-1)
	}
}

func printTable(w io.Writer, rows []row, c config) {
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%-13s %6s %15s %15s %7s\n", "op", "size", "chachakit MB/s", "x/crypto MB/s", "ratio")
	noisy := 0
	for _, r := range rows {
		mark := ""
		if r.Noisy {
			mark = "  noisy"
			noisy++
		}
		fmt.Fprintf(w, "%-13s %6d %15.1f %15.1f %7.2f%s\n", r.Op, r.Size, r.ChachakitMBps, r.XCryptoMBps, r.Ratio, mark)
	}
	fmt.Fprintln(w)
	for _, op := range operations {
		fmt.Fprintf(w, "  %-13s %s\n", op.name, op.desc)
	}
	fmt.Fprintf(w, "median of %d interleaved rounds of %v per side; ratio = chachakit/x-crypto, above 1 is faster.\n", c.Rounds, c.RoundTime)
	if noisy > 0 {
		fmt.Fprintf(w, "noisy: one side's rounds differ by more than %.0f%% of their median; rerun on a quieter machine or with a longer -time.\n", noiseLimit*100)
	}
	if c.Quick {
		fmt.Fprintln(w, "-quick: rough numbers; run without -quick to quote them.")
	}
}

func printConstruction(w io.Writer, rows []constructionRow) {
	fmt.Fprintln(w)
	fmt.Fprintln(w, "construction: patterns that make a cipher object per packet or message")
	fmt.Fprintf(w, "%-13s %14s %13s %7s %17s %16s\n", "pattern", "chachakit ns", "x/crypto ns", "ratio", "chachakit allocs", "x/crypto allocs")
	for _, r := range rows {
		mark := ""
		if r.Noisy {
			mark = "  noisy"
		}
		fmt.Fprintf(w, "%-13s %14.1f %13.1f %7.2f %17.2f %16.2f%s\n", r.Pattern, r.ChachakitNs, r.XCryptoNs, r.Ratio, r.ChachakitAllocs, r.XCryptoAllocs, mark)
	}
	fmt.Fprintln(w)
	for _, c := range constructions {
		fmt.Fprintf(w, "  %-13s %s\n", c.name, c.desc)
	}
	fmt.Fprintln(w, "ns per pattern, median of the same interleaved rounds; ratio = x/crypto time / chachakit time, above 1 is faster; allocs = heap allocations per pattern, mean over 4096.")
}

func printOpenSSL(w io.Writer, rows []opensslRow, env string) {
	fmt.Fprintln(w)
	fmt.Fprintln(w, "OpenSSL: `openssl speed` on this machine, rounds alternating with chachakit's")
	fmt.Fprintf(w, "%-13s %6s %15s %15s %7s\n", "op", "size", "chachakit MB/s", "OpenSSL MB/s", "ratio")
	for _, r := range rows {
		fmt.Fprintf(w, "%-13s %6d %15.1f %15.1f %7.2f\n", r.Op, r.Size, r.ChachakitMBps, r.OpenSSLMBps, r.Ratio)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "  Seal, Open    openssl speed -aead [-decrypt] -evp chacha20-poly1305: one TLS record per iteration")
	fmt.Fprintln(w, "                (IV set, 13 bytes of additional data, update, final, tag), the work of Seal/Open here")
	fmt.Fprintln(w, "  XORKeyStream  openssl speed -evp chacha20: one long-lived cipher, in place")
	if env != "" {
		fmt.Fprintf(w, "OpenSSL ran with %s, to match GODEBUG's AVX-512 off.\n", env)
	}
	fmt.Fprintln(w, "ratio = chachakit/OpenSSL throughput, above 1 is faster; OpenSSL rounds are 1 s (its -seconds 1).")
}

// saveChart writes the -svg chart of rep's rows (and OpenSSL's) to file.
func saveChart(file string, rep report) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	libs := "x/crypto"
	if len(rep.OpenSSL) > 0 {
		libs = "x/crypto (solid) and OpenSSL (dashed)"
	}
	cpu := rep.Platform.CPU
	if cpu == "" {
		cpu = rep.Platform.GOARCH
	}
	title := "chachakit's throughput as a multiple of " + libs
	subtitle := fmt.Sprintf("%s/%s, %s, %s, %s; AEADs with %d bytes of additional data", rep.Platform.GOOS, rep.Platform.GOARCH, cpu, rep.Platform.GoVersion, time.Now().UTC().Format("2006-01-02"), adLen)
	if err := writeSVG(f, title, subtitle, chartSeries(rep.Rows, rep.OpenSSL)); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
