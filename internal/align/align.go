// Package align gives the library's stack buffers the alignment of a
// uint64.
//
// A byte array declared in a function is zeroed where it is declared, and
// with the alignment of a byte the compiler zeroes it one byte at a time on
// the ports without unaligned stores (arm and mips: three instructions per
// byte, 1536 for the AEAD's 512-byte buffer). A [Buffer] is zeroed a word
// at a time there, and exactly as before on the other ports.
package align

// A Buffer holds V at an 8-byte-aligned address.
type Buffer[T any] struct {
	_ [0]uint64
	V T
}
