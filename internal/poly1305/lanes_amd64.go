//go:build gc && !purego

package poly1305

import (
	"encoding/binary"
	"math/bits"
	"unsafe"

	"github.com/chachakit/chachakit/internal/wipe"
)

// laneState is sumLanesIFMA's state, by 64-bit lane: r in 44-bit limbs with
// 20·r1 and 20·r2, the step at which the lane's message starts, and the
// accumulators (44-bit limbs, partly reduced) it returns. Its layout is
// fixed: the assembly reads it by offset.
type laneState struct {
	r     [5][Lanes]uint64
	start [Lanes]uint64
	h     [3][Lanes]uint64
}

// LaneScratch is the scratch space of SumAEADLanes: the rows of blocks the
// assembly reads (the messages, public) and its state (key material).
type LaneScratch struct {
	rows [LaneMaxBlocks][Lanes][BlockSize]byte
	st   laneState
}

// sumLanesIFMA absorbs steps rows of Lanes blocks at msg into st.h
// (_asm/poly1305_lanes.go).
//
//go:noescape
func sumLanesIFMA(st *laneState, msg *byte, steps int)

// laneOf is the 64-bit lane of each block slot of a row: the order in which
// the assembly's unpacking places them.
var laneOf = [Lanes]int{0, 2, 4, 6, 1, 3, 5, 7}

// sumAEADLanes runs jobs of up to LaneMaxBlocks blocks in the IFMA lanes
// when there are at least two of them, and the rest through SumAEAD.
func sumAEADLanes(sc *LaneScratch, jobs []AEADJob) {
	var slots, blocks [Lanes]int // the lane jobs' indexes and block counts
	n, steps := 0, 0
	if useIFMA {
		for i, j := range jobs {
			if b := aeadBlocks(j.AD, j.CT); b <= LaneMaxBlocks {
				slots[n], blocks[n] = i, b
				n, steps = n+1, max(steps, b)
			}
		}
	}
	if n < 2 {
		sumAEADEach(jobs)
		return
	}
	if n < len(jobs) {
		for _, j := range jobs {
			if aeadBlocks(j.AD, j.CT) > LaneMaxBlocks {
				SumAEAD(j.Tag, j.Key, j.AD, j.CT)
			}
		}
	}

	st := &sc.st
	rows := &sc.rows
	clear(rows[:steps])
	for slot, i := range slots[:n] {
		j := &jobs[i]
		first := steps - blocks[slot]
		k := putPadded(rows, first, slot, j.AD)
		k = putPadded(rows, k, slot, j.CT)
		binary.LittleEndian.PutUint64(rows[k][slot][0:], uint64(len(j.AD)))
		binary.LittleEndian.PutUint64(rows[k][slot][8:], uint64(len(j.CT)))

		r0 := binary.LittleEndian.Uint64(j.Key[0:8]) & 0x0FFFFFFC0FFFFFFF
		r1 := binary.LittleEndian.Uint64(j.Key[8:16]) & 0x0FFFFFFC0FFFFFFC
		l := laneOf[slot]
		a1, a2 := (r0>>44|r1<<20)&mask44, r1>>24
		st.r[0][l], st.r[1][l], st.r[2][l] = r0&mask44, a1, a2
		st.r[3][l], st.r[4][l] = 20*a1, 20*a2
		st.start[l] = uint64(first)
	}
	for slot := n; slot < Lanes; slot++ { // unused lanes: r = 0, h stays 0
		l := laneOf[slot]
		st.r[0][l], st.r[1][l], st.r[2][l], st.r[3][l], st.r[4][l] = 0, 0, 0, 0, 0
	}
	sumLanesIFMA(st, &rows[0][0][0], steps)
	var s state
	for slot, i := range slots[:n] {
		j := &jobs[i]
		l := laneOf[slot]
		s.h = limbs64(st.h[0][l], st.h[1][l], st.h[2][l])
		s.s[0] = binary.LittleEndian.Uint64(j.Key[16:24])
		s.s[1] = binary.LittleEndian.Uint64(j.Key[24:32])
		finalize(j.Tag, &s)
	}
	wipe.Memclr(unsafe.Slice((*byte)(unsafe.Pointer(&s)), unsafe.Sizeof(s)))
	wipe.Memclr(unsafe.Slice((*byte)(unsafe.Pointer(st)), unsafe.Sizeof(*st)))
}

// aeadBlocks is the number of blocks SumAEAD absorbs for ad and ct.
func aeadBlocks(ad, ct []byte) int { return (padded(len(ad))+padded(len(ct)))/BlockSize + 1 }

const (
	mask44 = 1<<44 - 1
	mask42 = 1<<42 - 1
)

// putPadded writes p to rows k, k+1, ... of slot, zero-padded to a whole
// block (the rows are zero), and returns the next row.
func putPadded(rows *[LaneMaxBlocks][Lanes][BlockSize]byte, k, slot int, p []byte) int {
	for ; len(p) >= BlockSize; k++ {
		rows[k][slot] = *(*[BlockSize]byte)(p)
		p = p[BlockSize:]
	}
	if len(p) > 0 {
		copy(rows[k][slot][:], p)
		k++
	}
	return k
}

// limbs64 carries the 44-bit limbs l0, l1, l2 (each below 2^60) and
// returns h in 64-bit limbs with h2 < 8, as finalize takes it (the Go form
// of _asm's ifmaTo64Ops).
func limbs64(l0, l1, l2 uint64) [3]uint64 {
	l1 += l0 >> 44
	l0 &= mask44
	l2 += l1 >> 44
	l1 &= mask44
	l0 += 5 * (l2 >> 42)
	l2 &= mask42
	h0, c := bits.Add64(l1<<44, l0, 0)
	h1, c := bits.Add64(l1>>20, l2<<24, c)
	return [3]uint64{h0, h1, l2>>40 + c}
}

// LanesFast reports whether SumAEADLanes runs its jobs side by side (AVX-512
// IFMA) rather than one at a time.
func LanesFast() bool { return useIFMA }
