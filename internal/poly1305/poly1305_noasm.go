package poly1305

// blocks is the dispatcher; architectures with assembly replace this file.
func blocks(st *state, msg []byte, full bool) { blocksGeneric(st, msg, full) }
