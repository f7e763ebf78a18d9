package tls13_test

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/chachakit/chachakit/aead/tls13"
	"github.com/chachakit/chachakit/internal/cryptotest"
)

// unhex decodes hex with the spaces and line breaks of the RFC layout.
func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rfc9001A5 is RFC 9001, Appendix A.5, "ChaCha20-Poly1305 Short Header
// Packet" (https://www.rfc-editor.org/rfc/rfc9001#appendix-A.5),
// transcribed from the RFC text:
//
//	secret
//	    = 9ac312a7f877468ebe69422748ad00a1
//	      5443f18203a07d6060f688f30f21632b
//	key = HKDF-Expand-Label(secret, "quic key", "", 32)
//	    = c6d98ff3441c3fe1b2182094f69caa2e
//	      d4b716b65488960a7a984979fb23e1c8
//	iv  = HKDF-Expand-Label(secret, "quic iv", "", 12)
//	    = e0459b3474bdd0e44a41c144
//	hp  = HKDF-Expand-Label(secret, "quic hp", "", 32)
//	    = 25a282b9e82f06f21f488917a4fc8f1b
//	      73573685608597d0efcb076b0ab7a7a4
//	ku  = HKDF-Expand-Label(secret, "quic ku", "", 32)
//	    = 1223504755036d556342ee9361d25342
//	      1a826c9ecdf3c7148684b36b714881f9
//
//	pn                 = 654360564 (decimal)
//	nonce              = e0459b3474bdd0e46d417eb0
//	unprotected header = 4200bff4
//	payload plaintext  = 01
//	payload ciphertext = 655e5cd55c41f69080575d7999c25a5bfb
//
//	sample = 5e5cd55c41f69080575d7999c25a5bfb
//	mask   = aefefe7d03
//	header = 4cfe4189
//
//	packet = 4cfe4189655e5cd55c41f69080575d7999c25a5bfb
var rfc9001A5 = struct {
	secret, key, iv, hp, ku          string
	pn                               uint64
	nonce, header, plaintext, sealed string
	sample, mask, protectedHeader    string
	packet                           string
}{
	secret:          "9ac312a7f877468ebe69422748ad00a1 5443f18203a07d6060f688f30f21632b",
	key:             "c6d98ff3441c3fe1b2182094f69caa2e d4b716b65488960a7a984979fb23e1c8",
	iv:              "e0459b3474bdd0e44a41c144",
	hp:              "25a282b9e82f06f21f488917a4fc8f1b 73573685608597d0efcb076b0ab7a7a4",
	ku:              "1223504755036d556342ee9361d25342 1a826c9ecdf3c7148684b36b714881f9",
	pn:              654360564,
	nonce:           "e0459b3474bdd0e46d417eb0",
	header:          "4200bff4",
	plaintext:       "01",
	sealed:          "655e5cd55c41f69080575d7999c25a5bfb",
	sample:          "5e5cd55c41f69080575d7999c25a5bfb",
	mask:            "aefefe7d03",
	protectedHeader: "4cfe4189",
	packet:          "4cfe4189655e5cd55c41f69080575d7999c25a5bfb",
}

// TestRFC9001A5 reproduces every value of RFC 9001, Appendix A.5: the four
// derived values, the payload ciphertext, the sample, the mask and the
// 21-byte protected packet, then takes the packet apart again. It runs under
// every ChaCha20 implementation this CPU has.
func TestRFC9001A5(t *testing.T) {
	v := rfc9001A5
	secret := unhex(t, v.secret)
	for _, d := range []struct {
		label, want string
	}{
		{"quic key", v.key}, {"quic iv", v.iv}, {"quic hp", v.hp}, {"quic ku", v.ku},
	} {
		want := unhex(t, d.want)
		got, err := tls13.ExpandLabel(secret, d.label, nil, len(want))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("HKDF-Expand-Label(secret, %q) = %x, want %x", d.label, got, want)
		}
	}
	// The nonce is IV XOR the packet number, left-padded (RFC 9001, 5.3).
	iv, nonce := unhex(t, v.iv), unhex(t, v.nonce)
	for i := range 8 {
		iv[11-i] ^= byte(v.pn >> (8 * i))
	}
	if !bytes.Equal(iv, nonce) {
		t.Errorf("IV XOR pn = %x, want %x", iv, nonce)
	}

	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		p, err := tls13.NewPacketProtector(secret)
		if err != nil {
			t.Fatal(err)
		}
		header := unhex(t, v.header)

		// Payload protection.
		sealed := p.Seal(nil, v.pn, header, unhex(t, v.plaintext))
		if want := unhex(t, v.sealed); !bytes.Equal(sealed, want) {
			t.Fatalf("payload ciphertext = %x, want %x", sealed, want)
		}

		// "One byte is skipped to produce the sample": the packet number
		// is 3 bytes, and the sample starts 4 bytes after it.
		sample := sealed[1:17]
		if want := unhex(t, v.sample); !bytes.Equal(sample, want) {
			t.Fatalf("sample = %x, want %x", sample, want)
		}
		mask := p.HeaderMask(sample)
		if want := unhex(t, v.mask); !bytes.Equal(mask[:], want) {
			t.Fatalf("mask = %x, want %x", mask, want)
		}

		// Header protection on the whole packet.
		packet := append(bytes.Clone(header), sealed...)
		pnOffset := 1 // empty Destination Connection ID
		if err := p.ProtectHeader(packet, pnOffset); err != nil {
			t.Fatal(err)
		}
		if want := unhex(t, v.protectedHeader); !bytes.Equal(packet[:4], want) {
			t.Errorf("protected header = %x, want %x", packet[:4], want)
		}
		if want := unhex(t, v.packet); !bytes.Equal(packet, want) {
			t.Fatalf("packet = %x, want %x", packet, want)
		}

		// And back: a receiver that last saw packet 654360563.
		pnLen, truncated, err := p.UnprotectHeader(packet, pnOffset)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(packet[:4], header) || pnLen != 3 || truncated != 0x00bff4 {
			t.Fatalf("UnprotectHeader: header %x, pnLen %d, truncated %#x", packet[:4], pnLen, truncated)
		}
		pn := tls13.DecodePacketNumber(v.pn, truncated, pnLen)
		if pn != v.pn {
			t.Fatalf("DecodePacketNumber = %d, want %d", pn, v.pn)
		}
		plaintext, err := p.Open(nil, pn, packet[:pnOffset+pnLen], packet[pnOffset+pnLen:])
		if err != nil || !bytes.Equal(plaintext, unhex(t, v.plaintext)) {
			t.Fatalf("Open = %x, %v", plaintext, err)
		}

		// Key update: the next protector is keyed from ku and keeps hp.
		next, err := p.Next()
		if err != nil {
			t.Fatal(err)
		}
		want, err := tls13.NewPacketProtector(unhex(t, v.ku))
		if err != nil {
			t.Fatal(err)
		}
		if a, b := next.Seal(nil, 1, header, []byte("ping")), want.Seal(nil, 1, header, []byte("ping")); !bytes.Equal(a, b) {
			t.Errorf("Next().Seal = %x, keys from ku give %x", a, b)
		}
		if a, b := next.HeaderMask(sample), p.HeaderMask(sample); a != b {
			t.Errorf("header protection key changed with the key update: mask %x, was %x", a, b)
		}
		if _, err := next.Open(nil, v.pn, header, sealed); err != tls13.ErrPacketAuth {
			t.Errorf("next keys opened a packet of the old key phase: %v", err)
		}
	})
}
