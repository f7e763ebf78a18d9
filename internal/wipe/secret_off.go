//go:build !goexperiment.runtimesecret || !linux || !(amd64 || arm64)

package wipe

// Do runs f, the setup of a key. Built with GOEXPERIMENT=runtimesecret on
// linux/amd64 or linux/arm64, it runs f inside runtime/secret.Do, which
// erases the registers and stack f used once it returns; otherwise it simply
// calls f.
func Do(f func()) { f() }
