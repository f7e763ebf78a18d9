package tls13_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/chachakit/chachakit/aead/tls13"
	"github.com/chachakit/chachakit/internal/cryptotest"
)

// The guard-page suite (internal/cryptotest/guard.go) of the record and
// packet functions: each buffer they are given flush against an
// inaccessible page, after its end and before its start, under every
// ChaCha20 implementation the registry has here, so that a read or write
// one byte outside the caller's slices faults. The expected bytes come from
// a second protector of the same secret on heap buffers: the AEAD under
// them is compared with x/crypto by the aead package's suites, and these
// functions' own results by the other tests here.

func guardBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// TestGuardRecord runs SealRecord and OpenRecord at every length of
// cryptotest.GuardLengths up to MaxPlaintext, with 0, 1 or 15 bytes of
// padding: sealed into a separate dst and in place, opened into a
// separate dst and in place, and a forged record, which must fail.
func TestGuardRecord(t *testing.T) {
	const maxRecord = tls13.RecordHeaderLen + tls13.MaxPlaintext + 1 + tls13.Overhead
	gIn := cryptotest.NewGuard(t, "input", maxRecord)
	gOut := cryptotest.NewGuard(t, "dst", maxRecord)
	r := rand.New(rand.NewPCG(71, 72))
	secret := guardBytes(r, tls13.SecretSize)
	msg := guardBytes(r, tls13.MaxPlaintext)
	newP := func() *tls13.RecordProtector {
		p, err := tls13.NewRecordProtector(secret)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	p, ref := newP(), newP()
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		label := cryptotest.Chosen("chacha20", "aead")
		for _, at := range cryptotest.Placements {
			var (
				op     string
				n, pad int
			)
			what := func() string {
				return fmt.Sprintf("[%s] %s of %d bytes with %d of padding, buffers %s", label, op, n, pad, at)
			}
			for i, length := range cryptotest.GuardLengths() {
				n, pad = length, []int{0, 1, 15}[i%3]
				if n+pad > tls13.MaxPlaintext {
					continue
				}
				size := tls13.RecordHeaderLen + n + 1 + pad + tls13.Overhead
				seq := uint64(i)<<8 | uint64(at)
				ref.SetSequence(seq)
				want, err := ref.SealRecord(nil, tls13.RecordTypeApplicationData, msg[:n], pad)
				if err != nil {
					t.Fatal(err)
				}
				var got []byte

				op = "SealRecord"
				p.SetSequence(seq)
				pt := gIn.Slice(at, n)
				copy(pt, msg)
				dst := gOut.Slice(at, size)
				cryptotest.CatchFault(t, what, func() {
					got, err = p.SealRecord(dst[:0], tls13.RecordTypeApplicationData, pt, pad)
				})
				if err != nil || !bytes.Equal(got, want) || &got[0] != &dst[0] {
					t.Fatalf("%s: %v, or the record differs or is not in dst", what(), err)
				}
				cryptotest.CheckIntact(t, what, gIn, gOut)

				op = "SealRecord in place"
				p.SetSequence(seq)
				buf := gIn.Slice(at, size)
				copy(buf[tls13.RecordHeaderLen:], msg[:n])
				cryptotest.CatchFault(t, what, func() {
					got, err = p.SealRecord(buf[:0], tls13.RecordTypeApplicationData, buf[tls13.RecordHeaderLen:tls13.RecordHeaderLen+n], pad)
				})
				if err != nil || !bytes.Equal(got, want) || &got[0] != &buf[0] {
					t.Fatalf("%s: %v, or the record differs or is not in place", what(), err)
				}
				cryptotest.CheckIntact(t, what, gIn)

				var typ uint8
				op = "OpenRecord"
				p.SetSequence(seq)
				rec := gIn.Slice(at, size)
				copy(rec, want)
				dst = gOut.Slice(at, n+1+pad)
				cryptotest.CatchFault(t, what, func() { typ, got, err = p.OpenRecord(dst[:0], rec) })
				if err != nil || typ != tls13.RecordTypeApplicationData || !bytes.Equal(got, msg[:n]) || n > 0 && &got[0] != &dst[0] {
					t.Fatalf("%s: %d, %v, or the content differs or is not in dst", what(), typ, err)
				}
				cryptotest.CheckIntact(t, what, gIn, gOut)

				op = "OpenRecord in place"
				p.SetSequence(seq)
				rec = gIn.Slice(at, size)
				copy(rec, want)
				cryptotest.CatchFault(t, what, func() {
					typ, got, err = p.OpenRecord(rec[tls13.RecordHeaderLen:tls13.RecordHeaderLen], rec)
				})
				if err != nil || typ != tls13.RecordTypeApplicationData || !bytes.Equal(got, msg[:n]) {
					t.Fatalf("%s: %d, %v, or the content differs", what(), typ, err)
				}
				cryptotest.CheckIntact(t, what, gIn)

				op = "OpenRecord of a forged record"
				p.SetSequence(seq)
				rec = gIn.Slice(at, size)
				copy(rec, want)
				rec[size-1-i%tls13.Overhead] ^= 2
				dst = gOut.Slice(at, n+1+pad)
				cryptotest.CatchFault(t, what, func() { typ, got, err = p.OpenRecord(dst[:0], rec) })
				if !errors.Is(err, tls13.ErrBadRecordMAC) || got != nil {
					t.Fatalf("%s: %v", what(), err)
				}
				cryptotest.CheckIntact(t, what, gIn, gOut)
			}
		}
	})
}

