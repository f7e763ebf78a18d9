// Package codegen is compiled by TestMemclrCodegen (memclr_codegen_test.go)
// to compare, instruction by instruction, what the compiler makes of
// clear(), of wipe.Memclr and of its public face runtimehooks.Memclr at a
// call site.
package codegen

import (
	"github.com/chachakit/chachakit/internal/wipe"
	runtimehooks "github.com/chachakit/chachakit/runtime_hooks"
)

//go:noinline
func Clear(b []byte) { clear(b) }

//go:noinline
func Memclr(b []byte) { wipe.Memclr(b) }

//go:noinline
func FaceMemclr(b []byte) { runtimehooks.Memclr(b) }

//go:noinline
func ClearKey(k *[32]byte) { clear(k[:]) }

//go:noinline
func MemclrKey(k *[32]byte) { wipe.Memclr(k[:]) }

//go:noinline
func FaceMemclrKey(k *[32]byte) { runtimehooks.Memclr(k[:]) }
