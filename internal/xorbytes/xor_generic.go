package xorbytes

import "encoding/binary"

// xorBytesGeneric is the portable reference: it XORs len(dst) bytes of x
// and y (at least that long) into dst, 32 bytes per iteration as four
// 64-bit words, then words, then bytes. Slicing each 32-byte block once lets
// the compiler drop the bounds checks of the constant offsets, and turn the
// little-endian loads and stores into single memory operations where the
// architecture allows unaligned access. Each word is read before it is
// written, so dst may be x or y exactly.
func xorBytesGeneric(dst, x, y []byte) {
	n := len(dst)
	x, y = x[:n], y[:n]
	le := binary.LittleEndian
	i := 0
	for ; n-i >= 32; i += 32 {
		d, a, b := dst[i:i+32], x[i:i+32], y[i:i+32]
		le.PutUint64(d[0:], le.Uint64(a[0:])^le.Uint64(b[0:]))
		le.PutUint64(d[8:], le.Uint64(a[8:])^le.Uint64(b[8:]))
		le.PutUint64(d[16:], le.Uint64(a[16:])^le.Uint64(b[16:]))
		le.PutUint64(d[24:], le.Uint64(a[24:])^le.Uint64(b[24:]))
	}
	for ; n-i >= 8; i += 8 {
		le.PutUint64(dst[i:], le.Uint64(x[i:])^le.Uint64(y[i:]))
	}
	for ; i < n; i++ {
		dst[i] = x[i] ^ y[i]
	}
}
