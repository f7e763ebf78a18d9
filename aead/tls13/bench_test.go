package tls13_test

import (
	"crypto/cipher"
	"encoding/binary"
	"strconv"
	"testing"

	"github.com/chachakit/chachakit/aead/tls13"
	"golang.org/x/crypto/chacha20"
	"golang.org/x/crypto/chacha20poly1305"
)

// The baselines do the same framing with golang.org/x/crypto: records and
// packets sealed with chacha20poly1305.New, and the header protection mask
// computed the way quic-go does it, with a new chacha20 cipher per packet.

// xRecordSealer is the baseline TLS 1.3 record sealer.
type xRecordSealer struct {
	aead  cipher.AEAD
	iv    [12]byte
	nonce [12]byte
	seq   uint64
}

func newXRecordSealer(b *testing.B, secret []byte) *xRecordSealer {
	key, err := tls13.ExpandLabel(secret, "key", nil, 32)
	if err != nil {
		b.Fatal(err)
	}
	iv, err := tls13.ExpandLabel(secret, "iv", nil, 12)
	if err != nil {
		b.Fatal(err)
	}
	a, err := chacha20poly1305.New(key)
	if err != nil {
		b.Fatal(err)
	}
	s := &xRecordSealer{aead: a}
	copy(s.iv[:], iv)
	return s
}

func (s *xRecordSealer) seal(dst []byte, typ uint8, content []byte) []byte {
	inner := len(content) + 1
	out := dst[:5+inner]
	copy(out[5:], content)
	out[5+len(content)] = typ
	out[0], out[1], out[2] = 23, 3, 3
	binary.BigEndian.PutUint16(out[3:], uint16(inner+16))
	s.nonce = s.iv
	for i := range 8 {
		s.nonce[11-i] ^= byte(s.seq >> (8 * i))
	}
	s.seq++
	return s.aead.Seal(out[:5], s.nonce[:], out[5:5+inner], out[:5])
}

var recordSizes = []int{64, 1350, 16384}

