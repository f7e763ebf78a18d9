package aeadasm_test

import (
	"bytes"
	"crypto/cipher"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/chachakit/chachakit/internal/aeadasm"
	"github.com/chachakit/chachakit/internal/cryptotest"
	"golang.org/x/crypto/chacha20poly1305"
)

// TestGuardKernels is the guard-page suite (internal/cryptotest/guard.go)
// for each kernel by itself: every buffer of Seal and Open (key, nonce,
// src, dst, additional data, tag) flush against an inaccessible page,
// after its end and before its start, at every length of
// cryptotest.GuardLengths the kernel takes, for every Seal and Open kernel
// that Available reports under some implementation of "aead", whichever
// one the route would pick. The results must be x/crypto's.
//
// The kernels are enumerated, not named, so that the suite follows the
// list as it changes; which lengths and additional data a kernel takes is
// found by asking it: Seal, Open, SealOne and OpenOne check their
// arguments against the kernel's contract and panic with an "internal
// error" before the kernel touches memory, and such a panic here means
// "not this kernel's length". The kernels that are not a Seal or an Open
// (the batch kernels) refuse every length and are only logged.
func TestGuardKernels(t *testing.T) {
	type bufs struct{ key, nonce, src, dst, ad, tag *cryptotest.Guard }
	g := bufs{
		key:   cryptotest.NewGuard(t, "key", 32),
		nonce: cryptotest.NewGuard(t, "nonce", 24),
		src:   cryptotest.NewGuard(t, "src", cryptotest.GuardMaxLen),
		dst:   cryptotest.NewGuard(t, "dst", cryptotest.GuardMaxLen),
		ad:    cryptotest.NewGuard(t, "additional data", 300),
		tag:   cryptotest.NewGuard(t, "tag", 16),
	}
	// The additional-data lengths, one per length and placement: the
	// small kernels take at most 64 bytes, so most are below that.
	adLens := []int{0, 13, 64, 1, 16, 17, 63, 32, 300, 65, 15, 48}

	r := rand.New(rand.NewPCG(31, 32))
	keyBytes := guardRand(r, 32)
	nonceAll := guardRand(r, 24)
	msg := guardRand(r, cryptotest.GuardMaxLen)
	adAll := guardRand(r, 300)

	tested := map[aeadasm.Kernel]bool{}
	cryptotest.Run(t, "aead", func(t *testing.T) {
		set := aeadasm.Available()
		for k := aeadasm.Kernel(1); k < 64; k++ {
			if !set.Has(k) || tested[k] {
				continue
			}
			tested[k] = true
			t.Run(fmt.Sprintf("kernel%d", k), func(t *testing.T) {
				for _, nonceSize := range []int{12, 24} {
					var ref cipher.AEAD
					if nonceSize == 12 {
						ref, _ = chacha20poly1305.New(keyBytes)
					} else {
						ref, _ = chacha20poly1305.NewX(keyBytes)
					}
					taken := map[string]map[int]bool{} // entry point: lengths it took
					for _, at := range cryptotest.Placements {
						for i, n := range cryptotest.GuardLengths() {
							an := adLens[(2*i+int(at))%len(adLens)]
							run := func(an int) []string {
								return guardKernel(t, g.key, g.nonce, g.src, g.dst, g.ad, g.tag, k, at, n, an,
									ref, keyBytes, nonceAll[:nonceSize], msg[:n], adAll[:an])
							}
							ops := run(an)
							if len(ops) == 0 && an > 64 {
								// Refused, perhaps for the additional
								// data only (the small kernels take up
								// to 64 bytes): the length with less.
								ops = run(an % 65)
							}
							for _, op := range ops {
								if taken[op] == nil {
									taken[op] = map[int]bool{}
								}
								taken[op][n] = true
							}
						}
					}
					if len(taken) == 0 {
						t.Logf("kernel %d, %d-byte nonce: takes no message (not a Seal or Open kernel, or not for this nonce)", k, nonceSize)
					}
					for _, op := range slices.Sorted(maps.Keys(taken)) {
						t.Logf("kernel %d, %d-byte nonce: %s took lengths %s", k, nonceSize, op, ranges(slices.Sorted(maps.Keys(taken[op]))))
					}
				}
			})
		}
	})
	if len(tested) == 0 {
		t.Logf("no AEAD kernel here")
	}
}

