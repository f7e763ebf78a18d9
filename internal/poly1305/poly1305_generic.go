package poly1305

import (
	"encoding/binary"
	"math/bits"
)

// blocksGeneric absorbs len(msg)/16 blocks: for each, h = (h + m) · r mod
// 2^130 − 5, where m is the block read as a little-endian number plus 2^128
// when full is set (RFC 8439, Section 2.5.1). The reduction is partial: h
// stays below 2^130 + a little, which finalize fixes.
//
// With 64-bit limbs the product h·r has four words; everything at or above
// 2^130 is folded back multiplied by 5 (since 2^130 ≡ 5), computed as
// 4·c + c from the bits above 2^130 kept in place (4·c) and shifted down (c),
// the method of poly1305-donna's 64-bit code and of x/crypto.
func blocksGeneric(st *state, msg []byte, full bool) {
	var hibit uint64
	if full {
		hibit = 1
	}
	h0, h1, h2 := st.h[0], st.h[1], st.h[2]
	r0, r1 := st.r[0], st.r[1]
	for len(msg) >= BlockSize {
		// h += m
		var c uint64
		h0, c = bits.Add64(h0, binary.LittleEndian.Uint64(msg[0:8]), 0)
		h1, c = bits.Add64(h1, binary.LittleEndian.Uint64(msg[8:16]), c)
		h2 += c + hibit

		// h · r, as four 64-bit words m0..m3. r0, r1 < 2^60 and h2 < 8
		// keep the column sums from overflowing 128 bits.
		h0r0hi, h0r0lo := bits.Mul64(h0, r0)
		h1r0hi, h1r0lo := bits.Mul64(h1, r0)
		h0r1hi, h0r1lo := bits.Mul64(h0, r1)
		h1r1hi, h1r1lo := bits.Mul64(h1, r1)
		h2r0 := h2 * r0
		h2r1 := h2 * r1

		m0 := h0r0lo
		m1, c := bits.Add64(h0r0hi, h1r0lo, 0)
		m2, c2 := bits.Add64(h1r0hi, h1r1lo, c)
		m3 := h1r1hi + c2
		m1, c = bits.Add64(m1, h0r1lo, 0)
		m2, c = bits.Add64(m2, h0r1hi, c)
		m3 += c
		m2, c = bits.Add64(m2, h2r0, 0)
		m3 += h2r1 + c

		// Fold: h = (m mod 2^130) + 5·(m >> 130).
		h0, h1, h2 = m0, m1, m2&3
		cc0, cc1 := m2&^3, m3 // 4·(m >> 130)
		h0, c = bits.Add64(h0, cc0, 0)
		h1, c = bits.Add64(h1, cc1, c)
		h2 += c
		cc0 = cc0>>2 | cc1<<62 // (m >> 130)
		cc1 >>= 2
		h0, c = bits.Add64(h0, cc0, 0)
		h1, c = bits.Add64(h1, cc1, c)
		h2 += c

		msg = msg[BlockSize:]
	}
	st.h[0], st.h[1], st.h[2] = h0, h1, h2
}

// finalize reduces h fully modulo 2^130 − 5, adds s modulo 2^128 and writes
// the tag (RFC 8439, Section 2.5.1). The choice between h and h − p is made
// with a mask, not a branch.
func finalize(out *[TagSize]byte, st *state) {
	h0, h1, h2 := st.h[0], st.h[1], st.h[2]

	// t = h − p = h + 5 − 2^130; it is the answer when it does not borrow.
	t0, b := bits.Sub64(h0, 0xFFFFFFFFFFFFFFFB, 0)
	t1, b := bits.Sub64(h1, 0xFFFFFFFFFFFFFFFF, b)
	_, b = bits.Sub64(h2, 3, b)
	keepH := -b // all ones when h < p
	h0 = h0&keepH | t0&^keepH
	h1 = h1&keepH | t1&^keepH

	var c uint64
	h0, c = bits.Add64(h0, st.s[0], 0)
	h1, _ = bits.Add64(h1, st.s[1], c)
	binary.LittleEndian.PutUint64(out[0:8], h0)
	binary.LittleEndian.PutUint64(out[8:16], h1)
}
