// Package tally counts the Seal and Open calls of package aead's
// ChaCha20-Poly1305 and XChaCha20-Poly1305 AEADs, so that a program can show
// that its records were sealed and opened by chachakit: for example a
// program built with the crypto/tls overlay of "chachakit overlay", where
// nothing in the program itself calls package aead.
//
// Counting is on only in builds with the chachakit_tally build tag. Without
// it Seal and Open are empty functions that the compiler inlines to nothing,
// so the calls that package aead makes cost nothing, and Counts reports
// zero.
package tally
