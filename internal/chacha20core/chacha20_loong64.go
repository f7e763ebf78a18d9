//go:build gc && !purego

package chacha20core

import (
	"github.com/chachakit/chachakit/internal/impl"
	"github.com/chachakit/chachakit/internal/wipe"
	"github.com/chachakit/chachakit/internal/xorbytes"
	"golang.org/x/sys/cpu"
)

// The loong64 keystream paths (chacha20_loong64.s). LASX and LSX generate
// keystream into a stack buffer that xorbytes.XORBytes then XORs into the
// message. LASXFused and LSXFused run the same code with the XOR fused into
// its output step for every whole iteration (512 or 256 bytes), which saves
// the buffer's stores and xorbytes.XORBytes's loads, and send the rest through
// the LASX or LSX path. Under all four, inputs (and fused rests) of a few
// blocks go to xorBlocksRows instead, which computes one block at a time in
// the row layout with LSX and XORs it straight into dst. All four are available when the CPU has the
// extension; the dispatcher takes the first enabled one in the order they
// are registered.
var (
	hasLASX = cpu.Loong64.HasLASX && cpu.Loong64.HasLSX
	hasLSX  = cpu.Loong64.HasLSX

	useLASXFused = hasLASX
	useLASX      = hasLASX
	useLSXFused  = hasLSX
	useLSX       = hasLSX
)

func init() {
	impl.Register("chacha20", "LASXFused", &useLASXFused)
	impl.Register("chacha20", "LASX", &useLASX)
	impl.Register("chacha20", "LSXFused", &useLSXFused)
	impl.Register("chacha20", "LSX", &useLSX)
}

// The keystream buffers of the vector paths. Inputs up to vecSmallBuf bytes
// (one LASX iteration, two of LSX) use a small buffer, so that short
// messages do not pay for zeroing a large one; longer inputs go through
// vecLargeBuf bytes at a time, which amortises the calls into the assembly
// and into xorbytes.XORBytes over 2 KiB.
const (
	vecSmallBuf = 512
	vecLargeBuf = 2048
)

// keystreamLSX writes 256*iters bytes of keystream, the blocks s.Counter,
// s.Counter+1, ... (mod 2^32), to out. It does not change s. iters >= 1.
//
//go:noescape
func keystreamLSX(s *State, out *byte, iters int)

// keystreamLASX writes 512*iters bytes of keystream, the blocks s.Counter,
// s.Counter+1, ... (mod 2^32), to out. It does not change s. iters >= 1.
//
//go:noescape
func keystreamLASX(s *State, out *byte, iters int)

// xorKeyStreamLSX XORs 256*iters bytes of src with the keystream that
// keystreamLSX would write and stores the result to dst (dst is src or does
// not overlap it). It does not change s. iters >= 1.
//
//go:noescape
func xorKeyStreamLSX(s *State, dst, src *byte, iters int)

// xorKeyStreamLASX is xorKeyStreamLSX for 512*iters bytes with LASX.
//
//go:noescape
func xorKeyStreamLASX(s *State, dst, src *byte, iters int)

// xorBlocksRows XORs 64*blocks bytes of src with the keystream blocks
// s.Counter, s.Counter+1, ... (mod 2^32), one block at a time in the row
// layout with LSX, and stores the result to dst (dst is src or does not
// overlap it). It does not change s. blocks >= 1.
//
//go:noescape
func xorBlocksRows(s *State, dst, src *byte, blocks int)

// rowsBelowLASX and rowsBelowLSX are the input sizes, in blocks, from which
// the LASX and LSX paths take over from xorBlocksRows: below them the row
// code, whose cost grows block by block, costs less than a whole vector
// iteration (8 or 4 blocks) and its buffer. Counted under QEMU's la464
// through the public API, the row code is cheaper than one LASX iteration
// up to 4 blocks, but at 4 only barely, and it runs its blocks one after the
// other where the vector code runs them side by side, so LASX takes over
// from 4 blocks as LSX does.
const (
	rowsBelowLASX = 4
	rowsBelowLSX  = 4
)

