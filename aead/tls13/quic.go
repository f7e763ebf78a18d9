package tls13

import (
	"crypto/cipher"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"unsafe"

	"github.com/chachakit/chachakit/aead"
	"github.com/chachakit/chachakit/internal/chacha20core"
	"github.com/chachakit/chachakit/internal/wipe"
)

const (
	// SampleSize is the size of the ciphertext sample that keys QUIC header
	// protection (RFC 9001, Section 5.4.2).
	SampleSize = 16

	// MaskSize is the size of the header protection mask: one byte for the
	// first header byte and up to four for the packet number.
	MaskSize = 5

	// MaxPacketNumber is the largest QUIC packet number, 2^62-1 (RFC 9000,
	// Section 12.3).
	MaxPacketNumber = 1<<62 - 1
)

var (
	// ErrPacketAuth: a QUIC packet did not authenticate. QUIC discards such
	// packets and counts them against the integrity limit, 2^36 forged
	// packets for ChaCha20-Poly1305 (RFC 9001, Section 6.6).
	ErrPacketAuth = errors.New("tls13: QUIC packet authentication failed")

	// ErrShortPacket: the packet is too short to hold a header protection
	// sample at pnOffset+4 (RFC 9001, Section 5.4.2); QUIC discards it.
	ErrShortPacket = errors.New("tls13: QUIC packet too short for the header protection sample")
)

// A PacketProtector protects and unprotects the QUIC packets of one
// direction at one encryption level (RFC 9001, Section 5): the AEAD key and
// IV for the payload and the header protection key, all derived from one
// TLS_CHACHA20_POLY1305_SHA256 traffic secret. It keeps the secret, for
// [PacketProtector.Next] (key update, RFC 9001, Section 6).
//
// A QUIC endpoint uses one PacketProtector per encryption level for writing,
// built from its [tls.QUICSetWriteSecret] event, and one for reading, from
// [tls.QUICSetReadSecret]. The packet number space and the key phase stay
// with the caller.
//
// A PacketProtector is not safe for concurrent use.
type PacketProtector struct {
	aead   cipher.AEAD // nil after Wipe
	iv     [IVSize]byte
	nonce  [IVSize]byte // scratch: see RecordProtector.nonce
	hp     [KeySize]byte
	secret [SecretSize]byte
}

// NewPacketProtector derives the QUIC packet protection keys from a
// TLS_CHACHA20_POLY1305_SHA256 traffic secret (RFC 9001, Section 5.1):
//
//	key = HKDF-Expand-Label(secret, "quic key", "", 32)
//	iv  = HKDF-Expand-Label(secret, "quic iv", "", 12)
//	hp  = HKDF-Expand-Label(secret, "quic hp", "", 32)
//
// Prefer [NewPacketProtectorFromEvent], which also checks the cipher suite.
func NewPacketProtector(secret []byte) (*PacketProtector, error) {
	if len(secret) != SecretSize {
		return nil, errSecretSize
	}
	p := new(PacketProtector)
	if err := expandInto(p.hp[:], secret, "quic hp"); err != nil {
		return nil, err
	}
	if err := p.setPacketKeys(secret); err != nil {
		p.Wipe()
		return nil, err
	}
	return p, nil
}

// setPacketKeys derives the AEAD key and IV from secret and keeps the
// secret; the header protection key is left alone.
func (p *PacketProtector) setPacketKeys(secret []byte) error {
	var key [KeySize]byte
	defer wipe.Memclr(key[:])
	if err := expandInto(key[:], secret, "quic key"); err != nil {
		return err
	}
	if err := expandInto(p.iv[:], secret, "quic iv"); err != nil {
		return err
	}
	a, err := aead.New(key[:])
	if err != nil {
		return err
	}
	p.aead = a
	copy(p.secret[:], secret)
	return nil
}

