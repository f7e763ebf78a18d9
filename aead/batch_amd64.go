//go:build gc && !purego

package aead

// laneMax on amd64: a key block and four blocks of text. Up to 256 bytes
// three or more messages share a 16-lane AVX-512 pass (two 8-lane AVX2
// passes) and the batch beats the loop of calls; from 320 bytes only two
// do, and a message's own call, whose keystream takes about half a pass,
// is as fast or faster (bench/README.md, "Batches": 64 messages of 320
// bytes 1.26x slower in lanes with AVX-512, 1.04x with AVX2).
const laneMax = 4 * 64

// batchLoop makes the batches a loop of single calls on this core
// (internal/cpuid's X86AEAD.BatchLoop).
var batchLoop = x86AEAD().BatchLoop
