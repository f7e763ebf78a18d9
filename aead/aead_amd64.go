//go:build gc && !purego

package aead

import (
	"github.com/chachakit/chachakit/internal/chacha20core"
	"github.com/chachakit/chachakit/internal/impl"
	"github.com/chachakit/chachakit/internal/poly1305"
)

// The registry toggles of the stitched loops (chacha20core.XORAndMAC:
// ChaCha20 batches on the vector units with Poly1305 on the integer units),
// fastest first: AVX-512 (16-block batches), then AVX2 (8-block batches) for
// CPUs without AVX-512. They run only while ChaCha20 and Poly1305 use their
// default paths, so that forcing another ChaCha20 or Poly1305 path
// (registry, CHACHAKIT_IMPL) also tests that path alone.
var (
	useStitchedAVX512 = chacha20core.StitchedAVX512Available()
	useStitchedAVX2   = chacha20core.StitchedAVX2Available()
)

func init() {
	impl.Register("aead", "AVX512Stitched", &useStitchedAVX512)
	impl.Register("aead", "AVX2Stitched", &useStitchedAVX2)
}

// stitchedBatches returns how many whole 1 KiB batches of an n-byte message
// go through a stitched loop, or 0 when none is on. Seal MACs each batch
// during the next one, so it needs two batches to gain anything; Open MACs
// the batch it decrypts.
func stitchedBatches(n int, seal bool) int {
	if !(useStitchedAVX512 || useStitchedAVX2) || !chacha20core.DefaultPath() || !poly1305.DefaultPath() {
		return 0
	}
	b := n / chacha20core.MACBatch
	if seal && b < 2 {
		return 0
	}
	return b
}

// xorAndMAC runs the stitched loop over whole batches of src, MACing mac
// (with lag: each batch MACs the ciphertext of the one before; see
// chacha20core.XORAndMAC).
func xorAndMAC(s *chacha20core.State, p *poly1305.MAC, dst, src, mac []byte, lag bool) {
	h, r := p.Accumulator()
	chacha20core.XORAndMAC(useStitchedAVX512, s, dst, src, mac, lag, h, r)
}
