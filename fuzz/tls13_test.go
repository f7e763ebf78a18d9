package fuzz

import (
	"bytes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/chachakit/chachakit/aead/tls13"
	"github.com/chachakit/chachakit/vectors"
	"golang.org/x/crypto/chacha20"
	"golang.org/x/crypto/chacha20poly1305"
)

// FuzzRecord and FuzzQUICPacket check package aead/tls13 against a
// reference written here from the RFCs: HKDF-Expand-Label (RFC 8446,
// Section 7.1) over crypto/hkdf, the record framing of RFC 8446, Sections
// 5.2 to 5.4, and the packet and header protection of RFC 9001, Section 5,
// with golang.org/x/crypto/chacha20poly1305 as the AEAD and
// golang.org/x/crypto/chacha20 for the header protection mask. Nothing of
// the reference comes from package tls13.

// ---- Reference ----

// refExpandLabel is HKDF-Expand-Label(secret, label, "", length) with
// SHA-256 (RFC 8446, Section 7.1): the info is the HkdfLabel structure, a
// 16-bit length, the label with its "tls13 " prefix behind a length byte,
// and an empty context behind a zero length byte.
func refExpandLabel(t *testing.T, secret []byte, label string, length int) []byte {
	t.Helper()
	info := []byte{byte(length >> 8), byte(length), byte(len("tls13 ") + len(label))}
	info = append(info, "tls13 "+label...)
	info = append(info, 0)
	out, err := hkdf.Expand(sha256.New, secret, string(info), length)
	if err != nil {
		t.Fatalf("reference HKDF-Expand-Label(%q): %v", label, err)
	}
	return out
}

// refKeys are the keys a reference protector derives from one secret.
type refKeys struct {
	aead cipher.AEAD // x/crypto ChaCha20-Poly1305 with the derived key
	iv   []byte
	hp   []byte // QUIC only
}

// refRecordKeys derives the record protection key and IV (RFC 8446,
// Section 7.3).
func refRecordKeys(t *testing.T, secret []byte) refKeys {
	a, err := chacha20poly1305.New(refExpandLabel(t, secret, "key", 32))
	if err != nil {
		t.Fatal(err)
	}
	return refKeys{aead: a, iv: refExpandLabel(t, secret, "iv", 12)}
}

// refPacketKeys derives the QUIC packet protection key, IV and header
// protection key (RFC 9001, Section 5.1). With update, the key and IV come
// from the next secret, HKDF-Expand-Label(secret, "quic ku", "", 32), and
// the header protection key stays (Section 6.1).
func refPacketKeys(t *testing.T, secret []byte, update bool) refKeys {
	hp := refExpandLabel(t, secret, "quic hp", 32)
	if update {
		secret = refExpandLabel(t, secret, "quic ku", 32)
	}
	a, err := chacha20poly1305.New(refExpandLabel(t, secret, "quic key", 32))
	if err != nil {
		t.Fatal(err)
	}
	return refKeys{aead: a, iv: refExpandLabel(t, secret, "quic iv", 12), hp: hp}
}

// nonce is the IV XOR the 64-bit number n, big-endian and left-padded with
// zeros (RFC 8446, Section 5.3; RFC 9001, Section 5.3).
func (k refKeys) nonce(n uint64) []byte {
	var pad [12]byte
	binary.BigEndian.PutUint64(pad[4:], n)
	out := make([]byte, 12)
	for i := range out {
		out[i] = k.iv[i] ^ pad[i]
	}
	return out
}

// Record limits of RFC 8446, Sections 5.1, 5.2 and 5.4.
const (
	refMaxContent    = 1 << 14        // TLSInnerPlaintext.content
	refMaxInner      = 1<<14 + 1      // content, type and padding
	refMaxCiphertext = 1<<14 + 256    // TLSCiphertext.length
	refAppData       = 23             // application_data
	refHandshake     = 22             // handshake
	refAlert         = 21             // alert
	refRecordHeader  = 5              // opaque_type, legacy_record_version, length
	refTagSize       = 16             // Poly1305
	refMaxSeq        = math.MaxUint64 // the sequence number that must not be used
)

// refSealRecord is a whole TLSCiphertext: the header (application_data,
// version, length of what follows), then inner sealed with the header as
// additional data and IV XOR seq as the nonce (RFC 8446, Section 5.2). inner
// is the TLSInnerPlaintext as it is, so that records SealRecord refuses to
// make can be built too.
func (k refKeys) sealRecord(seq uint64, version [2]byte, inner []byte) []byte {
	n := len(inner) + refTagSize
	header := []byte{refAppData, version[0], version[1], byte(n >> 8), byte(n)}
	return k.aead.Seal(header, k.nonce(seq), inner, header)
}

// innerPlaintext is content, then the content type, then padding zeros
// (RFC 8446, Section 5.4).
func innerPlaintext(content []byte, typ uint8, padding int) []byte {
	return slices.Concat(content, []byte{typ}, make([]byte, padding))
}

// errUnexported stands for any error that is not one of the exported
// values of package tls13, for the refusals whose error value the package
// does not export (content type 0, negative padding).
var errUnexported = errors.New("an error other than tls13's exported ones")

// recordErr maps an error of SealRecord or OpenRecord to the exported
// value it is, or to errUnexported.
func recordErr(err error) error {
	for _, e := range []error{tls13.ErrBadRecordMAC, tls13.ErrRecordOverflow, tls13.ErrUnexpectedMessage, tls13.ErrRecordHeader, tls13.ErrSequenceExhausted} {
		if err == e {
			return e
		}
	}
	if err != nil {
		return errUnexported
	}
	return nil
}

// refSealErrs lists every reason, from RFC 8446 and the documentation of
// SealRecord, to refuse sealing content of n bytes of type typ with padding
// pad at sequence number seq; SealRecord must return one of them, or succeed
// when there is none. (When several apply, which one comes first is not
// documented.)
func refSealErrs(typ uint8, n, pad int, seq uint64) []error {
	var errs []error
	if typ == 0 || pad < 0 {
		errs = append(errs, errUnexported)
	}
	if n > refMaxContent || (pad >= 0 && n+1+pad > refMaxInner) {
		errs = append(errs, tls13.ErrRecordOverflow)
	}
	if n == 0 && (typ == refHandshake || typ == refAlert) {
		errs = append(errs, tls13.ErrUnexpectedMessage)
	}
	if seq == refMaxSeq {
		errs = append(errs, tls13.ErrSequenceExhausted)
	}
	return errs
}

