package cpuid

import (
	"os"
	"strconv"
	"testing"
)

// expectedMIDR parses CHACHAKIT_EXPECT_MIDR (hex, with or without 0x); 0 when
// unset.
func expectedMIDR(t *testing.T) uint64 {
	s := os.Getenv("CHACHAKIT_EXPECT_MIDR")
	if s == "" {
		return 0
	}
	v, err := strconv.ParseUint(s, 0, 64)
	if err != nil {
		v, err = strconv.ParseUint(s, 16, 64)
	}
	if err != nil {
		t.Fatalf("bad CHACHAKIT_EXPECT_MIDR %q: %v", s, err)
	}
	return v
}