// NewPacketProtectorFromEvent builds a PacketProtector from a crypto/tls
// QUIC event of kind [tls.QUICSetReadSecret] or [tls.QUICSetWriteSecret].
// It refuses any suite but TLS_CHACHA20_POLY1305_SHA256 with a
// [*SuiteError] naming the suite, so a QUIC stack can try it first and fall
// back to its own AES-GCM code on that error. The event's level is not
// needed: the derivation is the same at every level.
func NewPacketProtectorFromEvent(e tls.QUICEvent) (*PacketProtector, error) {
	if e.Kind != tls.QUICSetReadSecret && e.Kind != tls.QUICSetWriteSecret {
		return nil, fmt.Errorf("tls13: QUIC event of kind %d carries no traffic secret", e.Kind)
	}
	if err := CheckSuite(e.Suite); err != nil {
		return nil, err
	}
	return NewPacketProtector(e.Data)
}

func (p *PacketProtector) check() {
	if p.aead == nil {
		panic("tls13: PacketProtector used after Wipe or without NewPacketProtector")
	}
}

// Next returns the PacketProtector for the next key phase (RFC 9001,
// Section 6.1): the secret becomes
//
//	secret_<n+1> = HKDF-Expand-Label(secret_<n>, "quic ku", "", 32)
//
// and the key and IV are derived from it again, while the header protection
// key stays the same. p is left unchanged, so a receiver can hold the current
// and the next keys at once (Section 6.3); wipe p when it is retired. Only
// 1-RTT (application) keys are ever updated.
func (p *PacketProtector) Next() (*PacketProtector, error) {
	p.check()
	var next [SecretSize]byte
	defer wipe.Memclr(next[:])
	if err := expandInto(next[:], p.secret[:], "quic ku"); err != nil {
		return nil, err
	}
	q := &PacketProtector{hp: p.hp}
	if err := q.setPacketKeys(next[:]); err != nil {
		q.Wipe()
		return nil, err
	}
	return q, nil
}

// Seal encrypts and authenticates payload as packet number pn, with the
// unprotected header (from the first byte up to and including the packet
// number) as additional data, appends the ciphertext and tag to dst, and
// returns the updated slice (RFC 9001, Section 5.3). The nonce is the IV
// XOR pn. Apply header protection afterwards with [PacketProtector.ProtectHeader].
//
// To encrypt in place, pass payload[:0] as dst, for example
// p.Seal(pkt[hdrLen:hdrLen], pn, pkt[:hdrLen], pkt[hdrLen:]) with room for
// the 16-byte tag after pkt. Nothing is allocated when dst has the capacity.
// Seal panics if pn is larger than [MaxPacketNumber].
func (p *PacketProtector) Seal(dst []byte, pn uint64, header, payload []byte) []byte {
	p.check()
	if pn > MaxPacketNumber {
		panic("tls13: QUIC packet number larger than 2^62-1")
	}
	xorNonce(&p.nonce, &p.iv, pn)
	return p.aead.Seal(dst, p.nonce[:], payload, header)
}

// Open authenticates and decrypts ciphertext (payload and tag) of packet
// number pn with the unprotected header as additional data, appends the
// payload to dst and returns the updated slice, or [ErrPacketAuth]. pn is the
// full packet number, reconstructed from the truncated one (see
// [DecodePacketNumber]) after [PacketProtector.UnprotectHeader].
//
// To decrypt in place, pass ciphertext[:0] as dst. Nothing is allocated when
// dst has the capacity. Open panics if pn is larger than [MaxPacketNumber].
func (p *PacketProtector) Open(dst []byte, pn uint64, header, ciphertext []byte) ([]byte, error) {
	p.check()
	if pn > MaxPacketNumber {
		panic("tls13: QUIC packet number larger than 2^62-1")
	}
	xorNonce(&p.nonce, &p.iv, pn)
	out, err := p.aead.Open(dst, p.nonce[:], ciphertext, header)
	if err != nil {
		return nil, ErrPacketAuth
	}
	return out, nil
}