// refOpenRecord opens rec at sequence number seq as RFC 8446 and the
// documentation of OpenRecord describe it. It returns the content type and
// content, or the errors OpenRecord may return: every reason to refuse the
// record before decrypting it (when several apply, the order is not
// documented), or exactly ErrBadRecordMAC if the AEAD refuses it, or
// exactly ErrUnexpectedMessage for an inner plaintext without a content
// type or an empty handshake or alert record.
func (k refKeys) openRecord(seq uint64, rec []byte) (typ uint8, content []byte, errs []error) {
	if len(rec) < refRecordHeader {
		return 0, nil, []error{tls13.ErrRecordHeader}
	}
	n := len(rec) - refRecordHeader
	if rec[0] != refAppData || int(binary.BigEndian.Uint16(rec[3:])) != n {
		errs = append(errs, tls13.ErrRecordHeader)
	}
	if n > refMaxCiphertext || n-refTagSize > refMaxInner {
		errs = append(errs, tls13.ErrRecordOverflow)
	}
	if n < refTagSize {
		errs = append(errs, tls13.ErrBadRecordMAC)
	}
	if seq == refMaxSeq {
		errs = append(errs, tls13.ErrSequenceExhausted)
	}
	if len(errs) > 0 {
		return 0, nil, errs
	}
	inner, err := k.aead.Open(nil, k.nonce(seq), rec[refRecordHeader:], rec[:refRecordHeader])
	if err != nil {
		return 0, nil, []error{tls13.ErrBadRecordMAC}
	}
	i := len(inner) - 1
	for i >= 0 && inner[i] == 0 {
		i--
	}
	if i < 0 || i == 0 && (inner[0] == refHandshake || inner[0] == refAlert) {
		return 0, nil, []error{tls13.ErrUnexpectedMessage}
	}
	return inner[i], clone(inner[:i]), nil
}

// refMask is the QUIC header protection mask (RFC 9001, Section 5.4.4):
// ChaCha20 under hp with the block counter sample[0:4] (little-endian) and
// the nonce sample[4:16], applied to five zero bytes.
func (k refKeys) mask(sample []byte) [5]byte {
	c, err := chacha20.NewUnauthenticatedCipher(k.hp, sample[4:16])
	if err != nil {
		panic(err)
	}
	c.SetCounter(binary.LittleEndian.Uint32(sample[0:4]))
	var m [5]byte
	c.XORKeyStream(m[:], m[:])
	return m
}

// headerProtection applies (remove false) or removes (remove true) QUIC
// header protection on a copy of packet (RFC 9001, Section 5.4.1) and
// returns it with the packet number length and the truncated packet number
// read from the unprotected header. short reports a packet that cannot hold
// the sample at pnOffset+4, which is then returned unchanged.
func (k refKeys) headerProtection(packet []byte, pnOffset int, remove bool) (out []byte, pnLen int, truncated uint64, short bool) {
	out = clone(packet)
	if pnOffset < 1 || pnOffset+4+16 > len(packet) {
		return out, 0, 0, true
	}
	m := k.mask(packet[pnOffset+4 : pnOffset+4+16])
	bits := byte(0x1f) // short header: reserved bits, key phase, pn length
	if packet[0]&0x80 != 0 {
		bits = 0x0f // long header: reserved bits, pn length
	}
	if !remove {
		pnLen = int(out[0]&3) + 1
	}
	out[0] ^= m[0] & bits
	if remove {
		pnLen = int(out[0]&3) + 1
	}
	for i := range pnLen {
		out[pnOffset+i] ^= m[1+i]
		truncated = truncated<<8 | uint64(out[pnOffset+i])
	}
	return out, pnLen, truncated, false
}

// refDecodePN is the packet number decoding of RFC 9000, Appendix A.3, in
// signed arithmetic as the RFC writes it: the value with the low 8*pnLen
// bits truncated that is closest to expected (the largest packet number
// received plus one), stepping a window up or down only while the result
// stays within 0 to 2^62-1.
func refDecodePN(expected, truncated uint64, pnLen int) uint64 {
	win := int64(1) << (8 * pnLen)
	hwin := win / 2
	exp := int64(expected)
	candidate := exp&^(win-1) | int64(truncated)
	switch {
	case candidate <= exp-hwin && candidate < 1<<62-win:
		return uint64(candidate + win)
	case candidate > exp+hwin && candidate >= win:
		return uint64(candidate - win)
	}
	return uint64(candidate)
}

// ---- Shared helpers ----

// unchangedOrZero reports the first byte of after that is neither its value
// in before nor zero: a failed open may wipe its output region (as
// x/crypto's Open does) but must leave no plaintext in it.
func unchangedOrZero(before, after []byte) string {
	for i := range after {
		if after[i] != before[i] && after[i] != 0 {
			return fmt.Sprintf("byte %d of %d is %#02x, was %#02x", i, len(after), after[i], before[i])
		}
	}
	return ""
}

func errIn(err error, errs []error) bool {
	return slices.Contains(errs, recordErr(err))
}

// ---- FuzzRecord ----

// recordLayout says where the dst of a SealRecord or OpenRecord call is:
//
//	0: nil
//	1: behind a prefix, with capacity for the output and spare bytes after it
//	2: in place (SealRecord: content at buf[5:], dst buf[:0];
//	   OpenRecord: dst record[5:5])
//	3: behind a prefix, with no capacity (the output goes to a new array)
type recordLayout uint8

// recordCall is one SealRecord or OpenRecord call with its buffers.
type recordCall struct {
	buf    []byte // the array dst (and in place, the input) is carved from
	before []byte // buf before the call
	off    int    // where dst starts in buf
	dst    []byte
	in     []byte // content for SealRecord, record for OpenRecord
	inCopy []byte // in before the call, to check that it is not written to
}

// prepare arranges a call whose input is in and whose output is at most
// outLen bytes long; prefix is the length of dst for layouts 1 and 3.
func (l recordLayout) prepare(in []byte, outLen, prefix int, seal bool) *recordCall {
	c := &recordCall{in: in}
	switch l {
	case 1:
		c.buf = make([]byte, prefix+outLen+spareDst)
		pattern(c.buf, byte(outLen))
		c.dst = c.buf[:prefix]
	case 2:
		c.buf = make([]byte, max(outLen, len(in)+refRecordHeader)+spareDst)
		pattern(c.buf, byte(outLen))
		if seal {
			copy(c.buf[refRecordHeader:], in)
			c.in = c.buf[refRecordHeader : refRecordHeader+len(in)]
			c.dst = c.buf[:0]
		} else {
			copy(c.buf, in)
			c.in = c.buf[:len(in)]
			c.off = refRecordHeader
			c.dst = c.buf[refRecordHeader:refRecordHeader]
		}
	case 3:
		c.buf = make([]byte, prefix)
		pattern(c.buf, byte(outLen))
		c.dst = c.buf[:prefix:prefix]
	}
	c.before = clone(c.buf)
	if l != 2 {
		c.inCopy = clone(c.in)
	}
	return c
}

// checkInput fails if the call wrote to an input it was not given in place.
func (c *recordCall) checkInput(t *testing.T, label, call string) {
	t.Helper()
	if c.inCopy != nil && !bytes.Equal(c.in, c.inCopy) {
		t.Fatalf("%s: %s wrote to its input: %s", label, call, firstDiff(c.in, c.inCopy))
	}
}

