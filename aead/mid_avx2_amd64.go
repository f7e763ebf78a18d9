//go:build gc && !purego

package aead

import (
	"crypto/subtle"
	"encoding/binary"

	"github.com/chachakit/chachakit/internal/chacha20core"
	"github.com/chachakit/chachakit/internal/wipe"
)

// sealMidAVX2 and openMidAVX2: the stitched path of the AVX2 loop for
// mid-size messages (chacha20core.SealMidAVX2 and OpenMidAVX2,
// _asm/mid_avx2.go). One kernel call computes the Poly1305 key block, the
// keystream of the whole message in 8-block batches, the MAC of each
// batch's ciphertext on the integer units during the next batch, the MAC
// of the rest and the lengths after the last batch, and the tag; here only
// the partial last 64-byte block goes through the buffer fin (the kernel
// reads and writes nothing past the message). Open writes the whole
// plaintext before the tags are compared and zeroes it if they differ, as
// the long stitched loop does for its whole batches.
//
// Seal takes it at every length from chacha20core.MidMin (449) bytes: it
// measured faster than the separate passes and than the long stitched loop
// (xorMACAVX2, whose Seal starts at 2 KiB) at every size measured up to 16
// KiB. Open takes it below 1 KiB and, below 8 KiB, unless the length is
// less than 64 bytes above a multiple of 1 KiB: the long loop's Open MACs
// each batch as it decrypts it (no lag), so it is faster on whole KiB
// batches (2048 B: 794 against 897 ns, 8192 B: 2570 against 2693 ns) and
// slower with the separate passes of a longer tail (1350 B: 804 against 635
// ns, 3000 B: 1333 against 1151 ns); BenchmarkMidAVX2, GODEBUG=cpu.avx512f=off.
var midAVX2Off = false // tests and benchmarks: the long loop instead

// midAVX2Open reports whether Open of an n-byte ciphertext takes the mid
// path.
func midAVX2Open(n int) bool {
	return n >= chacha20core.MidMin && (n < 1024 || (n < 8192 && n%1024 >= 64))
}

// midAD splits ad into its whole 16-byte blocks and the padded last
// partial block (in buf).
func midAD(ad []byte, buf *[16]byte) (full, tail []byte) {
	n := len(ad) &^ 15
	if n == len(ad) {
		return ad, nil
	}
	copy(buf[:], ad[n:])
	return ad[:n], buf[:]
}

func sealMidAVX2(t *[Overhead]byte, s *chacha20core.State, ciphertext, plaintext, ad []byte) bool {
	if len(plaintext) < chacha20core.MidMin || midAVX2Off {
		return false
	}
	var fin [80]byte
	var adt [16]byte
	adFull, adTail := midAD(ad, &adt)
	p := len(plaintext) - chacha20core.MidTail(len(plaintext))
	copy(fin[:], plaintext[p:])
	binary.LittleEndian.PutUint64(fin[64:], uint64(len(ad)))
	binary.LittleEndian.PutUint64(fin[72:], uint64(len(plaintext)))
	chacha20core.SealMidAVX2(s, ciphertext, plaintext, adFull, adTail, &fin, t)
	copy(ciphertext[p:], fin[:])
	return true
}

// openMidAVX2 decrypts each batch in the pass after the one that MACs it;
// the plaintext written is zeroed if the tag fails.
func openMidAVX2(s *chacha20core.State, ret, out, ciphertext, ad, tag []byte) ([]byte, error, bool) {
	if !midAVX2Open(len(ciphertext)) || midAVX2Off {
		return nil, nil, false
	}
	r, err := openMidAVX2Run(s, ret, out, ciphertext, ad, tag)
	return r, err, true
}

// openMidAVX2Run is openMidAVX2 at any length from chacha20core.MidMin.
func openMidAVX2Run(s *chacha20core.State, ret, out, ciphertext, ad, tag []byte) ([]byte, error) {
	// out may start where the tag does (it overlaps ciphertext exactly or
	// not at all), and the plaintext is written before the comparison: the
	// tag is read first.
	_ = tag[Overhead-1]
	tg0 := binary.LittleEndian.Uint64(tag)
	tg1 := binary.LittleEndian.Uint64(tag[8:])
	var fin [80]byte
	var z [256]byte
	var adt [16]byte
	adFull, adTail := midAD(ad, &adt)
	n := len(ciphertext)
	p := n - chacha20core.MidTail(n)
	copy(fin[:], ciphertext[p:])
	// The lengths are written to fin and z separately: a 16-byte copy of
	// two 8-byte stores would not be forwarded (a store-to-load stall).
	binary.LittleEndian.PutUint64(fin[64:], uint64(len(ad)))
	binary.LittleEndian.PutUint64(fin[72:], uint64(n))
	copy(z[:], ciphertext[(n+15)&^15-240:])
	binary.LittleEndian.PutUint64(z[240:], uint64(len(ad)))
	binary.LittleEndian.PutUint64(z[248:], uint64(n))
	var want [Overhead]byte
	chacha20core.OpenMidAVX2(s, out, ciphertext, adFull, adTail, &fin, &z, &want)
	copy(out[p:], fin[:n-p])
	wipe.Memclr(fin[:64])
	s.Wipe()
	// Constant time: the two halves' differences ORed, one branch on the
	// result.
	d := (binary.LittleEndian.Uint64(want[:]) ^ tg0) | (binary.LittleEndian.Uint64(want[8:]) ^ tg1)
	if subtle.ConstantTimeEq(int32(uint32(d)|uint32(d>>32)), 0) != 1 {
		clear(out)
		return nil, errOpen
	}
	return ret, nil
}
