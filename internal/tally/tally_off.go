//go:build !chachakit_tally

package tally

// Enabled reports whether this build counts calls (the chachakit_tally
// build tag).
const Enabled = false

// Seal would count one AEAD Seal call; without the chachakit_tally build
// tag it does nothing and inlines to nothing.
func Seal() {}

// Open would count one AEAD Open call; without the chachakit_tally build
// tag it does nothing and inlines to nothing.
func Open() {}

// Counts returns zero and zero: without the chachakit_tally build tag
// nothing is counted.
func Counts() (seals, opens uint64) { return 0, 0 }