// checkOutput fails unless ret is dst's bytes followed by want, in dst's
// array when dst had the capacity, and the call wrote nothing in that array
// before dst or more than limit bytes after it (SealRecord writes the
// record; OpenRecord the whole inner plaintext, type and padding included,
// behind the content it returns).
func (c *recordCall) checkOutput(t *testing.T, label, call string, l recordLayout, ret, want []byte, limit int) {
	t.Helper()
	if len(ret) != len(c.dst)+len(want) || !bytes.Equal(ret[:len(c.dst)], c.before[c.off:c.off+len(c.dst)]) {
		t.Fatalf("%s: %s returned %d bytes for a dst of %d and an output of %d, or lost dst's bytes", label, call, len(ret), len(c.dst), len(want))
	}
	if got := ret[len(c.dst):]; !bytes.Equal(got, want) {
		t.Fatalf("%s: %s output differs from the reference: %s", label, call, firstDiff(got, want))
	}
	if l != 1 && l != 2 {
		return
	}
	if len(ret) > 0 && &ret[0] != &c.buf[c.off] {
		t.Fatalf("%s: %s allocated although dst had the capacity", label, call)
	}
	end := c.off + len(c.dst) + limit
	if !bytes.Equal(c.buf[:c.off], c.before[:c.off]) || !bytes.Equal(c.buf[end:], c.before[end:]) {
		t.Fatalf("%s: %s wrote outside its output: before dst %s, after the output %s", label, call,
			firstDiff(c.buf[:c.off], c.before[:c.off]), firstDiff(c.buf[end:], c.before[end:]))
	}
}

// recordExtra is how many bytes to add to a fuzzed content or inner
// plaintext: grow mod 2048, or for grow >= 0xf000 between 2^14-2048 and
// 2^14+2047, across the limits of RFC 8446.
func recordExtra(grow uint16) int {
	if grow >= 0xf000 {
		return refMaxContent - 2048 + int(grow&0xfff)
	}
	return int(grow % 2048)
}

// recordPadding is the padding length: padding mod 1024, or for padding >=
// 0xff00, within 128 bytes either side of the largest padding content of n
// bytes allows (negative too).
func recordPadding(padding uint16, n int) int {
	if padding >= 0xff00 {
		return refMaxContent - n + int(int8(padding))
	}
	return int(padding % 1024)
}

// FuzzRecord seals TLS 1.3 records with tls13.RecordProtector and compares
// them byte for byte with the reference, opens them on a second protector
// keyed from the same secret, opens them again with one byte changed, and
// opens arbitrary records; each under every implementation of the AEAD
// packages.
//
//   - Sealing content (the fuzzed bytes plus recordExtra(grow) derived ones)
//     of type typ with padding recordPadding(padding) at sequence number seq
//     gives the reference's record, or the refusal the RFC and the
//     documentation call for (refSealErrs) with a nil result, dst's array
//     untouched and the sequence number unchanged; on success the sequence
//     number advances by one.
//   - Opening it at seq gives back typ and the content and advances the
//     sequence number by one; opening it again (a replay) fails.
//   - With byte pos mod len changed (XOR delta, or 0x80 for 0), opening
//     fails with ErrRecordHeader (type or length byte) or ErrBadRecordMAC
//     (version, body, tag), a nil result and type 0, no plaintext in dst's
//     array, and the sequence number unchanged.
//   - An arbitrary record opens exactly as the reference says: same type
//     and content, or one of the errors the reference allows, never a panic.
//     A failure leaves the sequence number and dst's array as they were
//     (or zeroed), except ErrUnexpectedMessage, which comes after the
//     record authenticated: it advances the sequence number, as documented.
//
// mode: bits 0-1 the layout of SealRecord's dst, bits 2-3 OpenRecord's
// (recordLayout); bits 4-5 how record becomes the arbitrary record: 0 as
// it is, 1 behind an application_data header with the right length, 2 a
// genuine record (sealed by the reference at seq) whose inner plaintext is
// record, 3 the same with recordExtra(grow) zero bytes of padding added and
// the legacy_record_version taken from pos; bit 6 moves seq to
// 2^64-1-(seq mod 4), bit 7 to seq mod 4. The prefix before dst is pos>>28
// bytes long.
func FuzzRecord(f *testing.F) {
	addRecordSeeds(f)
	f.Fuzz(func(t *testing.T, secret, content, record []byte, typ uint8, padding, grow uint16, seq uint64, mode uint8, pos uint32, delta uint8) {
		secret = fit(secret, tls13.SecretSize)
		switch {
		case mode&0x40 != 0:
			seq = math.MaxUint64 - seq%4
		case mode&0x80 != 0:
			seq %= 4
		}
		content = grown(content, recordExtra(grow))
		pad := recordPadding(padding, len(content))
		sealLayout, openLayout := recordLayout(mode&3), recordLayout(mode>>2&3)
		prefix := int(pos >> 28)
		if delta == 0 {
			delta = 0x80
		}

		// The reference's view of everything this input does.
		ref := refRecordKeys(t, secret)
		sealErrs := refSealErrs(typ, len(content), pad, seq)
		var rec, bad []byte
		var replayErrs, badErrs []error
		if len(sealErrs) == 0 {
			rec = ref.sealRecord(seq, [2]byte{3, 3}, innerPlaintext(content, typ, pad))
			_, _, replayErrs = ref.openRecord(seq+1, rec)
			bad = clone(rec)
			i := int(uint64(pos) % uint64(len(bad)))
			bad[i] ^= delta
			_, _, badErrs = ref.openRecord(seq, bad)
			documented := tls13.ErrBadRecordMAC
			if i == 0 || i == 3 || i == 4 {
				documented = tls13.ErrRecordHeader
			}
			if !slices.Equal(badErrs, []error{documented}) {
				t.Fatalf("reference: record with byte %d changed: errors %v, want %v", i, badErrs, documented)
			}
		}
		var arb []byte
		switch mode >> 4 & 3 {
		case 0:
			arb = record
		case 1:
			arb = append([]byte{refAppData, 3, 3, byte(len(record) >> 8), byte(len(record))}, record...)
		case 2:
			arb = ref.sealRecord(seq, [2]byte{3, 3}, record)
		case 3:
			arb = ref.sealRecord(seq, [2]byte{byte(pos >> 8), byte(pos)}, append(clone(record), make([]byte, recordExtra(grow))...))
		}
		arbType, arbContent, arbErrs := ref.openRecord(seq, arb)

		newProtector := func(label string) *tls13.RecordProtector {
			p, err := tls13.NewRecordProtector(secret)
			if err != nil {
				t.Fatalf("%s: NewRecordProtector: %v", label, err)
			}
			p.SetSequence(seq)
			return p
		}
		// open runs OpenRecord on a fresh protector at seq and checks what
		// the reference expects: typ and content, or one of errs.
		open := func(label, what string, p *tls13.RecordProtector, in []byte, wantType uint8, want []byte, errs []error) {
			t.Helper()
			startSeq := p.Sequence()
			c := openLayout.prepare(in, len(in), prefix, false)
			var gotType uint8
			var got []byte
			var err error
			if msg := catch(func() { gotType, got, err = p.OpenRecord(c.dst, c.in) }); msg != "" {
				t.Fatalf("%s: OpenRecord of %s panics: %s", label, what, msg)
			}
			c.checkInput(t, label, "OpenRecord of "+what)
			if errs != nil {
				if !errIn(err, errs) {
					t.Fatalf("%s: OpenRecord of %s: error %v, want one of %v", label, what, err, errs)
				}
				if got != nil || gotType != 0 {
					t.Fatalf("%s: OpenRecord of %s fails (%v) but returns type %d and %d bytes (nil %v)", label, what, err, gotType, len(got), got == nil)
				}
				// The sequence number advances only when the record
				// authenticates, that is for ErrUnexpectedMessage, which
				// leaves its (empty) inner plaintext in dst's array. Other
				// failures leave no plaintext there.
				wantSeq := startSeq
				if err == tls13.ErrUnexpectedMessage {
					wantSeq++
				} else if d := unchangedOrZero(c.before, c.buf); d != "" {
					t.Fatalf("%s: OpenRecord of %s fails (%v) but leaves bytes in dst's array: %s", label, what, err, d)
				}
				if p.Sequence() != wantSeq {
					t.Fatalf("%s: OpenRecord of %s fails (%v) and moves the sequence number from %d to %d, want %d", label, what, err, startSeq, p.Sequence(), wantSeq)
				}
				return
			}
			if err != nil || gotType != wantType {
				t.Fatalf("%s: OpenRecord of %s: type %d, error %v; want type %d", label, what, gotType, err, wantType)
			}
			c.checkOutput(t, label, "OpenRecord of "+what, openLayout, got, want, len(in)-refRecordHeader-refTagSize)
			if p.Sequence() != startSeq+1 {
				t.Fatalf("%s: OpenRecord of %s moves the sequence number from %d to %d, want +1", label, what, startSeq, p.Sequence())
			}
		}

		forEachImpl(t, aeadPkgs, func(label string) {
			w := newProtector(label)
			c := sealLayout.prepare(content, refRecordHeader+len(content)+1+max(pad, 0)+refTagSize, prefix, true)
			var got []byte
			var err error
			if msg := catch(func() { got, err = w.SealRecord(c.dst, typ, c.in, pad) }); msg != "" {
				t.Fatalf("%s: SealRecord panics: %s", label, msg)
			}
			c.checkInput(t, label, "SealRecord")
			if len(sealErrs) > 0 {
				if !errIn(err, sealErrs) || got != nil {
					t.Fatalf("%s: SealRecord(type %d, %d bytes, padding %d) at %d: error %v and %d bytes, want one of %v", label, typ, len(content), pad, seq, err, len(got), sealErrs)
				}
				if !bytes.Equal(c.buf, c.before) {
					t.Fatalf("%s: SealRecord refuses (%v) but writes to dst's array: %s", label, err, firstDiff(c.buf, c.before))
				}
				if w.Sequence() != seq {
					t.Fatalf("%s: SealRecord refuses (%v) but moves the sequence number to %d", label, err, w.Sequence())
				}
			} else {
				if err != nil {
					t.Fatalf("%s: SealRecord(type %d, %d bytes, padding %d) at %d: %v", label, typ, len(content), pad, seq, err)
				}
				c.checkOutput(t, label, "SealRecord", sealLayout, got, rec, len(rec))
				if w.Sequence() != seq+1 {
					t.Fatalf("%s: SealRecord moves the sequence number from %d to %d, want +1", label, seq, w.Sequence())
				}
				r := newProtector(label)
				open(label, "the sealed record", r, got[len(c.dst):], typ, content, nil)
				open(label, "the sealed record again (replay)", r, rec, 0, nil, replayErrs)
				open(label, "the record with one byte changed", newProtector(label), bad, 0, nil, badErrs)
			}
			open(label, "the arbitrary record", newProtector(label), arb, arbType, arbContent, arbErrs)
		})
	})
}

