//go:build chachakit_tally

package tally

import "sync/atomic"

// Enabled reports whether this build counts calls (the chachakit_tally
// build tag).
const Enabled = true

var sealCount, openCount atomic.Uint64

// Seal counts one AEAD Seal call.
func Seal() { sealCount.Add(1) }

// Open counts one AEAD Open call.
func Open() { openCount.Add(1) }

// Counts returns the number of Seal and Open calls counted so far.
func Counts() (seals, opens uint64) { return sealCount.Load(), openCount.Load() }
