package fuzz

import (
	"encoding/binary"
	"testing"

	"github.com/chachakit/chachakit/chacha20"
	xchacha20 "golang.org/x/crypto/chacha20"
)

// Opcodes of the programs FuzzXORKeyStream runs. Each is one byte (its value
// mod 8) followed by its operand bytes; a missing operand byte reads as 0.
const (
	opXOR8      = iota // XORKeyStream of n bytes, n = next byte (0..255)
	opXOR16            // XORKeyStream of n bytes, n = next two bytes (LE) mod 4096
	opXORBlocks        // XORKeyStream of 64*(next byte mod 40) bytes
	opXORInPl          // in-place XORKeyStream (dst == src) of next byte bytes
	opSetEnd           // SetCounter(2^32-1 - next byte)
	opSetRel           // SetCounter(current block + int8(next byte)): rollbacks too
	opSetRaw           // SetCounter(next four bytes, LE)
	opMisuse           // XORKeyStream of n = next byte/2+1 bytes into a dst one byte short (next byte even) or overlapping src off by one (odd)
)

// streamPkgs are the registry packages whose implementations
// FuzzXORKeyStream loops over: the ChaCha20 keystream itself, XORBytes
// (through which the portable keystream code XORs), and Memclr (which wipes
// keystream buffers: a wipe that strayed would corrupt output).
var streamPkgs = []string{"chacha20", "subtle", "memclr"}

// maxStreamBytes bounds the keystream one input may ask for, to keep every
// execution fast; longer programs stop there.
const maxStreamBytes = 1 << 14

// spareDst is how many bytes past the output every dst has: they must be
// left alone, as the cipher.Stream contract says.
const spareDst = 9

// streamStep is what one operation did that a caller can see.
type streamStep struct {
	op       string
	panicked string
	dst      []byte // the whole dst buffer after the call (nil for SetCounter)
}

// streamAPI is the part of *chacha20.Cipher and *xchacha20.Cipher that the
// programs use.
type streamAPI interface {
	XORKeyStream(dst, src []byte)
	SetCounter(counter uint32)
}

// runStream runs prog on c and returns what every operation did. msg is the
// message: operations take their input from it in order, cyclically.
func runStream(c streamAPI, prog, msg []byte) []streamStep {
	var (
		steps []streamStep
		pos   uint64 // keystream bytes used since the last SetCounter, plus 64*counter
		total int    // bytes asked for so far
		mpos  int    // next byte of msg
	)
	arg := func(i int) byte {
		if i < len(prog) {
			return prog[i]
		}
		return 0
	}
	input := func(n int) []byte {
		b := make([]byte, n)
		if len(msg) > 0 {
			for i := range b {
				b[i] = msg[mpos%len(msg)]
				mpos++
			}
		}
		return b
	}
	xor := func(name string, n int, inPlace bool) {
		src := input(n)
		buf := make([]byte, n+spareDst)
		pattern(buf, byte(n))
		s := streamStep{op: name}
		if inPlace {
			copy(buf, src)
			s.panicked = catch(func() { c.XORKeyStream(buf[:n], buf[:n]) })
		} else {
			s.panicked = catch(func() { c.XORKeyStream(buf, src) })
		}
		if s.panicked == "" {
			pos += uint64(n)
		}
		s.dst = buf
		steps = append(steps, s)
		total += n
	}
	set := func(name string, counter uint32) {
		s := streamStep{op: name}
		s.panicked = catch(func() { c.SetCounter(counter) })
		if s.panicked == "" {
			pos = 64 * uint64(counter)
		}
		steps = append(steps, s)
	}
	for i := 0; i < len(prog) && total <= maxStreamBytes; {
		op := prog[i] % 8
		switch op {
		case opXOR8:
			xor("XORKeyStream(8-bit length)", int(arg(i+1)), false)
			i += 2
		case opXOR16:
			xor("XORKeyStream(16-bit length)", int(binary.LittleEndian.Uint16([]byte{arg(i + 1), arg(i + 2)}))%4096, false)
			i += 3
		case opXORBlocks:
			xor("XORKeyStream(whole blocks)", 64*int(arg(i+1)%40), false)
			i += 2
		case opXORInPl:
			xor("XORKeyStream(in place)", int(arg(i+1)), true)
			i += 2
		case opSetEnd:
			set("SetCounter(near 2^32)", 1<<32-1-uint32(arg(i+1)))
			i += 2
		case opSetRel:
			cur := int64((pos + 63) / 64)
			set("SetCounter(relative)", uint32(cur+int64(int8(arg(i+1)))))
			i += 2
		case opSetRaw:
			set("SetCounter(raw)", binary.LittleEndian.Uint32([]byte{arg(i + 1), arg(i + 2), arg(i + 3), arg(i + 4)}))
			i += 5
		case opMisuse:
			b := arg(i + 1)
			n := int(b/2) + 1
			src := input(n)
			buf := make([]byte, 2*n+spareDst)
			pattern(buf, b)
			s := streamStep{op: "XORKeyStream(short dst)"}
			if b&1 == 0 {
				s.panicked = catch(func() { c.XORKeyStream(buf[:n-1], src) })
			} else {
				s.op = "XORKeyStream(inexact overlap)"
				copy(buf, src)
				s.panicked = catch(func() { c.XORKeyStream(buf[1:n+1], buf[:n]) })
			}
			s.dst = buf
			steps = append(steps, s)
			i += 2
		}
	}
	return steps
}

