package tls13_test

import (
	"bytes"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/chachakit/chachakit/aead/tls13"
	"github.com/chachakit/chachakit/internal/cryptotest"
	"golang.org/x/crypto/chacha20"
)

// refHeaderMask is RFC 9001, Section 5.4.4, with golang.org/x/crypto/chacha20:
// a cipher keyed with hp and the nonce sample[4:16], its counter set to
// sample[0:4] read little-endian, encrypting five zero bytes.
func refHeaderMask(t testing.TB, hp, sample []byte) []byte {
	t.Helper()
	c, err := chacha20.NewUnauthenticatedCipher(hp, sample[4:16])
	if err != nil {
		t.Fatal(err)
	}
	c.SetCounter(binary.LittleEndian.Uint32(sample[0:4]))
	mask := make([]byte, 5)
	c.XORKeyStream(mask, mask)
	return mask
}

// TestHeaderMaskAgainstReference compares the one-block mask with x/crypto
// for random samples and for counters at the edges, 0 and 2^32-1.
func TestHeaderMaskAgainstReference(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		p, hp := protectorAndHP(t)
		for i := range 200 {
			sample := randomBytes(t, 16)
			switch i {
			case 0:
				copy(sample, []byte{0, 0, 0, 0})
			case 1:
				copy(sample, []byte{0xff, 0xff, 0xff, 0xff})
			}
			got := p.HeaderMask(sample)
			if want := refHeaderMask(t, hp, sample); !bytes.Equal(got[:], want) {
				t.Fatalf("HeaderMask(%x) = %x, want %x", sample, got, want)
			}
		}
	})
	p, err := tls13.NewPacketProtector(make([]byte, 32))
	if err != nil {
		t.Fatal(err)
	}
	mustPanic(t, "HeaderMask(15 bytes)", "not 16 bytes", func() { p.HeaderMask(make([]byte, 15)) })
	mustPanic(t, "HeaderMask(17 bytes)", "not 16 bytes", func() { p.HeaderMask(make([]byte, 17)) })
}

// TestHeaderProtectionBits protects long and short headers with every
// packet number length and checks which bits change: the low four bits of
// a long header's first byte or the low five of a short one, and exactly
// pnLen packet number bytes; nothing else. Unprotecting restores the header.
func TestHeaderProtectionBits(t *testing.T) {
	p, err := tls13.NewPacketProtector(randomBytes(t, 32))
	if err != nil {
		t.Fatal(err)
	}
	for _, long := range []bool{false, true} {
		for pnLen := 1; pnLen <= 4; pnLen++ {
			for trial := range 50 {
				var first byte
				var pnOffset int
				if long {
					// Handshake packet: form 1, fixed 1, type 2, reserved 0.
					first = 0xe0 | byte(pnLen-1)
					pnOffset = 1 + 4 + 1 + 8 + 1 + 8 + 2
				} else {
					first = 0x40 | byte(trial&1)<<2 | byte(pnLen-1)
					pnOffset = 1 + 8
				}
				packet := randomBytes(t, pnOffset+pnLen+20+trial)
				packet[0] = first
				orig := bytes.Clone(packet)
				if err := p.ProtectHeader(packet, pnOffset); err != nil {
					t.Fatal(err)
				}
				mask := p.HeaderMask(packet[pnOffset+4 : pnOffset+20])
				firstBits := byte(0x1f)
				if long {
					firstBits = 0x0f
				}
				want := bytes.Clone(orig)
				want[0] ^= mask[0] & firstBits
				for i := range pnLen {
					want[pnOffset+i] ^= mask[1+i]
				}
				if !bytes.Equal(packet, want) {
					t.Fatalf("long %v, pnLen %d: protected %x, want %x", long, pnLen, packet, want)
				}
				gotLen, truncated, err := p.UnprotectHeader(packet, pnOffset)
				if err != nil {
					t.Fatal(err)
				}
				var wantPN uint64
				for i := range pnLen {
					wantPN = wantPN<<8 | uint64(orig[pnOffset+i])
				}
				if !bytes.Equal(packet, orig) || gotLen != pnLen || truncated != wantPN {
					t.Fatalf("long %v, pnLen %d: unprotected %x (pnLen %d, pn %#x), want %x (pn %#x)",
						long, pnLen, packet, gotLen, truncated, orig, wantPN)
				}
			}
		}
	}
}