// ---- FuzzQUICPacket ----

// FuzzQUICPacket protects QUIC packets with tls13.PacketProtector, compares
// them byte for byte with the reference, takes them apart on a second
// protector keyed from the same secret, takes them apart again with one
// byte changed, and takes apart arbitrary packets; each under every
// implementation of the AEAD packages.
//
// The packet: the first byte is header[0] with the form bit (0x80) from mode
// bit 2 and the packet number length bits from mode bits 0-1, then the rest
// of header, then the low pnLen bytes of pn (mode bit 5 moves pn to
// 2^62-1-(pn mod 256), bit 6 to pn mod 2^16, otherwise it is pn mod 2^62),
// so pnOffset is max(len(header), 1); then payload (plus grow mod 2048
// derived bytes) encrypted, and the tag. With mode bit 4 both protectors
// are the Next() of the ones the secret gives (a key update).
//
//   - Seal gives the reference's ciphertext (in place with mode bit 3);
//     ProtectHeader the reference's protected packet, or ErrShortPacket and
//     no change when there is no room for the sample; HeaderMask the
//     x/crypto/chacha20 mask of the sample.
//   - UnprotectHeader gives back the header, pnLen and the truncated
//     packet number; DecodePacketNumber, given an expected number that puts
//     pn inside its window (chosen by gap), gives pn; Open gives the payload.
//   - With byte pos mod len of the protected packet changed (XOR delta, or
//     0x80 for 0), UnprotectHeader equals the reference, and Open of what
//     it gives fails with ErrPacketAuth and a nil result (or, when the
//     decoded number is past 2^62-1, panics as documented).
//   - An arbitrary packet, with pnOffset len(header) and pn as the expected
//     packet number, unprotects exactly as the reference does, opens exactly
//     when x/crypto opens it, and never panics; ProtectHeader on it equals
//     the reference too.
func FuzzQUICPacket(f *testing.F) {
	addQUICPacketSeeds(f)
	f.Fuzz(func(t *testing.T, secret, header, payload, packet []byte, pn uint64, mode uint8, grow uint16, gap uint32, pos uint32, delta uint8) {
		secret = fit(secret, tls13.SecretSize)
		pnLen := int(mode&3) + 1
		long := mode&4 != 0
		inPlace := mode&8 != 0
		update := mode&0x10 != 0
		switch {
		case mode&0x20 != 0:
			pn = tls13.MaxPacketNumber - pn%256
		case mode&0x40 != 0:
			pn %= 1 << 16
		default:
			pn &= tls13.MaxPacketNumber
		}
		payload = grown(payload, int(grow%2048))
		if delta == 0 {
			delta = 0x80
		}

		// The unprotected header.
		var first byte
		if len(header) > 0 {
			first = header[0]
		}
		first = first&^0x83 | byte(pnLen-1)
		if long {
			first |= 0x80
		}
		pnOffset := max(len(header), 1)
		hdr := []byte{first}
		if len(header) > 1 {
			hdr = append(hdr, header[1:]...)
		}
		var pnBytes [8]byte
		binary.BigEndian.PutUint64(pnBytes[:], pn)
		hdr = append(hdr, pnBytes[8-pnLen:]...)
		hl := len(hdr)

		// The packet number a receiver expects: pn is inside its window,
		// (expected - win/2, expected + win/2].
		win := uint64(1) << (8 * pnLen)
		e := int64(uint64(gap)%win) - int64(win/2) + 1
		expected := uint64(max(int64(pn)-e, 0))

		// The reference's view.
		ref := refPacketKeys(t, secret, update)
		unprotected := ref.aead.Seal(clone(hdr), ref.nonce(pn), payload, hdr)
		protected, _, _, short := ref.headerProtection(unprotected, pnOffset, false)
		var sampleMask [5]byte
		if !short {
			sampleMask = ref.mask(unprotected[pnOffset+4 : pnOffset+20])
		}
		bad := clone(protected)
		badAt := int(uint64(pos) % uint64(len(bad)))
		bad[badAt] ^= delta
		badU, badLen, badTrunc, _ := ref.headerProtection(bad, pnOffset, true)
		if short {
			badU, badLen, badTrunc = bad, pnLen, pn&(win-1)
		}

		arbOffset := len(header)
		arbU, arbLen, arbTrunc, arbShort := ref.headerProtection(packet, arbOffset, true)
		arbP, _, _, _ := ref.headerProtection(packet, arbOffset, false)
		var arbPN uint64
		var arbWant []byte
		arbOpens := false
		if !arbShort {
			arbPN = refDecodePN(pn, arbTrunc, arbLen)
			if arbPN <= tls13.MaxPacketNumber {
				var err error
				arbWant, err = ref.aead.Open(nil, ref.nonce(arbPN), arbU[arbOffset+arbLen:], arbU[:arbOffset+arbLen])
				arbOpens = err == nil
			}
		}

		badPN := refDecodePN(expected, badTrunc, badLen)

		// Packet number decoding (no implementations to loop over): pn is
		// in the window around expected, so it comes back (RFC 9000,
		// Section 17.1); and the other numbers decoded here are those of
		// the RFC's algorithm.
		for _, c := range []struct {
			expected, truncated uint64
			pnLen               int
			want                uint64
		}{
			{expected, pn & (win - 1), pnLen, pn},
			{expected, badTrunc, badLen, badPN},
			{pn, arbTrunc, arbLen, arbPN},
		} {
			if c.pnLen == 0 {
				continue // a short arbitrary packet: nothing decoded
			}
			var got uint64
			if msg := catch(func() { got = tls13.DecodePacketNumber(c.expected, c.truncated, c.pnLen) }); msg != "" || got != c.want {
				t.Fatalf("DecodePacketNumber(%#x, %#x, %d) = %#x (panic %q), want %#x", c.expected, c.truncated, c.pnLen, got, msg, c.want)
			}
		}

		// Packet numbers past 2^62-1 panic, as documented.
		if p, err := tls13.NewPacketProtector(secret); err != nil {
			t.Fatal(err)
		} else if catch(func() { p.Seal(nil, pn|1<<62, hdr, payload) }) == "" || catch(func() { p.Open(nil, pn|1<<62, hdr, unprotected[hl:]) }) == "" {
			t.Fatalf("Seal or Open of packet number %#x does not panic", pn|1<<62)
		}

		newProtector := func(label string) *tls13.PacketProtector {
			p, err := tls13.NewPacketProtector(secret)
			if err != nil {
				t.Fatalf("%s: NewPacketProtector: %v", label, err)
			}
			if update {
				if p, err = p.Next(); err != nil {
					t.Fatalf("%s: Next: %v", label, err)
				}
			}
			return p
		}
		// unprotect runs UnprotectHeader on a copy of in and checks it
		// against the reference; it returns the packet after the call.
		unprotect := func(label, what string, p *tls13.PacketProtector, in []byte, off int, want []byte, wantLen int, wantTrunc uint64, wantShort bool) []byte {
			t.Helper()
			pkt := clone(in)
			var gotLen int
			var gotTrunc uint64
			var err error
			if msg := catch(func() { gotLen, gotTrunc, err = p.UnprotectHeader(pkt, off) }); msg != "" {
				t.Fatalf("%s: UnprotectHeader of %s panics: %s", label, what, msg)
			}
			if wantShort {
				if err != tls13.ErrShortPacket || !bytes.Equal(pkt, in) {
					t.Fatalf("%s: UnprotectHeader of %s (%d bytes, pnOffset %d): error %v, changed %v; want ErrShortPacket and no change", label, what, len(in), off, err, !bytes.Equal(pkt, in))
				}
				return pkt
			}
			if err != nil || gotLen != wantLen || gotTrunc != wantTrunc || !bytes.Equal(pkt, want) {
				t.Fatalf("%s: UnprotectHeader of %s: pnLen %d, pn %#x, error %v (%s); reference pnLen %d, pn %#x", label, what, gotLen, gotTrunc, err, firstDiff(pkt, want), wantLen, wantTrunc)
			}
			return pkt
		}
		// open runs Open of packet number n with header pkt[:hl] on
		// pkt[hl:], in place or not, and returns its result.
		open := func(label, what string, p *tls13.PacketProtector, n uint64, pkt []byte, hl int) (got []byte, msg string, err error) {
			t.Helper()
			pkt = clone(pkt)
			in := clone(pkt[hl:])
			dst := []byte(nil)
			if inPlace {
				dst = pkt[hl:hl]
			}
			msg = catch(func() { got, err = p.Open(dst, n, pkt[:hl], pkt[hl:]) })
			if !inPlace && !bytes.Equal(pkt[hl:], in) {
				t.Fatalf("%s: Open of %s writes to its input", label, what)
			}
			return got, msg, err
		}

		forEachImpl(t, aeadPkgs, func(label string) {
			w, r := newProtector(label), newProtector(label)

			// Seal.
			var pkt []byte
			if inPlace {
				buf := make([]byte, len(unprotected)+spareDst)
				pattern(buf, byte(len(payload)))
				copy(buf, hdr)
				copy(buf[hl:], payload)
				before := clone(buf)
				var ct []byte
				if msg := catch(func() { ct = w.Seal(buf[hl:hl], pn, buf[:hl], buf[hl:hl+len(payload)]) }); msg != "" {
					t.Fatalf("%s: Seal panics: %s", label, msg)
				}
				if &ct[0] != &buf[hl] {
					t.Fatalf("%s: Seal in place allocated", label)
				}
				if !bytes.Equal(buf[len(unprotected):], before[len(unprotected):]) {
					t.Fatalf("%s: Seal in place wrote past its output", label)
				}
				pkt = buf[:hl+len(ct)]
			} else {
				if msg := catch(func() { pkt = w.Seal(clone(hdr), pn, hdr, payload) }); msg != "" {
					t.Fatalf("%s: Seal panics: %s", label, msg)
				}
			}
			if !bytes.Equal(pkt, unprotected) {
				t.Fatalf("%s: Seal(pn %#x, %d-byte header, %d-byte payload) differs from the reference: %s", label, pn, hl, len(payload), firstDiff(pkt, unprotected))
			}

			// Header protection.
			var err error
			if msg := catch(func() { err = w.ProtectHeader(pkt, pnOffset) }); msg != "" {
				t.Fatalf("%s: ProtectHeader of a %d-byte packet, pnOffset %d, panics: %s", label, len(pkt), pnOffset, msg)
			}
			if short {
				if err != tls13.ErrShortPacket || !bytes.Equal(pkt, unprotected) {
					t.Fatalf("%s: ProtectHeader of a %d-byte packet, pnOffset %d: error %v; want ErrShortPacket and no change", label, len(pkt), pnOffset, err)
				}
			} else {
				if err != nil || !bytes.Equal(pkt, protected) {
					t.Fatalf("%s: ProtectHeader: error %v, %s", label, err, firstDiff(pkt, protected))
				}
				if m := w.HeaderMask(unprotected[pnOffset+4 : pnOffset+20]); m != sampleMask {
					t.Fatalf("%s: HeaderMask = %x, x/crypto/chacha20 gives %x", label, m, sampleMask)
				}
			}

			// The receiver.
			u := unprotect(label, "the protected packet", r, pkt, pnOffset, unprotected, pnLen, pn&(win-1), short)
			n := pn
			if !short {
				n = tls13.DecodePacketNumber(expected, pn&(win-1), pnLen)
			}
			got, msg, err := open(label, "the packet", r, n, u, hl)
			if msg != "" || err != nil || !bytes.Equal(got, payload) {
				t.Fatalf("%s: Open(pn %#x): error %v, panic %q, %s", label, n, err, msg, firstDiff(got, payload))
			}

			// One byte changed.
			u = unprotect(label, "the packet with one byte changed", r, bad, pnOffset, badU, badLen, badTrunc, short)
			if short {
				u = bad
			}
			got, msg, err = open(label, "the packet with one byte changed", r, badPN, u, pnOffset+badLen)
			if badPN > tls13.MaxPacketNumber {
				if msg == "" {
					t.Fatalf("%s: Open of packet number %#x does not panic", label, badPN)
				}
			} else if msg != "" || err != tls13.ErrPacketAuth || got != nil {
				t.Fatalf("%s: Open of the packet with byte %d of %d changed: %d bytes, error %v, panic %q; want ErrPacketAuth", label, badAt, len(bad), len(got), err, msg)
			}

			// An arbitrary packet.
			p := clone(packet)
			if msg := catch(func() {
				err = r.ProtectHeader(p, arbOffset)
			}); msg != "" {
				t.Fatalf("%s: ProtectHeader of an arbitrary packet panics: %s", label, msg)
			}
			if arbShort != (err == tls13.ErrShortPacket) || (err != nil && err != tls13.ErrShortPacket) || !bytes.Equal(p, arbP) {
				t.Fatalf("%s: ProtectHeader of an arbitrary %d-byte packet, pnOffset %d: error %v, %s", label, len(packet), arbOffset, err, firstDiff(p, arbP))
			}
			u = unprotect(label, "an arbitrary packet", r, packet, arbOffset, arbU, arbLen, arbTrunc, arbShort)
			if arbShort {
				return
			}
			got, msg, err = open(label, "an arbitrary packet", r, arbPN, u, arbOffset+arbLen)
			switch {
			case arbPN > tls13.MaxPacketNumber:
				if msg == "" {
					t.Fatalf("%s: Open of packet number %#x does not panic", label, arbPN)
				}
			case msg != "":
				t.Fatalf("%s: Open of an arbitrary packet panics: %s", label, msg)
			case arbOpens:
				if err != nil || !bytes.Equal(got, arbWant) {
					t.Fatalf("%s: Open of an arbitrary packet that x/crypto opens: error %v, %s", label, err, firstDiff(got, arbWant))
				}
			default:
				if err != tls13.ErrPacketAuth || got != nil {
					t.Fatalf("%s: Open of an arbitrary packet that x/crypto refuses: %d bytes, error %v", label, len(got), err)
				}
			}
		})
	})
}

