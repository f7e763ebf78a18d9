//go:build gc && !purego

package aeadasm

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
)

// TestSmallAEAD checks the one-call kernels against x/crypto's
// ChaCha20-Poly1305 and XChaCha20-Poly1305 at every message length up to
// the kernel's limit (SmallAVX512Max, SmallAVX2Max: the AVX2 kernel's
// other functions take 193..448), additional data lengths around each
// padding step up to SmallADMax, source offsets and in place, that nothing
// past the message is written, and that Open refuses a flipped tag bit,
// ciphertext bit or additional data bit without writing anything.
func TestSmallAEAD(t *testing.T) {
	for _, k := range smallKernels {
		t.Run(smallKernelName[k], func(t *testing.T) {
			needSmall(t, k)
			testSmallAEAD(t, k)
		})
	}
}

// needSmall skips a test of small kernel k on a CPU that cannot run it,
// or fails it in strict mode unless CHACHAKIT_ABSENT names the aead
// implementation the kernel belongs to (AVX512Stitched, or AVX2Stitched
// for the AVX2 ones).
func needSmall(t *testing.T, k Kernel) {
	t.Helper()
	if SmallAEADAvailable(k) {
		return
	}
	name := "AVX512Stitched"
	if k == SmallAVX2 {
		name = "AVX2Stitched"
	}
	if cryptotest.Strict() && !cryptotest.AbsentAllowed("aead", name) {
		t.Fatalf("%s is not available on this CPU, and CHACHAKIT_STRICT=1 expects it to run", smallKernelName[k])
	}
	t.Skip("this CPU cannot run the kernel")
}

func testSmallAEAD(t *testing.T, k Kernel) {
	r := rand.New(rand.NewPCG(3, 4))
	rnd := func(n int) []byte { return randBytes(r, n) }
	adLens := []int{0, 1, 12, 13, 15, 16, 17, 31, 32, 33, 47, 48, 49, SmallADMax - 1, SmallADMax}
	for j := 0; j < 4; j++ {
		// ChaCha20-Poly1305, then XChaCha20-Poly1305 (24-byte nonces).
		key, nonce := (*[32]byte)(rnd(32)), rnd(12)
		ref, _ := XCryptoNew(key[:])
		if j%2 == 1 {
			nonce = rnd(24)
			ref, _ = XCryptoNewX(key[:])
		}
		for n := 0; n <= smallKernelMax(k); n++ {
			for i, adLen := range adLens {
				off := (n + i + j) % 8
				src := rnd(off + n + 64)
				msg := src[off : off+n]
				ad := rnd(adLen)
				want := ref.Seal(nil, nonce, msg, ad)
				wantCT, wantTag := want[:n], [16]byte(want[n:])

				dst := bytes.Repeat([]byte{0xa5}, n+64)
				var tag [16]byte
				SealSmall(k, key, nonce, &tag, dst[:n], msg, ad)
				if !bytes.Equal(dst[:n], wantCT) || tag != wantTag {
					t.Fatalf("n=%d, ad=%d: SealSmall differs from x/crypto", n, adLen)
				}
				if bytes.Count(dst[n:], []byte{0xa5}) != 64 {
					t.Fatalf("n=%d: SealSmall wrote past the message", n)
				}
				inPlace := append([]byte(nil), msg...)
				SealSmall(k, key, nonce, &tag, inPlace, inPlace, ad)
				if !bytes.Equal(inPlace, wantCT) || tag != wantTag {
					t.Fatalf("n=%d, ad=%d: SealSmall in place differs", n, adLen)
				}

				pt := bytes.Repeat([]byte{0x5a}, n+64)
				if !OpenSmall(k, key, nonce, pt[:n], wantCT, &wantTag, ad) {
					t.Fatalf("n=%d, ad=%d: OpenSmall refuses x/crypto's tag", n, adLen)
				}
				if !bytes.Equal(pt[:n], msg) || bytes.Count(pt[n:], []byte{0x5a}) != 64 {
					t.Fatalf("n=%d, ad=%d: OpenSmall's plaintext differs or it wrote past it", n, adLen)
				}
				inPlace = append(inPlace[:0], wantCT...)
				if !OpenSmall(k, key, nonce, inPlace, inPlace, &wantTag, ad) || !bytes.Equal(inPlace, msg) {
					t.Fatalf("n=%d, ad=%d: OpenSmall in place fails", n, adLen)
				}
				for bit := 0; bit < 128; bit += 1 + n%7 {
					bad := wantTag
					bad[bit/8] ^= 1 << (bit % 8)
					out := bytes.Repeat([]byte{0x5a}, n)
					if OpenSmall(k, key, nonce, out, wantCT, &bad, ad) || bytes.Count(out, []byte{0x5a}) != n {
						t.Fatalf("n=%d: OpenSmall accepts a tag with bit %d flipped, or writes", n, bit)
					}
				}
				if n > 0 {
					badCT := append([]byte(nil), wantCT...)
					badCT[(n*5)%n] ^= 0x80
					if OpenSmall(k, key, nonce, make([]byte, n), badCT, &wantTag, ad) {
						t.Fatalf("n=%d: OpenSmall accepts a changed ciphertext", n)
					}
				}
				if adLen > 0 {
					badAD := append([]byte(nil), ad...)
					badAD[adLen-1] ^= 1
					if OpenSmall(k, key, nonce, make([]byte, n), wantCT, &wantTag, badAD) {
						t.Fatalf("n=%d: OpenSmall accepts changed additional data", n)
					}
				}
			}
		}
	}
}

