package tls13

import (
	"crypto/cipher"
	"encoding/binary"
	"errors"
	"math"

	"github.com/chachakit/chachakit/aead"
	"github.com/chachakit/chachakit/internal/alias"
	"github.com/chachakit/chachakit/internal/wipe"
)

const (
	// RecordHeaderLen is the size of the TLSCiphertext header: opaque_type,
	// legacy_record_version and length (RFC 8446, Section 5.2).
	RecordHeaderLen = 5

	// MaxPlaintext is the largest TLSInnerPlaintext.content, 2^14 bytes
	// (RFC 8446, Section 5.1).
	MaxPlaintext = 1 << 14

	// MaxCiphertext is the largest TLSCiphertext.length a receiver accepts,
	// 2^14 + 256 bytes (RFC 8446, Section 5.2).
	MaxCiphertext = 1<<14 + 256

	// maxInner is the largest encoded TLSInnerPlaintext — content, content
	// type and padding together (RFC 8446, Section 5.4).
	maxInner = MaxPlaintext + 1
)

// The content types of RFC 8446, Section 5.1, that can appear inside a
// protected record.
const (
	RecordTypeAlert           uint8 = 21
	RecordTypeHandshake       uint8 = 22
	RecordTypeApplicationData uint8 = 23
)

// Errors from SealRecord and OpenRecord. The name of the alert that RFC 8446
// asks a TLS endpoint to send is in each message.
var (
	// ErrBadRecordMAC: the record did not authenticate under the key and
	// sequence number (bad_record_mac, RFC 8446, Section 5.2).
	ErrBadRecordMAC = errors.New("tls13: record authentication failed (bad_record_mac)")

	// ErrRecordOverflow: the ciphertext is longer than 2^14 + 256 bytes, or
	// the inner plaintext longer than 2^14 + 1 bytes (record_overflow,
	// RFC 8446, Sections 5.2 and 5.4). SealRecord returns it for content over
	// 2^14 bytes or content plus padding over the limit.
	ErrRecordOverflow = errors.New("tls13: record too large (record_overflow)")

	// ErrUnexpectedMessage: the decrypted inner plaintext holds no content
	// type (all zeros), or a handshake or alert record has empty content
	// (unexpected_message, RFC 8446, Section 5.4).
	ErrUnexpectedMessage = errors.New("tls13: record has no content type or empty handshake/alert content (unexpected_message)")

	// ErrRecordHeader: the record does not start with an application_data
	// header whose length matches the record, or is shorter than a header.
	ErrRecordHeader = errors.New("tls13: malformed TLSCiphertext header")

	// ErrSequenceExhausted: the 64-bit sequence number reached 2^64-1; the
	// connection must rekey or close rather than wrap (RFC 8446, Section 5.3).
	ErrSequenceExhausted = errors.New("tls13: record sequence number exhausted; rekey or close the connection")

	errContentType = errors.New("tls13: content type 0 is not valid in a record")
	errPadding     = errors.New("tls13: negative padding length")
)

// A RecordProtector seals or opens the TLS 1.3 records of one direction of a
// connection under one traffic secret (RFC 8446, Section 5.2): it holds the
// key and IV derived from the secret (Section 7.3) and the 64-bit sequence
// number of the next record. Use one RecordProtector per direction and key:
// a TLS endpoint seals with its write secret and opens with the peer's.
//
// A RecordProtector is not safe for concurrent use.
type RecordProtector struct {
	aead  cipher.AEAD // nil after Wipe
	iv    [IVSize]byte
	nonce [IVSize]byte // scratch: the nonce must not live on the stack (it would escape through the interface call)
	seq   uint64
}

