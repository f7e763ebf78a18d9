package runtimehooks

import "github.com/chachakit/chachakit/internal/wipe"

// Do runs f, the setup of a key. Built with GOEXPERIMENT=runtimesecret on
// linux/amd64 or linux/arm64, it runs f inside runtime/secret.Do, which
// erases the registers and stack f used once it returns; otherwise it simply
// calls f.
func Do(f func()) { wipe.Do(f) }