// ---- Seeds ----

// The published values the seeds and TestTLS13Reference use, transcribed
// from the RFCs.
var (
	// RFC 9001, Appendix A.5, "ChaCha20-Poly1305 Short Header Packet".
	rfc9001A5 = struct {
		secret, key, iv, hp, ku string
		pn                      uint64
		header, payload, packet string
	}{
		secret:  "9ac312a7f877468ebe69422748ad00a1 5443f18203a07d6060f688f30f21632b",
		key:     "c6d98ff3441c3fe1b2182094f69caa2e d4b716b65488960a7a984979fb23e1c8",
		iv:      "e0459b3474bdd0e44a41c144",
		hp:      "25a282b9e82f06f21f488917a4fc8f1b 73573685608597d0efcb076b0ab7a7a4",
		ku:      "1223504755036d556342ee9361d25342 1a826c9ecdf3c7148684b36b714881f9",
		pn:      654360564,
		header:  "4200bff4",
		payload: "01",
		packet:  "4cfe4189655e5cd55c41f69080575d7999c25a5bfb",
	}

	// RFC 8448, Section 3 ("Simple 1-RTT Handshake"), "{server} derive
	// write traffic keys for handshake data": the server handshake traffic
	// secret (a SHA-256 secret, as TLS_CHACHA20_POLY1305_SHA256 uses) and
	// the 16-byte key and the IV the RFC's suite, TLS_AES_128_GCM_SHA256,
	// derives from it.
	rfc8448ServerHS = struct{ secret, key16, iv string }{
		secret: "b67b7d690cc16c4e75e54213cb2d37b4 e9c912bcded9105d42befd59d391ad38",
		key16:  "3fce516009c21727d0f2e4e86ee403bc",
		iv:     "5d313eb2671276ee13000b30",
	}
)

