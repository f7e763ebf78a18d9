package runtimehooks_test

import (
	"encoding/binary"
	"fmt"

	runtimehooks "github.com/chachakit/chachakit/runtime_hooks"
)

// A key held as bytes and as the little-endian words of a ChaCha20 state,
// destroyed once it is no longer needed.
func ExampleWipe() {
	key := []byte("an example 32-byte key, not real")
	var words [8]uint32
	for i := range words {
		words[i] = binary.LittleEndian.Uint32(key[4*i:])
	}

	// ... use words ...

	runtimehooks.Memclr(key)
	runtimehooks.Wipe(words[:])
	fmt.Println(key[:4], words[:2])
	// Output: [0 0 0 0] [0 0]
}
