// Package alias reports how two byte slices share memory.
//
// It compares addresses with unsafe pointer arithmetic in every build,
// including purego: golang.org/x/crypto's purego variant goes through reflect,
// which makes the slices escape and costs an allocation per call.
package alias

import "unsafe"

// AnyOverlap reports whether x and y share memory at any (not necessarily
// corresponding) index. The memory beyond the slice length is ignored.
func AnyOverlap(x, y []byte) bool {
	if len(x) == 0 || len(y) == 0 {
		return false
	}
	x0 := uintptr(unsafe.Pointer(unsafe.SliceData(x)))
	y0 := uintptr(unsafe.Pointer(unsafe.SliceData(y)))
	return x0 <= y0+uintptr(len(y)-1) && y0 <= x0+uintptr(len(x)-1)
}

// InexactOverlap reports whether x and y share memory at any non-corresponding
// index. The memory beyond the slice length is ignored. x and y may overlap
// exactly (start at the same address), as in-place operations do.
func InexactOverlap(x, y []byte) bool {
	if len(x) == 0 || len(y) == 0 || unsafe.SliceData(x) == unsafe.SliceData(y) {
		return false
	}
	return AnyOverlap(x, y)
}

// SliceForAppend extends in by n bytes, reusing its capacity when it can,
// and returns the whole slice and the n new bytes: the append semantics of
// cipher.AEAD's Seal and Open.
func SliceForAppend(in []byte, n int) (head, tail []byte) {
	if total := len(in) + n; cap(in) >= total {
		head = in[:total]
	} else {
		head = make([]byte, total)
		copy(head, in)
	}
	return head, head[len(in):]
}
