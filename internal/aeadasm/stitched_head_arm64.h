// The start of the stitched loops of stitched_arm64.s (xorMACNEON,
// xorMACSVE2), included after their TEXT lines: the arguments, the MAC's
// registers, and the input state of each batch, up to the rounds (the
// register map is stitched_arm64.s's).

	MOVD	s+0(FP), R0
	MOVD	dst_base+8(FP), R1
	MOVD	src_base+32(FP), R2
	MOVD	src_len+40(FP), R3
	MOVD	mac_base+56(FP), R6
	CBZ	R3, ret
	MOVWU	32(R0), R4

	// The MAC: h (h2 biased by -1), r and s1 = 5·r1/4.
	MOVD	h+80(FP), R25
	LDP	0(R25), (h0, h1)
	MOVD	16(R25), h2
	SUB	$1, h2
	MOVD	r+88(FP), R25
	LDP	0(R25), (r0, r1)
	ADD	r1>>2, r1, s1
	MOVD	$2, two

	// V30 = rotate-by-8 TBL index.
	MOVD	$·neonConsts(SB), R26
	ADD	$16, R26, R25
	VLD1	(R25), [V30.B16]

loop:
	// The input state: blocks 0..3 get every word broadcast to 4 lanes
	// (the counter word from V31 = R4 + {0, 1, 2, 3}), blocks 4 and 5 the
	// rows, row 3 counting up.
	LOAD_ROWS
	VDUP	R4, V31.S4
	VADD	V28.S4, V31.S4, V31.S4
	SPLAT(V24, V0, V1, V2, V3)
	SPLAT(V25, V4, V5, V6, V7)
	SPLAT(V26, V8, V9, V10, V11)
	VMOV	V31.B16, V12.B16
	VDUP	V27.S[1], V13.S4
	VDUP	V27.S[2], V14.S4
	VDUP	V27.S[3], V15.S4
	VMOV	V24.B16, V16.B16
	VMOV	V24.B16, V17.B16
	VMOV	V25.B16, V18.B16
	VMOV	V25.B16, V19.B16
	VMOV	V26.B16, V20.B16
	VMOV	V26.B16, V21.B16
	VMOV	V27.B16, V22.B16
	VADD	V29.S4, V27.S4, V23.S4