// NewRecordProtector derives the write key and IV from a
// TLS_CHACHA20_POLY1305_SHA256 traffic secret (RFC 8446, Section 7.3):
//
//	key = HKDF-Expand-Label(secret, "key", "", 32)
//	iv  = HKDF-Expand-Label(secret, "iv", "", 12)
//
// The secret is, for example, a client_application_traffic_secret_0 taken
// from a CLIENT_TRAFFIC_SECRET_0 key log line, or a handshake traffic
// secret. The sequence number starts at 0. The secret is not retained.
func NewRecordProtector(secret []byte) (*RecordProtector, error) {
	if len(secret) != SecretSize {
		return nil, errSecretSize
	}
	var key [KeySize]byte
	defer wipe.Memclr(key[:])
	p := new(RecordProtector)
	if err := expandInto(key[:], secret, "key"); err != nil {
		return nil, err
	}
	if err := expandInto(p.iv[:], secret, "iv"); err != nil {
		return nil, err
	}
	a, err := aead.New(key[:])
	if err != nil {
		wipe.Memclr(p.iv[:])
		return nil, err
	}
	p.aead = a
	return p, nil
}

func (p *RecordProtector) check() {
	if p.aead == nil {
		panic("tls13: RecordProtector used after Wipe or without NewRecordProtector")
	}
}

// Sequence returns the sequence number of the next record.
func (p *RecordProtector) Sequence() uint64 {
	return p.seq
}

// SetSequence sets the sequence number of the next record. TLS itself
// never needs it: the number starts at 0 and counts every record. It exists
// for tests and for tools that start in the middle of a connection.
func (p *RecordProtector) SetSequence(seq uint64) {
	p.seq = seq
}

// SealRecord encrypts one record and appends the whole TLSCiphertext —
// the 5-byte header 0x17 0x03 0x03 and length, then the encrypted
// TLSInnerPlaintext and the tag — to dst, and returns the updated slice.
//
// The inner plaintext is plaintext, then contentType, then padding zero bytes
// (RFC 8446, Section 5.4); its nonce is the IV XOR the sequence number
// (Section 5.3) and its additional data the record header (Section 5.2).
// plaintext may be at most [MaxPlaintext] bytes and plaintext plus padding at
// most MaxPlaintext; contentType must not be 0, and handshake and alert
// records must not be empty. On success the sequence number advances by one.
// SealRecord refuses, with [ErrSequenceExhausted], to use sequence number
// 2^64-1, so that the number never wraps.
//
// The output is 5 + len(plaintext) + 1 + padding + 16 bytes. plaintext may
// overlap dst's spare capacity in any way; to seal in place, put the content
// at buf[5:] and pass buf[:0] as dst. Nothing is allocated when dst has the
// capacity.
func (p *RecordProtector) SealRecord(dst []byte, contentType uint8, plaintext []byte, padding int) ([]byte, error) {
	p.check()
	switch {
	case contentType == 0:
		return nil, errContentType
	case padding < 0:
		return nil, errPadding
	case len(plaintext) > MaxPlaintext || padding > maxInner-1-len(plaintext):
		return nil, ErrRecordOverflow
	case len(plaintext) == 0 && (contentType == RecordTypeHandshake || contentType == RecordTypeAlert):
		return nil, ErrUnexpectedMessage
	case p.seq == math.MaxUint64:
		return nil, ErrSequenceExhausted
	}
	inner := len(plaintext) + 1 + padding
	ret, out := alias.SliceForAppend(dst, RecordHeaderLen+inner+Overhead)
	// Move the content first: it may sit where the header goes.
	body := out[RecordHeaderLen:]
	copy(body, plaintext)
	body[len(plaintext)] = contentType
	clear(body[len(plaintext)+1 : inner])
	out[0] = RecordTypeApplicationData
	out[1], out[2] = 0x03, 0x03
	binary.BigEndian.PutUint16(out[3:], uint16(inner+Overhead))
	xorNonce(&p.nonce, &p.iv, p.seq)
	p.aead.Seal(body[:0], p.nonce[:], body[:inner], out[:RecordHeaderLen])
	p.seq++
	return ret, nil
}

