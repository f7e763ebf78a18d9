//go:build chachakit_impl_env

package impl

import "os"

// A binary built with the tag chachakit_impl_env takes a forced choice from
// the environment, CHACHAKIT_IMPL=pkg=Name,...: the instruction-counting
// scripts use it, and `go test -tags chachakit_impl_env` runs a package's
// tests under one path. Without the tag nothing reads it.
func init() {
	m, err := ParseForced(os.Getenv("CHACHAKIT_IMPL"))
	if err != nil {
		panic(err)
	}
	envForced = m
}
