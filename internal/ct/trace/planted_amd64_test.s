//go:build gc

#include "textflag.h"

// func plantedBranchAsm(key *[32]byte) uint64
//
// Register map:
//	SI	the key
//	CX	the byte index
//	DX	the key byte
//	AX	the sum
TEXT ·plantedBranchAsm(SB), NOSPLIT, $0-16
	MOVQ key+0(FP), SI
	XORQ AX, AX
	XORQ CX, CX

loop:
	MOVBQZX (SI)(CX*1), DX
	ADDQ    DX, AX
	TESTQ   $1, DX
	JZ      next // the leak: a branch on a key bit
	ROLQ    $7, AX

next:
	INCQ CX
	CMPQ CX, $32
	JNE  loop
	MOVQ AX, ret+8(FP)
	RET
