//go:build gc && !purego

package chacha20core

// CheapBlocks returns how many blocks the current path generates for about
// the price of one, so that a caller that needs one block of keystream and
// may need more later (chacha20.Cipher) can take them in one call. The row
// layouts of the AVX512, AVX2 and SSSE3 paths compute two blocks with the
// latency of one, and the portable code takes twice as long for two
// (bench/README.md, "ChaCha20 engine per path and block count", the 1- and
// 2-block rows).
func CheapBlocks() int {
	if useAVX512 || useAVX2 || useSSSE3 {
		return 2
	}
	return 1
}

// LoneBlocks is CheapBlocks for a call that needs one block and is likely
// the only one (chacha20.Cipher's first call after construction or
// SetCounter: QUIC header protection, SSH's packet ciphers): every path
// here computes one block in the row code of two, so CheapBlocks.
func LoneBlocks() int { return CheapBlocks() }

// pathHeadBlocks returns how many message blocks KeyAndXOR and KeyStreamHead
// generate in one call with the key block: with it, one AVX512 batch (16
// lanes and the scalar block: 17), two AVX2 batches (8+8) or four SSSE3
// batches (4x4), with no lone last block left for a row batch of its own.
func pathHeadBlocks() int {
	if useAVX512 {
		return HeadBlocks
	}
	return HeadBlocks - 1
}

// BatchBlocks returns the number of blocks in the widest batch of the
// current path (17 for AVX512: 16 vector lanes and the scalar block; 8 for
// AVX2; 4 for SSSE3). A call of k·BatchBlocks()+1 blocks ends with one
// block computed alone in the row layout, which costs what two do
// (CheapBlocks), so a caller that may need more keystream later
// (chacha20.Cipher) can stop one block short and take the last block with
// the next one in one cheap call.
func BatchBlocks() int {
	switch {
	case useAVX512:
		return HeadBlocks + 1
	case useAVX2:
		return 8
	case useSSSE3:
		return 4
	}
	return 1
}
