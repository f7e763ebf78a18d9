//go:build (!amd64 && !arm64 && !loong64 && !riscv64) || !gc || purego

package xorbytes

// No assembly tiers: XORBytes always runs xorBytesGeneric.
const (
	useWide   = false
	useNarrow = false
	useScalar = false
)

func xorBytesWide(dst, x, y *byte, n int)   { panic("unreachable") }
func xorBytesNarrow(dst, x, y *byte, n int) { panic("unreachable") }
func xorBytesScalar(dst, x, y *byte, n int) { panic("unreachable") }
