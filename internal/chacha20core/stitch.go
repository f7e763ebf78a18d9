package chacha20core

// MACBatch is the unit of the stitched AEAD loops (XORAndMAC, amd64 only):
// 16 keystream blocks and 64 Poly1305 blocks, in bytes (two batches of the
// AVX2 loop).
const MACBatch = 16 * BlockSize