func mustHex(s string) []byte {
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		panic(err)
	}
	return b
}

// TestTLS13Reference checks the reference of FuzzRecord and FuzzQUICPacket
// against the published values: HKDF-Expand-Label against RFC 8448 and
// RFC 9001, and the whole packet protection, header protection included,
// against the packet of RFC 9001, Appendix A.5.
func TestTLS13Reference(t *testing.T) {
	s := mustHex(rfc8448ServerHS.secret)
	if got := refExpandLabel(t, s, "key", 16); !bytes.Equal(got, mustHex(rfc8448ServerHS.key16)) {
		t.Errorf("RFC 8448 key = %x", got)
	}
	if got := refRecordKeys(t, s).iv; !bytes.Equal(got, mustHex(rfc8448ServerHS.iv)) {
		t.Errorf("RFC 8448 iv = %x", got)
	}

	v := rfc9001A5
	s = mustHex(v.secret)
	k := refPacketKeys(t, s, false)
	for _, c := range []struct{ label, want string }{{"quic key", v.key}, {"quic iv", v.iv}, {"quic hp", v.hp}, {"quic ku", v.ku}} {
		if got := refExpandLabel(t, s, c.label, len(mustHex(c.want))); !bytes.Equal(got, mustHex(c.want)) {
			t.Errorf("RFC 9001 %s = %x", c.label, got)
		}
	}
	if !bytes.Equal(k.iv, mustHex(v.iv)) || !bytes.Equal(k.hp, mustHex(v.hp)) {
		t.Errorf("RFC 9001 iv %x, hp %x", k.iv, k.hp)
	}
	header := mustHex(v.header)
	u := k.aead.Seal(clone(header), k.nonce(v.pn), mustHex(v.payload), header)
	p, pnLen, _, short := k.headerProtection(u, 1, false)
	if short || pnLen != 3 || !bytes.Equal(p, mustHex(v.packet)) {
		t.Fatalf("RFC 9001 packet = %x (pnLen %d)", p, pnLen)
	}
	back, pnLen, truncated, _ := k.headerProtection(p, 1, true)
	if !bytes.Equal(back, u) || pnLen != 3 || truncated != 0xbff4 || refDecodePN(v.pn, truncated, pnLen) != v.pn {
		t.Fatalf("RFC 9001 packet unprotected: %x, pnLen %d, pn %#x", back, pnLen, truncated)
	}
	// The key update keeps hp and derives the rest from ku.
	next := refPacketKeys(t, s, true)
	kuKeys := refPacketKeys(t, mustHex(v.ku), false)
	if !bytes.Equal(next.hp, k.hp) || !bytes.Equal(next.iv, kuKeys.iv) {
		t.Fatal("reference key update")
	}

	// The record reference: one record through and back, and the errors.
	k = refRecordKeys(t, mustHex(rfc8448ServerHS.secret))
	rec := k.sealRecord(7, [2]byte{3, 3}, innerPlaintext([]byte("hello"), refAppData, 3))
	if typ, content, errs := k.openRecord(7, rec); errs != nil || typ != refAppData || string(content) != "hello" {
		t.Fatalf("reference record: type %d, %q, %v", typ, content, errs)
	}
	for _, c := range []struct {
		name string
		rec  []byte
		want error
	}{
		{"wrong sequence number", k.sealRecord(8, [2]byte{3, 3}, []byte{1, 23}), tls13.ErrBadRecordMAC},
		{"empty handshake", k.sealRecord(7, [2]byte{3, 3}, []byte{22, 0}), tls13.ErrUnexpectedMessage},
		{"all zeros", k.sealRecord(7, [2]byte{3, 3}, []byte{0, 0}), tls13.ErrUnexpectedMessage},
		{"too long", k.sealRecord(7, [2]byte{3, 3}, make([]byte, refMaxInner+1)), tls13.ErrRecordOverflow},
		{"short", []byte{23, 3, 3, 0}, tls13.ErrRecordHeader},
	} {
		if _, _, errs := k.openRecord(7, c.rec); !slices.Equal(errs, []error{c.want}) {
			t.Errorf("reference record %s: %v, want %v", c.name, errs, c.want)
		}
	}
}

