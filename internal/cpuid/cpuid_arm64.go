//go:build gc && !purego

package cpuid

import "golang.org/x/sys/cpu"

// readMIDR executes MRS MIDR_EL1. It raises SIGILL unless the kernel
// emulates the read, which Linux advertises with HWCAP_CPUID.
func readMIDR() uint64

// MIDR returns the MIDR_EL1 value of the core this code runs on, and
// whether it could be read: only when the kernel advertises HWCAP_CPUID
// (golang.org/x/sys/cpu's ARM64.HasCPUID), never on darwin.
//
// On a big.LITTLE system the value is that of whichever core the thread is
// on at the time of the call.
func MIDR() (uint64, bool) {
	if !cpu.ARM64.HasCPUID {
		return 0, false
	}
	return readMIDR(), true
}
