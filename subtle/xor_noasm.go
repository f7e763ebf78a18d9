package subtle

func xorBytes(dst, x, y []byte) { xorBytesGeneric(dst, x, y) }