// tls13Corpus returns the generated seed files of FuzzRecord and
// FuzzQUICPacket (see generatedCorpus).
func tls13Corpus(t *testing.T) []corpusFile {
	var files []corpusFile
	add := func(target, name string, args ...any) {
		files = append(files, corpusFile{target, "seed-" + name, args})
	}

	// Secrets, contents and payloads from the AEAD vectors: each vector's
	// key as the traffic secret, its plaintext as the record content or
	// packet payload, its nonce as the rest of the QUIC header (a
	// connection ID of 12 or 24 bytes), and its ciphertext and tag as the
	// arbitrary record or packet.
	type aeadCase struct {
		name                          string
		key, nonce, plaintext, sealed []byte
	}
	var cases []aeadCase
	for _, v := range slices.Concat(vectors.RFC8439AEADs, vectors.XChaChaAEADs) {
		cases = append(cases, aeadCase{slug(v.Source), v.Key, v.Nonce, v.Plaintext, slices.Concat(v.Ciphertext, v.Tag)})
	}
	prefixes, wycheproof := wycheproofAEADs(t)
	for f, wc := range wycheproof {
		for _, c := range keep(wc, 24) {
			if c.Valid {
				cases = append(cases, aeadCase{fmt.Sprintf("%s-tc%03d", prefixes[f], c.TcID), c.Key, c.Nonce, c.Msg, slices.Concat(c.CT, c.Tag)})
			}
		}
	}
	types := []uint8{refAppData, refHandshake, refAlert, 24}
	for n, c := range cases {
		// FuzzRecord(secret, content, record, typ, padding, grow, seq,
		// mode, pos, delta): the ciphertext as the arbitrary record, in
		// each of its four forms in turn.
		mode := byte(n*0x29)&^0xf0 | byte(n%4)<<4
		add("FuzzRecord", c.name, c.key, c.plaintext, c.sealed, types[n%4], uint16(n*5%64), uint16(0), uint64(n%3), mode, uint32(n*7919), uint8(1)<<(n%8))
		// FuzzQUICPacket(secret, header, payload, packet, pn, mode, grow,
		// gap, pos, delta).
		add("FuzzQUICPacket", c.name, c.key, c.nonce, c.plaintext, c.sealed, uint64(n)*0x10001, byte(n*0x0b)&0x1f, uint16(0), uint32(n*104729), uint32(n*7919), uint8(1)<<(n%8))
	}

	// The traffic secrets of RFC 8448 and RFC 9001 with the records TLS
	// sends most: an alert (close_notify), a KeyUpdate handshake message,
	// application data, each at sequence numbers 0 and 2^64-2 (the last
	// one usable).
	secrets := []struct{ name, hex string }{
		{"rfc-8448-server-handshake-secret", rfc8448ServerHS.secret},
		{"rfc-9001-appendix-a.5-secret", rfc9001A5.secret},
	}
	records := []struct {
		name    string
		typ     uint8
		content []byte
	}{
		{"alert-close-notify", refAlert, []byte{1, 0}},
		{"handshake-key-update", refHandshake, []byte{24, 0, 0, 1, 0}},
		{"application-data", refAppData, []byte("GET / HTTP/1.1\r\n\r\n")},
	}
	for i, s := range secrets {
		for j, r := range records {
			add("FuzzRecord", s.name+"-"+r.name, mustHex(s.hex), r.content, []byte(nil), r.typ, uint16(j), uint16(0), uint64(0), uint8(i*5+j), uint32(j*3), uint8(1))
			add("FuzzRecord", s.name+"-"+r.name+"-last-sequence-number", mustHex(s.hex), r.content, []byte(nil), r.typ, uint16(0), uint16(0), uint64(1), uint8(0x40|j), uint32(j*5), uint8(0x40))
		}
	}

	// RFC 9001, Appendix A.5: the packet of the RFC is both the round
	// trip's output and the arbitrary packet (which opens: pn is the
	// number the receiver expects). Then the same tampered at each byte,
	// with the key update, in place, and as a long header.
	v := rfc9001A5
	s, h, pl, pkt := mustHex(v.secret), mustHex(v.header)[:1], mustHex(v.payload), mustHex(v.packet)
	add("FuzzQUICPacket", "rfc-9001-appendix-a.5", s, h, pl, pkt, v.pn, uint8(2), uint16(0), uint32(1), uint32(0), uint8(1))
	for i := 1; i < len(pkt); i += 4 {
		add("FuzzQUICPacket", fmt.Sprintf("rfc-9001-appendix-a.5-byte%d", i), s, h, pl, pkt, v.pn, uint8(2), uint16(0), uint32(i*977), uint32(i), uint8(1)<<(i%8))
	}
	add("FuzzQUICPacket", "rfc-9001-appendix-a.5-key-update", s, h, pl, pkt, v.pn, uint8(0x12), uint16(0), uint32(7), uint32(3), uint8(0x10))
	add("FuzzQUICPacket", "rfc-9001-appendix-a.5-in-place", s, h, pl, pkt, v.pn, uint8(0x0a), uint16(0), uint32(0xffff), uint32(20), uint8(0xff))
	add("FuzzQUICPacket", "rfc-9001-appendix-a.5-long-header", s, h, pl, pkt, v.pn, uint8(0x06), uint16(40), uint32(0x123456), uint32(2), uint8(4))
	return files
}

