package trace

func init() { plantedAsm = plantedBranchAsm }

// plantedBranchAsm is the planted leak in assembly: it sums the key's
// bytes, and rotates the sum after each byte whose low bit is set, with a
// conditional jump on that bit.
//
//go:noescape
func plantedBranchAsm(key *[32]byte) uint64
