//go:build gc && !purego

package xorbytes

import "crypto/subtle"

// Std reports whether XORBytes is crypto/subtle.XORBytes, as it is here
// (bench's path line says so).
const Std = true

// XORBytes is crypto/subtle.XORBytes: the same contract and panic texts,
// and the standard library's amd64 assembly. Matching crypto/subtle is the
// bar for a drop-in, so the module spends none of its amd64 assembly budget
// on XOR. The call inlines, so a caller reaches the standard library's code
// with no extra frame. Nothing registers in internal/impl here: the
// "subtle" list is empty on amd64, and its portable choice ("Go") is this
// call. With -tags purego (or another compiler) amd64 builds xor.go's
// portable dispatch instead.
func XORBytes(dst, x, y []byte) int {
	return subtle.XORBytes(dst, x, y)
}
