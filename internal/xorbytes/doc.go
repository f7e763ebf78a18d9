// Package xorbytes holds the implementation of package subtle's XORBytes:
// the dispatch over the assembly tiers of each architecture and the
// portable code (xor.go). The library's own packages call it directly so
// that none of them depends on a public package; subtle.XORBytes is a
// one-line face over it, and its package documentation lists the tiers.
//
// On amd64 XORBytes is the standard library's crypto/subtle.XORBytes
// (xor_amd64.go), and nothing registers. Elsewhere the tiers register in
// internal/impl under the package name "subtle" (subtle/NEON, subtle/LASX,
// ...), the names tests, benchmarks and CI use.
package xorbytes