// xorBlocks is the dispatcher. Under every vector path, inputs too short
// for a vector iteration to pay off go to xorBlocksRows (all the paths imply
// LSX); each path tests the length itself, so that longer inputs pay one
// comparison for it.
func xorBlocks(s *State, dst, src []byte) {
	if useLASXFused {
		if len(src) >= rowsBelowLASX*BlockSize {
			xorBlocksFused(s, dst, src, true)
			return
		}
	} else if useLASX {
		if len(src) >= rowsBelowLASX*BlockSize {
			xorBlocksVec(s, dst, src, true)
			return
		}
	} else if useLSXFused {
		if len(src) >= rowsBelowLSX*BlockSize {
			xorBlocksFused(s, dst, src, false)
			return
		}
	} else if useLSX {
		if len(src) >= rowsBelowLSX*BlockSize {
			xorBlocksVec(s, dst, src, false)
			return
		}
	} else {
		xorBlocksGeneric(s, dst, src)
		return
	}
	if n := len(src) / BlockSize; n > 0 {
		xorBlocksRows(s, &dst[0], &src[0], n)
		s.Counter += uint32(n)
	}
}

// xorBlocksFused XORs the whole LASX (lasx) or LSX iterations of src with
// the fused assembly, and the rest, under 8 or 4 blocks, through
// xorBlocksVec when it is at least rowsBelowLASX blocks (LASX) and through
// xorBlocksRows otherwise (every LSX rest).
func xorBlocksFused(s *State, dst, src []byte, lasx bool) {
	if lasx {
		if n := len(src) &^ (8*BlockSize - 1); n > 0 {
			xorKeyStreamLASX(s, &dst[0], &src[0], n/(8*BlockSize))
			s.Counter += uint32(n / BlockSize)
			dst, src = dst[n:], src[n:]
		}
		if len(src) >= rowsBelowLASX*BlockSize {
			xorBlocksVec(s, dst, src, true)
			return
		}
	} else {
		if n := len(src) &^ (4*BlockSize - 1); n > 0 {
			xorKeyStreamLSX(s, &dst[0], &src[0], n/(4*BlockSize))
			s.Counter += uint32(n / BlockSize)
			dst, src = dst[n:], src[n:]
		}
	}
	if n := len(src) / BlockSize; n > 0 {
		xorBlocksRows(s, &dst[0], &src[0], n)
		s.Counter += uint32(n)
	}
}

// xorBlocksVec XORs src, which is not empty (the callers send short inputs
// to xorBlocksRows), with keystream generated by LASX (lasx) or LSX into a
// stack buffer, through xorbytes.XORBytes, and clears the part of the
// buffer it wrote before returning.
func xorBlocksVec(s *State, dst, src []byte, lasx bool) {
	if len(src) > vecSmallBuf {
		xorBlocksVecLarge(s, dst, src, lasx)
		return
	}
	var ks [vecSmallBuf]byte
	w := keystreamVec(s, ks[:], len(src)/BlockSize, lasx)
	xorbytes.XORBytes(dst, src, ks[:len(src)])
	wipe.Memclr(ks[:w])
}

// xorBlocksVecLarge is xorBlocksVec for inputs longer than vecSmallBuf.
func xorBlocksVecLarge(s *State, dst, src []byte, lasx bool) {
	var ks [vecLargeBuf]byte
	used := xorBlocksVecLoop(s, dst, src, ks[:], lasx)
	wipe.Memclr(ks[:used])
}

// xorBlocksVecLoop runs the keystream and xorbytes.XORBytes over src,
// len(ks) bytes at a time, and returns how much of ks it wrote. It is kept
// out of line so that its frame stays small: in the frame that holds the 2
// KiB buffer every spill slot is out of reach of a load's 12-bit offset.
//
//go:noinline
func xorBlocksVecLoop(s *State, dst, src, ks []byte, lasx bool) (used int) {
	for len(src) > 0 {
		n := min(len(src), len(ks))
		used = max(used, keystreamVec(s, ks, n/BlockSize, lasx))
		xorbytes.XORBytes(dst[:n], src[:n], ks[:n])
		dst, src = dst[n:], src[n:]
	}
	return used
}

// keystreamVec writes the keystream of the next blocks blocks (at least 1)
// to ks and advances the counter by blocks. The assembly works in whole
// iterations of 8 (LASX) or 4 (LSX) blocks: the blocks past the requested
// ones are computed into ks and dropped. It returns how many bytes of ks it
// wrote, which len(ks) must allow.
func keystreamVec(s *State, ks []byte, blocks int, lasx bool) int {
	var w int
	if lasx {
		iters := (blocks + 7) / 8
		keystreamLASX(s, &ks[0], iters)
		w = iters * 8 * BlockSize
	} else {
		iters := (blocks + 3) / 4
		keystreamLSX(s, &ks[0], iters)
		w = iters * 4 * BlockSize
	}
	s.Counter += uint32(blocks)
	return w
}