// TestGuardPacket runs the QUIC packet functions with every buffer against
// the guards: Seal and Open of every payload length of
// cryptotest.GuardLengths, into a separate dst and in place in the packet,
// with headers of 5 to 40 bytes, then ProtectHeader and UnprotectHeader on
// the whole packet (whose sample may end at its last byte), and HeaderMasks
// of 1 to 17 samples, each sample and the masks against the guards too.
func TestGuardPacket(t *testing.T) {
	const maxHeader = 40
	gPkt := cryptotest.NewGuard(t, "packet", maxHeader+cryptotest.GuardMaxLen+tls13.Overhead)
	gHdr := cryptotest.NewGuard(t, "header", maxHeader)
	gIn := cryptotest.NewGuard(t, "payload", cryptotest.GuardMaxLen+tls13.Overhead)
	gOut := cryptotest.NewGuard(t, "dst", cryptotest.GuardMaxLen+tls13.Overhead)
	const maxSamples = 17 // a pass of 16 lanes and one more
	gSamples := make([]*cryptotest.Guard, maxSamples)
	for i := range gSamples {
		gSamples[i] = cryptotest.NewGuard(t, fmt.Sprintf("sample %d", i), tls13.SampleSize)
	}
	gMasks := cryptotest.NewGuard(t, "masks", maxSamples*tls13.MaskSize)

	r := rand.New(rand.NewPCG(73, 74))
	secret := guardBytes(r, tls13.SecretSize)
	msg := guardBytes(r, cryptotest.GuardMaxLen)
	hdrBytes := guardBytes(r, maxHeader)
	samples := guardBytes(r, maxSamples*tls13.SampleSize)
	p, err := tls13.NewPacketProtector(secret)
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := tls13.NewPacketProtector(secret)

	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		label := cryptotest.Chosen("chacha20", "aead")
		for _, at := range cryptotest.Placements {
			var (
				op        string
				n, hdrLen int
			)
			what := func() string {
				return fmt.Sprintf("[%s] %s of %d bytes after a %d-byte header, buffers %s", label, op, n, hdrLen, at)
			}
			for i, length := range cryptotest.GuardLengths() {
				n, hdrLen = length, 5+i%(maxHeader-4)
				pn := uint64(i)<<20 | uint64(at)
				hdr := hdrBytes[:hdrLen]
				hdr[0] = 0x40 | byte(i&3) // a short header, packet number of 1 to 4 bytes
				want := ref.Seal(nil, pn, hdr, msg[:n])

				op = "Seal"
				h := gHdr.Slice(at, hdrLen)
				copy(h, hdr)
				pl := gIn.Slice(at, n)
				copy(pl, msg)
				dst := gOut.Slice(at, n+tls13.Overhead)
				var got []byte
				cryptotest.CatchFault(t, what, func() { got = p.Seal(dst[:0], pn, h, pl) })
				if !bytes.Equal(got, want) || &got[0] != &dst[0] {
					t.Fatalf("%s: differs, or not in dst", what())
				}
				cryptotest.CheckIntact(t, what, gHdr, gIn, gOut)

				op = "Open"
				ct := gIn.Slice(at, n+tls13.Overhead)
				copy(ct, want)
				dst = gOut.Slice(at, n)
				cryptotest.CatchFault(t, what, func() { got, err = p.Open(dst[:0], pn, h, ct) })
				if err != nil || !bytes.Equal(got, msg[:n]) || n > 0 && &got[0] != &dst[0] {
					t.Fatalf("%s: %v, or the payload differs or is not in dst", what(), err)
				}
				cryptotest.CheckIntact(t, what, gHdr, gIn, gOut)

				// The whole packet in one buffer, sealed in place,
				// header-protected, unprotected, opened in place.
				op = "Seal in the packet"
				pkt := gPkt.Slice(at, hdrLen+n+tls13.Overhead)
				copy(pkt, hdr)
				copy(pkt[hdrLen:], msg[:n])
				cryptotest.CatchFault(t, what, func() { got = p.Seal(pkt[hdrLen:hdrLen], pn, pkt[:hdrLen], pkt[hdrLen:hdrLen+n]) })
				if !bytes.Equal(got, want) || &got[0] != &pkt[hdrLen] {
					t.Fatalf("%s: differs, or not in place", what())
				}
				pnOffset := hdrLen - 4
				if len(pkt) >= pnOffset+4+tls13.SampleSize {
					op = "ProtectHeader"
					cryptotest.CatchFault(t, what, func() { err = p.ProtectHeader(pkt, pnOffset) })
					if err != nil {
						t.Fatalf("%s: %v", what(), err)
					}
					op = "UnprotectHeader"
					var pnLen int
					cryptotest.CatchFault(t, what, func() { pnLen, _, err = p.UnprotectHeader(pkt, pnOffset) })
					if err != nil || pnLen != i&3+1 || !bytes.Equal(pkt[:hdrLen], hdr) {
						t.Fatalf("%s: %v, or the header is not restored", what(), err)
					}
				}
				op = "Open in the packet"
				cryptotest.CatchFault(t, what, func() { got, err = p.Open(pkt[hdrLen:hdrLen], pn, pkt[:hdrLen], pkt[hdrLen:]) })
				if err != nil || !bytes.Equal(got, msg[:n]) {
					t.Fatalf("%s: %v, or the payload differs", what(), err)
				}
				cryptotest.CheckIntact(t, what, gPkt)
			}

			// HeaderMasks: k samples, each a guarded slice of its own,
			// into k masks that end (or start) at a guard.
			for k := 1; k <= maxSamples; k++ {
				what := func() string { return fmt.Sprintf("[%s] HeaderMasks of %d samples, buffers %s", label, k, at) }
				in := make([][]byte, k)
				for j := range in {
					in[j] = gSamples[j].Slice(at, tls13.SampleSize)
					copy(in[j], samples[j*tls13.SampleSize:])
				}
				mb := gMasks.Slice(at, k*tls13.MaskSize)
				masks := unsafe.Slice((*[tls13.MaskSize]byte)(unsafe.Pointer(unsafe.SliceData(mb))), k)
				cryptotest.CatchFault(t, what, func() { p.HeaderMasks(masks, in) })
				for j := range in {
					if want := ref.HeaderMask(samples[j*tls13.SampleSize : (j+1)*tls13.SampleSize]); masks[j] != want {
						t.Fatalf("%s: mask %d = %x, want %x", what(), j, masks[j], want)
					}
				}
				cryptotest.CheckIntact(t, what, append(gSamples[:k:k], gMasks)...)
			}
		}
	})
}
