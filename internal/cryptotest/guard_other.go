//go:build !unix

package cryptotest

import (
	"errors"
	"runtime"
)

// errNoGuards: the guards are built with mmap and mprotect; on the other
// systems (Windows, Plan 9, js, wasip1) the guard suites skip.
var errNoGuards = errors.New("no mmap and mprotect on " + runtime.GOOS)

func mapGuarded(size int) (mem, body []byte, err error) { return nil, nil, errNoGuards }

func unmapGuarded(mem []byte) error { return nil }
