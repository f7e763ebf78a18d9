//go:build (loong64 || ppc64le || riscv64 || s390x) && gc && !purego

package chacha20core

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/chachakit/chachakit/internal/cryptotest"
	"github.com/chachakit/chachakit/internal/impl"
)

// Differential tests of the loong64 (LASX, LSX), ppc64le (VSX), riscv64
// (RVV) and s390x (VX) keystream paths against the portable code. They run
// under every registered implementation through cryptotest.Run, and call
// the assembly kernels directly (vecKernels, in chacha20_<goarch>_test.go)
// to check every lane they compute, including the lanes the Go code drops.

const vecGuard = 0x3c

// available reports whether the registered chacha20 implementation name can
// run on this CPU.
func available(name string) bool {
	for _, i := range impl.List("chacha20") {
		if i.Name == name {
			return i.Available
		}
	}
	return false
}

// vecKernel is one keystream kernel: gen writes the keystream of at least
// blocks blocks (starting at s.Counter) to out and returns how many bytes
// it wrote; max is the most blocks one call may ask for.
type vecKernel struct {
	name      string
	available bool
	max       int
	gen       func(s *State, out []byte, blocks int) int
}

func vecRandState(r *rand.Rand) State {
	var s State
	for i := range s.Key {
		s.Key[i] = r.Uint32()
	}
	for i := range s.Nonce {
		s.Nonce[i] = r.Uint32()
	}
	s.Counter = r.Uint32()
	return s
}

func vecRandBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// vecRef XORs src with the keystream built block by block from
// blockGeneric, wrapping the counter after 2^32-1, and returns the result
// and the counter after the call (a partial block uses a whole counter).
func vecRef(s State, src []byte) ([]byte, uint32) {
	out := make([]byte, len(src))
	var ks [BlockSize]byte
	for i := 0; i < len(src); i += BlockSize {
		blockGeneric(&s, &ks)
		s.Counter++
		for j := i; j < min(i+BlockSize, len(src)); j++ {
			out[j] = src[j] ^ ks[j-i]
		}
	}
	return out, s.Counter
}

// vecCheck runs XORBlocks (or XORKeyStream if oneShot) on a copy of src at
// srcOff into a dst surrounded by guard bytes at dstOff (or in place), and
// compares the output, the guards, src and the state with vecRef and with
// xorBlocksGeneric.
func vecCheck(t *testing.T, s0 State, src []byte, srcOff, dstOff int, inPlace, oneShot bool) {
	t.Helper()
	n := len(src)
	want, wantCtr := vecRef(s0, src)
	if !oneShot {
		g := s0
		got := make([]byte, n)
		xorBlocksGeneric(&g, got, src)
		if !bytes.Equal(got, want) || g.Counter != wantCtr {
			t.Fatalf("xorBlocksGeneric disagrees with blockGeneric at len %d", n)
		}
	}

	const guard = 80
	buf := bytes.Repeat([]byte{vecGuard}, dstOff+n+guard)
	out := buf[dstOff : dstOff+n]
	var in []byte
	if inPlace {
		copy(out, src)
		in = out
	} else {
		sbuf := bytes.Repeat([]byte{vecGuard}, srcOff+n+guard)
		in = sbuf[srcOff : srcOff+n]
		copy(in, src)
	}
	s := s0
	if oneShot {
		XORKeyStream(&s, out, in)
	} else {
		XORBlocks(&s, out, in)
	}
	desc := fmt.Sprintf("len %d srcOff %d dstOff %d inPlace %v counter %#x", n, srcOff, dstOff, inPlace, s0.Counter)
	if !bytes.Equal(out, want) {
		i := 0
		for out[i] == want[i] {
			i++
		}
		t.Fatalf("%s: first wrong byte %d (block %d)", desc, i, i/BlockSize)
	}
	for i, b := range buf[:dstOff] {
		if b != vecGuard {
			t.Fatalf("%s: guard byte %d before dst overwritten", desc, i)
		}
	}
	for i, b := range buf[dstOff+n:] {
		if b != vecGuard {
			t.Fatalf("%s: guard byte %d after dst overwritten", desc, i)
		}
	}
	if !inPlace && !bytes.Equal(in, src) {
		t.Fatalf("%s: src modified", desc)
	}
	if s.Key != s0.Key || s.Nonce != s0.Nonce || s.Counter != wantCtr {
		t.Fatalf("%s: state after the call %+v, want counter %#x and key and nonce unchanged", desc, s, wantCtr)
	}
}