// randBytes returns n bytes from r.
func randBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// smallKernelMax is the longest message kernel k takes.
func smallKernelMax(k Kernel) int {
	if k == SmallAVX2 {
		return SmallAVX2Max
	}
	return SmallAVX512Max
}

var smallKernelName = map[Kernel]string{SmallAVX512: "AVX512", SmallAVX2: "AVX2"}

func TestSmallAEADAllocs(t *testing.T) {
	var key [32]byte
	var tag [16]byte
	nonce, ad := make([]byte, 24), make([]byte, 13)
	for _, k := range smallKernels {
		if !SmallAEADAvailable(k) {
			continue
		}
		for _, n := range []int{64, smallKernelMax(k)} {
			msg := make([]byte, n)
			if a := testing.AllocsPerRun(100, func() {
				SealSmall(k, &key, nonce[:12], &tag, msg, msg, ad)
				OpenSmall(k, &key, nonce, msg, msg, &tag, ad)
			}); a != 0 {
				t.Errorf("%s, %d bytes: %v allocations per run", smallKernelName[k], n, a)
			}
		}
	}
}

// TestSmallAEADNil runs the small kernels with nil
// additional data and, for empty messages, nil source and destination
// slices, whose bases the AVX-512 kernels replace before their masked loads
// and stores (emptyToFrame in _asm/small.go; the AVX2 ones copy no bytes),
// against x/crypto.
func TestSmallAEADNil(t *testing.T) {
	var key [32]byte
	for i := range key {
		key[i] = byte(i + 9)
	}
	nonce := make([]byte, 12)
	ref, _ := XCryptoNew(key[:])
	for _, k := range smallKernels {
		if !SmallAEADAvailable(k) {
			continue
		}
		for _, n := range []int{0, 1, 63, 64, 65, 192, 193, 320, 448} {
			if n > smallKernelMax(k) {
				continue
			}
			var msg []byte
			if n > 0 {
				msg = bytes.Repeat([]byte{byte(n)}, n)
			}
			want := ref.Seal(nil, nonce, msg, nil)
			var tag [16]byte
			var ct []byte
			if n > 0 {
				ct = make([]byte, n)
			}
			SealSmall(k, &key, nonce, &tag, ct, msg, nil)
			if !bytes.Equal(ct, want[:n]) || tag != [16]byte(want[n:]) {
				t.Fatalf("%s, n=%d, nil ad: Seal differs from x/crypto", smallKernelName[k], n)
			}
			var pt []byte
			if n > 0 {
				pt = make([]byte, n)
			}
			if !OpenSmall(k, &key, nonce, pt, ct, &tag, nil) || !bytes.Equal(pt, msg) {
				t.Fatalf("%s, n=%d, nil ad: Open fails", smallKernelName[k], n)
			}
			tag[0] ^= 1
			if OpenSmall(k, &key, nonce, pt, ct, &tag, nil) {
				t.Fatalf("%s, n=%d, nil ad: Open accepts a forged tag", smallKernelName[k], n)
			}
		}
	}
}

