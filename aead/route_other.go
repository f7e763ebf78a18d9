//go:build !(amd64 || arm64) || !gc || purego

package aead

import "github.com/chachakit/chachakit/internal/aeadasm"

// pick chooses the portable passes: only amd64 and arm64 have AEAD kernels.
func pick(n, adLen int, open bool) aeadasm.Kernel { return aeadasm.None }

// subkeyFirstMax is -1: XChaCha20's subkey is derived where the nonce is
// used (State.InitFrom, or the kernel).
const subkeyFirstMax = -1
