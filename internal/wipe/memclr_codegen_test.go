//go:build gc && !purego && !riscv64 && !race && !msan && !asan

package wipe

import (
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// TestMemclrCodegen checks that, where Memclr is clear() itself (every
// architecture but riscv64, without purego or the race, msan and asan
// instrumentation), the compiler emits the same instructions for Memclr(b),
// and for its public face runtimehooks.Memclr(b), as for clear(b):
// testdata/codegen has a function of each kind, for a slice of unknown
// length and for a 32-byte key, compiled here with -gcflags=-S for amd64,
// arm64 and loong64. The one difference allowed is the inline marks left
// where runtimehooks.Memclr, Memclr and memclrBytes were inlined, no-ops
// for debuggers' position tables (XCHGL AX, AX on amd64, HINT $0 on arm64,
// NOOP on loong64). This is why Memclr on amd64 stays within 3% of
// clear() whatever a noisy benchmark says.
func TestMemclrCodegen(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a package for three architectures")
	}
	if runtime.Compiler != "gc" {
		t.Skip("needs the gc toolchain")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	for _, goarch := range []string{"amd64", "arm64", "loong64"} {
		t.Run(goarch, func(t *testing.T) {
			cmd := exec.Command(goTool, "build", "-o", os.DevNull, "-gcflags=-S", "./testdata/codegen")
			cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH="+goarch, "GOFLAGS=", "CGO_ENABLED=0")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("go build: %v\n%s", err, out)
			}
			fns := listings(string(out))
			for _, pair := range [][2]string{
				{"Clear", "Memclr"}, {"Clear", "FaceMemclr"},
				{"ClearKey", "MemclrKey"}, {"ClearKey", "FaceMemclrKey"},
			} {
				a, b := fns[pair[0]], fns[pair[1]]
				if len(a) == 0 || len(b) == 0 {
					t.Fatalf("no listing of %s or %s in\n%s", pair[0], pair[1], out)
				}
				if strings.Join(a, "\n") != strings.Join(b, "\n") {
					t.Errorf("%s and %s compile differently:\n%s\n--- vs ---\n%s",
						pair[0], pair[1], strings.Join(a, "\n"), strings.Join(b, "\n"))
				}
			}
		})
	}
}

var branchTarget = regexp.MustCompile(`^([A-Z]\w*\s.*?)\b\d+$`)

// listings splits the compiler's -S output into the instructions of each
// function of package codegen, without offsets, positions, FUNCDATA and
// PCDATA, and with the function's own name replaced, so that two
// functions with the same code give the same lines.
func listings(s string) map[string][]string {
	head := regexp.MustCompile(`^(?:codegen|\S*/codegen)\.(\w+) STEXT`)
	insn := regexp.MustCompile(`^\s+0x[0-9a-f]+ \d+ \([^)]*\)\s+(.*)$`)
	fns := map[string][]string{}
	cur := ""
	for _, line := range strings.Split(s, "\n") {
		if m := head.FindStringSubmatch(line); m != nil {
			cur = m[1]
			continue
		}
		if !strings.HasPrefix(line, "\t") {
			cur = ""
			continue
		}
		m := insn.FindStringSubmatch(line)
		if cur == "" || m == nil {
			continue
		}
		in := m[1]
		switch {
		case strings.HasPrefix(in, "FUNCDATA"), strings.HasPrefix(in, "PCDATA"),
			strings.HasPrefix(in, "TEXT"):
			continue
		case in == "NOP", in == "NOOP", in == "HINT\t$0", in == "XCHGL\tAX, AX":
			continue // inline marks
		}
		// Branch targets are offsets in the function, which the marks
		// shift; the instruction order already fixes them.
		in = branchTarget.ReplaceAllString(in, "${1}TARGET")
		fns[cur] = append(fns[cur], in)
	}
	return fns
}
