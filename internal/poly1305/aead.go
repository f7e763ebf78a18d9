package poly1305

import (
	"encoding/binary"

	"github.com/chachakit/chachakit/internal/align"
)

// aeadBuf is the longest AEAD MAC input (padded additional data, padded
// ciphertext and the two lengths) that SumAEAD absorbs from one buffer.
const aeadBuf = 256

// SumAEAD writes to out the tag of RFC 8439, Section 2.8
// (https://www.rfc-editor.org/rfc/rfc8439#section-2.8) under key: ad and
// ciphertext, each padded with zeros to a multiple of 16 bytes, then
// len(ad) and len(ciphertext) as 64-bit little-endian numbers.
//
// Short inputs (a 64-byte message with a TLS header as additional data is
// 96 bytes) are copied into one buffer and absorbed in one call of the
// block function instead of three; longer ones go through WritePadded and
// Write, which copy nothing but whole blocks' worth of tails.
func SumAEAD(out *[TagSize]byte, key *[KeySize]byte, ad, ciphertext []byte) {
	var m MAC
	m.Init(key)
	pa, pc := padded(len(ad)), padded(len(ciphertext))
	if n := pa + pc + 16; n <= aeadBuf {
		var b align.Buffer[[aeadBuf]byte]
		buf := &b.V
		copy(buf[:], ad)
		copy(buf[pa:], ciphertext)
		binary.LittleEndian.PutUint64(buf[pa+pc:], uint64(len(ad)))
		binary.LittleEndian.PutUint64(buf[pa+pc+8:], uint64(len(ciphertext)))
		blocks(&m.st, buf[:n], true)
	} else {
		m.WritePadded(ad)
		m.WritePadded(ciphertext)
		var l align.Buffer[[16]byte]
		lens := &l.V
		binary.LittleEndian.PutUint64(lens[0:], uint64(len(ad)))
		binary.LittleEndian.PutUint64(lens[8:], uint64(len(ciphertext)))
		m.Write(lens[:])
	}
	m.Sum(out)
}

// padded rounds n up to a multiple of BlockSize.
func padded(n int) int { return (n + BlockSize - 1) &^ (BlockSize - 1) }
