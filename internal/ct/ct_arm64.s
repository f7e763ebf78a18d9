//go:build gc

#include "textflag.h"

// Valgrind's client request on arm64 (valgrind.h): a preamble that rotates
// R12 right by 3, 13, 51 and 61 bits (128 in all, so R12 comes back
// unchanged and a real processor computes nothing), then ORR R10, R10, R10,
// which valgrind recognises after the preamble as "run the request whose
// argument block R4 points to; the answer goes in R3". The block is six
// words on this frame: the code, then five arguments.
//
// Register map:
//	R0	scratch
//	R4	the address of the argument block (8(RSP), above the saved LR slot)
//	R3	the default answer, 0, in; valgrind's answer out
//	R12	rotated by the preamble, restored by it
//	R10	or-ed with itself

// func clientRequest(code uintptr, p unsafe.Pointer, n uintptr) uintptr
TEXT ·clientRequest(SB), NOSPLIT, $48-32
	MOVD code+0(FP), R0
	MOVD R0, 8(RSP)
	MOVD p+8(FP), R0
	MOVD R0, 16(RSP)
	MOVD n+16(FP), R0
	MOVD R0, 24(RSP)
	MOVD ZR, 32(RSP)
	MOVD ZR, 40(RSP)
	MOVD ZR, 48(RSP)
	ADD  $8, RSP, R4
	MOVD ZR, R3
	ROR  $3, R12, R12
	ROR  $13, R12, R12
	ROR  $51, R12, R12
	ROR  $61, R12, R12
	ORR  R10, R10, R10
	MOVD R3, ret+24(FP)
	RET
