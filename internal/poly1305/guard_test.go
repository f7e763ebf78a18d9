package poly1305

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
	//lint:ignore SA1019 the deprecated package is the reference this one is tested against
	xpoly "golang.org/x/crypto/poly1305"
)

// TestGuardSum is the guard-page suite (internal/cryptotest/guard.go) of
// Poly1305: key, message and tag flush against an inaccessible page, after
// their end and before their start, at every length of
// cryptotest.GuardLengths, under every implementation of "poly1305" the
// registry has here, so that a block function that reads one byte past its
// blocks, or a tail copy that reads past the message, faults. Sum, a MAC
// fed in two Writes (the first of 1 to 33 bytes, each a slice of its own
// against the guards), and SumAEAD (the message split into additional data
// and ciphertext, each padded by WritePadded or the short path's copy)
// must give x/crypto's tags.
func TestGuardSum(t *testing.T) {
	gKey := cryptotest.NewGuard(t, "key", KeySize)
	gMsg := cryptotest.NewGuard(t, "message", cryptotest.GuardMaxLen)
	gMsg2 := cryptotest.NewGuard(t, "second message", cryptotest.GuardMaxLen)
	gTag := cryptotest.NewGuard(t, "tag", TagSize)
	r := rand.New(rand.NewPCG(61, 62))
	var keyBytes [KeySize]byte
	for i := range keyBytes {
		keyBytes[i] = byte(r.Uint32())
	}
	msg := make([]byte, cryptotest.GuardMaxLen)
	for i := range msg {
		msg[i] = byte(r.Uint32())
	}
	cryptotest.Run(t, "poly1305", func(t *testing.T) {
		label := cryptotest.Chosen("poly1305")
		for _, at := range cryptotest.Placements {
			var (
				op   string
				n, k int
			)
			what := func() string {
				return fmt.Sprintf("[%s] %s of %d bytes (split at %d), buffers %s", label, op, n, k, at)
			}
			for i, length := range cryptotest.GuardLengths() {
				n, k = length, length
				var want [TagSize]byte
				xpoly.Sum(&want, msg[:n], &keyBytes)

				op = "Sum"
				key := (*[KeySize]byte)(gKey.Slice(at, KeySize))
				*key = keyBytes
				m := gMsg.Slice(at, n)
				copy(m, msg)
				tag := (*[TagSize]byte)(gTag.Slice(at, TagSize))
				cryptotest.CatchFault(t, what, func() { Sum(tag, m, key) })
				if *tag != want {
					t.Fatalf("%s: differs from x/crypto", what())
				}
				cryptotest.CheckIntact(t, what, gKey, gMsg, gTag)

				op = "Write, Write, Sum"
				k = min(n, 1+i%33)
				m, m2 := gMsg.Slice(at, k), gMsg2.Slice(at, n-k)
				copy(m, msg)
				copy(m2, msg[k:])
				tag = (*[TagSize]byte)(gTag.Slice(at, TagSize))
				cryptotest.CatchFault(t, what, func() {
					var mac MAC
					mac.Init(key)
					mac.Write(m)
					mac.Write(m2)
					mac.Sum(tag)
				})
				if *tag != want {
					t.Fatalf("%s: differs from x/crypto", what())
				}
				cryptotest.CheckIntact(t, what, gMsg, gMsg2, gTag)

				// SumAEAD: the first k bytes as additional data, the
				// rest as ciphertext, against x/crypto's tag of the
				// padded layout.
				op = "SumAEAD"
				k = n * (i % 3) / 4 // none, a quarter or half of it as additional data
				ad, ct := gMsg.Slice(at, k), gMsg2.Slice(at, n-k)
				copy(ad, msg)
				copy(ct, msg[k:])
				tag = (*[TagSize]byte)(gTag.Slice(at, TagSize))
				cryptotest.CatchFault(t, what, func() { SumAEAD(tag, key, ad, ct) })
				if *tag != aeadTag(&keyBytes, msg[:k], msg[k:n]) {
					t.Fatalf("%s: differs from x/crypto", what())
				}
				cryptotest.CheckIntact(t, what, gKey, gMsg, gMsg2, gTag)
			}
		}
	})
}

// aeadTag is x/crypto's Poly1305 tag of RFC 8439's AEAD layout.
func aeadTag(key *[KeySize]byte, ad, ct []byte) (tag [TagSize]byte) {
	var b bytes.Buffer
	pad := func(p []byte) {
		b.Write(p)
		b.Write(make([]byte, (BlockSize-len(p)%BlockSize)%BlockSize))
	}
	pad(ad)
	pad(ct)
	b.Write(binary.LittleEndian.AppendUint64(nil, uint64(len(ad))))
	b.Write(binary.LittleEndian.AppendUint64(nil, uint64(len(ct))))
	xpoly.Sum(&tag, b.Bytes(), key)
	return tag
}