// addRecordSeeds adds hand-made edge cases of FuzzRecord: content lengths
// around the Poly1305 and ChaCha20 block and batch sizes, the 2^14 limits
// of content, inner plaintext and ciphertext, the refused content types and
// paddings, the last sequence numbers, and arbitrary records that reach
// each error.
func addRecordSeeds(f *testing.F) {
	secret := seedKey(7)
	for i, n := range edgeLengths {
		content := bytes.Repeat([]byte{byte(i + 1)}, min(n, 64))
		grow := uint16(max(n-64, 0))
		f.Add(secret, content, []byte(nil), []uint8{refAppData, refHandshake, refAlert, 0xff}[i%4], uint16(i*7%48), grow, uint64(i), uint8(i*0x1d), uint32(i*131), uint8(i))
	}
	type seed struct {
		content, record []byte
		typ             uint8
		padding, grow   uint16
		seq             uint64
		mode            uint8
	}
	x := []byte("x")
	for _, s := range []seed{
		{nil, nil, refAppData, 0, 0xf800, 0, 0},           // 2^14 bytes of content: the largest
		{nil, nil, refAppData, 0, 0xf801, 0, 1},           // 2^14+1: too large
		{x, nil, refAppData, 0xff00, 0, 0, 2},             // padding up to 2^14+1 bytes of inner plaintext
		{x, nil, refAppData, 0xff01, 0, 0, 3},             // one more
		{x, nil, refAppData, 0xff80, 0, 0, 5},             // padding 2^14-1-128
		{nil, nil, refAppData, 0xffff, 0xf900, 0, 6},      // content over 2^14 and negative padding
		{x, nil, 0, 0, 0, 0, 0},                           // content type 0
		{nil, nil, refHandshake, 3, 0, 0, 0},              // empty handshake
		{nil, nil, refAlert, 0, 0, 0, 0},                  // empty alert
		{nil, nil, refAppData, 0, 0, 0, 0},                // empty application data: fine
		{x, nil, refAppData, 0, 0, 0, 0x40},               // sequence number 2^64-1
		{x, nil, refAppData, 0, 0, 1, 0x40},               // 2^64-2: the last record
		{x, make([]byte, 40), 1, 0, 0, 0, 0x20},           // genuine record, all zeros
		{x, []byte{refHandshake}, 1, 0, 0, 0, 0x20},       // genuine empty handshake
		{x, []byte{refAlert, 0, 0}, 1, 0, 0, 0, 0x20},     // genuine empty alert
		{x, []byte{0, 0, 5, 0, 0}, 1, 0, 0, 0, 0x20},      // genuine, content 0 0 of type 5
		{x, nil, 1, 0, 0, 0, 0x20},                        // genuine, no inner plaintext at all
		{x, []byte{1, refAppData}, 1, 0, 0xf800, 0, 0x30}, // inner plaintext 2^14+2: too large
		{x, []byte{1, refAppData}, 1, 0, 0xf8ef, 0, 0x30}, // ciphertext 2^14+256: inner too large
		{x, []byte{1, refAppData}, 1, 0, 0xf8f0, 0, 0x30}, // ciphertext 2^14+257
		{x, []byte{1, refAppData}, 1, 0, 0, 0, 0x70},      // genuine at sequence number 2^64-1
		{x, []byte{refAppData, 3, 3}, 1, 0, 0, 0, 0},      // shorter than a header
		{x, []byte{refAppData, 3, 3, 0, 0}, 1, 0, 0, 0, 0},
		{x, []byte{refAppData, 3, 3, 0, 15, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, 1, 0, 0, 0, 0},
		{x, []byte{refHandshake, 3, 3, 0, 1, 0}, 1, 0, 0, 0, 0},
		{x, make([]byte, 16), 1, 0, 0, 0, 0x10}, // a header before 16 bytes: a bad tag
	} {
		for layout := range uint8(4) {
			f.Add(secret, s.content, s.record, s.typ, s.padding, s.grow, s.seq, s.mode|layout*5, uint32(layout)*0x40000001, uint8(0))
		}
	}
}

// addQUICPacketSeeds adds hand-made edge cases of FuzzQUICPacket: every
// packet number length in short and long headers, payloads just long
// enough (and one byte too short) for the header protection sample,
// payloads around the block sizes, packet numbers at the window edges and
// near 2^62-1, and arbitrary packets around the sample limit.
func addQUICPacketSeeds(f *testing.F) {
	secret := seedKey(9)
	dcid := seedKey(10)[:8]
	for mode := range uint8(8) {
		pnLen := int(mode&3) + 1
		header := append([]byte{0x40 + mode}, dcid...)
		for _, n := range []int{4 - pnLen - 1, 4 - pnLen, 16, 64, 1200} {
			if n < 0 {
				continue
			}
			payload := bytes.Repeat([]byte{byte(n)}, min(n, 16))
			f.Add(secret, header, payload, []byte(nil), uint64(n)<<8|uint64(mode), mode, uint16(n-len(payload)), uint32(n), uint32(n*3), uint8(0))
		}
	}
	for i, n := range edgeLengths {
		f.Add(secret, dcid[:i%9], []byte{byte(i)}, []byte(nil), uint64(i)*0x9e3779b97f4a7c15, uint8(i*0x1b), uint16(n), uint32(i)*0x01010101, uint32(i*37), uint8(i))
	}
	for _, pn := range []uint64{0, 1, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffffff, 1 << 32} {
		for mode := range uint8(4) {
			f.Add(secret, dcid, []byte("ping"), []byte(nil), pn, mode|0x40, uint16(0), uint32(0), uint32(pn), uint8(1))
			f.Add(secret, dcid, []byte("ping"), []byte(nil), pn, mode|0x20, uint16(0), ^uint32(0), uint32(pn), uint8(1))
		}
	}
	// Arbitrary packets around the sample limit, with pnOffset 0 (no
	// header), 1 and 9.
	for _, hl := range []int{0, 1, 9} {
		for _, n := range []int{0, 19, 20, 21, 29, 30, 64} {
			pkt := make([]byte, n)
			pattern(pkt, byte(n))
			f.Add(secret, seedKey(10)[:hl], []byte(nil), pkt, uint64(n), uint8(0), uint16(0), uint32(0), uint32(0), uint8(0))
		}
	}
}