// guardKernel runs kernel k on one message, with every buffer placed at
// at, through each of Seal, SealOne, Open and OpenOne that takes it, Open
// also in place and with a forged tag, and returns the names of those that
// took it.
func guardKernel(t *testing.T, gKey, gNonce, gSrc, gDst, gAD, gTag *cryptotest.Guard,
	k aeadasm.Kernel, at cryptotest.Placement, n, an int,
	ref cipher.AEAD, keyBytes, nonceBytes, msg, adBytes []byte) (taken []string) {
	t.Helper()
	sealed := ref.Seal(nil, nonceBytes, msg, adBytes)
	wantCT, wantTag := sealed[:n], sealed[n:]
	var op string
	what := func() string {
		return fmt.Sprintf("kernel %d: %s of %d bytes, %d-byte nonce, %d bytes of additional data, buffers %s",
			k, op, n, len(nonceBytes), an, at)
	}
	// place fills the guarded buffers of one call.
	place := func(src []byte) (key *[32]byte, nonce, s, dst, ad []byte, tag *[16]byte) {
		key = (*[32]byte)(gKey.Slice(at, 32))
		copy(key[:], keyBytes)
		nonce = gNonce.Slice(at, len(nonceBytes))
		copy(nonce, nonceBytes)
		s = gSrc.Slice(at, n)
		copy(s, src)
		dst = gDst.Slice(at, n)
		for i := range dst {
			dst[i] = 0xa5
		}
		ad = gAD.Slice(at, an)
		copy(ad, adBytes)
		tag = (*[16]byte)(gTag.Slice(at, 16))
		return
	}
	intact := func() { cryptotest.CheckIntact(t, what, gKey, gNonce, gSrc, gDst, gAD, gTag) }

	seals := []struct {
		name string
		f    func(k aeadasm.Kernel, key *[32]byte, nonce, dst, src, ad []byte, tag *[16]byte)
	}{{"Seal", aeadasm.Seal}}
	opens := []struct {
		name string
		f    func(k aeadasm.Kernel, key *[32]byte, nonce, dst, src, ad []byte, tag *[16]byte) bool
	}{{"Open", aeadasm.Open}}
	if aeadasm.OneSet(k) {
		seals = append(seals, struct {
			name string
			f    func(k aeadasm.Kernel, key *[32]byte, nonce, dst, src, ad []byte, tag *[16]byte)
		}{"SealOne", aeadasm.SealOne})
		opens = append(opens, struct {
			name string
			f    func(k aeadasm.Kernel, key *[32]byte, nonce, dst, src, ad []byte, tag *[16]byte) bool
		}{"OpenOne", aeadasm.OpenOne})
	}

	for _, s := range seals {
		op = s.name
		key, nonce, src, dst, ad, tag := place(msg)
		if !takes(t, what, func() { s.f(k, key, nonce, dst, src, ad, tag) }) {
			continue
		}
		taken = append(taken, s.name)
		if !bytes.Equal(dst, wantCT) || !bytes.Equal(tag[:], wantTag) {
			t.Fatalf("%s: differs from x/crypto", what())
		}
		if !bytes.Equal(src, msg) {
			t.Fatalf("%s: src changed", what())
		}
		intact()

		op = s.name + " in place"
		key, nonce, src, _, ad, tag = place(msg)
		cryptotest.CatchFault(t, what, func() { s.f(k, key, nonce, src, src, ad, tag) })
		if !bytes.Equal(src, wantCT) || !bytes.Equal(tag[:], wantTag) {
			t.Fatalf("%s: differs from x/crypto", what())
		}
		intact()
	}

	for _, o := range opens {
		op = o.name
		key, nonce, src, dst, ad, tag := place(wantCT)
		copy(tag[:], wantTag)
		var ok bool
		if !takes(t, what, func() { ok = o.f(k, key, nonce, dst, src, ad, tag) }) {
			continue
		}
		taken = append(taken, o.name)
		if !ok || !bytes.Equal(dst, msg) {
			t.Fatalf("%s: ok %v, or the plaintext differs", what(), ok)
		}
		if !bytes.Equal(src, wantCT) || !bytes.Equal(tag[:], wantTag) {
			t.Fatalf("%s: src or tag changed", what())
		}
		intact()

		op = o.name + " in place"
		key, nonce, src, _, ad, tag = place(wantCT)
		copy(tag[:], wantTag)
		cryptotest.CatchFault(t, what, func() { ok = o.f(k, key, nonce, src, src, ad, tag) })
		if !ok || !bytes.Equal(src, msg) {
			t.Fatalf("%s: ok %v, or the plaintext differs", what(), ok)
		}
		intact()

		op = o.name + " of a forged tag"
		key, nonce, src, dst, ad, tag = place(wantCT)
		copy(tag[:], wantTag)
		tag[n%16] ^= 0x10
		cryptotest.CatchFault(t, what, func() { ok = o.f(k, key, nonce, dst, src, ad, tag) })
		if ok || !bytes.Equal(dst, make([]byte, n)) {
			t.Fatalf("%s: ok %v, or dst not zeroed", what(), ok)
		}
		intact()
	}
	return taken
}

// takes runs a kernel call f and reports whether the kernel took the
// arguments: false if it panicked with an internal error, the kernels'
// refusal of a length or additional data outside their contract (or of a
// kernel that is not a Seal or an Open). Any other panic, or a fault, fails
// t.
func takes(t *testing.T, what func() string, f func()) (ok bool) {
	t.Helper()
	ok = true
	cryptotest.CatchFault(t, what, func() {
		defer func() {
			if r := recover(); r != nil {
				if s, isString := r.(string); isString && strings.Contains(s, "internal error") {
					ok = false
					return
				}
				panic(r)
			}
		}()
		f()
	})
	return ok
}

// ranges writes sorted lengths as "0..64, 100, 2048..4096", for the log.
func ranges(l []int) string {
	var b strings.Builder
	for i := 0; i < len(l); {
		j := i
		for j+1 < len(l) && l[j+1] == l[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		if j > i {
			fmt.Fprintf(&b, "%d..%d", l[i], l[j])
		} else {
			fmt.Fprintf(&b, "%d", l[i])
		}
		i = j + 1
	}
	return b.String()
}

func guardRand(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}
