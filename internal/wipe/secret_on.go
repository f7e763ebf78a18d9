//go:build goexperiment.runtimesecret && linux && (amd64 || arm64)

package wipe

import "runtime/secret"

// Do runs f, the setup of a key, inside runtime/secret.Do, which erases the
// registers and stack f used once it returns.
func Do(f func()) { secret.Do(f) }
