//go:build tools

// The tools build tag is never set: this file exists so that go.mod and
// go.sum pin wireguard-go, which bench/scripts/consumers.sh copies out of
// the module cache to run its own benchmark, at the version read from here.
package consumers

import _ "golang.zx2c4.com/wireguard/device"
