package ct_test

import (
	"encoding/binary"
	"math/bits"
	"testing"

	"github.com/chachakit/chachakit/internal/ct"
)

// Two planted leaks, kernels that break rule 3 on purpose, so that the
// check shows it can fail: scripts/ct-valgrind.sh runs each test below
// under valgrind as a row that must report the kernel. Natively they are
// ordinary (if leaky) functions and the tests only run them.

// plantedBranchKernel XORs a keystream derived from key into dst, and
// skips a round of its mixing when the key's first bit is set: a branch
// on a secret.
//
//go:noinline
func plantedBranchKernel(dst []byte, key *[32]byte) {
	var x [8]uint32
	for i := range x {
		x[i] = binary.LittleEndian.Uint32(key[4*i:])
	}
	rounds := 4
	if x[0]&1 == 1 {
		rounds--
	}
	for range rounds {
		for i := range x {
			x[i] = bits.RotateLeft32(x[i]+x[(i+1)%8], 7) ^ x[(i+3)%8]
		}
	}
	for i := range dst {
		dst[i] ^= byte(x[i%8] >> (8 * (i / 8 % 4)))
	}
}

// plantedLoadKernel XORs into dst the entries of a table that the key's
// bytes index, the way an S-box implementation would: a load whose
// address depends on a secret.
//
//go:noinline
func plantedLoadKernel(dst []byte, key *[32]byte) {
	for i := range dst {
		dst[i] ^= plantedTable[key[i%32]]
	}
}

var plantedTable = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i*167 + 13)
	}
	return t
}()

func plantedKey() *[32]byte {
	var k [32]byte
	for i := range k {
		k[i] = byte(i*29 + 1)
	}
	ct.Secret(k[:])
	return &k
}

func TestPlantedBranch(t *testing.T) {
	dst := make([]byte, 64)
	plantedBranchKernel(dst, plantedKey())
	ct.Public(dst)
}

func TestPlantedLoad(t *testing.T) {
	dst := make([]byte, 64)
	plantedLoadKernel(dst, plantedKey())
	ct.Public(dst)
}
