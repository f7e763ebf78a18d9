package tls13_test

import (
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/chachakit/chachakit/aead/tls13"
)

// A QUIC implementation on crypto/tls's QUIC API keys packet protection from
// the QUICSetWriteSecret and QUICSetReadSecret events. Here the events are
// written out by hand, with the secret of RFC 9001, Appendix A.5, so the
// output is that appendix's packet.
func ExampleNewPacketProtectorFromEvent() {
	secret, _ := hex.DecodeString("9ac312a7f877468ebe69422748ad00a15443f18203a07d6060f688f30f21632b")

	// In the QUIC stack's event loop (ev := conn.NextEvent()):
	ev := tls.QUICEvent{
		Kind:  tls.QUICSetWriteSecret,
		Level: tls.QUICEncryptionLevelApplication,
		Suite: tls.TLS_CHACHA20_POLY1305_SHA256,
		Data:  secret,
	}
	w, err := tls13.NewPacketProtectorFromEvent(ev)
	if se := (*tls13.SuiteError)(nil); errors.As(err, &se) {
		// Another suite was negotiated: use the stack's AES-GCM code.
		return
	} else if err != nil {
		panic(err)
	}
	defer w.Wipe()

	// Sending a 1-RTT packet: short header (empty connection ID here) with
	// a 3-byte packet number, and a PING frame as payload. Seal the payload,
	// then protect the header.
	const pnOffset = 1
	pn := uint64(654360564)
	pkt := make([]byte, 0, 1500)
	pkt = append(pkt, 0x40|(3-1), byte(pn>>16), byte(pn>>8), byte(pn))
	pkt = w.Seal(pkt, pn, pkt, []byte{0x01})
	if err := w.ProtectHeader(pkt, pnOffset); err != nil {
		panic(err) // the packet is too short to sample: add PADDING frames
	}
	fmt.Printf("packet  %x\n", pkt)

	// The receiver keys from its QUICSetReadSecret event, removes header
	// protection, rebuilds the packet number and opens the payload in place.
	ev.Kind = tls.QUICSetReadSecret
	r, err := tls13.NewPacketProtectorFromEvent(ev)
	if err != nil {
		panic(err)
	}
	defer r.Wipe()
	pnLen, truncated, err := r.UnprotectHeader(pkt, pnOffset)
	if err != nil {
		panic(err)
	}
	largestReceived := uint64(654360563)
	pn = tls13.DecodePacketNumber(largestReceived+1, truncated, pnLen)
	hdr, ciphertext := pkt[:pnOffset+pnLen], pkt[pnOffset+pnLen:]
	payload, err := r.Open(ciphertext[:0], pn, hdr, ciphertext)
	if err != nil {
		return // QUIC drops packets that do not authenticate
	}
	fmt.Printf("pn %d, key phase %d, payload %x\n", pn, hdr[0]>>2&1, payload)

	// A key update (RFC 9001, Section 6) derives the next keys; the header
	// protection key stays.
	next, err := w.Next()
	if err != nil {
		panic(err)
	}
	defer next.Wipe()

	// A suite this package does not implement is refused by name.
	ev.Suite = tls.TLS_AES_128_GCM_SHA256
	_, err = tls13.NewPacketProtectorFromEvent(ev)
	fmt.Println(err)

	// Output:
	// packet  4cfe4189655e5cd55c41f69080575d7999c25a5bfb
	// pn 654360564, key phase 0, payload 01
	// tls13: cipher suite TLS_AES_128_GCM_SHA256 is not supported, only TLS_CHACHA20_POLY1305_SHA256
}

// A tool with a TLS 1.3 key log (tls.Config.KeyLogWriter) can decrypt and
// re-encrypt the records of a connection that negotiated
// TLS_CHACHA20_POLY1305_SHA256: one RecordProtector per direction and
// secret, sequence numbers counted from the first record under that secret.
func ExampleRecordProtector() {
	// From a key log line "CLIENT_TRAFFIC_SECRET_0 <client random> <secret>".
	secret, _ := hex.DecodeString("9ac312a7f877468ebe69422748ad00a15443f18203a07d6060f688f30f21632b")

	sender, err := tls13.NewRecordProtector(secret)
	if err != nil {
		panic(err)
	}
	defer sender.Wipe()
	record, err := sender.SealRecord(nil, tls13.RecordTypeApplicationData, []byte("GET / HTTP/1.1\r\n"), 3)
	if err != nil {
		panic(err)
	}
	fmt.Printf("header %x, %d bytes\n", record[:tls13.RecordHeaderLen], len(record))

	receiver, err := tls13.NewRecordProtector(secret)
	if err != nil {
		panic(err)
	}
	defer receiver.Wipe()
	typ, plaintext, err := receiver.OpenRecord(nil, record)
	if err != nil {
		panic(err) // a TLS endpoint would send a bad_record_mac alert
	}
	fmt.Printf("type %d: %q, next sequence number %d\n", typ, plaintext, receiver.Sequence())

	// Output:
	// header 1703030024, 41 bytes
	// type 23: "GET / HTTP/1.1\r\n", next sequence number 1
}
