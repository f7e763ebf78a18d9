// Package ct is test support for the constant-time check: it tells
// valgrind's memcheck which bytes are secret, so that memcheck reports every
// conditional branch and every memory address computed from them.
//
// Memcheck tracks, for every bit of memory and of the registers, whether it
// is defined. It says nothing while undefined bits are only copied or
// computed with, and it reports a conditional jump or move, or an address of
// a load or store, that depends on them. Marking a key or a plaintext
// undefined before a call therefore turns memcheck into a checker of rule 3
// (no branch or memory index depends on a secret), the method of BoringSSL's
// CONSTANT_TIME_VALIDATION; marking the outputs that are public by nature
// (a ciphertext, a tag) defined again after the call keeps the harness from
// reporting its own uses of them.
//
// Outside valgrind, and on architectures without a client-request stub
// here, Secret and Public do nothing: the instruction sequence valgrind
// recognises has no effect on a real processor. No package outside tests
// may import ct (internal/layout checks it).
package ct

import "unsafe"

// Request codes of valgrind's client-request interface: the core's
// RUNNING_ON_VALGRIND (valgrind.h) and memcheck's, which count from the tool
// base ('M'<<24 | 'C'<<16) in the order of memcheck.h's enum.
const (
	reqRunningOnValgrind = 0x1001
	reqMakeMemUndefined  = 'M'<<24 | 'C'<<16 + 1
	reqMakeMemDefined    = 'M'<<24 | 'C'<<16 + 2
)

// Secret marks the bytes of b as secret (memcheck: undefined), so that
// valgrind reports every branch and address that depends on them.
func Secret(b []byte) {
	if len(b) > 0 {
		request(reqMakeMemUndefined, unsafe.Pointer(&b[0]), uintptr(len(b)))
	}
}

// Public declassifies the bytes of b (memcheck: defined): use it on what a
// call returns that is public by nature, such as a ciphertext and its tag,
// before the caller branches on it.
func Public(b []byte) {
	if len(b) > 0 {
		request(reqMakeMemDefined, unsafe.Pointer(&b[0]), uintptr(len(b)))
	}
}

// Running reports the number of valgrind instances the process runs under:
// 0 natively, 1 under valgrind. Tests use it to tell a run that checks from
// one that only exercises the harness.
func Running() int {
	return int(request(reqRunningOnValgrind, nil, 0))
}

// request makes the client request code about the n bytes at p and
// returns valgrind's answer, or 0 where no valgrind runs. p goes to the
// stub as a pointer, not as an integer in an argument block, so that the
// compiler keeps what it points to in memory around the call, where
// valgrind marks it, and reloads it afterwards: a slice header or a result
// that Public declassifies is not left in a register that still holds the
// undefined copy.
func request(code uintptr, p unsafe.Pointer, n uintptr) uintptr {
	return clientRequest(code, p, n)
}
