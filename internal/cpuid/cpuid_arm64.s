//go:build gc && !purego

#include "textflag.h"

// func readMIDR() uint64
// Reads the Main ID Register; the caller has checked HWCAP_CPUID.
TEXT ·readMIDR(SB), NOSPLIT, $0-8
	MRS	MIDR_EL1, R0
	MOVD	R0, ret+0(FP)
	RET
