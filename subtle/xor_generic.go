package subtle

import "encoding/binary"

// xorBytesGeneric XORs len(dst) bytes, eight at a time while it can. The
// compiler turns the little-endian loads and stores into single 64-bit memory
// operations on the architectures that allow unaligned access.
func xorBytesGeneric(dst, x, y []byte) {
	x, y = x[:len(dst)], y[:len(dst)]
	for len(dst) >= 8 {
		v := binary.LittleEndian.Uint64(x) ^ binary.LittleEndian.Uint64(y)
		binary.LittleEndian.PutUint64(dst, v)
		dst, x, y = dst[8:], x[8:], y[8:]
	}
	for i := range dst {
		dst[i] = x[i] ^ y[i]
	}
}