// TestOpenFirstAVX2 checks the key-block-first Open kernel against
// x/crypto's ChaCha20-Poly1305 and XChaCha20-Poly1305 at every message
// length 0..OpenFirstAVX2Max with additional data around each padding step
// up to SmallADMax, source offsets 0..7 and in place: the plaintext, that
// nothing past it is written, and that a flipped bit of the tag, the
// ciphertext or the additional data is refused with dst untouched.
func TestOpenFirstAVX2(t *testing.T) {
	needSmall(t, SmallAVX2) // the same CPU features and toggle
	r := rand.New(rand.NewPCG(5, 6))
	rnd := func(n int) []byte { return randBytes(r, n) }
	adLens := []int{0, 1, 13, 15, 16, 17, 32, 47, 48, 49, SmallADMax - 1, SmallADMax}
	for j := 0; j < 2; j++ {
		key, nonce := (*[32]byte)(rnd(32)), rnd(12)
		ref, _ := XCryptoNew(key[:])
		if j == 1 {
			nonce = rnd(24)
			ref, _ = XCryptoNewX(key[:])
		}
		for n := 0; n <= OpenFirstAVX2Max; n++ {
			for i, adLen := range adLens {
				off := (n + i + j) % 8
				msg := rnd(n)
				ad := rnd(adLen)
				want := ref.Seal(nil, nonce, msg, ad)
				src := append(make([]byte, off), want...)
				ct, tag := src[off:off+n], [16]byte(want[n:])

				pt := bytes.Repeat([]byte{0x5a}, n+64)
				if !openFirst(key, nonce, pt[:n], ct, ad, &tag) {
					t.Fatalf("n=%d, ad=%d: refuses x/crypto's tag", n, adLen)
				}
				if !bytes.Equal(pt[:n], msg) || bytes.Count(pt[n:], []byte{0x5a}) != 64 {
					t.Fatalf("n=%d, ad=%d: the plaintext differs, or it wrote past it", n, adLen)
				}
				inPlace := append([]byte(nil), ct...)
				if !openFirst(key, nonce, inPlace, inPlace, ad, &tag) || !bytes.Equal(inPlace, msg) {
					t.Fatalf("n=%d, ad=%d: in place fails", n, adLen)
				}
				bad := tag
				bad[(n+i)%16] ^= 1 << (n % 8)
				out := bytes.Repeat([]byte{0x5a}, n)
				if openFirst(key, nonce, out, ct, ad, &bad) || bytes.Count(out, []byte{0x5a}) != n {
					t.Fatalf("n=%d, ad=%d: accepts a flipped tag bit, or writes", n, adLen)
				}
				if n > 0 {
					badCT := append([]byte(nil), ct...)
					badCT[(n*5+i)%n] ^= 0x80
					if openFirst(key, nonce, make([]byte, n), badCT, ad, &tag) {
						t.Fatalf("n=%d, ad=%d: accepts a changed ciphertext", n, adLen)
					}
				}
				if adLen > 0 {
					badAD := append([]byte(nil), ad...)
					badAD[(n+i)%adLen] ^= 1
					if openFirst(key, nonce, make([]byte, n), ct, badAD, &tag) {
						t.Fatalf("n=%d, ad=%d: accepts changed additional data", n, adLen)
					}
				}
			}
		}
	}
}