func TestHeaderProtectionShortPacket(t *testing.T) {
	p, err := tls13.NewPacketProtector(randomBytes(t, 32))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ n, pnOffset int }{
		{20, 1}, {21, 2}, {0, 1}, {100, 0}, {100, -1}, {100, 81},
	} {
		packet := randomBytes(t, c.n)
		if c.n > 0 {
			packet[0] = 0x43
		}
		orig := bytes.Clone(packet)
		if err := p.ProtectHeader(packet, c.pnOffset); err != tls13.ErrShortPacket {
			t.Errorf("ProtectHeader(%d bytes, pnOffset %d) = %v", c.n, c.pnOffset, err)
		}
		if _, _, err := p.UnprotectHeader(packet, c.pnOffset); err != tls13.ErrShortPacket {
			t.Errorf("UnprotectHeader(%d bytes, pnOffset %d) = %v", c.n, c.pnOffset, err)
		}
		if !bytes.Equal(packet, orig) {
			t.Errorf("%d bytes, pnOffset %d: packet changed", c.n, c.pnOffset)
		}
	}
	// The smallest packet that holds a sample is accepted.
	if err := p.ProtectHeader(make([]byte, 21), 1); err != nil {
		t.Errorf("21-byte packet with pnOffset 1: %v", err)
	}
}

func TestPacketSealOpen(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		secret := randomBytes(t, 32)
		w, err := tls13.NewPacketProtector(secret)
		if err != nil {
			t.Fatal(err)
		}
		r, err := tls13.NewPacketProtector(secret)
		if err != nil {
			t.Fatal(err)
		}
		header := []byte{0x41, 1, 2, 3, 4, 5, 6, 7, 8, 0x12, 0x34}
		for _, pn := range []uint64{0, 1, 0x1234, 1<<32 + 5, tls13.MaxPacketNumber} {
			for _, n := range []int{0, 1, 3, 100, 1200, 1452} {
				payload := randomBytes(t, n)
				sealed := w.Seal(nil, pn, header, payload)
				got, err := r.Open(nil, pn, header, sealed)
				if err != nil || !bytes.Equal(got, payload) {
					t.Fatalf("pn %d, %d bytes: Open = %v", pn, n, err)
				}
				if _, err := r.Open(nil, pn^1, header, sealed); err != tls13.ErrPacketAuth {
					t.Fatalf("pn %d opened as pn %d: %v", pn, pn^1, err)
				}
				bad := bytes.Clone(header)
				bad[0] ^= 4 // key phase
				if _, err := r.Open(nil, pn, bad, sealed); err != tls13.ErrPacketAuth {
					t.Fatalf("pn %d opened with a modified header: %v", pn, err)
				}
				// In place.
				buf := make([]byte, len(header)+n, len(header)+n+16)
				copy(buf, header)
				copy(buf[len(header):], payload)
				inPlace := w.Seal(buf[len(header):len(header)], pn, buf[:len(header)], buf[len(header):])
				if !bytes.Equal(inPlace, sealed) {
					t.Fatal("in-place Seal differs")
				}
				got, err = r.Open(inPlace[:0], pn, buf[:len(header)], inPlace)
				if err != nil || !bytes.Equal(got, payload) {
					t.Fatalf("in-place Open: %v", err)
				}
			}
		}
	})
}

func TestPacketNumberRange(t *testing.T) {
	p, err := tls13.NewPacketProtector(randomBytes(t, 32))
	if err != nil {
		t.Fatal(err)
	}
	mustPanic(t, "Seal(2^62)", "2^62-1", func() { p.Seal(nil, 1<<62, nil, nil) })
	mustPanic(t, "Open(2^62)", "2^62-1", func() { p.Open(nil, 1<<62, nil, make([]byte, 16)) })
}

// TestDecodePacketNumber uses the example of RFC 9000, Section 17.1 (and
// Appendix A.3): "if the highest successfully authenticated packet had a
// packet number of 0xa82f30ea, then a packet containing a 16-bit value of
// 0x9b32 will be decoded as 0xa82f9b32", plus the window edges.
func TestDecodePacketNumber(t *testing.T) {
	for _, c := range []struct {
		expected, truncated uint64
		pnLen               int
		want                uint64
	}{
		{0xa82f30ea + 1, 0x9b32, 2, 0xa82f9b32},
		{0, 0, 1, 0},                // first packet
		{0, 5, 1, 5},                // first packet
		{0xff + 1, 0x00, 1, 0x100},  // wraps up a window
		{0x101 + 1, 0xff, 1, 0xff},  // reordered: a window down
		{0x1fe + 1, 0x00, 1, 0x200}, // candidate far below: moves up
		{654360563 + 1, 0xbff4, 3, 654360564},
		{tls13.MaxPacketNumber, 0xff, 1, tls13.MaxPacketNumber},
		{tls13.MaxPacketNumber, 0x00, 1, tls13.MaxPacketNumber - 0xff}, // would step past 2^62-1: stays
	} {
		if got := tls13.DecodePacketNumber(c.expected, c.truncated, c.pnLen); got != c.want {
			t.Errorf("DecodePacketNumber(%#x, %#x, %d) = %#x, want %#x", c.expected, c.truncated, c.pnLen, got, c.want)
		}
	}
}

