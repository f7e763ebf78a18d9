//go:build !amd64 || !gc || purego

package chacha20core

// CheapBlocks returns how many blocks the current path generates for about
// the price of one (see cheap_amd64.go). On these architectures and builds
// one: the paths there either take short inputs to the portable code or
// have not been measured for it.
func CheapBlocks() int { return 1 }

// LoneBlocks is CheapBlocks for a call that needs one block and is likely
// the only one (see cheap_amd64.go): 1.
func LoneBlocks() int { return 1 }

// pathHeadBlocks returns how many message blocks KeyAndXOR and KeyStreamHead
// generate in one call with the key block (see cheap_amd64.go).
func pathHeadBlocks() int { return HeadBlocks }

// BatchBlocks returns the number of blocks in the widest batch of the
// current path: 1 here, where no path computes a lone last block at a
// higher price per block (see the amd64 version).
func BatchBlocks() int { return 1 }
