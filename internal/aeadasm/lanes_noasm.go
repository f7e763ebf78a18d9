//go:build !amd64 || !gc || purego

package aeadasm

// SealLanes is never called without the amd64 kernels.
func SealLanes(key *[32]byte, l *Lanes) {
	panic("chacha20poly1305: internal error: no batch kernel on this platform")
}

// OpenLanes is never called without the amd64 kernels.
func OpenLanes(key *[32]byte, l *Lanes) {
	panic("chacha20poly1305: internal error: no batch kernel on this platform")
}
