//go:build !amd64 || !gc || purego

package aead

import (
	"github.com/chachakit/chachakit/internal/chacha20core"
	"github.com/chachakit/chachakit/internal/poly1305"
)

// Only amd64 has a stitched keystream-and-MAC loop: the long-message paths
// of seal and open use the separate passes.

func stitchedBatches(int, bool) int { return 0 }

func xorAndMAC(*chacha20core.State, *poly1305.MAC, []byte, []byte, []byte, bool) {
	panic("chacha20poly1305: internal error: no stitched loop on this platform")
}

func sealMid(*[Overhead]byte, *chacha20core.State, []byte, []byte, []byte) bool { return false }

func openMid(*chacha20core.State, []byte, []byte, []byte, []byte, []byte) ([]byte, error, bool) {
	return nil, nil, false
}

func sealSmall(*[KeySize]byte, []byte, []byte, []byte, []byte, []byte) bool { return false }

func openSmall(*[KeySize]byte, []byte, []byte, []byte, []byte, []byte, []byte) ([]byte, error, bool) {
	return nil, nil, false
}