// HeaderMask returns the 5-byte header protection mask for a 16-byte
// ciphertext sample (RFC 9001, Section 5.4.4): the first five bytes of the
// ChaCha20 keystream under the header protection key, with the block counter
// taken from sample[0:4] (little-endian) and the nonce from sample[4:16].
//
// It computes one ChaCha20 block on the stack with the library's engine and
// builds no cipher object, so it allocates nothing. It panics if sample is
// not 16 bytes long.
func (p *PacketProtector) HeaderMask(sample []byte) (mask [MaskSize]byte) {
	p.check()
	if len(sample) != SampleSize {
		panic("tls13: QUIC header protection sample is not 16 bytes")
	}
	var s chacha20core.State
	var block [chacha20core.BlockSize]byte
	s.Init(&p.hp, (*[12]byte)(sample[4:16]), binary.LittleEndian.Uint32(sample[0:4]))
	chacha20core.Block(&s, &block)
	copy(mask[:], block[:MaskSize])
	wipe.Memclr(block[:])
	s = chacha20core.State{}
	return mask
}

// HeaderMasks sets masks[i] to HeaderMask(samples[i]) for every sample,
// computing the ChaCha20 blocks of up to 16 samples side by side in the
// lanes of one vector pass where the CPU has one (amd64 with AVX2 or
// AVX-512), and one at a time elsewhere. It allocates nothing. It panics,
// as HeaderMask does, if a sample is not 16 bytes long, and if masks and
// samples differ in length; it then leaves masks unchanged.
func (p *PacketProtector) HeaderMasks(masks [][MaskSize]byte, samples [][]byte) {
	p.check()
	if len(masks) != len(samples) {
		panic("tls13: HeaderMasks needs one mask per sample")
	}
	for _, sample := range samples {
		if len(sample) != SampleSize {
			panic("tls13: QUIC header protection sample is not 16 bytes")
		}
	}
	if !chacha20core.LaneBlocksFast() {
		for i, sample := range samples {
			masks[i] = p.HeaderMask(sample)
		}
		return
	}
	var s chacha20core.State
	var l chacha20core.LaneSet
	var out [chacha20core.Lanes][chacha20core.BlockSize]byte
	s.Init(&p.hp, &[12]byte{}, 0)
	for i := range min(len(samples), chacha20core.Lanes) {
		l.SetKey(i, &s.Key)
	}
	for len(samples) > 0 {
		n := min(len(samples), chacha20core.Lanes)
		for i, sample := range samples[:n] {
			nonce := [3]uint32{
				binary.LittleEndian.Uint32(sample[4:]),
				binary.LittleEndian.Uint32(sample[8:]),
				binary.LittleEndian.Uint32(sample[12:]),
			}
			l.SetBlock(i, binary.LittleEndian.Uint32(sample[0:4]), &nonce)
		}
		chacha20core.LaneBlocks(&l, &out, n)
		for i := range n {
			masks[i] = [MaskSize]byte(out[i][:MaskSize])
		}
		masks, samples = masks[n:], samples[n:]
	}
	wipe.Memclr(unsafe.Slice(&out[0][0], len(out)*chacha20core.BlockSize))
	l.Wipe()
	s.Wipe()
}

// headerMask computes the mask for the packet whose packet number starts at
// pnOffset and returns it with the bits of the first byte it covers: the low
// four for a long header, the low five (key phase included) for a short one
// (RFC 9001, Section 5.4.1). The header form bit is not protected, so the
// branch on it reveals nothing.
func (p *PacketProtector) headerMask(packet []byte, pnOffset int) (mask [MaskSize]byte, err error) {
	p.check()
	if pnOffset < 1 || pnOffset > len(packet)-4-SampleSize {
		return mask, ErrShortPacket
	}
	mask = p.HeaderMask(packet[pnOffset+4 : pnOffset+4+SampleSize])
	if packet[0]&0x80 != 0 {
		mask[0] &= 0x0f
	} else {
		mask[0] &= 0x1f
	}
	return mask, nil
}

