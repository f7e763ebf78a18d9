package prog

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "write x/crypto's transcript to "+golden)

// golden is x/crypto's transcript, which this package writes with -update (after an x/crypto upgrade).
const golden = "../testdata/transcript.txt"

func TestTranscript(t *testing.T) {
	if *update {
		if err := os.WriteFile(golden, Run(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(Run()), "\n")); diff != "" {
		t.Errorf("transcript differs from %s (-x/crypto +x/crypto now):\n%s", golden, diff)
	}
}
