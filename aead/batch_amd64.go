//go:build gc && !purego

package aead

// laneMax on amd64: a key block and seven blocks of text, half of a 16-lane
// AVX-512 pass (bench/README.md, "Batches").
const laneMax = 7 * 64
