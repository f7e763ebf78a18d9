//go:build gc && !purego

package poly1305

// blocks is the dispatcher. Assembly for this architecture replaces this
// file with a chain of if statements over its registered toggles that ends
// in blocksGeneric; until then it is the portable code.
func blocks(st *state, msg []byte, full bool) { blocksGeneric(st, msg, full) }
