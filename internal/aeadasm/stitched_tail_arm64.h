// The end of the stitched loops of stitched_arm64.s (xorMACNEON,
// xorMACSVE2), included after their rounds: the input rows added, the six
// blocks XORed into dst, the next batch, and the counter and h stored.

	// Blocks 0..3: add the counters while the words are one per register,
	// turn the words into rows, then add the other input rows (row 3's
	// counter word zero). Blocks 4 and 5: add the input rows, row 3 with
	// its counter. Then XOR the 6 blocks into dst.
	VADD	V31.S4, V12.S4, V12.S4
	TRANSPOSE(V0, V1, V2, V3)
	TRANSPOSE(V4, V5, V6, V7)
	TRANSPOSE(V8, V9, V10, V11)
	TRANSPOSE(V12, V13, V14, V15)
	LOAD_ROWS
	ADD6(V24, V24, V24, V24, V24, V24, V0, V1, V2, V3, V16, V17)
	ADD6(V25, V25, V25, V25, V25, V25, V4, V5, V6, V7, V18, V19)
	ADD6(V26, V26, V26, V26, V26, V26, V8, V9, V10, V11, V20, V21)
	VADD	V27.S4, V22.S4, V22.S4
	VADD	V29.S4, V27.S4, V27.S4
	VADD	V27.S4, V23.S4, V23.S4
	VMOV	ZR, V27.S[0]
	VADD	V27.S4, V12.S4, V12.S4
	VADD	V27.S4, V13.S4, V13.S4
	VADD	V27.S4, V14.S4, V14.S4
	VADD	V27.S4, V15.S4, V15.S4
	XOR_STORE(V0, V4, V8, V12)
	XOR_STORE(V1, V5, V9, V13)
	XOR_STORE(V2, V6, V10, V14)
	XOR_STORE(V3, V7, V11, V15)
	XOR_STORE(V16, V18, V20, V22)
	XOR_STORE(V17, V19, V21, V23)

	ADDW	$6, R4
	SUBS	$384, R3
	BNE	loop

	// Store the counter and h (h2 unbiased).
	MOVW	R4, 32(R0)
	ADD	$1, h2
	MOVD	h+80(FP), R25
	STP	(h0, h1), 0(R25)
	MOVD	h2, 16(R25)

ret:
	RET
