//go:build !plan9

package tls13_test

import (
	"errors"
	"syscall"
)

// isExecFormatError reports whether err says the binary is for another
// architecture (ENOEXEC: no binfmt_misc handler for it).
func isExecFormatError(err error) bool { return errors.Is(err, syscall.ENOEXEC) }
