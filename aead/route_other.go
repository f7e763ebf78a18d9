//go:build !amd64 || !gc || purego

package aead

import "github.com/chachakit/chachakit/internal/aeadasm"

// pick chooses the portable passes: only amd64 has AEAD kernels.
func pick(n, adLen int, open, inPlace bool) aeadasm.Kernel { return aeadasm.None }