// FuzzXORKeyStream encrypts a message with chachakit's and x/crypto's
// ChaCha20 or XChaCha20 in the chunks, counter settings and misuses that
// prog describes (see the op constants), and compares every chunk's output,
// the bytes after it in dst, and every panic text (counter overflow,
// counter rollback, short dst, overlap).
//
// mode: bit 0 selects a 24-byte (XChaCha20) nonce over a 12-byte one; bit 7
// passes key and nonce to NewUnauthenticatedCipher as they are, which
// compares its errors; otherwise they are cut or zero-extended to size.
func FuzzXORKeyStream(f *testing.F) {
	addXORKeyStreamSeeds(f)
	f.Fuzz(func(t *testing.T, key, nonce, msg, prog []byte, mode uint8) {
		if mode&0x80 == 0 {
			key = fit(key, chacha20.KeySize)
			if mode&1 != 0 {
				nonce = fit(nonce, chacha20.NonceSizeX)
			} else {
				nonce = fit(nonce, chacha20.NonceSize)
			}
		}
		ref, err := xchacha20.NewUnauthenticatedCipher(key, nonce)
		var refErr string
		var want []streamStep
		if err != nil {
			refErr = err.Error()
		} else {
			want = runStream(ref, prog, msg)
		}
		forEachImpl(t, streamPkgs, func(label string) {
			c, err := chacha20.NewUnauthenticatedCipher(key, nonce)
			var gotErr string
			if err != nil {
				gotErr = err.Error()
			}
			if gotErr != refErr || (c == nil) != (ref == nil) {
				t.Fatalf("%s: NewUnauthenticatedCipher(%d-byte key, %d-byte nonce): error %q, x/crypto %q", label, len(key), len(nonce), gotErr, refErr)
			}
			if c == nil {
				return
			}
			got := runStream(c, prog, msg)
			if len(got) != len(want) {
				t.Fatalf("%s: %d operations, x/crypto %d", label, len(got), len(want))
			}
			for i := range got {
				g, w := got[i], want[i]
				if g.panicked != w.panicked {
					t.Fatalf("%s: operation %d, %s: panic %q, x/crypto %q", label, i, g.op, g.panicked, w.panicked)
				}
				if !sameBytes(g.dst, w.dst) {
					t.Fatalf("%s: operation %d, %s (panic %q): dst differs from x/crypto's: %s", label, i, g.op, g.panicked, firstDiff(g.dst, w.dst))
				}
			}
		})
	})
}