// TestVecBlockCounts: every block count 1..40 (up to five LASX iterations,
// ten of LSX or RVV at VLEN=128, past one 1 KiB or 2 KiB buffer), source
// and destination offsets 0..7 and in place.
func TestVecBlockCounts(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		r := rand.New(rand.NewPCG(9, 1))
		for blocks := 1; blocks <= 40; blocks++ {
			src := vecRandBytes(r, blocks*BlockSize)
			for off := range 8 {
				vecCheck(t, vecRandState(r), src, off, (off*3)%8, false, false)
			}
			vecCheck(t, vecRandState(r), src, 0, 0, true, false)
		}
	})
}

// TestVecLengths: every length 0..1100 through XORKeyStream, offsets 0..7.
func TestVecLengths(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		r := rand.New(rand.NewPCG(9, 2))
		src := vecRandBytes(r, 1100)
		for n := 0; n <= 1100; n++ {
			off := n % 8
			vecCheck(t, vecRandState(r), src[:n], off, 7-off, false, true)
			if n%5 == 0 {
				vecCheck(t, vecRandState(r), src[:n], 0, 0, true, true)
			}
		}
	})
}

// TestVecCounterWrap starts at 2^32-k for k = 1..40 and asks for 1..48
// blocks: up to the last counter value and, beyond the callers' contract,
// across the wrap to 0 (which XORBlocks documents).
func TestVecCounterWrap(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		r := rand.New(rand.NewPCG(9, 3))
		src := vecRandBytes(r, 48*BlockSize)
		for k := 1; k <= 40; k++ {
			s := vecRandState(r)
			s.Counter = uint32(1<<32 - k)
			for _, blocks := range []int{1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, k, 32, 33, 48} {
				if blocks > 0 {
					vecCheck(t, s, src[:blocks*BlockSize], k%8, 0, false, false)
				}
			}
			vecCheck(t, s, src[:k*BlockSize-5], 1, 2, false, true)
		}
	})
}

// TestVecSequential: a long message in uneven XORKeyStream pieces equals one
// portable pass over it, so each call starts where the last one ended.
func TestVecSequential(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		r := rand.New(rand.NewPCG(9, 4))
		s0 := vecRandState(r)
		src := vecRandBytes(r, 6000)
		var pieces []int
		for total := 0; total < len(src); {
			n := min(r.IntN(700)/BlockSize*BlockSize, len(src)-total)
			if n == 0 {
				n = min(BlockSize, len(src)-total)
			}
			pieces = append(pieces, n)
			total += n
		}
		want, _ := vecRef(s0, src)
		got := make([]byte, len(src))
		s := s0
		pos := 0
		for _, n := range pieces {
			XORKeyStream(&s, got[pos:pos+n], src[pos:pos+n])
			pos += n
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("pieces %v: output differs", pieces)
		}
	})
}

// TestVecKernels calls each assembly kernel directly and checks every block
// it writes, including those the Go code computes and drops, against
// blockGeneric, and that the state is left unchanged.
func TestVecKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 5))
	for _, k := range vecKernels() {
		t.Run(k.name, func(t *testing.T) {
			if !k.available {
				if cryptotest.Strict() && !slices.Contains(strings.Split(os.Getenv("CHACHAKIT_ABSENT"), ","), "chacha20/"+k.name) {
					t.Fatalf("kernel %s is not available on this CPU, and CHACHAKIT_STRICT=1 expects it to run", k.name)
				}
				t.Skipf("kernel %s is not available on this CPU", k.name)
			}
			for blocks := 1; blocks <= k.max; blocks++ {
				for _, ctr := range []uint32{0, 1<<32 - 1, 1<<32 - 3, r.Uint32()} {
					s := vecRandState(r)
					s.Counter = ctr
					s0 := s
					out := bytes.Repeat([]byte{vecGuard}, k.max*BlockSize+64)
					w := k.gen(&s, out, blocks)
					if w < blocks*BlockSize || w > k.max*BlockSize {
						t.Fatalf("%d blocks: wrote %d bytes", blocks, w)
					}
					if s != s0 {
						t.Fatalf("%d blocks: state changed", blocks)
					}
					var ks [BlockSize]byte
					ref := s0
					for i := 0; i < w; i += BlockSize {
						blockGeneric(&ref, &ks)
						ref.Counter++
						if !bytes.Equal(out[i:i+BlockSize], ks[:]) {
							t.Fatalf("%d blocks, counter %#x: block %d wrong:\n%x\nwant\n%x", blocks, ctr, i/BlockSize, out[i:i+BlockSize], ks)
						}
					}
					for i, b := range out[w:] {
						if b != vecGuard {
							t.Fatalf("%d blocks: byte %d past the %d written overwritten", blocks, w+i, w)
						}
					}
				}
			}
		})
	}
}

