// Package codegen is compiled by TestMemclrCodegen (memclr_codegen_test.go)
// to compare, instruction by instruction, what the compiler makes of
// runtimehooks.Memclr and of clear() at a call site.
package codegen

import runtimehooks "github.com/chachakit/chachakit/runtime_hooks"

//go:noinline
func Clear(b []byte) { clear(b) }

//go:noinline
func Memclr(b []byte) { runtimehooks.Memclr(b) }

//go:noinline
func ClearKey(k *[32]byte) { clear(k[:]) }

//go:noinline
func MemclrKey(k *[32]byte) { runtimehooks.Memclr(k[:]) }
