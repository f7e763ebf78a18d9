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
// (through the registry) also tests that path alone.
var (
	useStitchedAVX512 = chacha20core.StitchedAVX512Available()
	useStitchedAVX2   = chacha20core.StitchedAVX2Available()
)

// The one-call kernels of messages up to 192 bytes (chacha20core.SealSmall)
// run under the AVX512Stitched and AVX2Stitched toggles too.
var (
	small512OK = chacha20core.SmallAEADAvailable(true)
	small2OK   = chacha20core.SmallAEADAvailable(false)
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

// sealMid and openMid run a mid-size stitched path when one applies (the
// keystream of the Poly1305 key block computed in the kernel's first batch,
// the MAC on the integer units during the batches after it): AVX-512 in
// mid_avx512_amd64.go, AVX2 in mid_avx2_amd64.go. They report whether they
// did the work; like the long stitched loops they run only while ChaCha20
// and Poly1305 use their default paths. openMid returns open's results and
// done; s is wiped by the caller of sealMid and by openMid when done.
func sealMid(t *[Overhead]byte, s *chacha20core.State, ciphertext, plaintext, ad []byte) bool {
	if !chacha20core.DefaultPath() || !poly1305.DefaultPath() {
		return false
	}
	if useStitchedAVX512 {
		return sealMidAVX512(t, s, ciphertext, plaintext, ad)
	}
	if useStitchedAVX2 {
		return sealMidAVX2(t, s, ciphertext, plaintext, ad)
	}
	return false
}

func openMid(s *chacha20core.State, ret, out, ciphertext, ad, tag []byte) ([]byte, error, bool) {
	if !chacha20core.DefaultPath() || !poly1305.DefaultPath() {
		return nil, nil, false
	}
	if useStitchedAVX512 {
		return openMidAVX512(s, ret, out, ciphertext, ad, tag)
	}
	if useStitchedAVX2 {
		return openMidAVX2(s, ret, out, ciphertext, ad, tag)
	}
	return nil, nil, false
}

// sealSmall and openSmall run the one-call kernel of messages of at most 192
// bytes (chacha20core.SealSmall, OpenSmall: key block, encryption and MAC in
// one call, from key and nonce directly) under the same conditions as the
// AVX-512 stitched loop. They report whether they did the work; openSmall
// returns open's results and done. openSmall compares the tag in the
// kernel, which writes nothing to out unless it matches; out is then
// cleared, as x/crypto clears it.
func sealSmall(key *[KeySize]byte, nonce []byte, ciphertext, tag, plaintext, ad []byte) bool {
	avx512, ok := smallPath(len(plaintext), ad)
	if ok {
		chacha20core.SealSmall(avx512, key, nonce, (*[Overhead]byte)(tag), ciphertext, plaintext, ad)
	}
	return ok
}

func openSmall(key *[KeySize]byte, nonce []byte, ret, out, ciphertext, ad, tag []byte) ([]byte, error, bool) {
	avx512, ok := smallPath(len(ciphertext), ad)
	if !ok {
		return nil, nil, false
	}
	// out overlaps ciphertext exactly or not at all and ends before the tag:
	// the kernel reads the tag and the ciphertext before it writes out.
	if !chacha20core.OpenSmall(avx512, key, nonce, out, ciphertext, (*[Overhead]byte)(tag), ad) {
		clear(out)
		return nil, errOpen, true
	}
	return ret, nil, true
}

// smallPath reports whether a one-call kernel applies to an n-byte message
// with additional data ad, and which.
func smallPath(n int, ad []byte) (avx512, ok bool) {
	if n > chacha20core.SmallAEADMax || len(ad) > chacha20core.SmallADMax ||
		!chacha20core.DefaultPath() || !poly1305.DefaultPath() {
		return false, false
	}
	if useStitchedAVX512 && small512OK {
		return true, true
	}
	return false, (useStitchedAVX512 || useStitchedAVX2) && small2OK
}