// TestVecRFC8439 checks the keystream of RFC 8439, Section 2.4.2 (the "sunscreen"
// example: key 00..1f, nonce 000000000000004a00000000, counter 1) through
// every implementation.
func TestVecRFC8439(t *testing.T) {
	var key [32]byte
	for i := range key {
		key[i] = byte(i)
	}
	nonce := [12]byte{7: 0x4a}
	plaintext := []byte("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.")
	want := []byte{
		0x6e, 0x2e, 0x35, 0x9a, 0x25, 0x68, 0xf9, 0x80, 0x41, 0xba, 0x07, 0x28, 0xdd, 0x0d, 0x69, 0x81,
		0xe9, 0x7e, 0x7a, 0xec, 0x1d, 0x43, 0x60, 0xc2, 0x0a, 0x27, 0xaf, 0xcc, 0xfd, 0x9f, 0xae, 0x0b,
		0xf9, 0x1b, 0x65, 0xc5, 0x52, 0x47, 0x33, 0xab, 0x8f, 0x59, 0x3d, 0xab, 0xcd, 0x62, 0xb3, 0x57,
		0x16, 0x39, 0xd6, 0x24, 0xe6, 0x51, 0x52, 0xab, 0x8f, 0x53, 0x0c, 0x35, 0x9f, 0x08, 0x61, 0xd8,
		0x07, 0xca, 0x0d, 0xbf, 0x50, 0x0d, 0x6a, 0x61, 0x56, 0xa3, 0x8e, 0x08, 0x8a, 0x22, 0xb6, 0x5e,
		0x52, 0xbc, 0x51, 0x4d, 0x16, 0xcc, 0xf8, 0x06, 0x81, 0x8c, 0xe9, 0x1a, 0xb7, 0x79, 0x37, 0x36,
		0x5a, 0xf9, 0x0b, 0xbf, 0x74, 0xa3, 0x5b, 0xe6, 0xb4, 0x0b, 0x8e, 0xed, 0xf2, 0x78, 0x5e, 0x42,
		0x87, 0x4d,
	}
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		var s State
		s.Init(&key, &nonce, 1)
		got := make([]byte, len(plaintext))
		XORKeyStream(&s, got, plaintext)
		if !bytes.Equal(got, want) {
			t.Fatalf("got %x\nwant %x", got, want)
		}
		if s.Counter != 3 {
			t.Fatalf("counter %d, want 3", s.Counter)
		}
	})
}

// TestVecAllocs: the vector paths keep their buffer on the stack.
func TestVecAllocs(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		var s State
		buf := make([]byte, 4096+17)
		for _, n := range []int{64, 1024, 4096 + 17} {
			if a := testing.AllocsPerRun(20, func() { XORKeyStream(&s, buf[:n], buf[:n]) }); a != 0 {
				t.Errorf("XORKeyStream(%d bytes): %v allocations", n, a)
			}
		}
	})
}

// TestVecWords checks the State layout the assembly relies on: Key,
// Counter and Nonce consecutive from the Key's offset (0, or after the
// portable code's cache on riscv64, where the assembly reads them at
// State_Key+n), the words in the machine's byte order (big endian on
// s390x).
func TestVecWords(t *testing.T) {
	var s State
	for i := range s.Key {
		s.Key[i] = uint32(i + 1)
	}
	s.Counter = 9
	s.Nonce = [3]uint32{10, 11, 12}
	b := (*[48]byte)(unsafe.Add(unsafe.Pointer(&s), unsafe.Offsetof(s.Key)))
	for i := range 12 {
		if got := binary.NativeEndian.Uint32(b[4*i:]); got != uint32(i+1) {
			t.Fatalf("word %d at offset %d from the key is %d", i+1, 4*i, got)
		}
	}
}
