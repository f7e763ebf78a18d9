package trace

import (
	"math/bits"
	"math/rand/v2"
)

// The planted leaks: kernels that break rule 3 on purpose, with a branch on
// every key byte's low bit, so that the check shows it can fail. Three
// random keys give three different traces except with probability about
// 2^-31. They are cases like the others, named planted/..., that every
// tracer must report with more than one trace.

// plantedBranch mixes the key into an accumulator and, for each key byte
// whose low bit is set, calls plantedMix: a branch on a secret that the
// compiler cannot turn into a conditional move.
//
//go:noinline
func plantedBranch(key *[32]byte) uint32 {
	acc := uint32(0x9e3779b9)
	for _, k := range key {
		if k&1 != 0 {
			acc = plantedMix(acc, k)
		}
		acc ^= uint32(k)
	}
	return acc
}

//go:noinline
func plantedMix(acc uint32, k byte) uint32 { return bits.RotateLeft32(acc+uint32(k), 7) }

// plantedAsm is the assembly planted leak of this architecture, nil where
// there is none.
var plantedAsm func(key *[32]byte) uint64

var plantedSink uint64

func plantedCases() []*tcase {
	var key [32]byte
	prep := func(rng *rand.Rand) { fill(rng, key[:]) }
	cs := []*tcase{{
		name: "planted/go-branch",
		leak: true,
		prep: prep,
		run:  func() error { plantedSink = uint64(plantedBranch(&key)); return nil },
	}}
	if plantedAsm != nil {
		cs = append(cs, &tcase{
			name: "planted/asm-branch",
			leak: true,
			prep: prep,
			run:  func() error { plantedSink = plantedAsm(&key); return nil },
		})
	}
	return cs
}
