//go:build unix

package cryptotest

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// errNoGuards is never returned here: every unix system has mmap and
// mprotect.
var errNoGuards = errors.New("no guard pages on this system")

// mapGuarded maps size bytes rounded up to whole pages (at least one), with
// one more page on each side that mprotect makes inaccessible, and returns
// the whole mapping and the accessible pages.
func mapGuarded(size int) (mem, body []byte, err error) {
	page := os.Getpagesize()
	pages := max(1, (size+page-1)/page)
	mem, err = unix.Mmap(-1, 0, (pages+2)*page, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return nil, nil, err
	}
	end := len(mem) - page
	if err := unix.Mprotect(mem[:page], unix.PROT_NONE); err != nil {
		unix.Munmap(mem)
		return nil, nil, err
	}
	if err := unix.Mprotect(mem[end:], unix.PROT_NONE); err != nil {
		unix.Munmap(mem)
		return nil, nil, err
	}
	return mem, mem[page:end:end], nil
}

// unmapGuarded removes a mapping of mapGuarded.
func unmapGuarded(mem []byte) error { return unix.Munmap(mem) }
