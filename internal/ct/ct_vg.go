//go:build gc && (amd64 || arm64)

package ct

import "unsafe"

// clientRequest executes valgrind's client-request sequence for request
// code with the arguments p and n (the other three are zero) and returns
// valgrind's answer, or 0 when the process does not run under valgrind.
//
//go:noescape
func clientRequest(code uintptr, p unsafe.Pointer, n uintptr) uintptr
