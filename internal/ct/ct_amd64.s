//go:build gc

#include "textflag.h"

// Valgrind's client request on amd64 (valgrind.h): a preamble that rotates
// DI left by 3, 13, 61 and 51 bits (128 in all, so DI comes back
// unchanged and a real processor computes nothing), then XCHGQ BX, BX, which
// valgrind recognises after the preamble as "run the request whose
// argument block AX points to; the answer goes in DX". The block is six
// words on this frame: the code, then five arguments.
//
// Register map:
//	AX	scratch, then the address of the argument block (0(SP))
//	DX	the default answer, 0, in; valgrind's answer out
//	DI	rotated by the preamble, restored by it
//	BX	exchanged with itself

// func clientRequest(code uintptr, p unsafe.Pointer, n uintptr) uintptr
TEXT ·clientRequest(SB), NOSPLIT, $48-32
	MOVQ code+0(FP), AX
	MOVQ AX, 0(SP)
	MOVQ p+8(FP), AX
	MOVQ AX, 8(SP)
	MOVQ n+16(FP), AX
	MOVQ AX, 16(SP)
	MOVQ $0, 24(SP)
	MOVQ $0, 32(SP)
	MOVQ $0, 40(SP)
	LEAQ 0(SP), AX
	MOVQ $0, DX
	ROLQ $3, DI
	ROLQ $13, DI
	ROLQ $61, DI
	ROLQ $51, DI
	XCHGQ BX, BX
	MOVQ DX, ret+24(FP)
	RET
