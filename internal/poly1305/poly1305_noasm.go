//go:build !(amd64 || arm64 || loong64 || ppc64 || ppc64le || riscv64 || s390x) || !gc || purego

package poly1305

// blocks is the dispatcher: without assembly it is the portable code.
func blocks(st *state, msg []byte, full bool) { blocksGeneric(st, msg, full) }