// OpenRecord authenticates and decrypts one whole TLSCiphertext record,
// header included, appends its content to dst, and returns the content type
// and the updated slice. The padding and the content type byte are removed
// (RFC 8446, Section 5.4) by a scan whose time depends only on the record
// length, not on where the padding starts.
//
// The header must be 0x17 (application_data), any version, and a length equal
// to len(record)-5; otherwise OpenRecord returns [ErrRecordHeader]. It
// returns [ErrRecordOverflow] for a length over [MaxCiphertext] or an inner
// plaintext over 2^14+1 bytes, [ErrBadRecordMAC] if authentication fails, and
// [ErrUnexpectedMessage] if the inner plaintext is all zeros or a handshake
// or alert record is empty. Each of these is fatal to a TLS connection. The
// sequence number advances only when authentication succeeds.
//
// To decrypt in place, pass record[5:5] as dst. Nothing is allocated when
// dst has the capacity.
func (p *RecordProtector) OpenRecord(dst, record []byte) (contentType uint8, plaintext []byte, err error) {
	p.check()
	if len(record) < RecordHeaderLen || record[0] != RecordTypeApplicationData ||
		int(binary.BigEndian.Uint16(record[3:])) != len(record)-RecordHeaderLen {
		return 0, nil, ErrRecordHeader
	}
	n := len(record) - RecordHeaderLen
	if n > MaxCiphertext {
		return 0, nil, ErrRecordOverflow
	}
	if n < Overhead {
		return 0, nil, ErrBadRecordMAC
	}
	if n-Overhead > maxInner {
		return 0, nil, ErrRecordOverflow
	}
	if p.seq == math.MaxUint64 {
		return 0, nil, ErrSequenceExhausted
	}
	xorNonce(&p.nonce, &p.iv, p.seq)
	out, err := p.aead.Open(dst, p.nonce[:], record[RecordHeaderLen:], record[:RecordHeaderLen])
	if err != nil {
		return 0, nil, ErrBadRecordMAC
	}
	p.seq++
	inner := out[len(dst):]
	pos, typ := lastNonZero(inner)
	if pos < 0 {
		return 0, nil, ErrUnexpectedMessage
	}
	if pos == 0 && (typ == RecordTypeHandshake || typ == RecordTypeAlert) {
		return 0, nil, ErrUnexpectedMessage
	}
	return typ, out[:len(dst)+pos], nil
}

// Wipe zeroes the IV and the nonce buffer, wipes the AEAD key if package
// aead offers a Wipe method, and drops the AEAD. Any later use panics.
func (p *RecordProtector) Wipe() {
	if p.aead != nil {
		wipeAEAD(p.aead)
	}
	p.aead = nil
	wipe.Memclr(p.iv[:])
	wipe.Memclr(p.nonce[:])
	p.seq = 0
}

// lastNonZero returns the index and value of the last non-zero byte of b,
// or -1 and 0 if b is all zeros. Its running time and memory accesses depend
// only on len(b): it reads every byte and keeps its candidates with masks
// rather than branches, so it does not reveal the length of the padding.
func lastNonZero(b []byte) (pos int, value uint8) {
	pos = -1
	// Whole 8-byte words: remember the last non-zero word and where it is.
	words := len(b) &^ 7
	var lastWord uint64
	base := 0
	for i := 0; i < words; i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		m := nonZeroMask(w)
		lastWord = lastWord&^m | w&m
		base = base&^int(m) | i&int(m)
	}
	// The last non-zero byte of that word (little-endian: byte j is bits 8j).
	for j := range 8 {
		v := lastWord >> (8 * j) & 0xff
		m := nonZeroMask(v)
		pos = pos&^int(m) | (base+j)&int(m)
		value = value&^uint8(m) | uint8(v)&uint8(m)
	}
	// The tail that does not fill a word comes after every word.
	for i := words; i < len(b); i++ {
		v := uint64(b[i])
		m := nonZeroMask(v)
		pos = pos&^int(m) | i&int(m)
		value = value&^uint8(m) | uint8(v)&uint8(m)
	}
	return pos, value
}

// nonZeroMask returns all ones if x != 0 and zero otherwise, without a
// branch: x | -x has its top bit set exactly when x is not zero.
func nonZeroMask(x uint64) uint64 {
	return uint64(int64(x|-x) >> 63)
}