// ProtectHeader applies header protection in place to a packet whose payload
// Seal has already encrypted (RFC 9001, Section 5.4.1). pnOffset is the
// offset of the packet number; its length comes from the two low bits of the
// unprotected first byte. The sample is packet[pnOffset+4 : pnOffset+20], so
// the packet must be at least pnOffset+20 bytes long, or ProtectHeader
// returns [ErrShortPacket] and changes nothing.
func (p *PacketProtector) ProtectHeader(packet []byte, pnOffset int) error {
	mask, err := p.headerMask(packet, pnOffset)
	if err != nil {
		return err
	}
	pnLen := int(packet[0]&0x03) + 1
	packet[0] ^= mask[0]
	xorPacketNumber(packet[pnOffset:pnOffset+4], &mask, pnLen)
	return nil
}

// UnprotectHeader removes header protection in place (RFC 9001,
// Section 5.4.1) and returns the packet number length, 1 to 4, and the
// truncated packet number read from the header; recover the full number
// with [DecodePacketNumber]. For a short header the key phase bit,
// packet[0]&0x04, is readable afterwards. It returns [ErrShortPacket] and
// changes nothing if the packet cannot hold a sample.
//
// The packet number bytes are unmasked and read without branching on their
// length.
func (p *PacketProtector) UnprotectHeader(packet []byte, pnOffset int) (pnLen int, truncatedPN uint64, err error) {
	mask, err := p.headerMask(packet, pnOffset)
	if err != nil {
		return 0, 0, err
	}
	packet[0] ^= mask[0]
	pnLen = int(packet[0]&0x03) + 1
	pnBytes := packet[pnOffset : pnOffset+4]
	xorPacketNumber(pnBytes, &mask, pnLen)
	// Read all four bytes big-endian, then drop the ones past the packet
	// number with a shift: 8*(4-pnLen) is 0 to 24.
	truncatedPN = uint64(binary.BigEndian.Uint32(pnBytes)) >> (8 * (4 - pnLen))
	return pnLen, truncatedPN, nil
}

// xorPacketNumber XORs mask[1:1+pnLen] into pn[:pnLen], touching all four
// bytes of pn so that neither time nor memory accesses depend on pnLen.
func xorPacketNumber(pn []byte, mask *[MaskSize]byte, pnLen int) {
	pn = pn[:4]
	for i := range 4 {
		// keep is 0xff for i < pnLen and 0 otherwise: (i - pnLen) is
		// negative exactly when i < pnLen.
		keep := byte(uint64(int64(i-pnLen))>>63) * 0xff
		pn[i] ^= mask[1+i] & keep
	}
}

// DecodePacketNumber reconstructs a full packet number from the truncated
// one carried in a packet number field of pnLen bytes (RFC 9000,
// Appendix A.3). expected is the largest packet number successfully
// processed so far in the same packet number space plus one, or 0 before
// the first packet. pnLen must be 1 to 4, as [PacketProtector.UnprotectHeader]
// returns it; DecodePacketNumber panics otherwise.
func DecodePacketNumber(expected, truncatedPN uint64, pnLen int) uint64 {
	if pnLen < 1 || pnLen > 4 {
		panic("tls13: QUIC packet number length must be 1 to 4 bytes")
	}
	pnWin := uint64(1) << (8 * pnLen)
	pnHWin := pnWin / 2
	pnMask := pnWin - 1
	candidate := expected&^pnMask | truncatedPN
	if candidate+pnHWin <= expected && candidate < 1<<62-pnWin {
		return candidate + pnWin
	}
	if candidate > expected+pnHWin && candidate >= pnWin {
		return candidate - pnWin
	}
	return candidate
}

// Wipe zeroes the secret, the header protection key, the IV and the nonce
// buffer, wipes the AEAD key if package aead offers a Wipe method, and drops
// the AEAD. Any later use panics. Protectors returned by Next are separate
// objects and must be wiped on their own.
func (p *PacketProtector) Wipe() {
	if p.aead != nil {
		wipeAEAD(p.aead)
	}
	p.aead = nil
	wipe.Memclr(p.secret[:])
	wipe.Memclr(p.hp[:])
	wipe.Memclr(p.iv[:])
	wipe.Memclr(p.nonce[:])
}