func TestDecodePacketNumberLength(t *testing.T) {
	for _, n := range []int{0, 5, 8, -1} {
		mustPanic(t, "DecodePacketNumber(pnLen "+strconv.Itoa(n)+")", "1 to 4", func() { tls13.DecodePacketNumber(0, 0, n) })
	}
}

func TestFromEvent(t *testing.T) {
	secret := randomBytes(t, 32)
	for _, kind := range []tls.QUICEventKind{tls.QUICSetReadSecret, tls.QUICSetWriteSecret} {
		p, err := tls13.NewPacketProtectorFromEvent(tls.QUICEvent{
			Kind: kind, Level: tls.QUICEncryptionLevelApplication, Suite: tls.TLS_CHACHA20_POLY1305_SHA256, Data: secret,
		})
		if err != nil {
			t.Fatal(err)
		}
		q, _ := tls13.NewPacketProtector(secret)
		if !bytes.Equal(p.Seal(nil, 7, nil, []byte("x")), q.Seal(nil, 7, nil, []byte("x"))) {
			t.Fatal("keys from the event differ from keys from the secret")
		}
	}
	for _, suite := range []uint16{tls.TLS_AES_128_GCM_SHA256, tls.TLS_AES_256_GCM_SHA384, 0x1304} {
		_, err := tls13.NewPacketProtectorFromEvent(tls.QUICEvent{Kind: tls.QUICSetWriteSecret, Suite: suite, Data: secret})
		var se *tls13.SuiteError
		if !errors.As(err, &se) || se.Suite != suite || !strings.Contains(err.Error(), tls.CipherSuiteName(suite)) {
			t.Errorf("suite %#04x: err = %v", suite, err)
		}
	}
	if _, err := tls13.NewPacketProtectorFromEvent(tls.QUICEvent{Kind: tls.QUICWriteData, Suite: tls.TLS_CHACHA20_POLY1305_SHA256, Data: secret}); err == nil {
		t.Error("a QUICWriteData event was accepted")
	}
}

func TestPacketWipe(t *testing.T) {
	p, err := tls13.NewPacketProtector(randomBytes(t, 32))
	if err != nil {
		t.Fatal(err)
	}
	sealed := p.Seal(nil, 0, nil, make([]byte, 40))
	p.Wipe()
	const msg = "PacketProtector used after Wipe"
	mustPanic(t, "Seal", msg, func() { p.Seal(nil, 0, nil, nil) })
	mustPanic(t, "Open", msg, func() { p.Open(nil, 0, nil, sealed) })
	mustPanic(t, "HeaderMask", msg, func() { p.HeaderMask(sealed[:16]) })
	mustPanic(t, "ProtectHeader", msg, func() { p.ProtectHeader(sealed, 1) })
	mustPanic(t, "UnprotectHeader", msg, func() { p.UnprotectHeader(sealed, 1) })
	mustPanic(t, "Next", msg, func() { p.Next() })
	var zero tls13.PacketProtector
	mustPanic(t, "zero PacketProtector", "without NewPacketProtector", func() { zero.HeaderMask(sealed[:16]) })
}

// TestPacketAllocs checks that protecting and unprotecting a packet — AEAD
// and header protection — allocates nothing.
func TestPacketAllocs(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		secret := randomBytes(t, 32)
		w, _ := tls13.NewPacketProtector(secret)
		r, _ := tls13.NewPacketProtector(secret)
		const hdrLen = 1 + 8 + 2
		payload := randomBytes(t, 1200)
		buf := make([]byte, hdrLen+len(payload)+16)
		out := make([]byte, 0, len(payload))
		var failed error
		pn := uint64(1000)
		allocs := testing.AllocsPerRun(100, func() {
			buf[0] = 0x41
			binary.BigEndian.PutUint16(buf[9:], uint16(pn))
			pkt := w.Seal(buf[:hdrLen], pn, buf[:hdrLen], payload)
			if err := w.ProtectHeader(pkt, 9); err != nil {
				failed = err
				return
			}
			pnLen, truncated, err := r.UnprotectHeader(pkt, 9)
			if err != nil {
				failed = err
				return
			}
			got := tls13.DecodePacketNumber(pn, truncated, pnLen)
			if _, err := r.Open(out[:0], got, pkt[:9+pnLen], pkt[9+pnLen:]); err != nil {
				failed = err
			}
			_ = r.HeaderMask(pkt[13:29])
			pn++
		})
		if failed != nil {
			t.Fatal(failed)
		}
		if allocs != 0 {
			t.Errorf("one packet: %v allocations, want 0", allocs)
		}
	})
}
