package tls13_test

// isExecFormatError: Plan 9 has no ENOEXEC, and no qemu-user to fall back to.
func isExecFormatError(error) bool { return false }
