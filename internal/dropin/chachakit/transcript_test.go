package prog

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// golden is x/crypto's transcript, written by ../xcrypto's TestTranscript -update.
const golden = "../testdata/transcript.txt"

func TestTranscript(t *testing.T) {
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(Run()), "\n")); diff != "" {
		t.Errorf("transcript differs from %s (-x/crypto +chachakit):\n%s", golden, diff)
	}
}
