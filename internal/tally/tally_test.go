package tally

import "testing"

// TestCounts checks that Seal and Open count in a chachakit_tally build and
// that Counts stays zero in any other.
func TestCounts(t *testing.T) {
	s0, o0 := Counts()
	Seal()
	Seal()
	Open()
	s1, o1 := Counts()
	want := uint64(0)
	if Enabled {
		want = 1
	}
	if s1-s0 != 2*want || o1-o0 != want {
		t.Fatalf("after 2 Seals and 1 Open: counts went from (%d, %d) to (%d, %d); Enabled = %v", s0, o0, s1, o1, Enabled)
	}
}