func BenchmarkSealRecord(b *testing.B) {
	secret := make([]byte, 32)
	for _, n := range recordSizes {
		content := make([]byte, n)
		buf := make([]byte, tls13.MaxCiphertext+5)
		b.Run("impl=chachakit/size="+strconv.Itoa(n), func(b *testing.B) {
			p, err := tls13.NewRecordProtector(secret)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.SealRecord(buf[:0], 23, content, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("impl=xcrypto/size="+strconv.Itoa(n), func(b *testing.B) {
			s := newXRecordSealer(b, secret)
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				s.seal(buf, 23, content)
			}
		})
	}
}

func BenchmarkOpenRecord(b *testing.B) {
	secret := make([]byte, 32)
	for _, n := range recordSizes {
		w, err := tls13.NewRecordProtector(secret)
		if err != nil {
			b.Fatal(err)
		}
		record, err := w.SealRecord(nil, 23, make([]byte, n), 0)
		if err != nil {
			b.Fatal(err)
		}
		out := make([]byte, 0, len(record))
		b.Run("impl=chachakit/size="+strconv.Itoa(n), func(b *testing.B) {
			p, err := tls13.NewRecordProtector(secret)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				p.SetSequence(0)
				if _, _, err := p.OpenRecord(out[:0], record); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("impl=xcrypto/size="+strconv.Itoa(n), func(b *testing.B) {
			s := newXRecordSealer(b, secret)
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				// Nonce for sequence 0 is the IV; strip the one-byte type
				// (no padding) like the real thing would.
				pt, err := s.aead.Open(out[:0], s.iv[:], record[5:], record[:5])
				if err != nil {
					b.Fatal(err)
				}
				_ = pt[:len(pt)-1]
			}
		})
	}
}

// BenchmarkHeaderMask compares the one-block mask with quic-go's way: a
// new x/crypto chacha20 cipher per packet.
func BenchmarkHeaderMask(b *testing.B) {
	secret := make([]byte, 32)
	sample := make([]byte, 16)
	b.Run("impl=chachakit", func(b *testing.B) {
		p, err := tls13.NewPacketProtector(secret)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			sample[0]++
			_ = p.HeaderMask(sample)
		}
	})
	b.Run("impl=xcrypto", func(b *testing.B) {
		hp, err := tls13.ExpandLabel(secret, "quic hp", nil, 32)
		if err != nil {
			b.Fatal(err)
		}
		var mask [5]byte
		b.ReportAllocs()
		for b.Loop() {
			sample[0]++
			c, err := chacha20.NewUnauthenticatedCipher(hp, sample[4:])
			if err != nil {
				b.Fatal(err)
			}
			c.SetCounter(binary.LittleEndian.Uint32(sample[:4]))
			mask = [5]byte{}
			c.XORKeyStream(mask[:], mask[:])
		}
	})
}

// BenchmarkProtectPacket seals a 1200-byte 1-RTT payload and applies header
// protection, as a QUIC sender does per packet.
func BenchmarkProtectPacket(b *testing.B) {
	secret := make([]byte, 32)
	const hdrLen = 1 + 8 + 4
	payload := make([]byte, 1200)
	buf := make([]byte, hdrLen+len(payload)+16)
	buf[0] = 0x43
	b.Run("impl=chachakit", func(b *testing.B) {
		p, err := tls13.NewPacketProtector(secret)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(payload)))
		b.ReportAllocs()
		pn := uint64(0)
		for b.Loop() {
			buf[0] = 0x43
			pkt := p.Seal(buf[:hdrLen], pn, buf[:hdrLen], payload)
			if err := p.ProtectHeader(pkt, 9); err != nil {
				b.Fatal(err)
			}
			pn++
		}
	})
	b.Run("impl=xcrypto", func(b *testing.B) {
		key, _ := tls13.ExpandLabel(secret, "quic key", nil, 32)
		iv, _ := tls13.ExpandLabel(secret, "quic iv", nil, 12)
		hp, _ := tls13.ExpandLabel(secret, "quic hp", nil, 32)
		a, err := chacha20poly1305.New(key)
		if err != nil {
			b.Fatal(err)
		}
		nonce := make([]byte, 12)
		b.SetBytes(int64(len(payload)))
		b.ReportAllocs()
		pn := uint64(0)
		for b.Loop() {
			buf[0] = 0x43
			copy(nonce, iv)
			for i := range 8 {
				nonce[11-i] ^= byte(pn >> (8 * i))
			}
			pkt := a.Seal(buf[:hdrLen], nonce, payload, buf[:hdrLen])
			sample := pkt[9+4 : 9+20]
			c, err := chacha20.NewUnauthenticatedCipher(hp, sample[4:])
			if err != nil {
				b.Fatal(err)
			}
			c.SetCounter(binary.LittleEndian.Uint32(sample[:4]))
			var mask [5]byte
			c.XORKeyStream(mask[:], mask[:])
			pkt[0] ^= mask[0] & 0x1f
			for i := range 4 {
				pkt[9+i] ^= mask[1+i]
			}
			pn++
		}
	})
}

// BenchmarkNewPacketProtector is the per-key cost: three HKDF-Expand-Label
// calls and the AEAD. It allocates; it runs once per key, not per packet.
func BenchmarkNewPacketProtector(b *testing.B) {
	secret := make([]byte, 32)
	b.ReportAllocs()
	for b.Loop() {
		p, err := tls13.NewPacketProtector(secret)
		if err != nil {
			b.Fatal(err)
		}
		p.Wipe()
	}
}

// BenchmarkHeaderMasks computes 32 masks: in one HeaderMasks call
// (impl=batch) or in a loop of HeaderMask calls (impl=loop). One op is 32
// masks.
func BenchmarkHeaderMasks(b *testing.B) {
	p, err := tls13.NewPacketProtector(make([]byte, 32))
	if err != nil {
		b.Fatal(err)
	}
	samples := make([][]byte, 32)
	for i := range samples {
		samples[i] = make([]byte, 16)
		samples[i][5] = byte(i)
	}
	masks := make([][tls13.MaskSize]byte, len(samples))
	b.Run("impl=loop", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for i, s := range samples {
				masks[i] = p.HeaderMask(s)
			}
		}
	})
	b.Run("impl=batch", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			p.HeaderMasks(masks, samples)
		}
	})
}
